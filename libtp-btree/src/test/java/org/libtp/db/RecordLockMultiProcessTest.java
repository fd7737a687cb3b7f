package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.OperationFailureException;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Record locks across JVMs: transfers between 16 accounts that share one leaf, each logged by an
 * append to a history recno, run by three JVMs of two threads; every fifth transaction is
 * aborted after its writes, and audit transactions read every account and must see the exact
 * total (serializability under two-phase locking). The updates lock records under IWRITE on the
 * leaf and the appends take the history's pages in IWRITE, so the writers of different accounts
 * and the appenders run side by side, while the auditors' page READ locks exclude them. Then the
 * same workload with durable commits, killed with SIGKILL: after recovery every acknowledged
 * transfer is in the history, each account's balance is its start plus the history's present
 * transfers (no partial transaction), aborted appends are absent, and verify is clean.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class RecordLockMultiProcessTest {
    static final int ACCOUNTS = 16;
    static final long START = 1_000;
    static final int HISTORY_LENGTH = 24;

    @TempDir
    Path dir;

    static byte[] key(int a) {
        return String.format("acct%02d", a).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] balance(long b) {
        byte[] v = new byte[100]; // a 100-byte row: TPC-B's size
        ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).putLong(b);
        return v;
    }

    static long balanceOf(byte[] v) {
        return ByteBuffer.wrap(v).order(ByteOrder.LITTLE_ENDIAN).getLong();
    }

    static byte[] add(byte[] v, long delta) {
        return balance(balanceOf(v) + delta);
    }

    /** A history record: transfer id, from, to, amount. */
    static byte[] history(long id, int from, int to, long amount) {
        return ByteBuffer.allocate(HISTORY_LENGTH).order(ByteOrder.LITTLE_ENDIAN).putLong(id).putInt(from).putInt(to)
                .putLong(amount).array();
    }

    static EnvironmentConfig config(Durability d) {
        return EnvironmentConfig.builder().durability(d).lockTimeoutMillis(20_000).build();
    }

    static final DatabaseConfig ACCOUNTS_DB = DatabaseConfig.builder().allowCreate(true).build();
    static final DatabaseConfig HISTORY_DB = DatabaseConfig.builder().allowCreate(true).type(DatabaseType.RECNO)
            .recordLength(HISTORY_LENGTH).build();

    /** Child: args home, jvm index, transfers per thread (0: until killed), seed, durability, run (for unique ids). */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int jvm = Integer.parseInt(args[1]);
            int transfers = Integer.parseInt(args[2]);
            long seed = Long.parseLong(args[3]);
            Durability durability = Durability.valueOf(args[4]);
            long run = Long.parseLong(args[5]);
            try (Environment env = Environment.open(home, config(durability));
                 Database accounts = env.openDatabase(null, "accounts", ACCOUNTS_DB);
                 Database hist = env.openDatabase(null, "history", HISTORY_DB)) {
                System.out.println("READY");
                List<Thread> threads = new ArrayList<>();
                for (int th = 0; th < 2; th++) {
                    int worker = jvm * 2 + th;
                    Thread t = new Thread(() -> run(env, accounts, hist, run << 40 | (long) worker << 32, transfers,
                            new Random(seed + worker)));
                    threads.add(t);
                    t.start();
                }
                for (Thread t : threads) {
                    t.join();
                }
                System.out.println("DONE");
            }
        }

        static void run(Environment env, Database accounts, Database hist, long ids, int transfers, Random rnd) {
            long seq = 0;
            int committed = 0;
            int retries = 0;
            while (transfers == 0 || committed < transfers) {
                if (rnd.nextInt(8) == 0) {
                    audit(env, accounts);
                    continue;
                }
                long id = ids | ++seq;
                int from = rnd.nextInt(ACCOUNTS);
                int to = (from + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + rnd.nextInt(50);
                boolean abort = rnd.nextInt(5) == 0;
                Transaction t = env.beginTransaction();
                try {
                    accounts.update(t, key(from), v -> add(v, -amount));
                    accounts.update(t, key(to), v -> add(v, amount));
                    long n = hist.append(t, history(id, from, to, amount));
                    if (abort) {
                        t.abort();
                        System.out.println("ABORTED " + id + " " + n);
                    } else {
                        t.commit();
                        committed++;
                        System.out.println("ACK " + id + " " + n);
                    }
                } catch (OperationFailureException e) { // a deadlock victim or a lock timeout: retry
                    t.abort();
                    retries++;
                }
            }
            System.out.println("RETRIES " + Long.toHexString(ids) + " " + retries);
        }

        static void audit(Environment env, Database accounts) {
            try (Transaction t = env.beginTransaction()) {
                long sum = 0;
                for (int a = 0; a < ACCOUNTS; a++) {
                    sum += balanceOf(accounts.get(t, key(a)));
                }
                if (sum != ACCOUNTS * START) {
                    System.out.println("AUDIT " + sum);
                }
                t.commit();
            } catch (OperationFailureException e) {
                // a deadlock victim: the audit is simply not counted
            }
        }
    }

    private static void load(Path home) {
        try (Environment env = Environment.open(home, config(Durability.SYNC));
             Database accounts = env.openDatabase(null, "accounts", ACCOUNTS_DB);
             Database hist = env.openDatabase(null, "history", HISTORY_DB)) {
            try (Transaction t = env.beginTransaction()) {
                for (int a = 0; a < ACCOUNTS; a++) {
                    accounts.put(t, key(a), balance(START));
                }
                t.commit();
            }
            assertEquals(0, hist.count(null));
        }
    }

    /**
     * Checks the environment against the children's output: the exact total, each balance is its
     * start plus the history's present transfers, every acknowledged transfer present, every
     * aborted one absent; returns the number of present history records.
     */
    private static long check(Path home, List<ChildJvm> cs, String what) {
        Set<Long> acked = new HashSet<>();
        Set<Long> aborted = new HashSet<>();
        for (ChildJvm c : cs) {
            assertEquals(List.of(), c.linesStartingWith("AUDIT "), what + ": an audit saw another total");
            for (String l : c.linesStartingWith("ACK ")) {
                String[] p = l.split(" ");
                if (p.length == 3) {
                    acked.add(Long.parseLong(p[1]));
                }
            }
            for (String l : c.linesStartingWith("ABORTED ")) {
                String[] p = l.split(" ");
                if (p.length == 3) {
                    aborted.add(Long.parseLong(p[1]));
                }
            }
        }
        try (Environment env = Environment.open(home, config(Durability.SYNC));
             Database accounts = env.openDatabase(null, "accounts", ACCOUNTS_DB);
             Database hist = env.openDatabase(null, "history", HISTORY_DB)) {
            assertEquals(List.of(), accounts.verify(), what);
            assertEquals(List.of(), hist.verify(), what);
            long[] expect = new long[ACCOUNTS];
            java.util.Arrays.fill(expect, START);
            Set<Long> present = new HashSet<>();
            long count = hist.count(null);
            for (long n = 1; n <= count; n++) {
                byte[] h = hist.get(null, n);
                if (h == null) {
                    continue; // an aborted (or killed) append's number
                }
                ByteBuffer b = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
                long id = b.getLong();
                int from = b.getInt();
                int to = b.getInt();
                long amount = b.getLong();
                assertTrue(present.add(id), what + ": transfer " + id + " twice in the history");
                expect[from] -= amount;
                expect[to] += amount;
            }
            long total = 0;
            for (int a = 0; a < ACCOUNTS; a++) {
                long got = balanceOf(accounts.get(null, key(a)));
                assertEquals(expect[a], got, what + ": account " + a + " against the history");
                total += got;
            }
            assertEquals(ACCOUNTS * START, total, what);
            for (long id : acked) {
                assertTrue(present.contains(id), what + ": acknowledged transfer " + id + " lost");
            }
            for (long id : aborted) {
                assertTrue(!present.contains(id), what + ": aborted transfer " + id + " in the history");
            }
            return present.size();
        }
    }

    @Test
    void transfersOnOneLeafKeepTheTotalAcrossJvmsAndSurviveKill() throws Exception {
        long seed = Seeds.seed("RecordLockMultiProcessTest");
        Random rnd = new Random(seed);
        Path home = Files.createDirectory(dir.resolve("env"));
        load(home);
        // Clean: three JVMs, 150 committed transfers per thread.
        List<ChildJvm> cs = ChildJvm.startAll(3, Worker.class,
                i -> new String[] {home.toString(), Integer.toString(i), "150", Long.toString(seed + 10 * i), "NO_SYNC", "0"});
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(4));
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        long rows = check(home, cs, "clean run (seed " + seed + ")");
        assertEquals(3 * 2 * 150, rows, "every committed transfer, once (seed " + seed + ")");
        // kill -9 of every JVM while they transfer with durable commits, a few rounds.
        for (int round = 0; round < 3; round++) {
            int r = round;
            List<ChildJvm> ks = ChildJvm.startAll(3, Worker.class, i -> new String[] {home.toString(),
                    Integer.toString(i), "0", Long.toString(seed + 100 * (r + 1) + i), "SYNC", Integer.toString(r + 1)});
            try {
                for (ChildJvm c : ks) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Thread.sleep(300 + rnd.nextInt(700));
                ChildJvm.killAll(ks);
            } finally {
                ChildJvm.closeAll(ks);
            }
            long before = rows;
            rows = check(home, ks, "kill round " + round + " (seed " + seed + ")");
            assertTrue(rows >= before, "round " + round);
        }
        System.out.println("RecordLockMultiProcessTest: " + rows + " transfers in the history (seed " + seed + ")");
    }
}
