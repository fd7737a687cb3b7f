package org.libtp.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentStats;

import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The soak: a mixed workload on one environment by 4 worker JVMs, one killed with SIGKILL every
 * few seconds and restarted, while this JVM (holding the environment open) takes checkpoints,
 * removes archivable log files and takes hot backups. Workers: JDBC transfers with a log row,
 * durable (0) and no-sync (1); record API transfers with a per-worker counter, durable (2); JDBC
 * transfers with read-only audits of the exact total (3). Every worker prints ACK lines after
 * its commits return.
 *
 * <p>Afterwards (every worker killed): shared-memory use is back at its baseline (no lock,
 * object, transaction slot, pinned frame or process slot left by the dead), every database
 * verifies clean, the totals are exact, each JDBC worker's log rows are 1..n with every acked
 * one there (no-sync ones too, as long as the environment never failed: a no-sync commit is in
 * the shared log buffer, which survives a process), and each record API counter is at least
 * its last ack. A kill that fails the environment (a latch that cannot be repaired in place) is
 * counted, everything is restarted and the run goes on.
 *
 * <p>2 minutes in {@code mvn verify}; {@code -Psoak} runs 30 ({@code -Dlibtp.soak.minutes=N}).
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 120, unit = TimeUnit.MINUTES)
class SoakCrashTest {
    static final int ACCOUNTS = 64;
    static final long INITIAL = 1000;
    static final int WORKERS = 4;
    static final int RECORD_WORKER = 2;

    @TempDir
    Path dir;

    /** Child: args url, worker id, seed. Works until killed. */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            String url = args[0];
            int worker = Integer.parseInt(args[1]);
            Random rnd = new Random(Long.parseLong(args[2]));
            try (Connection c = DriverManager.getConnection(url)) {
                if (worker == RECORD_WORKER) {
                    recordApi(c, worker, rnd);
                } else {
                    jdbc(c, worker, rnd);
                }
            } catch (Throwable e) {
                JdbcCrashTest.Worker.die("WORKER", e);
            }
        }

        static void jdbc(Connection c, int worker, Random rnd) throws SQLException {
            c.setAutoCommit(false);
            int seq = lastSeq(c, worker);
            try (PreparedStatement sel = c.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE");
                 PreparedStatement upd = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?");
                 PreparedStatement log = c.prepareStatement("INSERT INTO log VALUES (?, ?, ?, ?, ?)");
                 PreparedStatement sum = c.prepareStatement("SELECT SUM(balance) FROM account")) {
                System.out.println("READY " + seq);
                while (true) {
                    seq++;
                    int a = rnd.nextInt(ACCOUNTS);
                    int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    long amount = 1 + rnd.nextInt(100);
                    while (true) {
                        try {
                            JdbcCrashTest.transfer(c, sel, upd, log, worker, seq, a, b, amount);
                            System.out.println("ACK " + seq);
                            break;
                        } catch (SQLException e) {
                            if ("08007".equals(e.getSQLState())) {
                                // The environment failed in the commit and was reopened: the
                                // transfer may have committed. Its log row says.
                                c.rollback();
                                if (logged(c, worker, seq)) {
                                    System.out.println("ACK " + seq);
                                    break;
                                }
                                continue;
                            }
                            if (!"40001".equals(e.getSQLState())) {
                                JdbcCrashTest.Worker.die(e.getSQLState(), e);
                            }
                            c.rollback();
                        }
                    }
                    if (worker == 3 && seq % 10 == 0) {
                        audit(c, sum);
                    }
                }
            }
        }

        /** A read-only transaction over every account: under 2PL it sees the exact total. */
        static void audit(Connection c, PreparedStatement sum) throws SQLException {
            c.setReadOnly(true);
            try {
                while (true) {
                    try (ResultSet r = sum.executeQuery()) {
                        r.next();
                        long total = r.getLong(1);
                        c.commit();
                        System.out.println("AUDIT " + total);
                        return;
                    } catch (SQLException e) {
                        if (!"40001".equals(e.getSQLState())) {
                            throw e;
                        }
                        c.rollback();
                    }
                }
            } finally {
                c.setReadOnly(false);
            }
        }

        /** True if transfer {@code seq} of {@code worker} committed (its log row is there). */
        static boolean logged(Connection c, int worker, int seq) throws SQLException {
            while (true) {
                try (Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT COUNT(*) FROM log WHERE worker = " + worker + " AND seq = " + seq)) {
                    r.next();
                    boolean there = r.getInt(1) == 1;
                    c.commit();
                    return there;
                } catch (SQLException e) {
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    c.rollback();
                }
            }
        }

        static int lastSeq(Connection c, int worker) throws SQLException {
            for (int attempt = 1; ; attempt++) {
                try (Statement s = c.createStatement();
                     ResultSet r = s.executeQuery("SELECT MAX(seq) FROM log WHERE worker = " + worker)) {
                    int n = r.next() ? r.getInt(1) : 0;
                    c.commit();
                    return n;
                } catch (SQLException e) {
                    // A lock timeout or deadlock is retried as everywhere else (the start waits 60 s
                    // for READY: a lock nobody ever releases still fails the test).
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    System.out.println("RETRY lastSeq " + attempt + ": " + e.getMessage());
                    c.rollback();
                }
            }
        }

        static void recordApi(Connection c, int worker, Random rnd) throws SQLException {
            Environment env = c.unwrap(LibTpConnection.class).engine().environment();
            Database db = env.inTransaction(t -> env.openDatabase(t, "rbank", DatabaseConfig.defaults()));
            long last = env.inTransaction(t -> value(db.get(t, key(-1))));
            System.out.println("READY " + last);
            while (true) {
                int a = rnd.nextInt(ACCOUNTS);
                int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + rnd.nextInt(100);
                long counter;
                try {
                    counter = env.inTransaction(Durability.SYNC, false, t -> {
                        db.put(t, key(a), bytes(value(db.getForUpdate(t, key(a))) - amount));
                        db.put(t, key(b), bytes(value(db.getForUpdate(t, key(b))) + amount));
                        long n = value(db.getForUpdate(t, key(-1))) + 1;
                        db.put(t, key(-1), bytes(n));
                        return n;
                    });
                } catch (org.libtp.core.EnvironmentReopenedException e) {
                    if (!e.commitInDoubt()) {
                        throw e;
                    }
                    // Failed in its commit, then reopened: only this worker moves the counter.
                    long now = env.inTransaction(t -> value(db.get(t, key(-1))));
                    if (now == last) {
                        continue; // it did not commit
                    }
                    counter = now;
                }
                last = counter;
                System.out.println("ACK " + counter);
            }
        }
    }

    static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long value(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    static String url(Path home, int worker) {
        return "jdbc:libtp:" + home + ";durability=" + (worker == 1 ? "no_sync" : "sync");
    }

    static long minutes() {
        return Long.getLong("libtp.soak.minutes", Boolean.getBoolean("libtp.soak") ? 30 : 2);
    }

    @Test
    void aMixedWorkloadWithARandomProcessKilledEveryFewSecondsLosesNothingAndLeaksNothing() throws Exception {
        long seed = Seeds.seed("SoakCrashTest");
        Random rnd = new Random(seed);
        Path home = dir.resolve("env");
        Path backups = Files.createDirectory(dir.resolve("backups"));
        try (Connection c = DriverManager.getConnection(url(home, 0) + ";create=true")) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
                s.executeUpdate("CREATE TABLE log (worker INT NOT NULL, seq INT NOT NULL, src INT NOT NULL, dst INT NOT NULL,"
                        + " amount BIGINT NOT NULL, PRIMARY KEY (worker, seq))");
            }
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    p.setInt(1, i);
                    p.setLong(2, INITIAL);
                    p.executeUpdate();
                }
            }
            c.commit();
            Environment env = c.unwrap(LibTpConnection.class).engine().environment();
            env.runInTransaction(t -> {
                Database db = env.openDatabase(t, "rbank", DatabaseConfig.builder().allowCreate(true).build());
                for (int i = 0; i < ACCOUNTS; i++) {
                    db.put(t, key(i), bytes(INITIAL));
                }
                db.put(t, key(-1), bytes(0));
            });
        }
        long[] acked = new long[WORKERS];
        int kills = 0;
        int failures = 0;
        long reopens = 0;
        int backupsTaken = 0;
        int checkpoints = 0;
        int logFilesRemoved = 0;
        EnvironmentStats.Log logAtEnd = null;
        long audits = 0;
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(minutes());
        Connection holder = DriverManager.getConnection(url(home, 0));
        List<ChildJvm> workers = new ArrayList<>();
        try {
            Environment env = holder.unwrap(LibTpConnection.class).engine().environment();
            EnvironmentStats base = env.stats();
            for (int w = 0; w < WORKERS; w++) {
                workers.add(start(home, w, rnd));
            }
            long nextMaintenance = System.nanoTime();
            int round = 0;
            while (System.nanoTime() < deadline) {
                Thread.sleep(1000 + rnd.nextInt(3000));
                if (System.nanoTime() >= nextMaintenance) {
                    try {
                        switch (round++ % 3) {
                            case 0 -> {
                                env.checkpoint();
                                checkpoints++;
                            }
                            case 1 -> logFilesRemoved += env.removeArchivableLogFiles();
                            default -> {
                                Path b = backups.resolve("b" + backupsTaken);
                                env.backup(b);
                                backupsTaken++;
                                deleteTree(b); // the disk is not the point; that it ran beside the kills is
                            }
                        }
                    } catch (RunRecoveryException e) {
                        // handled below with the workers' view of it
                    }
                    nextMaintenance = System.nanoTime() + TimeUnit.SECONDS.toNanos(3);
                }
                int v = rnd.nextInt(WORKERS);
                ChildJvm victim = workers.get(v);
                victim.kill();
                kills++;
                acked[v] = Math.max(acked[v], lastAck(victim));
                audits += checkAudits(victim, seed);
                victim.close();
                if (kills % 25 == 0) {
                    System.out.println("SoakCrashTest: kill " + kills + ": " + env.stats().locks() + "; "
                            + lockHolders(env));
                }
                String failed;
                try {
                    failed = environmentFailed(workers, v);
                } catch (AssertionError e) {
                    System.out.println("SoakCrashTest: kill " + kills + ": a worker stopped; " + env.stats().locks() + "; "
                            + lockHolders(env));
                    throw e;
                }
                if (failed != null || failedHere(env)) {
                    failures++;
                    System.out.println("SoakCrashTest: kill " + kills + ": the environment failed: " + failed);
                    for (int w = 0; w < WORKERS; w++) {
                        ChildJvm c = workers.get(w);
                        c.kill();
                        acked[w] = Math.max(acked[w], lastAck(c));
                        c.close();
                    }
                    reopens += env.reopenCount();
                    holder.close();
                    holder = DriverManager.getConnection(url(home, 0)); // recovery
                    env = holder.unwrap(LibTpConnection.class).engine().environment();
                    for (int w = 0; w < WORKERS; w++) {
                        workers.set(w, start(home, w, rnd));
                    }
                    continue;
                }
                workers.set(v, start(home, v, rnd));
            }
            for (int w = 0; w < WORKERS; w++) {
                ChildJvm c = workers.get(w);
                c.kill();
                acked[w] = Math.max(acked[w], lastAck(c));
                audits += checkAudits(c, seed);
            }
            reopens += env.reopenCount();
            // failCheck gives back what the dead held: every counter back at its baseline.
            String where = "after " + kills + " kills (seed " + seed + ")";
            EnvironmentStats now = env.stats();
            long until = System.nanoTime() + TimeUnit.SECONDS.toNanos(20);
            while (!atBaseline(base, now, env) && System.nanoTime() < until) {
                Thread.sleep(100);
                now = env.stats();
            }
            assertEquals(base.locks().locksInUse(), now.locks().locksInUse(), where + ": locks " + now.locks());
            assertEquals(base.locks().objectsInUse(), now.locks().objectsInUse(), where + ": lock objects " + now.locks());
            assertEquals(base.transactions().active(), now.transactions().active(), where + ": transaction slots "
                    + env.activeTransactions());
            assertEquals(base.cache().pinned(), now.cache().pinned(), where + ": pinned frames " + now.cache());
            assertEquals(1, env.attachedProcesses().size(), where + ": process slots " + env.attachedProcesses());
            logAtEnd = now.log();
            for (String name : env.databaseNames()) {
                org.libtp.db.DatabaseType type = env.databaseType(name);
                try (Database db = env.openDatabase(null, name, DatabaseConfig.builder()
                        .type(type == null ? org.libtp.db.DatabaseType.BTREE : type).readOnly(true).build())) {
                    assertEquals(List.of(), db.verify(), where + ": verify " + name);
                }
            }
        } finally {
            ChildJvm.closeAll(workers);
            holder.close();
        }
        String where = "after " + kills + " kills (seed " + seed + ")";
        int unacked = check(home, acked, failures == 0 && reopens == 0, where);
        System.out.printf("SoakCrashTest: %d min, %d kills of one of %d workers, the environment was reopened "
                        + "transparently %d times and failed for good (all restarted) %d times; "
                        + "%d checkpoints, %d log files removed by hand (log files %d..%d at the end: the others removed once "
                        + "archivable), %d backups, %d audits of the exact total; acked %s all present (%d committed but "
                        + "unacked); shared memory back at its baseline, verify clean%n", minutes(), kills, WORKERS, reopens, failures,
                checkpoints, logFilesRemoved, logAtEnd.firstFile(), logAtEnd.lastFile(), backupsTaken, audits,
                java.util.Arrays.toString(acked), unacked);
    }

    /** The lock table by holder: the transactions holding the most locks, and the active transactions. */
    static String lockHolders(Environment env) {
        Map<Long, Integer> byTxn = new java.util.HashMap<>();
        for (org.libtp.core.lock.LockTableSnapshot.Request r : env.lockTable().requests()) {
            byTxn.merge(r.txnId(), 1, Integer::sum);
        }
        List<Map.Entry<Long, Integer>> top = new ArrayList<>(byTxn.entrySet());
        top.sort(Map.Entry.<Long, Integer>comparingByValue().reversed());
        return "locks by transaction (top 5 of " + top.size() + "): " + top.subList(0, Math.min(5, top.size()))
                + "; active transactions: " + env.activeTransactions().size();
    }

    static boolean atBaseline(EnvironmentStats base, EnvironmentStats now, Environment env) {
        return now.locks().locksInUse() == base.locks().locksInUse() && now.locks().objectsInUse() == base.locks().objectsInUse()
                && now.transactions().active() == base.transactions().active() && now.cache().pinned() == base.cache().pinned()
                && env.attachedProcesses().size() == 1;
    }

    static boolean failedHere(Environment env) {
        try {
            env.stats();
            env.inTransaction(Durability.SYNC, true, t -> null);
            return false;
        } catch (RunRecoveryException e) {
            return true;
        }
    }

    static ChildJvm start(Path home, int worker, Random rnd) {
        ChildJvm c = ChildJvm.start(Worker.class, url(home, worker), Integer.toString(worker), Long.toString(rnd.nextLong()));
        c.awaitLine("READY", Duration.ofSeconds(60));
        return c;
    }

    static long lastAck(ChildJvm c) {
        List<String> acks = c.linesStartingWith("ACK ");
        return acks.isEmpty() ? 0 : Long.parseLong(acks.get(acks.size() - 1).substring(4));
    }

    static int checkAudits(ChildJvm c, long seed) {
        List<String> audits = c.linesStartingWith("AUDIT ");
        for (String a : audits) {
            assertEquals(ACCOUNTS * INITIAL, Long.parseLong(a.substring(6)), "an audit saw a wrong total (seed " + seed + ")");
        }
        return audits.size();
    }

    /**
     * The survivors' word on the environment after a kill: null if they go on; the reason if one
     * stopped because the environment failed (08xxx); anything else a survivor stopped on fails the test.
     */
    static String environmentFailed(List<ChildJvm> workers, int victim) throws InterruptedException {
        Thread.sleep(300);
        for (int w = 0; w < workers.size(); w++) {
            if (w == victim) {
                continue;
            }
            ChildJvm c = workers.get(w);
            for (String l : c.output()) {
                if (l.startsWith("FAILED ")) {
                    assertTrue(l.startsWith("FAILED 08") || l.contains("RunRecoveryException"),
                            "worker " + w + " stopped on something other than a failed environment:\n" + c.outputText());
                    return l;
                }
            }
        }
        return null;
    }

    /** Reopens (recovering if need be) and checks every commit; returns JDBC workers' committed, unacked last rows. */
    static int check(Path home, long[] acked, boolean noSyncKept, String where) throws SQLException {
        try (Connection c = DriverManager.getConnection(url(home, 0))) {
            long[] expected = new long[ACCOUNTS];
            java.util.Arrays.fill(expected, INITIAL);
            Map<Integer, Integer> maxSeq = new TreeMap<>();
            try (Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("SELECT worker, seq, src, dst, amount FROM log ORDER BY worker, seq")) {
                while (r.next()) {
                    int w = r.getInt(1);
                    int seq = r.getInt(2);
                    assertEquals(maxSeq.getOrDefault(w, 0) + 1, seq, where + ": worker " + w + "'s log has a gap");
                    maxSeq.put(w, seq);
                    expected[r.getInt(3)] -= r.getLong(5);
                    expected[r.getInt(4)] += r.getLong(5);
                }
            }
            long sum = 0;
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id, balance FROM account ORDER BY id")) {
                while (r.next()) {
                    assertEquals(expected[r.getInt(1)], r.getLong(2), where + ": balance " + r.getInt(1) + " is not the log's");
                    sum += r.getLong(2);
                }
            }
            assertEquals(ACCOUNTS * INITIAL, sum, where + ": the SQL total");
            int unacked = 0;
            for (int w = 0; w < WORKERS; w++) {
                if (w == RECORD_WORKER || (w == 1 && !noSyncKept)) {
                    continue;
                }
                int have = maxSeq.getOrDefault(w, 0);
                assertTrue(have >= acked[w], where + ": worker " + w + " acked " + acked[w] + " but " + have + " are there");
                unacked += have > acked[w] ? 1 : 0;
            }
            Environment env = c.unwrap(LibTpConnection.class).engine().environment();
            long[] rbank = env.inTransaction(t -> {
                Database db = env.openDatabase(t, "rbank", DatabaseConfig.defaults());
                long total = 0;
                for (int i = 0; i < ACCOUNTS; i++) {
                    total += value(db.get(t, key(i)));
                }
                return new long[] {total, value(db.get(t, key(-1)))};
            });
            assertEquals(ACCOUNTS * INITIAL, rbank[0], where + ": the record API total");
            assertTrue(rbank[1] >= acked[RECORD_WORKER], where + ": record API counter " + rbank[1] + " < acked "
                    + acked[RECORD_WORKER]);
            return unacked;
        }
    }

    static void deleteTree(Path p) throws java.io.IOException {
        try (var s = Files.walk(p)) {
            for (Path q : s.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(q);
            }
        }
    }
}
