package org.libtp.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * An UPDATE of one row by its primary key (in a table without secondary indexes) is read,
 * changed and written in one B-tree descent, and a one-row INSERT tests and writes its key in
 * one: each must still behave as the general path — a failed check changes nothing and leaves
 * the transaction going, a WHERE beyond the key is applied.
 */
class PointWriteTest extends SqlTestBase {
    @Test
    void updateByKeyAppliesTheRestOfWhereAndItsChecks() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT NOT NULL, s VARCHAR(3))");
        run("INSERT INTO t VALUES (1, 10, 'a'), (2, 20, 'b')");
        c.setAutoCommit(false);
        assertEquals(0, update("UPDATE t SET v = v + 1 WHERE id = 1 AND v > 100"), "the rest of WHERE is false");
        assertEquals(0, update("UPDATE t SET v = v + 1 WHERE id = 3"), "no such row");
        assertEquals(1, update("UPDATE t SET v = v + 1 WHERE id = 1 AND v = 10"));
        assertEquals("23502", state("UPDATE t SET v = NULL WHERE id = 2"));
        assertEquals("22001", state("UPDATE t SET s = 'toolong' WHERE id = 2"));
        assertEquals("22012", state("UPDATE t SET v = v / 0 WHERE id = 2"));
        assertEquals(1, update("UPDATE t SET s = s || 'x' WHERE id = 2"), "the transaction goes on after failed checks");
        c.commit();
        assertEquals(List.of("1|11|a", "2|20|bx"), rows("SELECT * FROM t ORDER BY id"));
        try (PreparedStatement p = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?")) {
            p.setInt(1, 5);
            p.setInt(2, 1);
            assertEquals(1, p.executeUpdate());
            p.setNull(1, java.sql.Types.INTEGER);
            assertEquals("23502", assertThrows(SQLException.class, p::executeUpdate).getSQLState());
            c.rollback();
        }
        assertEquals(List.of("1|11|a", "2|20|bx"), rows("SELECT * FROM t ORDER BY id"), "rolled back whole");
        c.setAutoCommit(true);
    }

    @Test
    void updateThatMovesTheKeyOrTouchesAnIndexTakesTheGeneralPath() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        run("INSERT INTO t VALUES (1, 10), (2, 20)");
        assertEquals("23505", state("UPDATE t SET id = 2 WHERE id = 1"));
        assertEquals(1, update("UPDATE t SET id = 3 WHERE id = 1"));
        run("CREATE UNIQUE INDEX t_v ON t (v)");
        assertEquals("23505", state("UPDATE t SET v = 20 WHERE id = 3"));
        assertEquals(1, update("UPDATE t SET v = 30 WHERE id = 3"));
        assertEquals(List.of("3"), rows("SELECT id FROM t WHERE v = 30"));
        assertEquals(List.of(), ((LibTpConnection) c).engine().verifyIndexes());
    }

    @Test
    void oneRowInsertOfATakenKeyChangesNothing() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        c.setAutoCommit(false);
        run("INSERT INTO t VALUES (1, 10)");
        assertEquals("23505", state("INSERT INTO t VALUES (1, 11)"));
        assertEquals("23505", state("INSERT INTO t VALUES (2, 20), (2, 21)"), "several rows: checked before writing");
        run("INSERT INTO t VALUES (2, 22)");
        c.commit();
        assertEquals(List.of("1|10", "2|22"), rows("SELECT * FROM t ORDER BY id"));
        c.setAutoCommit(true);
    }
}
