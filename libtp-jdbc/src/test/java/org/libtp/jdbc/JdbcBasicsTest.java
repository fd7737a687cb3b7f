package org.libtp.jdbc;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The driver end to end: URL, DDL, DML, queries and plans, transactions, SQLStates. */
class JdbcBasicsTest extends SqlTestBase {

    void accounts() throws SQLException {
        update("CREATE TABLE account (id INT PRIMARY KEY, owner VARCHAR(20) NOT NULL, balance DECIMAL(12,2), opened DATE)");
        try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?, ?, ?)")) {
            for (int i = 1; i <= 20; i++) {
                p.setInt(1, i);
                p.setString(2, "o" + (i % 4));
                p.setBigDecimal(3, i % 5 == 0 ? null : new BigDecimal(i * 10 + ".50"));
                p.setObject(4, LocalDate.of(2026, 1, i));
                p.addBatch();
            }
            int[] counts = p.executeBatch();
            assertEquals(20, counts.length);
        }
    }

    @Test
    void theDriverIsFoundAndAMissingDirectoryIsNotCreatedSilently() {
        SQLException e = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:libtp:" + dir.resolve("nope")));
        assertTrue(e.getMessage().contains("create=true"), e.getMessage());
        assertEquals("08001", e.getSQLState());
        SQLException u = assertThrows(SQLException.class,
                () -> DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db") + ";bogus=1"));
        assertTrue(u.getMessage().contains("bogus"), u.getMessage());
    }

    @Test
    void createInsertSelect() throws SQLException {
        accounts();
        assertEquals(List.of("3|o3|30.50|2026-01-03"), rows("SELECT * FROM account WHERE id = 3"));
        assertEquals(List.of("5|null"), rows("SELECT id, balance FROM account WHERE id = 5"));
        assertEquals(List.of("18", "19", "20"), rows("SELECT id FROM account WHERE id > 17 ORDER BY id"));
        assertEquals(List.of("20", "19"), rows("SELECT id FROM account ORDER BY id DESC LIMIT 2"));
        assertEquals(List.of("2", "3"), rows("SELECT id FROM account WHERE id BETWEEN 2 AND 3"));
        assertEquals(List.of("o0|5", "o1|5", "o2|5", "o3|5"),
                rows("SELECT owner, COUNT(*) FROM account GROUP BY owner ORDER BY owner"));
        assertEquals(List.of("20|16"), rows("SELECT COUNT(*), COUNT(balance) FROM account"));
        assertEquals(List.of("o1"), rows("SELECT DISTINCT owner FROM account WHERE owner LIKE '%1'"));
        assertEquals(List.of("4", "8", "12", "16"), rows("SELECT id FROM account WHERE owner = 'o0' AND balance IS NOT NULL ORDER BY 1"));
        assertEquals(List.of("6|o2-6"), rows("SELECT id, owner || '-' || id AS label FROM account WHERE id IN (6) "));
        assertEquals(List.of("12"), rows("SELECT id FROM account ORDER BY id OFFSET 11 ROWS FETCH FIRST 1 ROWS ONLY"));
        // without a count: one row (JSqlParser leaves the count out; it once failed with a NullPointerException)
        assertEquals(List.of("1"), rows("SELECT id FROM account ORDER BY id FETCH FIRST ROW ONLY"));
        assertEquals(List.of("1", "2"), rows("SELECT id FROM account WHERE id < 3 ORDER BY id LIMIT ALL"));
        assertEquals(List.of("1", "2"), rows("SELECT id FROM account WHERE id < 3 ORDER BY id LIMIT NULL"));
        assertEquals(List.of("o0"), rows("SELECT DISTINCT owner FROM account WHERE (owner) = 'o0'"));
    }

    @Test
    void explainShowsTheAccessPath() throws SQLException {
        accounts();
        assertTrue(rows("EXPLAIN SELECT * FROM account WHERE id = 3").get(0).startsWith("primary key lookup"));
        assertTrue(rows("EXPLAIN SELECT * FROM account WHERE id > 3").get(0).startsWith("primary key range"));
        assertTrue(rows("EXPLAIN SELECT * FROM account WHERE owner = 'x'").get(0).startsWith("full scan"));
        assertEquals("full scan of ACCOUNT, backwards", rows("EXPLAIN SELECT * FROM account ORDER BY id DESC").get(0));
        assertEquals("full scan of ACCOUNT, then sort", rows("EXPLAIN SELECT * FROM account ORDER BY owner").get(0));
    }

    @Test
    void updateDeleteAndTheirCounts() throws SQLException {
        accounts();
        assertEquals(5, update("UPDATE account SET balance = balance + 1 WHERE owner = 'o1'"));
        assertEquals(List.of("11.50"), rows("SELECT balance FROM account WHERE id = 1"));
        assertEquals(1, update("UPDATE account SET id = 100 WHERE id = 1"));
        assertEquals(List.of("100|o1"), rows("SELECT id, owner FROM account WHERE id >= 100"));
        assertEquals(4, update("DELETE FROM account WHERE balance IS NULL"));
        assertEquals(List.of("16"), rows("SELECT COUNT(*) FROM account"));
    }

    @Test
    void transactionsCommitAndRollBackDataAndSchema() throws SQLException {
        accounts();
        c.setAutoCommit(false);
        update("DELETE FROM account");
        update("CREATE TABLE t2 (x INT)");
        assertEquals(List.of("0"), rows("SELECT COUNT(*) FROM account"));
        c.rollback();
        assertEquals(List.of("20"), rows("SELECT COUNT(*) FROM account"));
        assertEquals("42S02", fails("SELECT * FROM t2").getSQLState(), "the CREATE TABLE rolled back");
        update("UPDATE account SET owner = 'z' WHERE id = 2");
        c.commit();
        c.setAutoCommit(true);
        assertEquals(List.of("z"), rows("SELECT owner FROM account WHERE id = 2"));
    }

    @Test
    void errorsCarryTheirSqlStates() throws SQLException {
        accounts();
        assertEquals("23505", fails("INSERT INTO account VALUES (1, 'x', 1, NULL)").getSQLState());
        assertEquals("23502", fails("INSERT INTO account (id) VALUES (99)").getSQLState());
        assertTrue(fails("SELEC * FROM account").getSQLState().startsWith("42"));
        assertEquals("42S02", fails("SELECT * FROM nowhere").getSQLState());
        assertEquals("42S22", fails("SELECT nocolumn FROM account").getSQLState());
        assertEquals("0A000", fails("SELECT * FROM account UNION SELECT * FROM account").getSQLState());
        assertEquals("22012", fails("SELECT id / 0 FROM account").getSQLState());
        assertEquals("42S01", fails("CREATE TABLE account (x INT)").getSQLState());
        // A failed statement inside a transaction leaves it usable and changes nothing.
        c.setAutoCommit(false);
        update("UPDATE account SET owner = 'k' WHERE id = 3");
        assertEquals("23505", fails("INSERT INTO account VALUES (21, 'a', 1, NULL), (21, 'b', 2, NULL)").getSQLState());
        c.commit();
        assertEquals(List.of("k"), rows("SELECT owner FROM account WHERE id = 3"));
        assertEquals(List.of(), rows("SELECT id FROM account WHERE id = 21"));
    }

    @Test
    void identityColumnsAndGeneratedKeys() throws SQLException {
        update("CREATE TABLE item (id BIGINT AUTO_INCREMENT PRIMARY KEY, name VARCHAR(10), at TIMESTAMP)");
        List<Long> keys = new ArrayList<>();
        try (PreparedStatement p = c.prepareStatement("INSERT INTO item (name, at) VALUES (?, ?)",
                Statement.RETURN_GENERATED_KEYS)) {
            for (int i = 0; i < 3; i++) {
                p.setString(1, "n" + i);
                p.setObject(2, LocalDateTime.of(2026, 11, 25, 12, 0, i));
                assertEquals(1, p.executeUpdate());
                try (ResultSet k = p.getGeneratedKeys()) {
                    assertTrue(k.next());
                    keys.add(k.getLong(1));
                }
            }
        }
        assertEquals(3, keys.stream().distinct().count());
        try (PreparedStatement p = c.prepareStatement("SELECT name, at FROM item WHERE id = ?")) {
            p.setLong(1, keys.get(1));
            try (ResultSet r = p.executeQuery()) {
                assertTrue(r.next());
                assertEquals("n1", r.getString("name"));
                assertEquals(LocalDateTime.of(2026, 11, 25, 12, 0, 1), r.getObject(2, LocalDateTime.class));
                assertFalse(r.next());
            }
        }
        update("CREATE TABLE nokey (v VARCHAR(5))");
        update("INSERT INTO nokey VALUES ('a'), ('a'), (NULL)");
        assertEquals(List.of("null", "a", "a"), rows("SELECT v FROM nokey ORDER BY v"));
        assertNull(rows("SELECT MAX(v) FROM nokey WHERE v IS NULL").get(0).equals("null") ? null : "x");
    }

    @Test
    void aSecondConnectionSeesCommittedData() throws SQLException {
        accounts();
        try (Connection d = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db"))) {
            try (Statement s = d.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM account")) {
                assertTrue(r.next());
                assertEquals(20, r.getInt(1));
            }
        }
        assertTrue(c.isValid(1));
    }
}
