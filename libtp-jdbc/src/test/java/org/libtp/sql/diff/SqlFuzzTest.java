package org.libtp.sql.diff;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the SQL layer through JDBC (jqwik): valid statements mutated (characters and tokens
 * deleted, inserted, swapped, repeated; the text cut short), random token soup, and pathological
 * shapes (deep nesting, long lists, huge literals). Whatever the text, the driver answers with a
 * result or an {@link SQLException} — never another exception or an {@link Error} — and the
 * connection stays usable. Each try runs in a transaction that is rolled back, so a mutated DROP
 * or DELETE does not leave the next try without data. jqwik prints the seed; a failure shrinks
 * to a short statement.
 */
class SqlFuzzTest {
    private static Path dir;
    private static Connection c;

    static final List<String> CORPUS = List.of(
            "SELECT * FROM t WHERE id = 1",
            "SELECT id, name, amount * 2 AS twice FROM t WHERE name LIKE 'a%' AND amount BETWEEN 1 AND 10 ORDER BY amount DESC, id LIMIT 5 OFFSET 1",
            "SELECT t.id, u.note FROM t LEFT JOIN u ON u.tid = t.id WHERE u.note IS NOT NULL",
            "SELECT name, COUNT(*), SUM(amount), AVG(amount), MIN(id), MAX(id) FROM t GROUP BY name HAVING COUNT(*) > 1",
            "SELECT DISTINCT name FROM t ORDER BY name FETCH FIRST 2 ROWS ONLY",
            "SELECT * FROM t WHERE (id IN (1, 2, 3)) OR NOT (amount < 0.5) OR name IS NULL",
            "SELECT 1 + 2 * 3, 'a' || 'b', CAST(1.5 AS INT), COALESCE(NULL, 2), ABS(-3), LENGTH('xyz')",
            "SELECT * FROM t FOR UPDATE",
            "EXPLAIN SELECT * FROM t WHERE id > 1",
            "INSERT INTO t VALUES (10, 'x', 1.25, DATE '2024-01-02', TRUE)",
            "INSERT INTO t (id, name) VALUES (11, 'y'), (12, NULL)",
            "INSERT INTO t SELECT id + 100, name, amount, d, flag FROM t",
            "INSERT INTO t VALUES (1, 'z', 0, NULL, NULL) ON CONFLICT (id) DO UPDATE SET name = EXCLUDED.name",
            "UPDATE t SET amount = amount + 1, name = name || '!' WHERE id = 2",
            "DELETE FROM t WHERE amount > 100 OR d < DATE '2000-01-01'",
            "CREATE TABLE IF NOT EXISTS w (k BIGINT PRIMARY KEY, v VARCHAR(10) NOT NULL DEFAULT 'q', b VARBINARY(4))",
            "CREATE UNIQUE INDEX t_name ON t (name, amount DESC)",
            "ALTER TABLE t ADD COLUMN extra SMALLINT DEFAULT 3",
            "DROP TABLE IF EXISTS u",
            "DROP INDEX u_tid",
            "SELECT * FROM t WHERE d = DATE '2024-02-30' OR ts > TIMESTAMP '2024-01-01 00:00:00'",
            "SELECT x'00ff', 1e308 * 10, 9223372036854775807 + 1, -2147483648, 1/0");

    private static final List<String> TOKENS = List.of("SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "NULL", "IS",
            "IN", "BETWEEN", "LIKE", "ORDER", "BY", "GROUP", "HAVING", "LIMIT", "OFFSET", "JOIN", "LEFT", "ON",
            "INSERT", "INTO", "VALUES", "UPDATE", "SET", "DELETE", "CREATE", "TABLE", "INDEX", "DROP", "ALTER",
            "ADD", "COLUMN", "PRIMARY", "KEY", "UNIQUE", "DEFAULT", "CAST", "AS", "DISTINCT", "COUNT(*)", "SUM",
            "CASE", "WHEN", "THEN", "ELSE", "END", "UNION", "EXISTS", "(", ")", ",", ";", "*", "+", "-", "/", "%",
            "||", "=", "<>", "<", ">=", "?", "'", "''", "\"", "`", ".", "t", "u", "id", "name", "amount", "t.id",
            "1", "0", "-1", "2147483648", "9223372036854775808", "1.5", "1e400", "'a'", "'日本'", "x'0g'",
            "DATE '2024-13-01'", "TRUE", "FALSE", "--", "/*", "*/", "\\", "\u0000", "\uD800", "😀", " ", "\n");

    @BeforeContainer
    static void open() throws Exception {
        dir = Files.createTempDirectory("sql-fuzz");
        c = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db") + ";create=true;durability=no_sync"
                + ";lock_timeout=2000");
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10), amount DECIMAL(8,2), d DATE, flag BOOLEAN,"
                    + " ts TIMESTAMP)");
            s.execute("CREATE TABLE u (id INT PRIMARY KEY, tid INT, note VARCHAR(20))");
            s.execute("CREATE INDEX u_tid ON u (tid)");
            s.execute("INSERT INTO t VALUES (1, 'a', 1.50, DATE '2024-01-01', TRUE, NULL), (2, 'ab', 20, NULL, FALSE,"
                    + " TIMESTAMP '2024-05-06 07:08:09'), (3, NULL, -3, DATE '1999-12-31', NULL, NULL)");
            s.execute("INSERT INTO u VALUES (1, 1, 'n1'), (2, 1, NULL), (3, 3, 'n3')");
        }
        c.setAutoCommit(false);
    }

    @AfterContainer
    static void close() throws Exception {
        c.close();
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        }
    }

    /** Runs {@code sql} as a Statement and as a PreparedStatement (parameters set to 1); only SQLException may come out. */
    private static void survives(String sql) {
        try {
            try (Statement s = c.createStatement()) {
                if (s.execute(sql)) {
                    try (ResultSet r = s.getResultSet()) {
                        int n = r.getMetaData().getColumnCount();
                        while (r.next()) {
                            for (int i = 1; i <= n; i++) {
                                r.getObject(i);
                                r.getString(i);
                            }
                        }
                    }
                }
            } catch (SQLException expected) {
                // any SQLException is an answer
            }
            try (PreparedStatement p = c.prepareStatement(sql)) {
                int n = p.getParameterMetaData().getParameterCount();
                for (int i = 1; i <= n; i++) {
                    p.setInt(i, 1);
                }
                p.execute();
            } catch (SQLException expected) {
                // any SQLException is an answer
            }
        } catch (Throwable t) {
            fail("not an SQLException for: " + shorten(sql) + "\n  " + t, t);
        } finally {
            try {
                c.rollback();
            } catch (SQLException e) {
                fail("rollback after: " + shorten(sql) + ": " + e, e);
            }
        }
        // The connection still answers and the tables are as they were.
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM t")) {
            assertTrue(r.next());
            assertEquals(3, r.getInt(1), "after: " + shorten(sql));
        } catch (SQLException e) {
            fail("the connection is unusable after: " + shorten(sql) + ": " + e, e);
        }
    }

    private static String shorten(String sql) {
        String s = sql.replace("\n", "\\n");
        return s.length() <= 300 ? s : s.substring(0, 200) + " ... (" + s.length() + " characters) ... "
                + s.substring(s.length() - 60);
    }

    @Provide
    Arbitrary<String> mutated() {
        Arbitrary<String> base = Arbitraries.of(CORPUS);
        Arbitrary<String> token = Arbitraries.of(TOKENS);
        Arbitrary<Integer> where = Arbitraries.integers().between(0, 1000);
        Arbitrary<Integer> kind = Arbitraries.integers().between(0, 5);
        Arbitrary<String> once = Combinators.combine(base, kind, where, where, token).as((s, k, a, b, tok) -> {
            int i = a % (s.length() + 1);
            int j = Math.min(s.length(), i + b % 12);
            return switch (k) {
                case 0 -> s.substring(0, i) + s.substring(j);                      // delete a run
                case 1 -> s.substring(0, i) + " " + tok + " " + s.substring(i);     // insert a token
                case 2 -> s.substring(0, i);                                        // cut short
                case 3 -> s.substring(0, i) + s.substring(i, j) + s.substring(i);   // repeat a run
                case 4 -> s.substring(0, i) + tok + s.substring(j);                 // replace a run
                default -> s.substring(j) + " " + s.substring(0, i);                // rotate
            };
        });
        return once.flatMap(s -> Combinators.combine(kind, where, token).as((k, a, tok) -> k < 3 ? s
                : s.substring(0, a % (s.length() + 1)) + " " + tok + " " + s.substring(a % (s.length() + 1))));
    }

    @Provide
    Arbitrary<String> soup() {
        return Arbitraries.of(TOKENS).list().ofMinSize(1).ofMaxSize(25).map(l -> String.join(" ", l));
    }

    @Property(tries = 400)
    void mutatedStatementsGiveOnlySqlExceptions(@ForAll("mutated") String sql) {
        survives(sql);
    }

    @Property(tries = 300)
    void tokenSoupGivesOnlySqlExceptions(@ForAll("soup") String sql) {
        survives(sql);
    }

    @Property(tries = 30)
    void pathologicalShapes(@ForAll("depths") int n) {
        List<String> shapes = new ArrayList<>();
        shapes.add("SELECT " + "(".repeat(n) + "1" + ")".repeat(n));
        shapes.add("SELECT * FROM t WHERE " + "NOT ".repeat(n) + "id = 1");
        shapes.add("SELECT * FROM t WHERE " + "id = 1 OR ".repeat(n) + "id = 2");
        shapes.add("SELECT " + "1 + ".repeat(n) + "1");
        shapes.add("SELECT * FROM t WHERE id IN (" + "1, ".repeat(n) + "2)");
        shapes.add("SELECT '" + "x".repeat(n * 100) + "'");
        shapes.add("SELECT " + "9".repeat(n) + " FROM t");
        shapes.add("SELECT id FROM t " + "JOIN u ON 1 = 1 ".repeat(Math.min(n, 6)));
        for (String s : shapes) {
            survives(s);
        }
    }

    @Provide
    Arbitrary<Integer> depths() {
        return Arbitraries.of(1, 10, 100, 1000, 3000);
    }
}
