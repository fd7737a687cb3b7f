package org.libtp.core.lock;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CapacityExceededException;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockFixture.page;
import static org.libtp.core.lock.LockMode.READ;
import static org.libtp.core.lock.LockMode.WRITE;

/** The lock manager in one JVM: modes, queueing, conversions, timeouts, capacity, deadlocks. */
class LockManagerTest {
    @TempDir
    Path dir;
    Path home;
    ExecutorService pool;

    @BeforeEach
    void setUp() throws Exception {
        home = Files.createDirectory(dir.resolve("env"));
        pool = Executors.newCachedThreadPool();
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    /** No periodic detector unless a test asks for one. */
    static LockConfig.Builder quiet() {
        return LockConfig.builder().detectIntervalMillis(0);
    }

    private LockFixture open(LockConfig c) {
        return new LockFixture(home, 0, c);
    }

    /** Waits until {@code n} more requests than {@code before} have blocked (they count when queued). */
    private static void awaitWaits(SharedLockManager lm, long before, int n) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (lm.stats().waits() < before + n) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("expected " + n + " blocked requests; stats " + lm.stats());
            }
            Thread.sleep(2);
        }
    }

    private static void assertBlocked(Future<?> f) throws Exception {
        Thread.sleep(150);
        assertFalse(f.isDone(), "the request should still wait");
    }

    private static <T> T get(Future<T> f) throws Exception {
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (TimeoutException e) {
            throw new AssertionError("request still blocked after 10 s", e);
        }
    }

    private static void assertClean(SharedLockManager lm) {
        LockStats s = lm.stats();
        assertEquals(0, s.locksInUse(), "locks left in the table: " + s);
        assertEquals(0, s.objectsInUse(), "objects left in the table: " + s);
    }

    // ------------------------------------------------------------------ modes

    @Test
    void conflictMatrix() {
        assertFalse(READ.conflictsWith(READ));
        assertTrue(READ.conflictsWith(WRITE));
        assertTrue(WRITE.conflictsWith(READ));
        assertTrue(WRITE.conflictsWith(WRITE));
        assertTrue(WRITE.covers(READ));
        assertFalse(READ.covers(WRITE));
        assertEquals(WRITE, READ.join(WRITE));
        assertEquals(READ, READ.join(READ));
        try (LockFixture f = open(quiet().build())) {
            int n = 100;
            for (LockMode held : LockMode.values()) {
                for (LockMode asked : LockMode.values()) {
                    // Whole files: every mode applies to them (pages take READ and WRITE only).
                    LockObject o = new LockObject(n++, LockObject.WHOLE_FILE);
                    Txn a = f.tm.begin();
                    Txn b = f.tm.begin();
                    f.lm.lock(a, o, held, 0);
                    if (asked.conflictsWith(held)) {
                        assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, o, asked, LockManager.NOWAIT),
                                asked + " beside " + held);
                        assertNull(f.lm.heldMode(b, o));
                    } else {
                        f.lm.lock(b, o, asked, LockManager.NOWAIT);
                        assertEquals(asked, f.lm.heldMode(b, o));
                    }
                    assertEquals(held, f.lm.heldMode(a, o));
                    f.tm.commit(a);
                    f.tm.abort(b);
                }
            }
            assertClean(f.lm);
        }
    }

    @Test
    void relockCountsReferences() {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(a, page(1), READ, 0);
            assertEquals(2, f.lm.stats().locksInUse(), "one request, two references (and the file's IREAD)");
            f.lm.unlock(a, page(1));
            assertEquals(READ, f.lm.heldMode(a, page(1)));
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, page(1), WRITE, LockManager.NOWAIT));
            f.lm.unlock(a, page(1));
            assertNull(f.lm.heldMode(a, page(1)));
            assertThrows(IllegalStateException.class, () -> f.lm.unlock(a, page(1)));
            f.lm.lock(b, page(1), WRITE, LockManager.NOWAIT);
            f.lm.lock(b, page(1), READ, 0); // covered by WRITE: a reference, still WRITE
            assertEquals(WRITE, f.lm.heldMode(b, page(1)));
            f.lm.unlock(b, page(1));
            assertEquals(WRITE, f.lm.heldMode(b, page(1)));
            f.lm.unlock(b, page(1));
            assertNull(f.lm.heldMode(b, page(1)));
            f.tm.commit(a);
            f.tm.commit(b);
            assertClean(f.lm);
        }
    }

    // ------------------------------------------------------------------ conversions

    @Test
    void upgradeAlone() {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.upgrade(a, page(1), 0);
            assertEquals(WRITE, f.lm.heldMode(a, page(1)));
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, page(1), READ, LockManager.NOWAIT));
            f.lm.upgrade(a, page(1), 0); // already WRITE: nothing
            f.lm.unlock(a, page(1)); // upgrade added no reference
            assertNull(f.lm.heldMode(a, page(1)));
            assertThrows(IllegalStateException.class, () -> f.lm.upgrade(a, page(1), 0), "not held");
            f.lm.lock(a, page(2), READ, 0);
            f.lm.lock(a, page(2), WRITE, 0); // lock(WRITE) on a READ lock converts and adds a reference
            assertEquals(WRITE, f.lm.heldMode(a, page(2)));
            f.lm.unlock(a, page(2));
            assertEquals(WRITE, f.lm.heldMode(a, page(2)));
            f.tm.commit(a);
            f.tm.commit(b);
            assertClean(f.lm);
        }
    }

    @Test
    void upgradeWaitsForTheOtherReaderAndGoesAheadOfWaiters() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(b, page(1), READ, 0);
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            long w0 = f.lm.stats().waits();
            Future<?> writer = pool.submit(() -> {
                f.lm.lock(c, page(1), WRITE, 0);
                order.add("c");
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            assertThrows(LockNotGrantedException.class, () -> f.lm.upgrade(a, page(1), LockManager.NOWAIT));
            Future<?> upgrade = pool.submit(() -> {
                f.lm.upgrade(a, page(1), 0);
                order.add("a");
                return null;
            });
            awaitWaits(f.lm, w0, 2);
            assertBlocked(upgrade);
            assertEquals(READ, f.lm.heldMode(a, page(1)));
            f.tm.commit(b); // the last other reader goes: the upgrade, not the earlier writer, is next
            get(upgrade);
            assertEquals(WRITE, f.lm.heldMode(a, page(1)));
            assertBlocked(writer);
            f.tm.commit(a);
            get(writer);
            assertEquals(List.of("a", "c"), order);
            f.tm.commit(c);
            assertClean(f.lm);
        }
    }

    @Test
    void aPendingUpgradeHoldsBackNewReaders() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            Txn d = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(b, page(1), READ, 0);
            f.lm.lock(d, page(1), READ, 0);
            long w0 = f.lm.stats().waits();
            Future<?> upgrade = pool.submit(() -> {
                f.lm.upgrade(a, page(1), 0);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(c, page(1), READ, LockManager.NOWAIT),
                    "READ is compatible with every holder, but an upgrade is pending");
            Future<?> reader = pool.submit(() -> {
                f.lm.lock(c, page(1), READ, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 2);
            f.tm.commit(d); // a queue change: the upgrade still waits for b, so c must too
            assertBlocked(reader);
            assertBlocked(upgrade);
            f.tm.commit(b);
            get(upgrade);
            assertBlocked(reader);
            f.tm.commit(a);
            get(reader);
            f.tm.commit(c);
            assertClean(f.lm);
        }
    }

    @Test
    void downgradeGrantsWaitingReaders() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            Txn d = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            long w0 = f.lm.stats().waits();
            Future<?> rb = pool.submit(() -> {
                f.lm.lock(b, page(1), READ, 0);
                return null;
            });
            Future<?> rc = pool.submit(() -> {
                f.lm.lock(c, page(1), READ, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 2);
            Future<?> wd = pool.submit(() -> {
                f.lm.lock(d, page(1), WRITE, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 3);
            f.lm.downgrade(a, page(1));
            get(rb);
            get(rc);
            assertEquals(READ, f.lm.heldMode(a, page(1)));
            assertEquals(READ, f.lm.heldMode(b, page(1)));
            assertEquals(READ, f.lm.heldMode(c, page(1)));
            assertBlocked(wd);
            f.lm.downgrade(a, page(1)); // READ already: nothing
            f.tm.commit(a);
            f.tm.commit(b);
            assertBlocked(wd);
            f.tm.commit(c);
            get(wd);
            f.tm.commit(d);
            assertClean(f.lm);
        }
    }

    // ------------------------------------------------------------------ queueing

    @Test
    void fifoALaterReadDoesNotJumpAWaitingWrite() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            List<String> order = Collections.synchronizedList(new ArrayList<>());
            long w0 = f.lm.stats().waits();
            Future<?> wb = pool.submit(() -> {
                f.lm.lock(b, page(1), WRITE, 0);
                order.add("b");
                Thread.sleep(100); // c must still wait while b holds WRITE
                order.add("b done");
                f.tm.commit(b);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            // READ is compatible with the holder, but a WRITE waits before it.
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(c, page(1), READ, LockManager.NOWAIT));
            Future<?> rc = pool.submit(() -> {
                f.lm.lock(c, page(1), READ, 0);
                order.add("c");
                return null;
            });
            awaitWaits(f.lm, w0, 2);
            assertBlocked(rc);
            f.tm.commit(a);
            get(wb);
            get(rc);
            assertEquals(List.of("b", "b done", "c"), order);
            f.tm.commit(c);
            assertClean(f.lm);
        }
    }

    @Test
    void nowaitRefusesWithoutChangingAnything() {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            LockNotGrantedException e = assertThrows(LockNotGrantedException.class,
                    () -> f.lm.lock(b, page(1), READ, LockManager.NOWAIT));
            assertTrue(e.getMessage().contains("NOWAIT"), e.getMessage());
            // a's WRITE and IWRITE on the file; b keeps its IREAD on the file (compatible) until it ends
            assertEquals(3, f.lm.stats().locksInUse());
            assertEquals(0, f.lm.stats().waits());
            f.lm.lock(b, page(2), READ, LockManager.NOWAIT); // b goes on
            f.tm.commit(a);
            f.lm.lock(b, page(1), WRITE, LockManager.NOWAIT);
            f.tm.commit(b);
            assertClean(f.lm);
        }
    }

    @Test
    void timeoutLeavesTheTableCleanAndLetsTheNextWaiterIn() throws Exception {
        try (LockFixture f = open(quiet().lockTimeoutMillis(300).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            long w0 = f.lm.stats().waits();
            long t0 = System.nanoTime();
            Future<?> wb = pool.submit(() -> {
                f.lm.lock(b, page(1), WRITE, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            Future<?> rc = pool.submit(() -> { // behind b's WRITE though compatible with a's READ
                f.lm.lock(c, page(1), READ, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 2);
            Exception e = assertThrows(Exception.class, () -> get(wb));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(e.getCause() instanceof LockTimeoutException, String.valueOf(e));
            assertTrue(e.getCause().getMessage().contains("lockTimeoutMillis"), e.getCause().getMessage());
            assertTrue(waited >= 290 && waited < 5000, "waited " + waited + " ms");
            get(rc); // b's withdrawal lets c in, before c's own timeout
            assertNull(f.lm.heldMode(b, page(1)));
            assertEquals(1, f.lm.stats().timeouts());
            assertEquals(5, f.lm.stats().locksInUse(), "a's and c's READ, and the three file intention locks");
            f.tm.abort(b);
            f.tm.commit(a);
            f.tm.commit(c);
            assertClean(f.lm);
            Txn d = f.tm.begin();
            f.lm.lock(d, page(1), WRITE, LockManager.NOWAIT);
            f.tm.commit(d);
        }
    }

    @Test
    void aWaiterInAFailedEnvironmentStopsWithinARecheckNotAtTheTimeout() throws Exception {
        try (LockFixture f = open(quiet().lockTimeoutMillis(60_000).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            long w0 = f.lm.stats().waits();
            Future<?> wb = pool.submit(() -> {
                f.lm.lock(b, page(1), WRITE, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            long t0 = System.nanoTime();
            f.tm.environment().fail("a test failed the environment while a transaction held a lock");
            Exception e = assertThrows(Exception.class, () -> get(wb));
            long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(e.getCause() instanceof org.libtp.core.RunRecoveryException, String.valueOf(e));
            assertTrue(waited < 5000, "waited " + waited + " ms for a holder that a failed environment never releases");
        }
    }

    @Test
    void conversionTimesOutKeepingItsReadLock() throws Exception {
        try (LockFixture f = open(quiet().lockTimeoutMillis(200).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(b, page(1), READ, 0);
            // In another thread: the same thread waiting for its own other transaction is refused at once.
            Exception ex = assertThrows(Exception.class, () -> get(pool.submit(() -> {
                f.lm.upgrade(a, page(1), 0);
                return null;
            })));
            assertTrue(ex.getCause() instanceof LockTimeoutException, String.valueOf(ex));
            assertEquals(READ, f.lm.heldMode(a, page(1)));
            Txn c = f.tm.begin();
            f.lm.lock(c, page(1), READ, LockManager.NOWAIT); // no conversion pending any more
            f.tm.abort(a);
            f.tm.commit(b);
            f.tm.commit(c);
            assertClean(f.lm);
        }
    }

    // ------------------------------------------------------------------ capacity

    @Test
    void fullLockTableIsAClearErrorAndTheTableStaysUsable() {
        try (LockFixture f = open(quiet().maxLocks(8).maxObjects(100).partitions(4).escalationThreshold(0).build())) {
            Txn a = f.tm.begin();
            for (int p = 0; p < 7; p++) { // and the file's IREAD
                f.lm.lock(a, page(p), READ, 0);
            }
            CapacityExceededException e = assertThrows(CapacityExceededException.class,
                    () -> f.lm.lock(a, page(7), READ, 0));
            assertTrue(e.getMessage().contains("lock table full (8 locks)") && e.getMessage().contains("LockConfig.maxLocks"),
                    e.getMessage());
            Txn b = f.tm.begin();
            assertThrows(CapacityExceededException.class, () -> f.lm.lock(b, page(0), READ, 0),
                    "a second holder needs a request entry too");
            f.lm.lock(a, page(0), READ, 0); // a re-lock needs no entry
            assertEquals(8, f.lm.stats().locksInUse());
            f.lm.unlock(a, page(0));
            f.lm.unlock(a, page(0));
            f.lm.unlock(a, page(1));
            // b's IREAD on the file and its page take the two freed entries (from other partitions' caches)
            f.lm.lock(b, page(3), READ, 0);
            assertThrows(CapacityExceededException.class, () -> f.lm.lock(b, page(9), READ, 0));
            f.tm.commit(a);
            f.tm.commit(b);
            assertClean(f.lm);
            Txn c = f.tm.begin();
            for (int p = 100; p < 107; p++) {
                f.lm.lock(c, page(p), WRITE, 0); // every entry came back (7 and the file's IWRITE)
            }
            assertThrows(CapacityExceededException.class, () -> f.lm.lock(c, page(0), WRITE, 0));
            f.tm.commit(c);
            assertClean(f.lm);
        }
    }

    @Test
    void fullObjectTableNamesMaxObjects() {
        try (LockFixture f = open(quiet().maxLocks(100).maxObjects(4).escalationThreshold(0).build())) {
            Txn a = f.tm.begin();
            for (int p = 0; p < 3; p++) { // and the file
                f.lm.lock(a, page(p), READ, 0);
            }
            CapacityExceededException e = assertThrows(CapacityExceededException.class,
                    () -> f.lm.lock(a, page(3), READ, 0));
            assertTrue(e.getMessage().contains("LockConfig.maxObjects"), e.getMessage());
            Txn b = f.tm.begin();
            f.lm.lock(b, page(2), READ, 0); // an existing object takes no new entry
            f.tm.commit(a);
            f.lm.lock(b, page(3), WRITE, 0);
            f.tm.commit(b);
            assertClean(f.lm);
        }
    }

    // ------------------------------------------------------------------ commit and abort

    @Test
    void commitAndAbortReleaseEveryLockAndWakeTheWaiters() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            for (int p = 0; p < 50; p++) {
                f.lm.lock(a, page(p), p % 2 == 0 ? READ : WRITE, 0);
            }
            f.store.put(a, 3, 33); // a logged update: commit writes a record and forces it
            Txn b = f.tm.begin();
            long w0 = f.lm.stats().waits();
            Future<?> wb = pool.submit(() -> {
                f.lm.lock(b, page(49), WRITE, 0);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            assertEquals(53, f.lm.stats().locksInUse(), "50 pages, b's wait, a's and b's IWRITE on the file");
            f.tm.commit(a);
            get(wb);
            assertEquals(2, f.lm.stats().locksInUse());
            Txn c = f.tm.begin();
            f.lm.lock(c, page(7), WRITE, 0);
            f.lm.lock(c, page(8), READ, 0);
            f.store.put(c, 4, 44);
            f.tm.abort(c);
            assertEquals(0, f.store.get(4), "the abort was undone");
            assertNull(f.lm.heldMode(b, page(7)));
            f.lm.lock(b, page(7), WRITE, LockManager.NOWAIT);
            f.tm.commit(b);
            assertClean(f.lm);
            assertEquals(33, f.store.get(3));
        }
    }

    @Test
    void unlockAllInTheMiddleOfATransaction() {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            f.lm.lock(a, page(2), WRITE, 0);
            f.lm.unlockAll(a);
            assertClean(f.lm);
            f.lm.lock(a, page(3), READ, 0); // the locker is taken again
            assertEquals(READ, f.lm.heldMode(a, page(3)));
            f.tm.commit(a);
            assertClean(f.lm);
        }
    }

    // ------------------------------------------------------------------ deadlocks

    /** Locks {@code obj} WRITE in {@code t}; "GRANTED" (then commits) or "VICTIM" (then aborts). */
    private static Callable<String> attempt(LockFixture f, Txn t, LockObject obj) {
        return () -> {
            try {
                f.lm.lock(t, obj, WRITE, 0);
            } catch (DeadlockException e) {
                assertTrue(e.getMessage().contains("transaction " + t.id()) && e.getMessage().contains(obj.toString())
                        && e.getMessage().contains("abort and retry"), e.getMessage());
                f.tm.abort(t);
                return "VICTIM " + t.id();
            }
            f.tm.commit(t);
            return "GRANTED " + t.id();
        };
    }

    /**
     * Two transactions (a older than b) each hold one page and ask for the other's. Returns the
     * id of the victim after checking that exactly one was chosen and the other went on.
     */
    private long twoWayDeadlock(LockFixture f, boolean detectExplicitly, int extraLocksA, int extraLocksB)
            throws Exception {
        Txn a = f.tm.begin();
        Txn b = f.tm.begin();
        f.lm.lock(a, page(1), WRITE, 0);
        f.lm.lock(b, page(2), WRITE, 0);
        for (int i = 0; i < extraLocksA; i++) {
            f.lm.lock(a, page(100 + i), READ, 0);
        }
        for (int i = 0; i < extraLocksB; i++) {
            f.lm.lock(b, page(200 + i), READ, 0);
        }
        long w0 = f.lm.stats().waits();
        long d0 = f.lm.stats().deadlocks();
        Future<String> fa = pool.submit(attempt(f, a, page(2)));
        awaitWaits(f.lm, w0, 1);
        Future<String> fb = pool.submit(attempt(f, b, page(1)));
        awaitWaits(f.lm, w0, 2);
        if (detectExplicitly) {
            assertBlocked(fa);
            assertBlocked(fb);
            assertEquals(1, f.lm.detect(), "one cycle, one victim");
        }
        String ra = get(fa);
        String rb = get(fb);
        List<String> results = List.of(ra, rb);
        assertEquals(1, results.stream().filter(r -> r.startsWith("VICTIM")).count(), results.toString());
        assertEquals(1, results.stream().filter(r -> r.startsWith("GRANTED")).count(), results.toString());
        assertEquals(d0 + 1, f.lm.stats().deadlocks());
        assertEquals(0, f.lm.detect(), "nothing left to break");
        assertClean(f.lm);
        return ra.startsWith("VICTIM") ? a.id() : b.id();
    }

    @Test
    void deadlockFoundWhenARequestBlocksYoungestIsTheVictim() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn probe = f.tm.begin();
            long first = probe.id();
            f.tm.commit(probe);
            long victim = twoWayDeadlock(f, false, 0, 0);
            assertEquals(first + 2, victim, "YOUNGEST: the later transaction b");
        }
    }

    @Test
    void deadlockFoundByThePeriodicDetector() throws Exception {
        try (LockFixture f = open(LockConfig.builder().detectOnBlock(false).detectIntervalMillis(100).build())) {
            long t0 = System.nanoTime();
            twoWayDeadlock(f, false, 0, 0);
            long ms = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
            assertTrue(ms < 5000, "resolved after " + ms + " ms");
            assertEquals(f.env.processSlot(), f.lm.detectorProcessSlot(), "this process took the detector role");
        }
    }

    @Test
    void explicitDetectionAndVictimPolicies() throws Exception {
        try (LockFixture f = open(quiet().detectOnBlock(false).victimPolicy(VictimPolicy.OLDEST).build())) {
            Txn probe = f.tm.begin();
            long next = probe.id() + 1;
            f.tm.commit(probe);
            assertEquals(next, twoWayDeadlock(f, true, 0, 0), "OLDEST: a");
        }
        try (LockFixture f = open(quiet().detectOnBlock(false).victimPolicy(VictimPolicy.FEWEST_LOCKS).build())) {
            Txn probe = f.tm.begin();
            long next = probe.id() + 1;
            f.tm.commit(probe);
            assertEquals(next, twoWayDeadlock(f, true, 0, 3), "FEWEST_LOCKS: a holds fewer");
            Txn probe2 = f.tm.begin();
            long next2 = probe2.id() + 1;
            f.tm.commit(probe2);
            assertEquals(next2 + 1, twoWayDeadlock(f, true, 3, 0), "FEWEST_LOCKS: b holds fewer");
        }
    }

    @Test
    void threeWayCycleWithABystanderCostsOneVictim() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn[] t = {f.tm.begin(), f.tm.begin(), f.tm.begin()};
            Txn holder = f.tm.begin();
            Txn bystander = f.tm.begin(); // the youngest, waiting outside the cycle
            f.lm.lock(holder, page(9), WRITE, 0);
            for (int i = 0; i < 3; i++) {
                f.lm.lock(t[i], page(i), WRITE, 0);
            }
            long w0 = f.lm.stats().waits();
            Future<String> by = pool.submit(attempt(f, bystander, page(9)));
            awaitWaits(f.lm, w0, 1);
            List<Future<String>> fs = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                fs.add(pool.submit(attempt(f, t[i], page((i + 1) % 3))));
                awaitWaits(f.lm, w0, 2 + i);
            }
            List<String> results = new ArrayList<>();
            for (Future<String> x : fs) {
                results.add(get(x));
            }
            assertEquals(List.of("GRANTED " + t[0].id(), "GRANTED " + t[1].id(), "VICTIM " + t[2].id()), results);
            assertBlocked(by);
            f.tm.commit(holder);
            assertEquals("GRANTED " + bystander.id(), get(by));
            assertEquals(1, f.lm.stats().deadlocks());
            assertClean(f.lm);
        }
    }

    /**
     * FIFO makes a waiter wait for an earlier conflicting waiter: here the youngest, d, waits
     * behind c's request and is on a cycle too, but refusing c alone breaks both cycles.
     */
    @Test
    void overlappingCyclesThroughAQueueCostOneVictim() throws Exception {
        try (LockFixture f = open(quiet().detectOnBlock(false).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            Txn d = f.tm.begin();
            f.lm.lock(a, page(0), WRITE, 0);
            f.lm.lock(b, page(1), WRITE, 0);
            f.lm.lock(c, page(2), WRITE, 0);
            long w0 = f.lm.stats().waits();
            Future<String> fd = pool.submit(attempt(f, d, page(0))); // d waits for a
            awaitWaits(f.lm, w0, 1);
            Future<String> fa = pool.submit(attempt(f, a, page(1))); // a waits for b
            awaitWaits(f.lm, w0, 2);
            Future<String> fb = pool.submit(attempt(f, b, page(2))); // b waits for c
            awaitWaits(f.lm, w0, 3);
            Future<String> fc = pool.submit(attempt(f, c, page(0))); // c waits for a, and for d (queued first)
            awaitWaits(f.lm, w0, 4);
            assertEquals(1, f.lm.detect());
            assertEquals("VICTIM " + c.id(), get(fc));
            assertEquals("GRANTED " + b.id(), get(fb));
            assertEquals("GRANTED " + a.id(), get(fa));
            assertEquals("GRANTED " + d.id(), get(fd));
            assertClean(f.lm);
        }
    }

    /**
     * A cycle only FIFO queueing closes: c asks READ, compatible with holder x, but waits behind
     * d's WRITE; d waits for x; x waits for c.
     */
    @Test
    void cycleThroughAnEarlierWaiterIsFound() throws Exception {
        try (LockFixture f = open(quiet().detectOnBlock(false).build())) {
            Txn x = f.tm.begin();
            Txn c = f.tm.begin();
            Txn d = f.tm.begin();
            f.lm.lock(x, page(0), READ, 0);
            f.lm.lock(c, page(2), WRITE, 0);
            long w0 = f.lm.stats().waits();
            Future<String> fd = pool.submit(() -> {
                try {
                    f.lm.lock(d, page(0), WRITE, 0);
                } catch (DeadlockException e) {
                    f.tm.abort(d);
                    return "VICTIM";
                }
                f.tm.commit(d);
                return "GRANTED";
            });
            awaitWaits(f.lm, w0, 1);
            Future<String> fc = pool.submit(() -> {
                f.lm.lock(c, page(0), READ, 0);
                f.tm.commit(c);
                return "GRANTED";
            });
            awaitWaits(f.lm, w0, 2);
            Future<String> fx = pool.submit(attempt(f, x, page(2)));
            awaitWaits(f.lm, w0, 3);
            assertBlocked(fc);
            assertEquals(1, f.lm.detect());
            assertEquals("VICTIM", get(fd), "d, the youngest");
            assertEquals("GRANTED", get(fc));
            assertEquals("GRANTED " + x.id(), get(fx));
            assertClean(f.lm);
        }
    }

    @Test
    void twoReadersUpgradingDeadlockAndTheVictimKeepsItsReadLock() throws Exception {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(b, page(1), READ, 0);
            long w0 = f.lm.stats().waits();
            Future<?> ua = pool.submit(() -> {
                f.lm.upgrade(a, page(1), 0);
                return null;
            });
            awaitWaits(f.lm, w0, 1);
            DeadlockException e = assertThrows(DeadlockException.class, () -> f.lm.upgrade(b, page(1), 0));
            assertTrue(e.getMessage().contains("transaction " + b.id()), e.getMessage());
            assertEquals(READ, f.lm.heldMode(b, page(1)), "a refused conversion keeps what it had");
            assertBlocked(ua);
            f.tm.abort(b);
            get(ua);
            assertEquals(WRITE, f.lm.heldMode(a, page(1)));
            f.tm.commit(a);
            assertClean(f.lm);
        }
    }

    @Test
    void cycleGraphSearchChoosesOneVictimPerCycle() {
        // 0 -> 1 -> 2 -> 0 and 3 -> 4 -> 3, and 5 -> 0 (waits, in no cycle)
        int[] from = {0, 1, 2, 3, 4, 5};
        int[] to = {1, 2, 0, 4, 3, 0};
        long[] ids = {10, 30, 20, 5, 6, 99};
        int[] counts = {1, 1, 1, 1, 1, 1};
        int[] v = DeadlockDetector.victims(6, from, to, 6, ids, counts, VictimPolicy.YOUNGEST);
        assertEquals(2, v.length);
        assertTrue(List.of(1, 4).containsAll(List.of(v[0], v[1])), java.util.Arrays.toString(v));
        v = DeadlockDetector.victims(6, from, to, 6, ids, counts, VictimPolicy.OLDEST);
        assertTrue(List.of(0, 3).containsAll(List.of(v[0], v[1])), java.util.Arrays.toString(v));
        // Two cycles sharing node 0: 0 -> 1 -> 0 and 0 -> 2 -> 0; the youngest (0) breaks both.
        v = DeadlockDetector.victims(3, new int[] {0, 1, 0, 2}, new int[] {1, 0, 2, 0}, 4, new long[] {9, 1, 2},
                new int[3], VictimPolicy.YOUNGEST);
        assertEquals(1, v.length);
        assertEquals(0, v[0]);
        // FIFO: node 0 (youngest) waits for 1; 1 -> 2 -> 3 -> 1, and 3 also waits for 0 (queued
        // before it). Whichever cycle is found first, only 3 is needed.
        v = DeadlockDetector.victims(4, new int[] {0, 1, 2, 3, 3}, new int[] {1, 2, 3, 0, 1}, 5,
                new long[] {40, 10, 20, 30}, new int[4], VictimPolicy.YOUNGEST);
        assertEquals(List.of(3), java.util.Arrays.stream(v).boxed().toList());
        assertEquals(0, DeadlockDetector.victims(3, new int[] {0, 1}, new int[] {1, 2}, 2, new long[3], new int[3],
                VictimPolicy.YOUNGEST).length, "a chain is no cycle");
    }

    // ------------------------------------------------------------------ misuse

    @Test
    void badArgumentsAndStates() {
        try (LockFixture f = open(quiet().build())) {
            Txn a = f.tm.begin();
            assertThrows(IllegalArgumentException.class, () -> f.lm.lock(null, page(1), READ, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lock(a, null, READ, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lock(a, page(1), null, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lock(a, page(1), READ, 8));
            assertThrows(IllegalArgumentException.class, () -> f.lm.unlock(null, page(1)));
            assertThrows(IllegalArgumentException.class, () -> f.lm.unlock(a, null));
            assertThrows(IllegalArgumentException.class, () -> f.lm.upgrade(a, null, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.downgrade(null, page(1)));
            assertThrows(IllegalArgumentException.class, () -> f.lm.heldMode(a, null));
            assertThrows(IllegalArgumentException.class, () -> f.lm.unlockAll(null));
            assertThrows(IllegalArgumentException.class, () -> new LockObject(-1, 0));
            assertThrows(IllegalArgumentException.class, () -> new LockObject(1, -2));
            new LockObject(1, LockObject.WHOLE_FILE);
            assertThrows(IllegalArgumentException.class, () -> SharedLockManager.open(null, LockConfig.defaults()));
            assertThrows(IllegalArgumentException.class, () -> SharedLockManager.open(f.tm, null));
            assertThrows(IllegalStateException.class, () -> f.lm.unlock(a, page(1)), "not held");
            assertThrows(IllegalStateException.class, () -> f.lm.downgrade(a, page(1)), "not held");
            f.lm.lock(a, page(1), WRITE, 0);
            f.tm.commit(a);
            assertThrows(IllegalStateException.class, () -> f.lm.lock(a, page(1), READ, 0));
            assertThrows(IllegalStateException.class, () -> f.lm.unlock(a, page(1)));
            assertThrows(IllegalStateException.class, () -> f.lm.heldMode(a, page(1)));
            assertThrows(IllegalStateException.class, () -> f.lm.unlockAll(a));
            assertClean(f.lm);
        }
    }

    @Test
    void configIsValidatedAtBuild() {
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().maxLocks(0).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().maxObjects(0).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().partitions(3).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().partitions(8192).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().lockTimeoutMillis(-1).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().detectIntervalMillis(5).build());
        assertThrows(IllegalArgumentException.class, () -> LockConfig.builder().victimPolicy(null).build());
        LockConfig d = LockConfig.defaults();
        assertEquals(20_000, d.maxLocks());
        assertEquals(20_000, d.maxObjects());
        assertEquals(64, d.partitions());
        assertEquals(0, d.lockTimeoutMillis());
        assertEquals(1000, d.detectIntervalMillis());
        assertTrue(d.detectOnBlock());
        assertEquals(VictimPolicy.YOUNGEST, d.victimPolicy());
        assertEquals(d, d.toBuilder().build());
    }

    @Test
    void closedManagerRefusesEverything() {
        try (LockFixture f = open(LockConfig.defaults())) {
            Txn a = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            SharedLockManager second = SharedLockManager.open(f.tm, quiet().build());
            second.close();
            second.close(); // idempotent
            assertThrows(IllegalStateException.class, () -> second.lock(a, page(2), READ, 0));
            assertThrows(IllegalStateException.class, () -> second.unlock(a, page(1)));
            assertThrows(IllegalStateException.class, () -> second.upgrade(a, page(1), 0));
            assertThrows(IllegalStateException.class, () -> second.downgrade(a, page(1)));
            assertThrows(IllegalStateException.class, () -> second.heldMode(a, page(1)));
            assertThrows(IllegalStateException.class, () -> second.unlockAll(a));
            assertThrows(IllegalStateException.class, second::detect);
            assertThrows(IllegalStateException.class, second::stats);
            f.tm.commit(a); // both end listeners run; the release happens once
            assertClean(f.lm);
        }
    }

    @Test
    void differentCapacitySettingsAreRejectedNamingTheSetting() {
        try (LockFixture f = open(quiet().build())) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> SharedLockManager.open(f.tm, quiet().maxLocks(1000).build()));
            assertTrue(e.getMessage().contains("LockConfig.maxLocks"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> SharedLockManager.open(f.tm, quiet().maxObjects(1000).build()));
            assertTrue(e.getMessage().contains("LockConfig.maxObjects"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class,
                    () -> SharedLockManager.open(f.tm, quiet().partitions(8).build()));
            assertTrue(e.getMessage().contains("LockConfig.partitions"), e.getMessage());
            // per-process settings may differ
            SharedLockManager other = SharedLockManager.open(f.tm,
                    quiet().lockTimeoutMillis(5).victimPolicy(VictimPolicy.OLDEST).detectOnBlock(false).build());
            other.close();
        }
    }

    // ------------------------------------------------------------------ randomized

    /**
     * Threads run transactions that lock random pages in random modes (deadlocks are frequent),
     * sometimes convert, downgrade or release early. A shadow table, updated after a grant and
     * before a release, must never see two conflicting holders.
     */
    @Test
    void randomizedTransactionsNeverHoldConflictingLocks() throws Exception {
        long seed = Seeds.seed("LockManagerTest.randomized");
        for (boolean onBlock : new boolean[] {true, false}) {
            Path h = Files.createDirectory(dir.resolve("rnd-" + onBlock));
            try (LockFixture f = new LockFixture(h, 0, LockConfig.builder().maxLocks(64).partitions(4).escalationThreshold(0)
                    .detectOnBlock(onBlock).detectIntervalMillis(onBlock ? 0 : 20).build())) {
                // The periodic detector (20 ms) resolves each deadlock only at its next pass: fewer rounds.
                runRandom(f, new Random(seed + (onBlock ? 1 : 0)), onBlock ? 400 : 100);
                assertClean(f.lm);
                // No entry leaked: a single transaction can take all 64 requests.
                Txn t = f.tm.begin();
                for (int p = 0; p < 63; p++) { // and the file's IREAD
                    f.lm.lock(t, page(1000 + p), READ, 0);
                }
                assertThrows(CapacityExceededException.class, () -> f.lm.lock(t, page(0), READ, 0));
                f.tm.commit(t);
            }
        }
    }

    private void runRandom(LockFixture f, Random seeds, int txnsPerThread) throws Exception {
        int threads = 6;
        int pages = 6;
        List<Map<Long, LockMode>> shadow = new ArrayList<>();
        for (int p = 0; p < pages; p++) {
            shadow.add(new HashMap<>());
        }
        AtomicInteger violations = new AtomicInteger();
        AtomicInteger deadlocks = new AtomicInteger();
        List<Future<?>> fs = new ArrayList<>();
        for (int k = 0; k < threads; k++) {
            Random rnd = new Random(seeds.nextLong());
            fs.add(pool.submit(() -> {
                for (int i = 0; i < txnsPerThread; i++) {
                    Txn t = f.tm.begin();
                    Map<Long, LockMode> mine = new HashMap<>();
                    Map<Long, Integer> refs = new HashMap<>();
                    try {
                        int ops = 1 + rnd.nextInt(4);
                        for (int op = 0; op < ops; op++) {
                            long p = rnd.nextInt(pages);
                            int kind = rnd.nextInt(10);
                            if (kind < 7 || !mine.containsKey(p)) {
                                LockMode m = rnd.nextBoolean() ? READ : WRITE;
                                f.lm.lock(t, page(p), m, 0);
                                refs.merge(p, 1, Integer::sum);
                                mine.merge(p, m, LockMode::join);
                                grant(shadow, p, t.id(), mine.get(p), violations);
                            } else if (kind == 7) {
                                f.lm.upgrade(t, page(p), 0);
                                mine.put(p, WRITE);
                                grant(shadow, p, t.id(), WRITE, violations);
                            } else if (kind == 8) {
                                mine.put(p, READ);
                                grant(shadow, p, t.id(), READ, violations); // before others may come in
                                f.lm.downgrade(t, page(p));
                            } else if (refs.get(p) > 1) {
                                refs.merge(p, -1, Integer::sum);
                                f.lm.unlock(t, page(p));
                            } else {
                                drop(shadow, p, t.id());
                                mine.remove(p);
                                refs.remove(p);
                                f.lm.unlock(t, page(p));
                            }
                            if (mine.containsKey(p) && f.lm.heldMode(t, page(p)) != mine.get(p)) {
                                violations.incrementAndGet();
                            }
                        }
                        for (long p : mine.keySet()) {
                            drop(shadow, p, t.id());
                        }
                        f.tm.commit(t);
                    } catch (DeadlockException e) {
                        deadlocks.incrementAndGet();
                        for (long p : mine.keySet()) {
                            drop(shadow, p, t.id());
                        }
                        f.tm.abort(t);
                    }
                }
                return null;
            }));
        }
        for (Future<?> x : fs) {
            try {
                x.get(60, TimeUnit.SECONDS);
            } catch (TimeoutException e) {
                throw new AssertionError("a worker is stuck; stats " + f.lm.stats(), e);
            }
        }
        assertEquals(0, violations.get(), "conflicting holders seen");
        System.out.println("LockManagerTest.randomized: " + threads * txnsPerThread + " transactions, "
                + deadlocks.get() + " deadlock victims, " + f.lm.stats());
        assertEquals(deadlocks.get(), f.lm.stats().deadlocks());
    }

    private static void grant(List<Map<Long, LockMode>> shadow, long p, long txn, LockMode m,
                              AtomicInteger violations) {
        Map<Long, LockMode> holders = shadow.get((int) p);
        synchronized (holders) {
            for (Map.Entry<Long, LockMode> e : holders.entrySet()) {
                if (e.getKey() != txn && m.conflictsWith(e.getValue())) {
                    violations.incrementAndGet();
                }
            }
            holders.put(txn, m);
        }
    }

    private static void drop(List<Map<Long, LockMode>> shadow, long p, long txn) {
        Map<Long, LockMode> holders = shadow.get((int) p);
        synchronized (holders) {
            holders.remove(txn);
        }
    }
}
