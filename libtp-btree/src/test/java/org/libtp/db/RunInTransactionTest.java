package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Environment.runInTransaction / inTransaction: commit, abort on other exceptions, bounded
 * retries of deadlock victims and lock timeouts; a forced deadlock between two threads; random
 * transfers by threads and by two child JVMs keep the total and never show the caller a
 * DeadlockException.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class RunInTransactionTest {
    static final DatabaseConfig CREATE = DatabaseConfig.builder().allowCreate(true).build();
    static final int ACCOUNTS = 40;
    static final long INITIAL = 1000;
    /** Padding puts about four accounts on a page: transfers conflict on pages, in either order. */
    static final int VALUE_BYTES = 900;

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] account(int i) {
        return String.format("acct-%04d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] amount(long v) {
        return ByteBuffer.allocate(VALUE_BYTES).putLong(v).array();
    }

    static long amount(byte[] v) {
        return ByteBuffer.wrap(v).getLong();
    }

    @Test
    void commitsAndReturnsTheValue() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "d", CREATE)) {
            String r = env.inTransaction(t -> {
                db.put(t, b("k"), b("v"));
                return "done";
            });
            assertEquals("done", r);
            assertArrayEquals(b("v"), db.get(null, b("k")));
            env.runInTransaction(t -> db.put(t, b("k2"), b("v2")));
            assertArrayEquals(b("v2"), db.get(null, b("k2")));
            assertEquals(Durability.NO_SYNC, env.inTransaction(Durability.NO_SYNC, false, Transaction::durability));
            assertTrue(env.inTransaction(Durability.SYNC, true, Transaction::isReadOnly));
            // work that ended the transaction itself is not committed again
            env.runInTransaction(t -> {
                db.put(t, b("k3"), b("v3"));
                t.commit();
            });
            assertArrayEquals(b("v3"), db.get(null, b("k3")));
            assertEquals(0, env.stats().transactions().active());
        }
    }

    @Test
    void anyOtherExceptionAbortsAndIsRethrownAtOnce() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "d", CREATE)) {
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<Transaction> seen = new AtomicReference<>();
            IllegalStateException boom = new IllegalStateException("boom");
            assertSame(boom, assertThrows(IllegalStateException.class, () -> env.runInTransaction(t -> {
                runs.incrementAndGet();
                seen.set(t);
                db.put(t, b("k"), b("v"));
                throw boom;
            })));
            assertEquals(1, runs.get());
            assertFalse(seen.get().isActive(), "aborted");
            assertNull(db.get(null, b("k")), "rolled back");
            // a read-only transaction's write is an IllegalStateException: not retried either
            runs.set(0);
            assertThrows(IllegalStateException.class, () -> env.runInTransaction(Durability.SYNC, true, t -> {
                runs.incrementAndGet();
                db.put(t, b("k"), b("v"));
            }));
            assertEquals(1, runs.get());
        }
    }

    @Test
    void deadlocksAndTimeoutsAreRetriedAFewTimesThenThrown() {
        EnvironmentConfig cfg = EnvironmentConfig.builder().maxTransactionAttempts(4).maxRetryDelayMillis(5).build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "d", CREATE)) {
            long abortedBefore = env.stats().transactions().aborted();
            List<Transaction> txns = new ArrayList<>();
            List<RuntimeException> thrown = new ArrayList<>();
            DeadlockException last = assertThrows(DeadlockException.class, () -> env.runInTransaction(t -> {
                txns.add(t);
                db.put(t, b("k"), b("v"));
                DeadlockException e = new DeadlockException("victim " + txns.size());
                thrown.add(e);
                throw e;
            }));
            assertEquals(4, txns.size(), "maxTransactionAttempts");
            assertSame(thrown.get(3), last, "the last attempt's exception");
            assertTrue(txns.stream().noneMatch(Transaction::isActive));
            assertEquals(4, txns.stream().map(Transaction::id).distinct().count(), "a new transaction each time");
            assertEquals(abortedBefore + 4, env.stats().transactions().aborted());
            assertNull(db.get(null, b("k")));
            // a timeout twice, then success
            AtomicInteger runs = new AtomicInteger();
            assertEquals(3, (int) env.inTransaction(t -> {
                db.put(t, b("k"), b("v"));
                if (runs.incrementAndGet() < 3) {
                    throw new LockTimeoutException("stuck holder");
                }
                return runs.get();
            }));
            assertArrayEquals(b("v"), db.get(null, b("k")));
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            AtomicInteger runs = new AtomicInteger();
            assertThrows(LockTimeoutException.class, () -> env.runInTransaction(t -> {
                runs.incrementAndGet();
                throw new LockTimeoutException("always");
            }));
            assertEquals(10, runs.get(), "10 attempts by default");
        }
    }

    @Test
    void aRealDeadlockBetweenTwoThreadsIsRetriedUnseen() throws Exception {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database x = env.openDatabase(null, "x", CREATE); Database y = env.openDatabase(null, "y", CREATE)) {
            x.put(null, b("a"), amount(INITIAL));
            y.put(null, b("b"), amount(INITIAL));
            CyclicBarrier bothLocked = new CyclicBarrier(2);
            long victims0 = env.stats().locks().deadlocks();
            AtomicInteger runs = new AtomicInteger();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            // Thread 1 locks x then y, thread 2 y then x; on their first attempt both hold their
            // first lock before asking for the second: a deadlock. The victim runs again.
            Thread[] ts = new Thread[2];
            for (int i = 0; i < 2; i++) {
                Database first = i == 0 ? x : y;
                Database second = i == 0 ? y : x;
                byte[] k1 = i == 0 ? b("a") : b("b");
                byte[] k2 = i == 0 ? b("b") : b("a");
                ThreadAttempts mine = new ThreadAttempts();
                ts[i] = new Thread(() -> {
                    try {
                        env.runInTransaction(t -> {
                            runs.incrementAndGet();
                            first.update(t, k1, v -> amount(amount(v) - 10));
                            if (mine.attempts++ == 0) {
                                try {
                                    bothLocked.await(30, TimeUnit.SECONDS);
                                } catch (Exception e) {
                                    throw new IllegalStateException(e);
                                }
                            }
                            second.update(t, k2, v -> amount(amount(v) + 10));
                        });
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                ts[i].start();
            }
            for (Thread t : ts) {
                t.join(60_000);
            }
            if (failure.get() != null) {
                throw new AssertionError("a transfer failed", failure.get());
            }
            // Each victim runs again once. Usually there is one; a victim's second run can meet the
            // other thread again: both leaves are contended by then, so the rerun may take the
            // first key's record beside the other's IWRITE on that leaf and then wait for the
            // other's WRITE on the second leaf while the other waits for that record.
            long victims = env.stats().locks().deadlocks() - victims0;
            assertTrue(victims >= 1, env.stats().toString());
            assertEquals(2 + victims, runs.get(), "each victim run again once (" + victims + " victims)");
            assertEquals(2 * INITIAL, amount(x.get(null, b("a"))) + amount(y.get(null, b("b"))));
        }
    }

    static final class ThreadAttempts {
        int attempts;
    }

    static void createAccounts(Environment env, Database db) {
        env.runInTransaction(t -> {
            for (int i = 0; i < ACCOUNTS; i++) {
                db.put(t, account(i), amount(INITIAL));
            }
        });
    }

    static long total(Database db) {
        try (CursorIterable it = db.entries(null, KeyRange.all())) {
            long sum = 0;
            for (Entry e : it) {
                sum += amount(e.data());
            }
            return sum;
        }
    }

    /** {@code n} random transfers through runInTransaction; returns {commits, attempts}. */
    static long[] transfers(Environment env, Database db, Random rnd, int n) {
        long[] out = new long[2];
        for (int i = 0; i < n; i++) {
            int a = rnd.nextInt(ACCOUNTS);
            int c = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
            long x = 1 + rnd.nextInt(50);
            env.runInTransaction(t -> {
                out[1]++;
                db.update(t, account(a), v -> amount(amount(v) - x));
                db.update(t, account(c), v -> amount(amount(v) + x));
            });
            out[0]++;
        }
        return out;
    }

    @Test
    void randomTransfersByThreadsKeepTheTotal() throws Exception {
        long seed = Seeds.seed("RunInTransactionTest.threads");
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().durability(Durability.NO_SYNC).build());
             Database db = env.openDatabase(null, "bank", CREATE)) {
            createAccounts(env, db);
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> ts = new ArrayList<>();
            long[][] counts = new long[4][];
            for (int i = 0; i < 4; i++) {
                int me = i;
                Thread th = new Thread(() -> {
                    try {
                        counts[me] = transfers(env, db, new Random(seed + me), 400);
                    } catch (Throwable e) {
                        failure.set(e);
                    }
                });
                ts.add(th);
                th.start();
            }
            for (Thread th : ts) {
                th.join(120_000);
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed + ": a transfer reached the caller with", failure.get());
            }
            long commits = 0;
            long attempts = 0;
            for (long[] c : counts) {
                commits += c[0];
                attempts += c[1];
            }
            System.out.println("RunInTransactionTest.threads: " + commits + " transfers in " + attempts + " attempts, "
                    + env.stats().locks().deadlocks() + " deadlocks");
            assertEquals(1600, commits);
            assertEquals(ACCOUNTS * INITIAL, total(db), "seed " + seed);
            assertEquals(List.of(), db.verify());
        }
    }

    /** Child: random transfers through runInTransaction; prints DONE or ESCAPED. */
    public static final class Teller {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            long seed = Long.parseLong(args[1]);
            int n = Integer.parseInt(args[2]);
            try (Environment env = Environment.open(home, EnvironmentConfig.builder().durability(Durability.NO_SYNC).build());
                 Database db = env.openDatabase(null, "bank", DatabaseConfig.defaults())) {
                System.out.println("READY");
                long[][] counts = new long[2][];
                AtomicReference<Throwable> failure = new AtomicReference<>();
                Thread[] ts = new Thread[2];
                for (int i = 0; i < 2; i++) {
                    int me = i;
                    ts[i] = new Thread(() -> {
                        try {
                            counts[me] = transfers(env, db, new Random(seed * 31 + me), n);
                        } catch (Throwable e) {
                            failure.set(e);
                        }
                    });
                    ts[i].start();
                }
                for (Thread t : ts) {
                    t.join();
                }
                if (failure.get() != null) {
                    System.out.println("ESCAPED " + failure.get());
                    failure.get().printStackTrace(System.out);
                    System.exit(1);
                }
                System.out.println("DONE " + (counts[0][0] + counts[1][0]) + " " + (counts[0][1] + counts[1][1]));
            }
        }
    }

    @Test
    void twoProcessesTransferThroughItAndNoDeadlockReachesThem() throws Exception {
        long seed = Seeds.seed("RunInTransactionTest.processes");
        Path home = Files.createDirectory(dir.resolve("env"));
        int perThread = 300;
        try (Environment env = Environment.open(home, EnvironmentConfig.builder().durability(Durability.NO_SYNC).build());
             Database db = env.openDatabase(null, "bank", CREATE)) {
            createAccounts(env, db);
            List<ChildJvm> cs = ChildJvm.startAll(2, Teller.class,
                    i -> new String[] {home.toString(), Long.toString(seed + i), Integer.toString(perThread)});
            try {
                long commits = 0;
                long attempts = 0;
                for (ChildJvm c : cs) {
                    c.assertExitsCleanly(Duration.ofMinutes(3));
                    assertEquals(List.of(), c.linesStartingWith("ESCAPED"), c.outputText());
                    String[] done = c.awaitLine("DONE", Duration.ofSeconds(1)).split(" ");
                    commits += Long.parseLong(done[1]);
                    attempts += Long.parseLong(done[2]);
                }
                System.out.println("RunInTransactionTest.processes: " + commits + " transfers in " + attempts
                        + " attempts, " + env.stats().locks().deadlocks() + " deadlocks");
                assertEquals(2 * 2 * perThread, commits);
            } finally {
                ChildJvm.closeAll(cs);
            }
            assertEquals(ACCOUNTS * INITIAL, total(db), "seed " + seed);
            assertEquals(List.of(), db.verify());
        }
    }
}
