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
    void orderByFromTheKeyOrAnIndexAndParenthesizedConditionsArePlanned() throws SQLException {
        run("CREATE TABLE q (id INT PRIMARY KEY, a INT, b VARCHAR(5), c BIGINT)");
        run("CREATE INDEX q_a ON q (a)");
        run("CREATE INDEX q_bc ON q (b, c DESC)");
        Random rnd = new Random(11);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO q VALUES (?, ?, ?, ?)")) {
            for (int i = 0; i < 200; i++) {
                p.setInt(1, i);
                p.setObject(2, rnd.nextInt(8) == 0 ? null : rnd.nextInt(20));
                p.setString(3, "b" + rnd.nextInt(4));
                p.setLong(4, rnd.nextInt(50) - 25);
                p.addBatch();
            }
            p.executeBatch();
        }
        // Each query, its plan, and the same query made unplannable (+ 0, || ''): same rows, same order.
        String[][] shapes = {
            {"SELECT id, a FROM q WHERE a > 5 ORDER BY a, id", "index Q_A range of Q (A bounded)",
                "SELECT id, a FROM q WHERE a + 0 > 5 ORDER BY a, id"},
            {"SELECT id, a FROM q WHERE a >= 3 ORDER BY a DESC, id DESC", "index Q_A range of Q (A bounded), backwards",
                "SELECT id, a FROM q WHERE a + 0 >= 3 ORDER BY a DESC, id DESC"},
            {"SELECT id, c FROM q WHERE b = 'b2' ORDER BY c DESC, id", "index Q_BC range of Q (B equal)",
                "SELECT id, c FROM q WHERE b || '' = 'b2' ORDER BY c DESC, id"},
            {"SELECT id, c FROM q WHERE b = 'b1' ORDER BY c, id DESC", "index Q_BC range of Q (B equal), backwards",
                "SELECT id, c FROM q WHERE b || '' = 'b1' ORDER BY c, id DESC"},
            {"SELECT id FROM q WHERE (id >= 150) ORDER BY id DESC", "primary key range of Q (ID bounded), backwards",
                "SELECT id FROM q WHERE id + 0 >= 150 ORDER BY id DESC"},
            {"SELECT id FROM q WHERE ((a = 4) AND (id > 10)) ORDER BY id", "index Q_A range of Q (A equal)",
                "SELECT id FROM q WHERE a + 0 = 4 AND id + 0 > 10 ORDER BY id"},
            {"SELECT id FROM q WHERE (id = 7)", "primary key lookup of Q (ID)", "SELECT id FROM q WHERE id + 0 = 7"},
            {"SELECT id, a FROM q WHERE a > 5 ORDER BY a NULLS LAST, id", "index Q_A range of Q (A bounded), then sort",
                "SELECT id, a FROM q WHERE a + 0 > 5 ORDER BY a NULLS LAST, id"},
            {"SELECT id, a FROM q WHERE a > 5 ORDER BY a, id DESC", "index Q_A range of Q (A bounded), then sort",
                "SELECT id, a FROM q WHERE a + 0 > 5 ORDER BY a, id DESC"},
        };
        for (String[] s : shapes) {
            assertEquals(s[1], rows("EXPLAIN " + s[0]).get(0), s[0]);
            assertTrue(rows("EXPLAIN " + s[2]).get(0).startsWith("full scan"), s[2]);
            List<String> got = rows(s[0]);
            assertTrue(!got.isEmpty(), s[0] + " has rows");
            assertEquals(rows(s[2]), got, s[0]);
        }
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
