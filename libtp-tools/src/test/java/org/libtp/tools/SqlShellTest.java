package org.libtp.tools;

import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The SQL shell from standard input, from -c, and on a terminal (JLine over piped streams), and dump --sql. */
class SqlShellTest {
    @TempDir
    Path dir;

    private static ToolsTest.Run withStdin(String input, String... args) {
        InputStream saved = System.in;
        System.setIn(new ByteArrayInputStream(input.getBytes(StandardCharsets.UTF_8)));
        try {
            return ToolsTest.libtp(args);
        } finally {
            System.setIn(saved);
        }
    }

    private Path env() throws Exception {
        Path e = dir.resolve("env");
        Files.createDirectories(e);
        return e;
    }

    @Test
    void aSessionFromStandardInput() throws Exception {
        Path e = env();
        ToolsTest.Run r = withStdin("""
                CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20), price DECIMAL(8,2));
                INSERT INTO item VALUES (1, 'tea', 2.50),
                  (2, 'it''s; not the end', NULL); -- a comment; with a semicolon
                SELECT * FROM item ORDER BY id;
                .tables
                .schema item
                SELECT nope FROM item;
                BEGIN;
                DELETE FROM item;
                ROLLBACK;
                SELECT count(*) AS n FROM item
                """, "sql", "--create", e.toString());
        assertEquals(1, r.status(), "one statement failed: " + r.err());
        assertTrue(r.err().contains("Error: column NOPE does not exist (SQLState 42S22)"), r.err());
        String expected = String.join(System.lineSeparator(),
                "2 rows changed",
                "ID | NAME              | PRICE",
                "---+-------------------+------",
                " 1 | tea               |  2.50",
                " 2 | it's; not the end |  NULL",
                "(2 rows)",
                "ITEM",
                "CREATE TABLE ITEM (",
                "  ID INTEGER NOT NULL,",
                "  NAME VARCHAR(20),",
                "  PRICE DECIMAL(8,2),",
                "  PRIMARY KEY (ID)",
                ");",
                "2 rows changed",
                "N",
                "-",
                "2",
                "(1 row)", "");
        assertEquals(expected, r.out());
        ToolsTest.Run c = ToolsTest.libtp("sql", e.toString(), "-c", "SELECT name FROM item WHERE id = 1; .timer on", "-c",
                "SELECT 1 AS one");
        assertEquals(0, c.status(), c.err());
        assertTrue(c.out().startsWith("NAME" + System.lineSeparator()) && c.out().contains("Time: "), c.out());
        ToolsTest.Run bail = withStdin("SELECT nope FROM item;\nSELECT 1 AS one;\n", "sql", "--bail", e.toString());
        assertEquals(1, bail.status());
        assertTrue(!bail.out().contains("ONE"), "stopped at the first error: " + bail.out());
        ToolsTest.Run unknown = ToolsTest.libtp("sql", e.toString(), "-c", ".frob");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().contains("unknown command .frob"), unknown.err());
        ToolsTest.Run noEnv = ToolsTest.libtp("sql", dir.resolve("typo").toString(), "-c", "SELECT 1");
        assertEquals(3, noEnv.status());
    }

    @Test
    void readRunsAFile() throws Exception {
        Path e = env();
        Path script = dir.resolve("s.sql");
        Files.writeString(script, "CREATE TABLE t (a INT PRIMARY KEY);\nINSERT INTO t VALUES (7);\n.read " + script + "\n");
        ToolsTest.Run r = ToolsTest.libtp("sql", "--create", e.toString(), "-c", ".read " + script);
        assertEquals(1, r.status(), "the nested .read fails on the existing table, and at most 17 levels deep: " + r.err());
        assertTrue(r.err().contains("nested too deeply"), r.err());
        ToolsTest.Run q = ToolsTest.libtp("sql", e.toString(), "-c", "SELECT a FROM t", "-c", ".read /no/such/file");
        assertTrue(q.out().contains("7" + System.lineSeparator() + "(1 row)") && q.err().contains("no such file"), q.out() + q.err());
    }

    @Test
    void createMakesAMissingDirectoryAndTheRefusalSaysHow() throws Exception {
        Path fresh = dir.resolve("no/such/env");
        ToolsTest.Run refused = ToolsTest.libtp("sql", fresh.toString(), "-c", "SELECT 1");
        assertEquals(3, refused.status(), refused.err());
        assertTrue(refused.err().contains("libtp sql --create " + fresh), refused.err());
        ToolsTest.Run made = ToolsTest.libtp("sql", "--create", fresh.toString(), "-c",
                "CREATE TABLE t (a INT PRIMARY KEY)", "-c", "INSERT INTO t VALUES (3)");
        assertEquals(0, made.status(), made.err());
        ToolsTest.Run q = ToolsTest.libtp("sql", fresh.toString(), "-c", "SELECT a FROM t");
        assertTrue(q.out().contains("3" + System.lineSeparator() + "(1 row)"), q.out() + q.err());
    }

    /** The prompts a screen shows so far. */
    private static int prompts(ByteArrayOutputStream screen) {
        String s = screen.toString(StandardCharsets.UTF_8);
        int n = 0;
        for (int at = 0; (at = s.indexOf("> ", at)) >= 0; at += 2) {
            if (s.startsWith("libtp> ", Math.max(0, at - 5)) || s.startsWith("...> ", Math.max(0, at - 3))) {
                n++;
            }
        }
        return n;
    }

    /**
     * A terminal session typed as a person types it, each line once the shell has prompted for it:
     * prompts, a statement over two lines, '!=' (SQL, not a history expansion), .schema, .quit;
     * history written.
     */
    @Test
    void anInteractiveSessionOnATerminal() throws Exception {
        Path e = env();
        List<String> typed = List.of("CREATE TABLE t (a INT PRIMARY KEY, b VARCHAR(5));",
                "INSERT INTO t VALUES (1, 'x'), (2, 'y');", "SELECT * FROM t", "  WHERE a != 2;", ".schema t", ".quit");
        ByteArrayOutputStream screen = new ByteArrayOutputStream(); // synchronized: the typist reads it
        Path history = dir.resolve("history");
        java.io.PipedOutputStream keys = new java.io.PipedOutputStream();
        java.io.PipedInputStream in = new java.io.PipedInputStream(keys, 1 << 16);
        Thread typist = new Thread(() -> {
            try {
                for (int i = 0; i < typed.size(); i++) {
                    long deadline = System.nanoTime() + 30_000_000_000L;
                    while (prompts(screen) <= i && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                    keys.write((typed.get(i) + "\r").getBytes(StandardCharsets.UTF_8));
                    keys.flush();
                }
                Thread.sleep(60_000); // a terminal's input stays open: .quit ends the session
            } catch (IOException | InterruptedException end) {
                // the session is over
            }
        }, "typist");
        typist.setDaemon(true);
        try (Connection c = DriverManager.getConnection("jdbc:libtp:" + e);
             Terminal t = TerminalBuilder.builder().system(false).type("dumb").encoding(StandardCharsets.UTF_8)
                     .streams(in, screen).build()) {
            typist.start();
            SqlShell shell = new SqlShell(c, t.writer(), new PrintWriter(new StringWriter(), true));
            SqlCommand.interactive(shell, t, history);
            t.writer().flush();
            assertEquals(0, shell.errors());
        } finally {
            typist.interrupt();
            keys.close();
        }
        String s = screen.toString(StandardCharsets.UTF_8);
        assertTrue(s.contains("libtp> "), s);
        assertTrue(s.contains("   ...> "), "continuation prompt: " + s);
        assertTrue(s.contains("1 | x") && !s.contains("2 | y"), "'!=' is SQL, not a history expansion: " + s);
        assertTrue(s.contains("CREATE TABLE T ("), s);
        List<String> h = Files.readAllLines(history);
        assertTrue(h.stream().anyMatch(l -> l.contains("INSERT INTO t")), "history file: " + h);
    }

    @Test
    void dumpSqlLoadsBackTheSameTables() throws Exception {
        Path e = env();
        ToolsTest.Run make = ToolsTest.libtp("sql", "--create", e.toString(), "-c", """
                CREATE TABLE "odd name" (k BIGINT AUTO_INCREMENT PRIMARY KEY, b VARBINARY(10), f DOUBLE, t TIMESTAMP,
                  tm TIME, d DATE, ok BOOLEAN, c CHAR(3) DEFAULT 'x' NOT NULL, n DECIMAL(20,5), s VARCHAR(30));
                CREATE UNIQUE INDEX ix ON "odd name" (f DESC, ok);
                CREATE TABLE two (a INT, b INT, PRIMARY KEY (a DESC, b));
                INSERT INTO "odd name" (b, f, t, tm, d, ok, n, s) VALUES (X'00ff', 1.5e10, TIMESTAMP '2026-11-25 10:00:00.123',
                  TIME '10:11:12', DATE '1999-12-31', TRUE, -12345.67891, 'quote '' and ; and "');
                INSERT INTO "odd name" (f) VALUES (-0.25);
                INSERT INTO two VALUES (1, 2), (3, 4);
                """);
        assertEquals(0, make.status(), make.err());
        Path file = dir.resolve("dump.sql");
        ToolsTest.Run d = ToolsTest.libtp("dump", "--sql", e.toString(), "--file", file.toString());
        assertEquals(0, d.status(), d.err());
        String text = Files.readString(file);
        assertTrue(text.contains("PRIMARY KEY (A DESC, B)") && text.contains("CREATE UNIQUE INDEX IX ON \"odd name\" (F DESC, OK)"),
                text);
        Path copy = dir.resolve("copy");
        Files.createDirectories(copy);
        ToolsTest.Run load = withStdin(text, "sql", "--create", copy.toString());
        assertEquals(0, load.status(), load.err());
        ToolsTest.Run again = ToolsTest.libtp("dump", "--sql", copy.toString());
        assertEquals(text.substring(text.indexOf('\n')), again.out().substring(again.out().indexOf('\n')),
                "the copy dumps the same statements");
        ToolsTest.Run one = ToolsTest.libtp("dump", "--sql", "--table", "two", e.toString());
        assertTrue(one.out().contains("CREATE TABLE TWO") && !one.out().contains("odd name"), one.out());
        assertEquals(3, ToolsTest.libtp("dump", "--sql", "--table", "nope", e.toString()).status());
    }
}
