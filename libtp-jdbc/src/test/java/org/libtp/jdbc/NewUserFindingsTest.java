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
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a first user of the driver ran into, each now as it should be. */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class NewUserFindingsTest extends SqlTestBase {
    @Test
    void aRowWhosePrimaryKeyChangesDoesNotCollideWithItselfInAUniqueIndex() throws SQLException {
        run("CREATE TABLE u (id INT PRIMARY KEY, name VARCHAR(10), UNIQUE (name))");
        run("INSERT INTO u VALUES (1, 'a'), (2, 'b')");
        assertEquals(1, update("UPDATE u SET id = 10 WHERE id = 1"));
        assertEquals("23505", state("UPDATE u SET id = 20, name = 'a' WHERE id = 2"), "a real collision still is one");
        assertEquals(2, update("UPDATE u SET id = id + 100"));
        assertEquals(List.of("102|b", "110|a"), rows("SELECT * FROM u ORDER BY id"));
        assertEquals(List.of(), ((LibTpConnection) c).engine().verifyIndexes());
    }

    @Test
    void aKeyLongerThanAnyStoredOneMatchesNothing() throws SQLException {
        run("CREATE TABLE k (k VARCHAR(1000) PRIMARY KEY, v INT)");
        run("INSERT INTO k VALUES ('short', 1)");
        String longKey = "x".repeat(600);
        c.setAutoCommit(false);
        assertEquals(List.of(), rows("SELECT * FROM k WHERE k = '" + longKey + "'"));
        assertEquals(0, update("UPDATE k SET v = 2 WHERE k = '" + longKey + "'"));
        assertEquals(0, update("DELETE FROM k WHERE k = '" + longKey + "'"));
        assertEquals("22001", state("INSERT INTO k VALUES ('" + longKey + "', 3)"), "storing one is refused");
        c.commit(); // the transaction went on
        c.setAutoCommit(true);
    }

    @Test
    void charComparesWithoutItsPadding() throws SQLException {
        run("CREATE TABLE ch (id INT PRIMARY KEY, c CHAR(5), v VARCHAR(5))");
        run("CREATE INDEX ch_c ON ch (c)");
        run("INSERT INTO ch VALUES (1, 'ab', 'ab'), (2, 'abc', 'x'), (3, NULL, 'ab')");
        assertEquals(List.of("1"), rows("SELECT id FROM ch WHERE c = 'ab'"));
        assertEquals(List.of("1"), rows("SELECT id FROM ch WHERE c = 'ab   '"));
        assertEquals(List.of("1"), rows("SELECT id FROM ch WHERE c = v ORDER BY id"));
        assertEquals(List.of("1", "2"), rows("SELECT id FROM ch WHERE c IN ('ab', 'abc') ORDER BY id"));
        assertEquals(List.of("1", "2"), rows("SELECT id FROM ch WHERE c BETWEEN 'ab' AND 'abc' ORDER BY id"));
        assertEquals(List.of("2"), rows("SELECT id FROM ch WHERE c > 'ab'"));
        try (PreparedStatement p = c.prepareStatement("SELECT id FROM ch WHERE c = ?")) {
            p.setString(1, "ab");
            try (ResultSet r = p.executeQuery()) {
                assertTrue(r.next());
                assertEquals(1, r.getInt(1));
            }
        }
        assertEquals(List.of("ab   "), rows("SELECT c FROM ch WHERE id = 1"), "read back padded, as stored");
    }

    @Test
    void constraintAndRangeErrorsHaveTheirStandardStates() throws SQLException {
        assertEquals("42000", state("CREATE TABLE bad (x VARCHAR(5) PRIMARY KEY, y INT PRIMARY KEY)"));
        run("CREATE TABLE d (id INT PRIMARY KEY, amount DECIMAL(5,2))");
        assertEquals("22003", state("INSERT INTO d VALUES (1, 12345.6)"));
        run("CREATE TABLE s (id INT PRIMARY KEY, t VARCHAR(2))");
        assertEquals("22001", state("INSERT INTO s VALUES (1, 'abc')"), "a string too long stays 22001");
    }

    @Test
    void getGeneratedKeysAfterABatchHasEveryKey() throws SQLException {
        run("CREATE TABLE g (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10))");
        try (PreparedStatement p = c.prepareStatement("INSERT INTO g (name) VALUES (?)", Statement.RETURN_GENERATED_KEYS)) {
            for (String n : new String[] {"a", "b", "c"}) {
                p.setString(1, n);
                p.addBatch();
            }
            p.executeBatch();
            List<Long> keys = new ArrayList<>();
            try (ResultSet r = p.getGeneratedKeys()) {
                while (r.next()) {
                    keys.add(r.getLong(1));
                }
            }
            assertEquals(3, keys.size(), keys.toString());
            assertEquals(rows("SELECT id FROM g ORDER BY id").stream().map(Long::valueOf).toList(), keys);
        }
    }

    @Test
    void aReadOnlyDatabaseRefusesWritesWith25006() throws SQLException {
        run("CREATE TABLE r (id INT PRIMARY KEY)");
        c.close();
        try (Connection ro = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db") + ";read_only=true");
             Statement s = ro.createStatement()) {
            SQLException e = assertThrows(SQLException.class, () -> s.executeUpdate("INSERT INTO r VALUES (1)"));
            assertEquals("25006", e.getSQLState());
            assertTrue(e.getMessage().contains("read_only=true"), e.getMessage());
            try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM r")) {
                assertTrue(r.next());
            }
        }
        c = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db"));
    }

    /** Child: opens a transaction that reads a table, prints READY, keeps it open until stdin closes. */
    public static final class Reader {
        public static void main(String[] args) throws Exception {
            try (Connection c = DriverManager.getConnection("jdbc:libtp:" + args[0]); Statement s = c.createStatement()) {
                c.setAutoCommit(false);
                try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t")) {
                    r.next();
                }
                System.out.println("READY");
                System.in.read();
                c.rollback();
            }
        }
    }

    @Test
    void aSecondJvmConnectsWhileAnotherHasATransactionOpen() throws Exception {
        run("CREATE TABLE t (id INT PRIMARY KEY)");
        run("INSERT INTO t VALUES (1)");
        c.close();
        try (ChildJvm child = ChildJvm.start(Reader.class, dir.resolve("db").toString())) {
            child.awaitLine("READY", Duration.ofSeconds(60));
            long t0 = System.nanoTime();
            try (Connection other = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db"));
                 Statement s = other.createStatement();
                 ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t")) {
                assertTrue(r.next());
                assertEquals(1, r.getInt(1));
            }
            long ms = (System.nanoTime() - t0) / 1_000_000;
            assertTrue(ms < 5_000, "connected and read in " + ms + " ms, not after a lock timeout");
            child.process().getOutputStream().close();
            child.assertExitsCleanly(Duration.ofSeconds(60));
        } finally {
            c = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db"));
        }
    }

    @Test
    void aFileWhereTheDirectoryShouldBeIsNamedAsSuch() throws Exception {
        java.nio.file.Path f = java.nio.file.Files.writeString(dir.resolve("plain.txt"), "x");
        for (String url : new String[] {"jdbc:libtp:" + f, "jdbc:libtp:" + f + ";create=true"}) {
            SQLException e = assertThrows(SQLException.class, () -> DriverManager.getConnection(url).close());
            assertEquals("08001", e.getSQLState());
            assertTrue(e instanceof java.sql.SQLNonTransientConnectionException, e.toString());
            assertTrue(e.getMessage().contains("it is a file, not a directory"), e.getMessage());
        }
    }
}
