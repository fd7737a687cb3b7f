package org.libtp.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A transaction the engine rolled back (a deadlock victim) cannot be continued by mistake: later
 * statements are refused (25P02) and commit() throws (40003) until rollback(), so a client that
 * ignores the 40001 never commits half of its work.
 */
class TransactionStateTest {
    @TempDir
    Path dir;

    static void run(Connection c, String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            s.execute(sql);
        }
    }

    @Test
    void aDeadlockVictimMustRollBackBeforeGoingOn() throws Exception {
        String url = "jdbc:libtp:" + dir.resolve("db") + ";create=true";
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            run(a, "CREATE TABLE x (id INT PRIMARY KEY, v INT)");
            run(a, "CREATE TABLE y (id INT PRIMARY KEY, v INT)");
            run(a, "INSERT INTO x VALUES (1, 0)");
            run(a, "INSERT INTO y VALUES (1, 0)");
            a.setAutoCommit(false);
            b.setAutoCommit(false);
            run(a, "UPDATE x SET v = 1 WHERE id = 1");
            run(b, "UPDATE y SET v = 1 WHERE id = 1");
            CompletableFuture<SQLException> aSide = CompletableFuture.supplyAsync(() -> {
                try {
                    run(a, "UPDATE y SET v = 2 WHERE id = 1");
                    return null;
                } catch (SQLException e) {
                    return e;
                }
            });
            SQLException bError = null;
            try {
                run(b, "UPDATE x SET v = 2 WHERE id = 1");
            } catch (SQLException e) {
                bError = e;
            }
            SQLException aError = aSide.get(30, TimeUnit.SECONDS);
            assertTrue(aError == null ^ bError == null, "exactly one victim: " + aError + " / " + bError);
            Connection victim = aError != null ? a : b;
            Connection winner = aError != null ? b : a;
            assertEquals("40001", (aError != null ? aError : bError).getSQLState());
            winner.commit();
            SQLException refused = assertThrows(SQLException.class, () -> run(victim, "UPDATE x SET v = 9 WHERE id = 1"));
            assertEquals("25P02", refused.getSQLState());
            assertEquals("40003", assertThrows(SQLException.class, victim::commit).getSQLState());
            run(victim, "UPDATE x SET v = 9 WHERE id = 1"); // the failed commit ended it: a new transaction
            victim.rollback();
            run(victim, "UPDATE x SET v = 10 WHERE id = 1");
            victim.commit();
        }
    }

    /**
     * Two connections used by one thread, the second waiting for a lock the first's open
     * transaction holds: refused at once (it could never be granted), 40001, with advice in JDBC
     * terms rather than the record API's.
     */
    @Test
    void aConnectionWaitingForAnotherOfTheSameThreadIsRefusedAtOnceInJdbcTerms() throws Exception {
        String url = "jdbc:libtp:" + dir.resolve("db") + ";create=true";
        try (Connection a = DriverManager.getConnection(url); Connection b = DriverManager.getConnection(url)) {
            run(a, "CREATE TABLE x (id INT PRIMARY KEY, v INT)");
            run(a, "INSERT INTO x VALUES (1, 0)");
            a.setAutoCommit(false);
            run(a, "UPDATE x SET v = 1 WHERE id = 1");
            long start = System.nanoTime();
            SQLException e = assertThrows(SQLException.class, () -> run(b, "SELECT v FROM x WHERE id = 1"));
            assertTrue(System.nanoTime() - start < TimeUnit.SECONDS.toNanos(5), "refused at once, not after the lock timeout");
            assertEquals("40001", e.getSQLState());
            assertTrue(e.getMessage().contains("another connection this thread uses")
                    && !e.getMessage().contains("instead of null"), e.getMessage());
            a.commit();
            run(b, "SELECT v FROM x WHERE id = 1"); // once the first ends, the second goes on
        }
    }
}
