package org.libtp.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Query shapes the differential test found wrong (HAVING-only aggregates, aliases named like keys, grouping rules). */
class QueryShapesTest extends SqlTestBase {

    @BeforeEach
    void tables() throws SQLException {
        run("CREATE TABLE t (id INT PRIMARY KEY, a INT, c VARCHAR(5), f BOOLEAN)");
        run("INSERT INTO t VALUES (1, 30, 'x', TRUE), (2, 10, 'x', FALSE), (3, 20, 'y', NULL), (4, 5, 'x', TRUE)");
    }

    @Test
    void anAggregateOnlyInHaving() throws SQLException {
        assertEquals(List.of("x"), rows("SELECT c FROM t GROUP BY c HAVING COUNT(*) > 2"));
    }

    @Test
    void anAliasNamedLikeTheKeyIsSortedByItsValue() throws SQLException {
        assertEquals(List.of("5", "10", "20", "30"), rows("SELECT a AS id FROM t ORDER BY id"));
        assertEquals(List.of("30", "20"), rows("SELECT a AS id FROM t ORDER BY id DESC LIMIT 2"));
        assertEquals(List.of("1", "2", "3", "4"), rows("SELECT id FROM t ORDER BY id"));
    }

    @Test
    void ungroupedColumnsAreRefused() throws SQLException {
        assertTrue(state("SELECT c, a FROM t GROUP BY c").startsWith("42"));
        assertTrue(state("SELECT a, COUNT(*) FROM t").startsWith("42"));
        assertTrue(state("SELECT DISTINCT c FROM t ORDER BY id").startsWith("42"));
        assertEquals(List.of("x|45", "y|20"), rows("SELECT c, SUM(a) FROM t GROUP BY c ORDER BY c"));
        assertEquals(List.of("X|3"), rows("SELECT UPPER(c), COUNT(*) FROM t GROUP BY c HAVING COUNT(*) > 1"));
    }

    @Test
    void booleansReadAsSqlWritesThem() throws SQLException {
        assertEquals(List.of("TRUE", "FALSE", "null", "TRUE"), rows("SELECT f FROM t ORDER BY id"));
    }

    @Test
    void anInListBeforeAndIsExplainedNotMisread() throws SQLException {
        SQLException e = assertThrows(SQLException.class, () -> rows("SELECT id FROM t WHERE a IN (10, 20) AND c = 'x'"));
        assertTrue(e.getMessage().contains("parentheses"), e.getMessage());
        assertEquals(List.of("2"), rows("SELECT id FROM t WHERE (a IN (10, 20)) AND c = 'x'"));
    }

    @Test
    void misuseFoundTryingItAsAStranger() throws SQLException {
        assertTrue(state("").startsWith("42"), "an empty statement");
        assertEquals("0A000", state("SELECT 1; SELECT 2"), "two statements are not silently cut to one");
        assertEquals("22018", state("SELECT * FROM t WHERE id = 'x'"), "not a number");
        run("CREATE TABLE k (v VARCHAR(10000) PRIMARY KEY, w VARCHAR(10000))");
        assertEquals("22001", assertThrows(SQLException.class, () -> run("INSERT INTO k VALUES ('" + "x".repeat(5000)
                + "', 'a')")).getSQLState(), "a key longer than a B-tree takes");
        run("CREATE INDEX k_w ON k (w)");
        assertEquals("22001", assertThrows(SQLException.class, () -> run("INSERT INTO k VALUES ('a', '" + "y".repeat(5000)
                + "')")).getSQLState(), "an index entry too long");
        assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM k"));
    }
}
