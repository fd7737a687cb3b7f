package org.libtp.jdbc;

import org.libtp.core.tp.TxnEnvironment;
import org.libtp.db.Environment;
import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A failed environment behind a HikariCP pool. By default the driver reopens it under the
 * connections: the transaction in flight gets 40001, the pool keeps its connections, and the
 * next statements work. With {@code reopen_timeout=0} (every statement then fails with 08006):
 * {@code isValid} says so, a new connection is refused with a clear 08006 instead
 * of being handed the failed environment, and the pool, evicting its connections as they fail,
 * lets the last one close the environment: the next connection reopens it, recovered, with every
 * committed row.
 */
class PoolFailedEnvironmentTest {
    @TempDir
    Path dir;

    /** Marks the environment failed, as a failed log force or a process killed inside a latch would. */
    static void failEnvironment(Connection c) throws Exception {
        Environment env = c.unwrap(LibTpConnection.class).engine().environment();
        java.lang.reflect.Field tp = Environment.class.getDeclaredField("tp");
        tp.setAccessible(true);
        ((TxnEnvironment) tp.get(env)).env().fail("PoolFailedEnvironmentTest failed it");
    }

    @Test
    void thePoolEvictsConnectionsOfAFailedEnvironmentAndReopensItRecovered() throws Exception {
        String url = "jdbc:libtp:" + dir.resolve("db") + ";reopen_timeout=0";
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(url + ";create=true");
        cfg.setMaximumPoolSize(4);
        cfg.setMinimumIdle(4);
        cfg.setAutoCommit(false);
        cfg.setConnectionTimeout(1_000);
        try (HikariDataSource ds = new HikariDataSource(cfg)) {
            try (Connection c = ds.getConnection()) {
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, v BIGINT NOT NULL)");
                }
                try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, ?)")) {
                    for (int i = 0; i < 50; i++) {
                        p.setInt(1, i);
                        p.setLong(2, i * 10L);
                        p.addBatch();
                    }
                    p.executeBatch();
                }
                c.commit();
            }
            long full = System.currentTimeMillis() + 10_000;
            while (ds.getHikariPoolMXBean().getTotalConnections() < 4 && System.currentTimeMillis() < full) {
                Thread.sleep(10); // Hikari fills the pool in the background
            }
            assertEquals(4, ds.getHikariPoolMXBean().getTotalConnections());
            // A connection outside the pool keeps the environment referenced (and failed) for a while.
            Connection outside = DriverManager.getConnection(url);
            try (Connection c = ds.getConnection()) {
                assertTrue(c.isValid(1));
                failEnvironment(c);
                assertFalse(c.isValid(1), "isValid sees the failed environment");
                SQLException e = assertThrows(SQLException.class, () -> {
                    try (Statement s = c.createStatement()) {
                        s.executeQuery("SELECT COUNT(*) FROM t");
                    }
                });
                assertEquals("08006", e.getSQLState(), e.toString());
            }
            SQLException refused = assertThrows(SQLException.class, () -> DriverManager.getConnection(url).close());
            assertEquals("08006", refused.getSQLState(), refused.toString());
            assertTrue(refused.getMessage().contains("close them all"), refused.getMessage());
            assertFalse(outside.isValid(1));
            outside.close();

            Thread.sleep(600); // past Hikari's alive-bypass window: each borrow validates
            long deadline = System.currentTimeMillis() + 20_000;
            int failures = 0;
            Integer count = null;
            while (count == null && System.currentTimeMillis() < deadline) {
                try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
                    assertTrue(r.next());
                    count = r.getInt(1);
                    assertEquals(12250, r.getLong(2));
                    assertTrue(c.unwrap(LibTpConnection.class).engine().environment().wasRecovered());
                    c.rollback();
                } catch (SQLException e) {
                    failures++;
                    assertTrue(e.getSQLState() != null && e.getSQLState().startsWith("08"), e.toString());
                    Thread.sleep(50);
                }
            }
            System.out.println("PoolFailedEnvironmentTest: the pool recovered after " + failures + " failed borrows");
            assertEquals(50, count, "the pool got a recovered environment within 20 s");
        }
    }

    @Test
    void withTransparentReopenTheTransactionInFlightGets40001AndThePoolGoesOn() throws Exception {
        String url = "jdbc:libtp:" + dir.resolve("db2");
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(url + ";create=true");
        cfg.setMaximumPoolSize(2);
        cfg.setAutoCommit(false);
        cfg.setConnectionTimeout(5_000);
        try (HikariDataSource ds = new HikariDataSource(cfg)) {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, v BIGINT NOT NULL)");
                s.executeUpdate("INSERT INTO t VALUES (1, 10)");
                c.commit();
            }
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.executeUpdate("INSERT INTO t VALUES (2, 20)"); // in flight when the environment fails
                failEnvironment(c);
                SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO t VALUES (3, 30)"));
                assertEquals("40001", e.getSQLState(), e.toString());
                assertTrue(e.getMessage().contains("run it again"), e.getMessage());
                c.rollback();
                assertTrue(c.isValid(1), "the connection stays valid");
                s.executeUpdate("INSERT INTO t VALUES (2, 20)"); // the retry
                s.executeUpdate("INSERT INTO t VALUES (3, 30)");
                c.commit();
                assertEquals(1, c.unwrap(LibTpConnection.class).engine().environment().reopenCount());
            }
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT COUNT(*), SUM(v) FROM t")) {
                assertTrue(r.next());
                assertEquals(3, r.getInt(1));
                assertEquals(60, r.getLong(2));
                c.rollback();
            }
        }
    }
}
