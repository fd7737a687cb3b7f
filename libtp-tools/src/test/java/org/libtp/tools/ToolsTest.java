package org.libtp.tools;

import org.libtp.core.testkit.ChildJvm;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.Transaction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.io.RandomAccessFile;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Each subcommand through picocli with captured output, on environments made for it. */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class ToolsTest {
    @TempDir
    Path dir;

    record Run(int status, String out, String err) {
    }

    static Run libtp(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        CommandLine c = Libtp.commandLine();
        c.setOut(new PrintWriter(out, true));
        c.setErr(new PrintWriter(err, true));
        int status = c.execute(args);
        return new Run(status, out.toString(), err.toString());
    }

    private Path environment() throws Exception {
        Path env = dir.resolve("env");
        Files.createDirectories(env);
        try (Environment e = Environment.open(env, EnvironmentConfig.defaults());
             Database db = e.openDatabase(null, "people", DatabaseConfig.builder().allowCreate(true).build())) {
            for (int i = 0; i < 500; i++) {
                db.put(null, ("key" + i).getBytes(StandardCharsets.UTF_8), ("value " + i).getBytes(StandardCharsets.UTF_8));
            }
        }
        try (Environment e = Environment.open(env, EnvironmentConfig.defaults());
             Database events = e.openDatabase(null, "events", DatabaseConfig.builder().allowCreate(true)
                     .type(org.libtp.db.DatabaseType.RECNO).recordLength(8).build())) { // as TPC-B's history
            for (long n = 1; n <= 3; n++) {
                events.put(null, n, ("event-" + n + "!").getBytes(StandardCharsets.UTF_8)); // 8 bytes
            }
            assertEquals(org.libtp.db.DatabaseType.RECNO, e.databaseType("events"));
            assertEquals(org.libtp.db.DatabaseType.BTREE, e.databaseType("people"));
            assertEquals(null, e.databaseType("nope"));
        }
        try (Connection c = DriverManager.getConnection("jdbc:libtp:" + env);
             Statement s = c.createStatement()) {
            s.execute("CREATE TABLE item (id INT PRIMARY KEY, name VARCHAR(20))");
            s.execute("CREATE INDEX item_name ON item (name)");
            s.execute("INSERT INTO item VALUES (1, 'tea'), (2, 'cake')");
        }
        return env;
    }

    @Test
    void statShowsEverySectionAndEveryDatabase() throws Exception {
        Path env = environment();
        Run r = libtp("stat", env.toString());
        assertEquals(0, r.status(), r.err());
        for (String s : new String[] {"log: end", "locks:", "cache:", "transactions:", "database people: 500 entries",
            "database events: 3 entries, 2 pages (1 leaves", "database sql.schema"}) {
            assertTrue(r.out().contains(s), s + " in " + r.out());
        }
        Run j = libtp("stat", env.toString(), "--json", "--log", "--db", "people");
        assertEquals(0, j.status(), j.err());
        assertTrue(j.out().startsWith("{\"log\":{\"endLsn\":\"("), j.out());
        assertTrue(j.out().contains("\"people\":{\"levels\":"), j.out());
        assertTrue(!j.out().contains("\"locks\""), j.out());
        Run missing = libtp("stat", env.toString(), "--db", "nope");
        assertEquals(3, missing.status());
        assertTrue(missing.err().contains("no database nope"), missing.err());
    }

    @Test
    void aPathThatIsNoEnvironmentIsRefusedAndNotCreated() {
        Run r = libtp("stat", dir.resolve("typo").toString());
        assertEquals(3, r.status());
        assertTrue(r.err().contains("is not a directory"), r.err());
        Run empty = libtp("verify", dir.toString());
        assertEquals(3, empty.status());
        assertTrue(empty.err().contains("is not a LibTP environment"), empty.err());
        assertTrue(!Files.exists(dir.resolve("__libtp.anchor")), "nothing created");
        assertEquals(2, libtp("stat").status(), "DIR is required");
        assertEquals(2, libtp("frobnicate").status());
        assertEquals(0, libtp("--help").status());
        assertEquals(0, libtp("verify", "--help").status());
    }

    @Test
    void verifyIsCleanThenFindsADamagedPage() throws Exception {
        Path env = environment();
        Run ok = libtp("verify", env.toString());
        assertEquals(0, ok.status(), ok.out() + ok.err());
        assertTrue(ok.out().contains("database people: ok") && ok.out().contains("SQL indexes: ok"), ok.out());
        assertTrue(ok.out().contains("database events: ok"), "a recno database: " + ok.out());
        // Damage a leaf of "people" while the environment is closed.
        try (RandomAccessFile f = new RandomAccessFile(env.resolve("people.db").toFile(), "rw")) {
            f.seek(4096 + 2000);
            f.write(new byte[] {1, 2, 3, 4, 5, 6, 7, 8});
        }
        Run bad = libtp("verify", env.toString());
        assertEquals(1, bad.status(), bad.out() + bad.err());
        assertTrue(bad.out().contains("database people:") && bad.out().contains("problem"), bad.out());
    }

    @Test
    void checkpointArchiveAndPrintlog() throws Exception {
        Path env = environment();
        Run c = libtp("checkpoint", env.toString());
        assertEquals(0, c.status(), c.err());
        assertTrue(c.out().contains("checkpoint taken"), c.out());
        Run a = libtp("archive", env.toString());
        assertEquals(0, a.status(), a.err());
        Run p = libtp("printlog", env.toString());
        assertEquals(0, p.status(), p.err());
        assertTrue(p.out().contains("CHECKPOINT") && p.out().contains("TXN_COMMIT"), p.out().substring(0, 300));
        assertTrue(p.out().contains("BTREE_INSERT file ") && !p.out().contains("UNDECODABLE"),
                "the B-tree's records through its registered codec: " + p.out().substring(0, 300));
        // Filters: records of one transaction; records from an LSN on.
        String commit = p.out().lines().filter(l -> l.contains("TXN_COMMIT")).reduce((a1, b) -> b).orElseThrow();
        String id = commit.split(" ")[2];
        Run one = libtp("printlog", env.toString(), "--txn", id);
        assertEquals(0, one.status(), one.err());
        assertTrue(!one.out().isEmpty() && one.out().lines().allMatch(l -> l.split(" ")[2].equals(id)), one.out());
        String lsn = commit.substring(0, commit.indexOf(')') + 1);
        Run tail = libtp("printlog", env.toString(), "--from", lsn);
        assertTrue(tail.out().lines().filter(l -> l.startsWith("(")).findFirst().orElseThrow().startsWith(lsn), tail.out());
        assertEquals(2, libtp("printlog", env.toString(), "--from", "nonsense").status());
    }

    /** Child: opens the environment with a 16 MiB cache, commits, prints READY, then waits to be killed. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            Environment e = Environment.open(Path.of(args[0]), EnvironmentConfig.builder().cacheBytes(16 << 20).build());
            Database db = e.openDatabase(null, "people", DatabaseConfig.defaults());
            db.put(null, "held".getBytes(StandardCharsets.UTF_8), "yes".getBytes(StandardCharsets.UTF_8));
            System.out.println("READY");
            Thread.sleep(120_000);
        }
    }

    @Test
    void toolsJoinARunningApplicationAndRecoverAfterItIsKilled() throws Exception {
        Path env = environment();
        try (ChildJvm child = ChildJvm.start(Holder.class, env.toString())) {
            child.awaitLine("READY", Duration.ofSeconds(60));
            Run s = libtp("stat", env.toString());
            assertEquals(0, s.status(), "joins with the application's 16 MiB cache: " + s.err());
            assertTrue(s.out().contains("of 4096 frames"), s.out());
            Run q = libtp("sql", env.toString(), "-c", "SELECT count(*) AS n FROM item");
            assertEquals(0, q.status(), "the shell joins with the application's settings too: " + q.err());
            assertTrue(q.out().contains("2" + System.lineSeparator() + "(1 row)"), q.out());
            Run d = libtp("dump", "--sql", env.toString());
            assertEquals(0, d.status(), d.err());
            child.kill();
        }
        Run r = libtp("recover", env.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("recovered"), r.out());
        Run v = libtp("verify", env.toString());
        assertEquals(0, v.status(), v.out());
    }

    @Test
    void backupRestoreAndCatastrophicRecovery() throws Exception {
        Path env = environment();
        Path backup = dir.resolve("backup");
        Run b = libtp("backup", env.toString(), backup.toString());
        assertEquals(0, b.status(), b.err());
        assertTrue(b.out().startsWith("backup into") && b.err().isEmpty(), b.out() + b.err());
        try (Environment e = Environment.open(env, EnvironmentConfig.builder().keepLogFiles(true).build());
             Database db = e.openDatabase(null, "people", DatabaseConfig.defaults())) {
            db.put(null, "later".getBytes(StandardCharsets.UTF_8), "x".getBytes(StandardCharsets.UTF_8));
        }
        Run inc = libtp("backup", "--incremental", env.toString(), backup.toString());
        assertEquals(0, inc.status(), inc.err());
        assertTrue(inc.out().startsWith("incremental backup"), inc.out());
        Run again = libtp("backup", env.toString(), backup.toString());
        assertEquals(3, again.status());
        assertTrue(again.err().contains("not empty") && again.err().contains("incremental"), again.err());
        Path restored = dir.resolve("restored");
        Run r = libtp("restore", backup.toString(), restored.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("restored"), r.out());
        Run v = libtp("verify", restored.toString());
        assertEquals(0, v.status(), v.out() + v.err());
        try (Environment e = Environment.open(restored, EnvironmentConfig.defaults());
             Database db = e.openDatabase(null, "people", DatabaseConfig.defaults())) {
            assertEquals("x", new String(db.get(null, "later".getBytes(StandardCharsets.UTF_8)), StandardCharsets.UTF_8));
        }
        Run twice = libtp("restore", backup.toString(), restored.toString());
        assertEquals(3, twice.status());
        assertTrue(twice.err().contains("not empty"), twice.err());
        Run notBackup = libtp("restore", env.toString(), dir.resolve("r2").toString());
        assertEquals(3, notBackup.status());
        assertTrue(notBackup.err().contains("holds no LibTP backup"), notBackup.err());
        Run c = libtp("recover", "--catastrophic", restored.toString());
        assertEquals(0, c.status(), c.err());
        assertTrue(c.out().contains("catastrophically"), c.out());
    }

    /**
     * The repairs a refused open names, from the command line: the log files deleted after a
     * clean close (the open refuses, naming the command), then the file registry.
     */
    @Test
    void repairStartsANewLogAndRebuildsTheRegistryWhereTheOpenRefuses() throws Exception {
        Path env = environment();
        Run usage = libtp("repair", env.toString());
        assertEquals(2, usage.status(), "one repair must be named");
        try (var files = Files.list(env)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                if (p.getFileName().toString().startsWith("log.")) {
                    Files.delete(p);
                }
            }
        }
        Run refused = libtp("verify", env.toString());
        assertEquals(3, refused.status(), refused.out());
        assertTrue(refused.err().contains("libtp repair --reset-log"), refused.err());
        Run reset = libtp("repair", "--reset-log", env.toString());
        assertEquals(0, reset.status(), reset.err());
        assertTrue(reset.out().startsWith("started a new log for " + env) && reset.out().contains("libtp verify"),
                reset.out());
        Run v = libtp("verify", env.toString());
        assertEquals(0, v.status(), v.out() + v.err());
        Files.delete(env.resolve("__libtp.files"));
        refused = libtp("verify", env.toString());
        assertEquals(3, refused.status(), refused.out());
        assertTrue(refused.err().contains("libtp repair --rebuild-registry"), refused.err());
        Run rebuilt = libtp("repair", "--rebuild-registry", env.toString());
        assertEquals(0, rebuilt.status(), rebuilt.err());
        assertTrue(rebuilt.out().contains("data files"), rebuilt.out());
        try (Environment e = Environment.open(env, EnvironmentConfig.defaults());
             Database db = e.openDatabase(null, "people", DatabaseConfig.defaults())) {
            assertEquals("value 499", new String(db.get(null, "key499".getBytes(StandardCharsets.UTF_8)),
                    StandardCharsets.UTF_8));
        }
        Run notEnv = libtp("repair", "--reset-log", dir.resolve("nowhere").toString());
        assertEquals(3, notEnv.status());
        assertTrue(notEnv.err().contains("is not a directory"), notEnv.err());
    }

    @Test
    void theProgressBarIsOneLineAndOnlyOnATerminal() {
        StringWriter w = new StringWriter();
        ProgressBar bar = new ProgressBar(new PrintWriter(w), "backup", "B", true);
        assertEquals("backup [###############               ]  50% 5.0 MB / 10.0 MB  1.5 s", bar.line(5_000_000, 10_000_000, 1500));
        assertEquals("load 0.3 MB  0.1 s", new ProgressBar(new PrintWriter(w), "load", "B", true).line(300_000, 0, 100));
        bar.at(1, 2);
        bar.close();
        assertTrue(w.toString().startsWith("\rbackup [") && w.toString().endsWith(System.lineSeparator()), w.toString());
        StringWriter quiet = new StringWriter();
        try (ProgressBar q = ProgressBar.of(new PrintWriter(quiet), "x", "B", false)) {
            q.at(1, 2); // tests run without a console
        }
        assertEquals("", quiet.toString());
    }

    /** Child: writes key {@code args[1]} in a transaction it keeps open; prints a line once it has the lock (or waits). */
    public static final class Locker {
        public static void main(String[] args) throws Exception {
            Environment e = Environment.open(Path.of(args[0]), EnvironmentConfig.builder().lockTimeoutMillis(120_000).build());
            Database db = e.openDatabase(null, "people", DatabaseConfig.defaults());
            Transaction t = e.beginTransaction();
            System.out.println("TXN " + t.id());
            db.put(t, "key1".getBytes(StandardCharsets.UTF_8), args[1].getBytes(StandardCharsets.UTF_8));
            System.out.println("HELD");
            Thread.sleep(120_000);
        }
    }

    @Test
    void locksShowHoldersWaitersAndTheWaitsForGraph() throws Exception {
        Path env = environment();
        try (ChildJvm holder = ChildJvm.start(Locker.class, env.toString(), "a")) {
            String holderTxn = holder.awaitLine("TXN ", Duration.ofSeconds(60)).substring(4);
            holder.awaitLine("HELD", Duration.ofSeconds(60));
            try (ChildJvm waiter = ChildJvm.start(Locker.class, env.toString(), "b")) {
                String waiterTxn = waiter.awaitLine("TXN ", Duration.ofSeconds(60)).substring(4);
                Run r = null;
                long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
                while (System.nanoTime() < deadline) {
                    r = libtp("locks", env.toString());
                    if (r.out().contains("txn " + waiterTxn + " -> txn " + holderTxn)) {
                        break;
                    }
                    Thread.sleep(100);
                }
                assertEquals(0, r.status(), r.err());
                assertTrue(r.out().contains("txn " + waiterTxn + " -> txn " + holderTxn), r.out());
                assertTrue(r.out().contains("people.db page") && r.out().contains("held by txn " + holderTxn + " WRITE")
                        && r.out().contains("waiting: txn " + waiterTxn), r.out());
                assertTrue(r.out().contains("pid " + holder.pid()) && r.out().contains("pid " + waiter.pid())
                        && r.out().contains("(this tool)"), r.out());
                assertTrue(r.out().contains("txn " + holderTxn + "  running  process slot"), r.out());
                Run j = libtp("locks", "--json", env.toString());
                assertTrue(j.out().contains("\"waitsFor\":[[" + waiterTxn + "," + holderTxn + "]]"), j.out());
                Run d = libtp("deadlock", env.toString());
                assertEquals(0, d.status(), d.err());
                assertEquals("deadlock: no waits-for cycle" + System.lineSeparator(), d.out());
                Run s = libtp("stat", "--processes", env.toString());
                assertTrue(s.out().contains("pid " + holder.pid()) && s.out().contains("this tool"), s.out());
                waiter.kill();
            }
            holder.kill();
        }
    }
}
