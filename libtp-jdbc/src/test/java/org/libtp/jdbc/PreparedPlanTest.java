package org.libtp.jdbc;

import org.junit.jupiter.api.Test;
import org.libtp.core.testkit.ChildJvm;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A prepared statement keeps its compiled plan across executions; DDL of this connection, of
 * another connection or of another JVM — committed or rolled back — must make it compile anew,
 * never run against a definition that no longer holds (a stale plan would, for example, skip an
 * index created since, or read the old column list).
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class PreparedPlanTest extends SqlTestBase {
    @Test
    void addColumnAndNewIndexAreSeenByPreparedStatements() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
        PreparedStatement sel = c.prepareStatement("SELECT * FROM t WHERE id = ?");
        PreparedStatement ins = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)");
        PreparedStatement upd = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?");
        PreparedStatement del = c.prepareStatement("DELETE FROM t WHERE id = ?");
        ins.setInt(1, 1);
        ins.setString(2, "a");
        ins.executeUpdate();
        sel.setInt(1, 1);
        assertEquals(List.of("1|a"), rows(sel));

        run("ALTER TABLE t ADD COLUMN w INT DEFAULT 7");
        assertEquals(List.of("1|a|7"), rows(sel), "the new column is selected");
        run("CREATE UNIQUE INDEX t_v ON t (v)");
        ins.setInt(1, 2);
        ins.setString(2, "a");
        SQLException dup = assertThrows(SQLException.class, ins::executeUpdate);
        assertEquals("23505", dup.getSQLState(), "the prepared INSERT checks the index created after it was compiled");
        ins.setString(2, "b");
        ins.executeUpdate();
        upd.setString(1, "c");
        upd.setInt(2, 2);
        assertEquals(1, upd.executeUpdate());
        assertEquals(List.of("1|a|7", "2|c|7"), rows("SELECT * FROM t ORDER BY id"));
        assertEquals(List.of("2"), rows("SELECT id FROM t WHERE v = 'c'"), "the UPDATE maintained the new index");
        del.setInt(1, 1);
        assertEquals(1, del.executeUpdate());
        assertTrue(((LibTpConnection) c).engine().verifyIndexes().isEmpty(), "every index agrees with its table");
    }

    @Test
    void droppedAndRecreatedTableIsFoundAgain() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        run("INSERT INTO t VALUES (1, 10)");
        PreparedStatement sel = c.prepareStatement("SELECT v FROM t WHERE id = ?");
        sel.setInt(1, 1);
        assertEquals(List.of("10"), rows(sel));
        run("DROP TABLE t");
        SQLException gone = assertThrows(SQLException.class, () -> rows(sel));
        assertEquals("42S02", gone.getSQLState());
        run("CREATE TABLE t (v INT, id INT PRIMARY KEY)");
        run("INSERT INTO t VALUES (20, 1)");
        assertEquals(List.of("20"), rows(sel), "the plan of the dropped table is not used for the new one");
    }

    @Test
    void rolledBackDdlIsForgotten() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY)");
        run("INSERT INTO t VALUES (1)");
        PreparedStatement sel = c.prepareStatement("SELECT * FROM t");
        assertEquals(List.of("1"), rows(sel));
        c.setAutoCommit(false);
        run("ALTER TABLE t ADD COLUMN x INT DEFAULT 5");
        assertEquals(List.of("1|5"), rows(sel), "inside the transaction: the new column");
        c.rollback();
        assertEquals(List.of("1"), rows(sel), "after rollback: the old definition again");
        c.setAutoCommit(true);
    }

    /** Child: args url; adds a column and a unique index, then exits. */
    public static final class Alterer {
        public static void main(String[] args) throws Exception {
            try (Connection c = DriverManager.getConnection(args[0]); Statement s = c.createStatement()) {
                s.execute("ALTER TABLE t ADD COLUMN w INT DEFAULT 3");
                s.execute("CREATE UNIQUE INDEX t_v ON t (v)");
            }
            System.out.println("ALTERED");
        }
    }

    @Test
    void ddlOfAnotherJvmIsSeenByThisJvmsPreparedStatements() throws Exception {
        String url = "jdbc:libtp:" + dir.resolve("db");
        run("CREATE TABLE t (id INT PRIMARY KEY, v INT)");
        PreparedStatement ins = c.prepareStatement("INSERT INTO t (id, v) VALUES (?, ?)");
        PreparedStatement sel = c.prepareStatement("SELECT * FROM t WHERE id = ?");
        ins.setInt(1, 1);
        ins.setInt(2, 100);
        ins.executeUpdate();
        sel.setInt(1, 1);
        assertEquals(List.of("1|100"), rows(sel));
        try (ChildJvm child = ChildJvm.start(Alterer.class, url)) {
            child.awaitLine("ALTERED", Duration.ofSeconds(60));
            child.assertExitsCleanly(Duration.ofSeconds(30));
        }
        assertEquals(List.of("1|100|3"), rows(sel), "the other JVM's new column");
        ins.setInt(1, 2);
        ins.setInt(2, 100);
        assertEquals("23505", assertThrows(SQLException.class, ins::executeUpdate).getSQLState(),
                "the other JVM's unique index is enforced by a statement prepared before it existed");
        ins.setInt(2, 200);
        ins.executeUpdate();
        assertTrue(((LibTpConnection) c).engine().verifyIndexes().isEmpty());
    }
}
