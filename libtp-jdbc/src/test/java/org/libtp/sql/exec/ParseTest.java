package org.libtp.sql.exec;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.sql.SQLException;
import org.junit.jupiter.api.Test;

/** Session.parse: what JSqlParser refuses under redundant parentheses is retried without them. */
class ParseTest {
    /** Found by DifferentialTest (seed 3847883040793602467): JSqlParser returns no statement. */
    static final String DEEP = "SELECT * FROM t WHERE (((id < 7 OR NOT f) AND c LIKE ?) AND ((d != 9 AND f <> FALSE)"
            + " OR ((((((((((a) + (id)) * (-3))) + (2)) * (-3)) IS NULL)) IN (TRUE, FALSE, TRUE))"
            + " OR (a IN (-2147483648, -14, -3))))) ORDER BY g DESC NULLS FIRST, c DESC, id DESC";

    @Test
    void aStatementUnderRedundantParenthesesParses() throws SQLException {
        String parsed = Session.parse(DEEP).toString().replaceAll("\\s+", " ");
        // the meaning is kept: the arithmetic, IS NULL, the IN list and the operators' grouping
        assertEquals("SELECT * FROM t WHERE (((id < 7 OR NOT f) AND c LIKE ?) AND ((d != 9 AND f <> false)"
                + " OR (((((((a + id) * -3) + 2) * -3) IS NULL) IN (true, false, true))"
                + " OR (a IN (-2147483648, -14, -3))))) ORDER BY g DESC NULLS FIRST, c DESC, id DESC",
                parsed.replace("( ", "(").replace(" )", ")"));
    }

    @Test
    void onlyParenthesesThatChangeNothingAreRemoved() {
        assertEquals("x -  -3  + 1", squeeze(Session.withoutRedundantParentheses("x - (-3) + 1")), "no '--' comment made");
        assertEquals("( a  + b) * c", squeeze(Session.withoutRedundantParentheses("((a) + b) * c")));
        assertEquals("a =  (b + c)", squeeze(Session.withoutRedundantParentheses("a = ((b + c))")));
        // a call's, IN's and VALUES' parentheses, rows of VALUES, and literals and comments stay
        for (String kept : new String[] {"f((a, b))", "a IN (1)", "VALUES (1), (2)", "'((x))' || y",
                "a = 1 -- ((b))", "a = 1 /* ((b)) */", "\"((c))\" = 1", "a = (1.5e-3)", "(a + b) * c"}) {
            assertEquals(kept, Session.withoutRedundantParentheses(kept), kept);
        }
        assertEquals("a ||  'x'", squeeze(Session.withoutRedundantParentheses("a || ('x')")));
        assertEquals("a = ?", Session.withoutRedundantParentheses("a = (?)").replaceAll("\\s+", " ").trim());
    }

    @Test
    void whatStillDoesNotParseIsATypedError() {
        SQLException e = assertThrows(SQLException.class, () -> Session.parse("SELECT FROM WHERE ((a)"));
        assertEquals("42000", e.getSQLState());
    }

    private static String squeeze(String s) {
        return s.replaceAll(" {3,}", "  ").trim();
    }
}
