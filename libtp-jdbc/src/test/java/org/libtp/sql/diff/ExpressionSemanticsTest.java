package org.libtp.sql.diff;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.math.BigDecimal;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Regressions for the differences {@link DifferentialTest} found in LibTP's expression semantics
 * (Values, Compiler, Aggregates), each checked against what H2 2.5 and the standard answer.
 */
class ExpressionSemanticsTest {
    @TempDir
    Path dir;
    Connection c;

    @BeforeEach
    void open() throws SQLException {
        c = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db") + ";create=true;durability=no_sync");
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, b BIGINT, d DOUBLE, c VARCHAR(20), f BOOLEAN)");
            s.executeUpdate("INSERT INTO t VALUES (1, 9223372036854775807, 9007199254740992, ' \tx ', TRUE),"
                    + " (2, 1, 0.1, 'a\uD83D\uDE00b', FALSE), (3, 9007199254740993, 0, 'xcc\uD83D\uDE00y', NULL)");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    List<Object> column(String sql) throws SQLException {
        List<Object> out = new ArrayList<>();
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            while (r.next()) {
                out.add(r.getObject(1));
            }
        }
        return out;
    }

    Object one(String sql) throws SQLException {
        List<Object> v = column(sql);
        assertEquals(1, v.size(), sql);
        return v.get(0);
    }

    String state(String sql) {
        return assertThrows(SQLException.class, () -> column(sql), sql).getSQLState();
    }

    @Test
    void booleansBecomeStringsAsTrueAndFalse() throws SQLException {
        assertEquals("xTRUE", one("SELECT 'x' || f FROM t WHERE id = 1"));
        assertEquals("FALSE", one("SELECT CAST(f AS VARCHAR(5)) FROM t WHERE id = 2"));
    }

    @Test
    void trimRemovesSpacesOnlyAndTakesItsStandardForms() throws SQLException {
        assertEquals("\tx", one("SELECT TRIM(c) FROM t WHERE id = 1"), "a tab is not a space");
        assertEquals("a", one("SELECT TRIM(BOTH 'x' FROM 'xxaxx') FROM t WHERE id = 1"));
        assertEquals("axx", one("SELECT TRIM(LEADING 'x' FROM 'xxaxx') FROM t WHERE id = 1"));
        assertEquals("  a", one("SELECT TRIM(TRAILING FROM '  a  ') FROM t WHERE id = 1"));
        assertEquals(java.util.Arrays.asList((Object) null), column("SELECT TRIM(CAST(NULL AS VARCHAR(3))) FROM t WHERE id = 1"));
    }

    @Test
    void likeMatchesCharactersOutsideTheBmpAsTwoChars() throws SQLException {
        // was: a pattern holding an emoji never matched (each half of the surrogate pair quoted
        // alone in a regular expression), and _ matched the whole emoji
        assertEquals(List.of(3), column("SELECT id FROM t WHERE c LIKE '%cc\uD83D\uDE00%%'"));
        assertEquals(List.of(2), column("SELECT id FROM t WHERE c LIKE 'a\uD83D\uDE00b'"));
        assertEquals(List.of(), column("SELECT id FROM t WHERE c LIKE 'a_b'"));
        assertEquals(List.of(2), column("SELECT id FROM t WHERE c LIKE 'a__b'"));
        assertEquals(List.of(2, 3), column("SELECT id FROM t WHERE c LIKE '%_\uDE00_%' ORDER BY id"));
        assertEquals(List.of(1), column("SELECT id FROM t WHERE 'a%b' LIKE 'a!%_' ESCAPE '!' AND id = 1"));
        assertEquals("22025", state("SELECT id FROM t WHERE c LIKE 'a!' ESCAPE '!'"));
    }

    @Test
    void sumOfBigintsGoesBeyondBigint() throws SQLException {
        // was: 22003 numeric overflow (H2 and PostgreSQL make SUM(BIGINT) a NUMERIC)
        assertEquals(new BigDecimal("9223372036854775808"), one("SELECT SUM(b) FROM t WHERE id <= 2"));
        assertEquals(new BigDecimal("9232379236109516801"), one("SELECT SUM(b) FROM t"));
        assertEquals(new BigDecimal("3077459745369838933.6666666667"), one("SELECT AVG(b) FROM t"));
        try (Statement s = c.createStatement()) {
            s.executeUpdate("INSERT INTO t (id, b) VALUES (4, -9223372036854775807)");
        }
        assertEquals(9007199254740994L, one("SELECT SUM(b) FROM t"), "back in range: a BIGINT again");
        assertEquals(List.of(9223372036854775808.0), column("SELECT SUM(CAST(b AS DOUBLE)) FROM t WHERE id <= 2"));
    }

    @Test
    void doubleDivisionByZeroIsAnError() {
        // was: Infinity and NaN
        assertEquals("22012", state("SELECT 1 / d FROM t WHERE id = 3"));
        assertEquals("22012", state("SELECT d / 0 FROM t WHERE id = 2"));
        assertEquals("22012", state("SELECT MOD(d, 0) FROM t WHERE id = 2"));
    }

    @Test
    void bigintDivisionOverflowIsAnError() throws SQLException {
        // was: -2^63 / -1 = -2^63 (Java's long division wraps)
        assertEquals("22003", state("SELECT CAST(-9223372036854775808 AS BIGINT) / -1 FROM t WHERE id = 1"));
        assertEquals(9223372036854775807L, one("SELECT CAST(-9223372036854775807 AS BIGINT) / -1 FROM t WHERE id = 1"));
        assertEquals(0L, one("SELECT MOD(CAST(-9223372036854775808 AS BIGINT), -1) FROM t WHERE id = 1"));
    }

    @Test
    void doublesCompareWithExactNumbersByValue() throws SQLException {
        // DOUBLE 2^53 and BIGINT 2^53 + 1 were equal (the BIGINT rounded to a double)
        assertEquals(List.of(), column("SELECT t1.id FROM t t1, t t2 WHERE t1.id = 1 AND t2.id = 3 AND t1.d = t2.b"));
        assertEquals(List.of(1), column("SELECT t1.id FROM t t1, t t2 WHERE t1.id = 1 AND t2.id = 3 AND t1.d < t2.b"));
        assertEquals(List.of(1), column("SELECT id FROM t WHERE d < 9007199254740993 AND d > 1"));
        // and a DOUBLE is the decimal its shortest representation spells, as in H2
        assertEquals(List.of(2), column("SELECT id FROM t WHERE d = 0.1"));
        assertEquals(List.of(2), column("SELECT id FROM t WHERE d IN (0.1, 0.2)"));
        assertEquals(List.of(2, 3), column("SELECT id FROM t WHERE d <= 0.1 ORDER BY id"));
    }
}
