package org.libtp.jdbc;

import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
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
 * Misuse through JDBC (directly and through a HikariCP pool) gives a clear SQLException with a
 * fitting SQLState, and a refused statement changes nothing.
 */
class PoolMisuseTest {
    @TempDir
    Path dir;
    String url;
    Connection c;

    @BeforeEach
    void open() throws SQLException {
        url = "jdbc:libtp:" + dir.resolve("db");
        c = DriverManager.getConnection(url + ";create=true");
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE t (id INT PRIMARY KEY, v VARCHAR(10))");
            s.executeUpdate("INSERT INTO t VALUES (1, 'a'), (2, 'b')");
        }
    }

    @AfterEach
    void close() throws SQLException {
        c.close();
    }

    /** Runs {@code x}, expecting an SQLException with {@code state} whose message contains {@code words}. */
    static SQLException fails(String state, String words, Executable x) {
        SQLException e = assertThrows(SQLException.class, x);
        assertEquals(state, e.getSQLState(), e.toString());
        assertTrue(e.getMessage().toLowerCase(java.util.Locale.ROOT).contains(words), "'" + words + "' in: " + e.getMessage());
        return e;
    }

    String value(int id) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT v FROM t WHERE id = " + id)) {
            return r.next() ? r.getString(1) : null;
        }
    }

    @Test
    void aClosedConnectionRefusesEverythingButCloseAndIsValid() throws SQLException {
        Connection d = DriverManager.getConnection(url);
        Statement s = d.createStatement();
        PreparedStatement p = d.prepareStatement("SELECT v FROM t WHERE id = ?");
        ResultSet r = s.executeQuery("SELECT id FROM t ORDER BY id");
        d.close();
        d.close(); // idempotent
        assertTrue(d.isClosed());
        assertFalse(d.isValid(1));
        fails("08003", "closed", d::createStatement);
        fails("08003", "closed", () -> d.prepareStatement("SELECT 1"));
        fails("08003", "closed", () -> d.setAutoCommit(false));
        fails("08003", "closed", d::commit);
        fails("08003", "closed", d::rollback);
        fails("08003", "closed", d::getMetaData);
        // Its statements and result sets are closed with it (JDBC).
        assertTrue(s.isClosed(), "a statement of a closed connection is closed");
        assertTrue(p.isClosed());
        assertTrue(r.isClosed(), "a result set of a closed connection is closed");
        fails("08003", "connection is closed", () -> s.executeQuery("SELECT id FROM t"));
        fails("08003", "connection is closed", () -> p.setInt(1, 1));
        fails("08003", "connection is closed", p::executeQuery);
        fails("24000", "closed", r::next);
        // The environment stays open for the other connection.
        assertEquals("a", value(1));
    }

    @Test
    void aClosedStatementOrResultSetIsRefused() throws SQLException {
        Statement s = c.createStatement();
        ResultSet r = s.executeQuery("SELECT id FROM t ORDER BY id");
        assertTrue(r.next());
        s.close();
        s.close(); // idempotent
        assertTrue(r.isClosed(), "closing the statement closes its result set");
        fails("24000", "closed", r::next);
        fails("24000", "closed", () -> r.getInt(1));
        fails("HY010", "closed", () -> s.executeQuery("SELECT id FROM t"));
        fails("HY010", "closed", () -> s.executeUpdate("DELETE FROM t"));
        fails("HY010", "closed", () -> s.execute("SELECT id FROM t"));
        fails("HY010", "closed", () -> s.addBatch("DELETE FROM t"));
        assertEquals("a", value(1));

        try (Statement s2 = c.createStatement()) {
            ResultSet first = s2.executeQuery("SELECT id FROM t");
            s2.executeQuery("SELECT v FROM t"); // re-executing closes the previous result set
            assertTrue(first.isClosed());
            fails("24000", "closed", first::next);
            ResultSet rs = s2.executeQuery("SELECT id FROM t WHERE id = 1");
            rs.close();
            fails("24000", "closed", () -> rs.getString("id"));
            fails("24000", "closed", rs::getMetaData);
        }

        PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE id = ?");
        p.close();
        fails("HY010", "closed", () -> p.setInt(1, 1));
        fails("HY010", "closed", p::executeQuery);
    }

    @Test
    void executeQueryWithAnUpdateIsRefusedBeforeItRuns() throws SQLException {
        try (Statement s = c.createStatement()) {
            fails("07000", "returns no rows", () -> s.executeQuery("UPDATE t SET v = 'x' WHERE id = 1"));
            fails("07000", "returns no rows", () -> s.executeQuery("DELETE FROM t WHERE id = 2"));
            fails("07000", "returns no rows", () -> s.executeQuery("CREATE TABLE u (x INT)"));
            fails("07000", "query", () -> s.executeUpdate("SELECT * FROM t WHERE id = 1 FOR UPDATE"));
        }
        try (PreparedStatement p = c.prepareStatement("UPDATE t SET v = ? WHERE id = ?")) {
            p.setString(1, "y");
            p.setInt(2, 1);
            fails("07000", "returns no rows", p::executeQuery);
        }
        try (PreparedStatement p = c.prepareStatement("INSERT INTO t VALUES (?, 'z')")) {
            p.setInt(1, 3);
            fails("07000", "returns no rows", p::executeQuery);
        }
        // Nothing of the refused statements happened (auto-commit would have committed it).
        assertEquals("a", value(1));
        assertEquals("b", value(2));
        assertEquals(null, value(3));
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(r.next());
            assertEquals(2, r.getInt(1));
        }
        try (Statement s = c.createStatement()) {
            s.executeUpdate("CREATE TABLE u (x INT)"); // the refused CREATE TABLE did not create it
        }
        // A batch with a query in it is refused at that statement, which does not run.
        try (Statement s = c.createStatement()) {
            s.addBatch("UPDATE t SET v = 'q' WHERE id = 2");
            s.addBatch("SELECT * FROM t");
            java.sql.BatchUpdateException e = assertThrows(java.sql.BatchUpdateException.class, s::executeBatch);
            assertEquals("07000", e.getSQLState());
            assertEquals(1, e.getLargeUpdateCounts().length);
        }
    }

    @Test
    void aMissingDirectoryWithoutCreateIsAnErrorAndCreatesNothing() {
        Path missing = dir.resolve("missing");
        fails("08001", "create=true", () -> DriverManager.getConnection("jdbc:libtp:" + missing));
        assertFalse(Files.exists(missing));
        LibTpDataSource ds = new LibTpDataSource("jdbc:libtp:" + missing);
        fails("08001", "create=true", ds::getConnection);
        fails("08001", "no url", () -> new LibTpDataSource().getConnection());
        fails("08001", "no directory", () -> DriverManager.getConnection("jdbc:libtp:"));
        fails("08001", "cache_size", () -> DriverManager.getConnection(url + ";cache_size=lots"));
        // Through a pool: Hikari's first connection fails with the driver's message.
        com.zaxxer.hikari.HikariConfig cfg = new com.zaxxer.hikari.HikariConfig();
        cfg.setJdbcUrl("jdbc:libtp:" + missing);
        cfg.setInitializationFailTimeout(1);
        RuntimeException pe = assertThrows(RuntimeException.class, () -> new HikariDataSource(cfg).close());
        Throwable cause = pe;
        while (cause.getCause() != null && !(cause instanceof SQLException)) {
            cause = cause.getCause();
        }
        assertTrue(cause instanceof SQLException && cause.getMessage().contains("create=true"), pe.toString());
        assertFalse(Files.exists(missing));
    }

    @Test
    void anotherCacheSizeWhileTheEnvironmentIsOpenIsAClearError() throws SQLException {
        SQLException e = fails("08001", "cache_size", () -> DriverManager.getConnection(url + ";cache_size=8m"));
        assertTrue(e.getMessage().contains("already open in this JVM"), e.getMessage());
        fails("08001", "lock_timeout", () -> DriverManager.getConnection(url + ";lock_timeout=5"));
        fails("08001", "read_only", () -> DriverManager.getConnection(url + ";read_only=true"));
        // The same options (spelled another way) are fine, and the refused attempts took no reference.
        try (Connection d = DriverManager.getConnection(url + "?cache_size=64m")) {
            assertTrue(d.isValid(1));
        }
        c.close();
        try (Connection d = DriverManager.getConnection(url + ";cache_size=8m")) {
            assertTrue(d.isValid(1), "with the environment closed, another cache size is accepted");
        }
        c = DriverManager.getConnection(url + ";cache_size=8m");
    }

    @Test
    void aWrongColumnLabelOrIndexIsAnError() throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id, v AS label FROM t WHERE id = 1")) {
            fails("24000", "next()", () -> r.getInt(1));
            assertTrue(r.next());
            assertEquals("a", r.getString("LABEL"));
            assertEquals(1, r.getInt("Id"));
            fails("42S22", "nope", () -> r.getString("nope"));
            fails("42S22", "v", () -> r.getString("v")); // renamed by AS
            fails("07009", "column index 0", () -> r.getString(0));
            fails("07009", "column index 3", () -> r.getObject(3));
            assertFalse(r.next());
            fails("24000", "past the last row", () -> r.getInt(1));
        }
    }

    @Test
    void aParameterIndexOutOfRangeIsAnError() throws SQLException {
        try (PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE id = ? AND v <> ?")) {
            fails("07009", "parameter index 0", () -> p.setInt(0, 1));
            fails("07009", "parameter index 3", () -> p.setInt(3, 1));
            fails("07009", "parameter index -1", () -> p.setString(-1, "x"));
            p.setInt(1, 1);
            SQLException unset = assertThrows(SQLException.class, p::executeQuery);
            assertTrue(unset.getMessage().contains("not set") || unset.getMessage().contains("parameter"), unset.toString());
            p.setString(2, "z");
            try (ResultSet r = p.executeQuery()) {
                assertTrue(r.next());
                assertEquals("a", r.getString(1));
            }
        }
        try (PreparedStatement p = c.prepareStatement("SELECT v FROM t WHERE v = '?'")) {
            fails("07009", "parameter index 1", () -> p.setString(1, "x")); // a ? inside a literal is no parameter
        }
        try (Statement s = c.createStatement()) {
            fails("HY000", "plain statement", () -> ((PreparedStatement) s).executeQuery());
        }
        try (PreparedStatement p = c.prepareStatement("SELECT v FROM t")) {
            fails("HY000", "preparedstatement", () -> p.executeQuery("SELECT id FROM t"));
        }
    }

    @Test
    void commitOrRollbackInAutoCommitModeIsAnError() throws SQLException {
        assertTrue(c.getAutoCommit());
        fails("25000", "auto-commit", c::commit);
        fails("25000", "auto-commit", c::rollback);
        c.setAutoCommit(false);
        try (Statement s = c.createStatement()) {
            s.executeUpdate("UPDATE t SET v = 'k' WHERE id = 1");
        }
        c.setAutoCommit(true); // JDBC: commits the open transaction
        c.close();
        c = DriverManager.getConnection(url);
        assertEquals("k", value(1));
    }

    @Test
    void misuseThroughThePoolIsReportedAndThePoolStaysHealthy() throws SQLException {
        c.close();
        com.zaxxer.hikari.HikariConfig cfg = new com.zaxxer.hikari.HikariConfig();
        cfg.setJdbcUrl(url);
        cfg.setMaximumPoolSize(2);
        cfg.setAutoCommit(false);
        try (HikariDataSource ds = new HikariDataSource(cfg)) {
            Connection p = ds.getConnection();
            try (Statement s = p.createStatement()) {
                fails("07000", "returns no rows", () -> s.executeQuery("DELETE FROM t"));
                fails("42S02", "nowhere", () -> s.executeQuery("SELECT * FROM nowhere"));
                s.executeUpdate("UPDATE t SET v = 'p' WHERE id = 2");
            }
            p.close(); // Hikari rolls the uncommitted UPDATE back
            // Hikari's own closed proxy answers (its SQLException has no SQLState).
            SQLException closed = assertThrows(SQLException.class, p::createStatement);
            assertTrue(closed.getMessage().contains("closed"), closed.toString());
            p.close(); // idempotent
            try (Connection q = ds.getConnection(); Statement s = q.createStatement();
                 ResultSet r = s.executeQuery("SELECT v FROM t WHERE id = 2")) {
                assertTrue(r.next());
                assertEquals("b", r.getString(1), "the pool rolled back the abandoned transaction");
                assertTrue(q.isValid(1));
                fails("25000", "auto-commit", () -> {
                    q.setAutoCommit(true);
                    q.commit();
                });
            }
            assertEquals(0, ds.getHikariPoolMXBean().getActiveConnections());
        }
        c = DriverManager.getConnection(url);
    }
}
