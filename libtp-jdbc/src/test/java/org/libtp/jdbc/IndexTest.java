package org.libtp.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Secondary indexes: maintained by every DML, used by the planner, UNIQUE enforced; ALTER TABLE ADD COLUMN. */
class IndexTest extends SqlTestBase {

    @Test
    void anIndexAnswersLikeAFullScanThroughInsertsUpdatesAndDeletes() throws SQLException {
        run("CREATE TABLE p (id INT PRIMARY KEY, city VARCHAR(10), age INT)");
        Random rnd = new Random(7);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO p VALUES (?, ?, ?)")) {
            for (int i = 0; i < 300; i++) {
                p.setInt(1, i);
                p.setString(2, rnd.nextInt(10) == 0 ? null : "c" + rnd.nextInt(12));
                p.setInt(3, rnd.nextInt(90));
                p.addBatch();
            }
            p.executeBatch();
        }
        String q1 = "SELECT id FROM p WHERE city = 'c3' ORDER BY id";
        String q2 = "SELECT id FROM p WHERE city = 'c5' AND age > 40 ORDER BY id";
        String q3 = "SELECT id FROM p WHERE age BETWEEN 10 AND 20 ORDER BY id";
        List<String> before1 = rows(q1);
        List<String> before2 = rows(q2);
        List<String> before3 = rows(q3);
        run("CREATE INDEX p_city ON p (city, age)");
        run("CREATE INDEX p_age ON p (age DESC)");
        assertTrue(rows("EXPLAIN " + q1).get(0).startsWith("index P_CITY range"), rows("EXPLAIN " + q1).toString());
        assertEquals("index P_CITY range of P (CITY equal, AGE bounded), then sort", rows("EXPLAIN " + q2).get(0));
        assertTrue(rows("EXPLAIN " + q3).get(0).startsWith("index P_AGE range"));
        assertEquals(before1, rows(q1));
        assertEquals(before2, rows(q2));
        assertEquals(before3, rows(q3));
        run("UPDATE p SET city = 'c3' WHERE id < 50");
        run("UPDATE p SET age = age + 1 WHERE city = 'c3'");
        run("DELETE FROM p WHERE id % 7 = 0");
        run("UPDATE p SET id = id + 1000 WHERE age > 80");
        // The same queries without the indexes (a condition the planner cannot use) agree.
        assertEquals(rows("SELECT id FROM p WHERE city || '' = 'c3' ORDER BY id"), rows(q1));
        assertEquals(rows("SELECT id FROM p WHERE city || '' = 'c5' AND age + 0 > 40 ORDER BY id"), rows(q2));
        assertEquals(rows("SELECT id FROM p WHERE age + 0 BETWEEN 10 AND 20 ORDER BY id"), rows(q3));
        assertEquals(List.of(), ((LibTpConnection) c).engine().verifyIndexes());
        run("DROP INDEX p_city");
        assertTrue(rows("EXPLAIN " + q1).get(0).startsWith("full scan"));
        assertEquals("42S12", state("DROP INDEX p_city"));
    }

    @Test
    void uniqueIsEnforcedButNullsNeverCollide() throws SQLException {
        run("CREATE TABLE u (id INT PRIMARY KEY, email VARCHAR(30) UNIQUE, a INT, b INT, UNIQUE (a, b))");
        run("INSERT INTO u VALUES (1, 'x@y', 1, 1), (2, NULL, 1, NULL), (3, NULL, 1, NULL)");
        assertEquals("23505", state("INSERT INTO u VALUES (4, 'x@y', 5, 5)"));
        assertEquals("23505", state("INSERT INTO u VALUES (4, 'z@y', 1, 1)"));
        assertEquals("23505", state("INSERT INTO u VALUES (4, 'q', 7, 7), (5, 'q', 8, 8)"));
        assertEquals("23505", state("UPDATE u SET email = 'x@y' WHERE id = 2"));
        run("UPDATE u SET email = 'x@y', a = 9 WHERE id = 1"); // its own value again
        assertEquals(List.of("3"), rows("SELECT COUNT(*) FROM u"));
        run("CREATE TABLE v (id INT PRIMARY KEY, k INT)");
        run("INSERT INTO v VALUES (1, 5), (2, 5)");
        assertEquals("23505", state("CREATE UNIQUE INDEX v_k ON v (k)"));
        run("DELETE FROM v WHERE id = 2");
        run("CREATE UNIQUE INDEX v_k ON v (k)");
        assertEquals("23505", state("INSERT INTO v VALUES (3, 5)"));
    }

    @Test
    void indexDdlRollsBack() throws SQLException {
        run("CREATE TABLE r (id INT PRIMARY KEY, k INT)");
        run("INSERT INTO r VALUES (1, 1), (2, 2)");
        c.setAutoCommit(false);
        run("CREATE INDEX r_k ON r (k)");
        run("INSERT INTO r VALUES (3, 3)");
        assertTrue(rows("EXPLAIN SELECT * FROM r WHERE k = 3").get(0).startsWith("index R_K"));
        c.rollback();
        c.setAutoCommit(true);
        assertTrue(rows("EXPLAIN SELECT * FROM r WHERE k = 3").get(0).startsWith("full scan"));
        run("CREATE INDEX r_k ON r (k)"); // the name is free again
        assertEquals(List.of("2"), rows("SELECT id FROM r WHERE k = 2"));
    }

    @Test
    void addColumnGivesOldRowsTheDefault() throws SQLException {
        run("CREATE TABLE a (id INT PRIMARY KEY, x INT)");
        run("INSERT INTO a VALUES (1, 10), (2, 20)");
        run("ALTER TABLE a ADD COLUMN note VARCHAR(10) DEFAULT 'new'");
        run("ALTER TABLE a ADD n2 INT");
        run("INSERT INTO a (id, x) VALUES (3, 30)");
        run("UPDATE a SET n2 = 7 WHERE id = 2");
        assertEquals(List.of("1|10|new|null", "2|20|new|7", "3|30|new|null"), rows("SELECT * FROM a ORDER BY id"));
        assertEquals("23502", state("ALTER TABLE a ADD COLUMN must INT NOT NULL"));
        assertEquals("0A000", state("ALTER TABLE a DROP COLUMN x"));
    }
}
