package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.SharedTxnManager;
import org.libtp.core.txn.SlotStore;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockFixture.page;

/**
 * kill -9 of a process holding page locks (and no latch): the survivors blocked on those locks
 * go on once failCheck has rolled the dead transaction back and released its locks.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class LockCrashTest {
    static final long SHARED_PAGE = 900;

    @TempDir
    Path dir;

    /**
     * Child: locks pages base..base+n-1 WRITE, logs an update of slot base+k (value 1000+k) for
     * each, prints LOCKED, then asks for SHARED_PAGE (held by the parent) and blocks there until
     * killed. Args: home, base, n, detectIntervalMillis.
     */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            int base = Integer.parseInt(args[1]);
            int n = Integer.parseInt(args[2]);
            LockConfig config = LockConfig.builder().detectIntervalMillis(Long.parseLong(args[3])).build();
            try (LockFixture f = new LockFixture(Path.of(args[0]), 250, config)) {
                Txn t = f.tm.begin();
                for (int k = 0; k < n; k++) {
                    f.lm.lock(t, page(base + k), LockMode.WRITE, 0);
                    f.store.put(t, base + k, 1000 + k);
                }
                System.out.println("LOCKED");
                f.lm.lock(t, page(SHARED_PAGE), LockMode.WRITE, 0);
                System.out.println("UNEXPECTED: granted " + SHARED_PAGE);
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @Test
    void survivorsBlockedOnADeadProcessesLocksGoOnWithinTwoSeconds() throws Exception {
        long seed = Seeds.seed("LockCrashTest");
        Random rnd = new Random(seed);
        Path home = Files.createDirectory(dir.resolve("env"));
        ExecutorService pool = Executors.newCachedThreadPool();
        try (LockFixture f = new LockFixture(home, 250, LockConfig.defaults())) {
            for (int round = 0; round < 3; round++) {
                int n = 1 + rnd.nextInt(5);
                int base = 10 * round;
                Txn shared = f.tm.begin();
                f.lm.lock(shared, page(SHARED_PAGE), LockMode.WRITE, 0);
                long w0 = f.lm.stats().waits();
                try (ChildJvm c = ChildJvm.start(Holder.class, home.toString(), Integer.toString(base),
                        Integer.toString(n), Long.toString(rnd.nextBoolean() ? 0 : 100))) {
                    c.awaitLine("LOCKED", Duration.ofSeconds(60));
                    awaitWaits(f.lm, w0, 1); // the child is queued on SHARED_PAGE
                    for (int k = 0; k < n; k++) {
                        assertEquals(1000 + k, f.store.get(base + k), "the child's uncommitted update is applied");
                    }
                    // Survivors block on every page the child holds; each reads its slot right
                    // after its grant, and changes it.
                    List<Future<Long>> blocked = new ArrayList<>();
                    for (int k = 0; k < n; k++) {
                        int slot = base + k;
                        Txn t = f.tm.begin();
                        blocked.add(pool.submit(() -> {
                            f.lm.lock(t, page(slot), LockMode.WRITE, 0);
                            long seen = f.store.get(slot);
                            f.store.put(t, slot, 7);
                            f.tm.commit(t);
                            return seen;
                        }));
                    }
                    awaitWaits(f.lm, w0, 1 + n);
                    Thread.sleep(100);
                    for (Future<Long> b : blocked) {
                        assertTrue(!b.isDone(), "blocked while the holder lives");
                    }
                    assertEquals(3 * n + 4, f.lm.stats().locksInUse(), "page locks and every transaction's IWRITE on the file");
                    c.kill();
                    long t0 = System.nanoTime();
                    for (Future<Long> b : blocked) {
                        // The child's deadlock detector (every 100 ms in this variant) may hold
                        // partition latches at the kill: they are repaired in place, so this goes on.
                        long seen = b.get(10, TimeUnit.SECONDS);
                        assertEquals(0, seen, "the dead transaction's update was rolled back before its locks went");
                    }
                    long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                    assertTrue(ms < 2000, "survivors went on after " + ms + " ms");
                    System.out.println("LockCrashTest: round " + round + ", " + n + " locks of a killed process released; "
                            + "survivors went on after " + ms + " ms");
                    assertTrue(c.linesStartingWith("UNEXPECTED").isEmpty(), c.outputText());
                }
                f.tm.commit(shared);
                for (int k = 0; k < n; k++) {
                    assertEquals(7, f.store.get(base + k));
                }
                awaitEmpty(f.lm);
                assertEquals(0, f.lm.stats().locksInUse(), "the dead waiter's request is gone too: " + f.lm.stats());
                assertEquals(0, f.lm.stats().objectsInUse());
            }
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * Child: the log and transaction managers with the slot store, composed by hand without a
     * lock manager (as a tool process might); runs failCheck every 50 ms.
     */
    public static final class Janitor {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            FileStorage storage = new FileStorage(home);
            try (RegionEnvironment env = RegionEnvironment.open(home,
                    RegionEnvironmentConfig.builder().latchCheckMillis(50).failCheckMillis(50).build());
                 SharedLog log = SharedLog.open(env, storage,
                         LogConfig.builder().fileSize(256 * 1024).bufferSize(64 * 1024).build());
                 SharedTxnManager tm = SharedTxnManager.open(env, log, TxnConfig.defaults(),
                         List.of(new SlotStore(env, storage, LockFixture.SLOTS)))) {
                System.out.println("READY " + env.processSlot() + " " + tm.activeCount());
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    /**
     * The dead process's transaction is rolled back by failCheck in a process without a lock
     * manager (no end listener releases its locks there); the detector of a lock-manager
     * process sees the locker is stale and releases them.
     */
    @Test
    void locksOfATransactionEndedWithoutALockManagerAreReleasedByTheDetector() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        ExecutorService pool = Executors.newCachedThreadPool();
        // No background failCheck here: only the janitor rolls the dead transaction back.
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(100).build());
             ChildJvm janitor = ChildJvm.start(Janitor.class, home.toString())) {
            janitor.awaitLine("READY", Duration.ofSeconds(60));
            Txn shared = f.tm.begin();
            f.lm.lock(shared, page(SHARED_PAGE), LockMode.WRITE, 0);
            long w0 = f.lm.stats().waits();
            try (ChildJvm c = ChildJvm.start(Holder.class, home.toString(), "0", "2", "0")) {
                c.awaitLine("LOCKED", Duration.ofSeconds(60));
                awaitWaits(f.lm, w0, 1);
                Txn t = f.tm.begin();
                Future<Long> b = pool.submit(() -> {
                    f.lm.lock(t, page(1), LockMode.WRITE, 0);
                    long seen = f.store.get(1);
                    f.tm.commit(t);
                    return seen;
                });
                awaitWaits(f.lm, w0, 2);
                c.kill();
                assertEquals(0, b.get(20, TimeUnit.SECONDS), "rolled back, then released");
            }
            f.tm.commit(shared);
            awaitEmpty(f.lm);
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertEquals(0, f.lm.stats().objectsInUse());
            assertEquals(0, f.store.get(0));
        } finally {
            pool.shutdownNow();
        }
    }

    /**
     * A dead transaction's chain is released request by request (by failCheck or the detector,
     * in another thread): a waiter may get its page before the rest of the chain (other pages,
     * the file's intention lock) is back. Waits up to 10 s for an empty table.
     */
    static void awaitEmpty(SharedLockManager lm) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lm.stats().locksInUse() != 0 && System.nanoTime() < deadline) {
            Thread.sleep(10);
        }
    }

    static void awaitWaits(SharedLockManager lm, long before, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
        while (lm.stats().waits() < before + n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + n + " blocked requests; stats " + lm.stats());
            }
            Thread.sleep(2);
        }
    }
}
