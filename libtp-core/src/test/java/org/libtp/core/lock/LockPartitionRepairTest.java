package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.LatchLayout;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.txn.Txn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockFixture.page;
import static org.libtp.core.lock.LockLayout.*;
import static org.libtp.core.lock.LockMode.READ;
import static org.libtp.core.lock.LockMode.WRITE;

/**
 * A lock-table partition latch whose holder died in the middle of a change. In one JVM the latch
 * word is made to name an owner no process holds and the partition is scribbled on as such a
 * holder leaves it (a queue cut, buckets emptied, counts wrong, an entry taken off the free list
 * and not used, one taken off and not named yet, a locker's chain cut); across JVMs a child takes the latch, scribbles and is
 * killed with SIGKILL. The next thread to take the latch rebuilds the partition; locks held stay
 * held, waiters are granted, and once everything is released the table is empty with every entry
 * free (nothing leaked).
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = TimeUnit.MINUTES)
class LockPartitionRepairTest {
    @TempDir
    Path dir;

    static LockConfig onePartition() {
        return LockConfig.builder().partitions(1).maxLocks(64).maxObjects(64).detectIntervalMillis(0).build();
    }

    /** An owner id no process holds: the registry's last slot (tests use the first ones). */
    static int deadOwner(LockFixture f) {
        return f.env.config().maxProcesses();
    }

    /** What a holder killed in the middle of a change leaves in partition 0 (the latch is taken by the caller). */
    static void scribble(LockTable t, int cutChainOfSlot) {
        Memory mem = t.mem;
        long pb = LockTable.partBlock(0);
        // Every object's queue cut after its first request, and every bucket emptied.
        for (int o = 0; o < t.lay.maxObjects(); o++) {
            long oa = t.obj(o);
            if (mem.getInt(oa + O_PART) == 0 && mem.getInt(oa + O_HEAD) != 0) {
                int head = mem.getInt(oa + O_HEAD);
                mem.putInt(t.req(head - 1) + R_QNEXT, 0);
                mem.putInt(oa + O_TAIL, head);
            }
        }
        for (int b = 0; b < t.lay.bucketsPerPartition(); b++) {
            mem.putInt(t.lay.offBuckets() + 4L * b, 0);
        }
        mem.putLong(pb + P_COUNTS, pair(1234, 567));
        // A request and an object taken from the free stacks and named, not used yet.
        int r = t.allocRequest(pb, 0);
        int o = t.allocObject(pb, 0);
        assertTrue(r >= 0 && o >= 0);
        // A request and an object popped from the free stacks and not named yet: on no list,
        // given back by the sweep that follows a repair (lost for good before it).
        assertTrue(t.pop(OFF_REQ_FREE, t.lay.offRequests(), REQ, R_LNEXT) >= 0);
        assertTrue(t.pop(OFF_OBJ_FREE, t.lay.offObjects(), OBJ, O_NEXT) >= 0);
        // The chain of one locker cut to nothing.
        mem.putInt(t.locker(cutChainOfSlot) + L_CHAIN, 0);
    }

    static long pair(int low, int high) {
        return LockTable.pair(low, high);
    }

    static void takeLatchAsDead(LockTable t, int owner) {
        long word = LockTable.partBlock(0) + P_LATCH + LatchLayout.WORD;
        assertTrue(t.mem.compareAndSetInt(word, 0, owner << 1), "partition latch free");
    }

    /** Every request and object free: on a free stack or in a cache, none named by a partition. */
    static void assertNothingLeaked(LockTable t) {
        Memory mem = t.mem;
        int reqs = stackLength(t, OFF_REQ_FREE, t.lay.offRequests(), REQ, R_LNEXT, t.lay.maxLocks());
        int objs = stackLength(t, OFF_OBJ_FREE, t.lay.offObjects(), OBJ, O_NEXT, t.lay.maxObjects());
        for (int p = 0; p < t.lay.partitions(); p++) {
            long caches = mem.getLong(LockTable.partBlock(p) + P_CACHES);
            reqs += (int) caches != 0 ? 1 : 0;
            objs += (int) (caches >>> 32) != 0 ? 1 : 0;
        }
        assertEquals(t.lay.maxLocks(), reqs, "every request is free again");
        assertEquals(t.lay.maxObjects(), objs, "every object is free again");
        for (int r = 0; r < t.lay.maxLocks(); r++) {
            assertEquals(NO_PART, mem.getInt(t.req(r) + R_PART), "request " + r + " names no partition");
        }
    }

    static int stackLength(LockTable t, long head, long base, int stride, int link, int max) {
        int n = 0;
        for (int i = (int) t.ctl.getLongVolatile(head); i != 0; i = t.mem.getInt(base + (long) stride * (i - 1) + link)) {
            if (++n > max) {
                throw new AssertionError("free stack longer than the table: a cycle");
            }
        }
        return n;
    }

    @Test
    void aPartitionIsRebuiltAndLocksHeldStayHeld() {
        try (LockFixture f = new LockFixture(dir, 0, onePartition())) {
            LockTable t = f.lm.table();
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            f.lm.lock(a, page(2), READ, 0);
            f.lm.lock(b, page(2), READ, 0);
            f.lm.lock(b, page(3), WRITE, 0);
            int before = f.lm.stats().locksInUse();
            takeLatchAsDead(t, deadOwner(f));
            scribble(t, a.slot());

            Txn c = f.tm.begin();
            f.lm.lock(c, page(4), WRITE, 0); // takes the latch over: the repair runs here
            assertFalse(f.env.isFailed());
            assertEquals(1, f.env.latchRepairs());
            assertEquals(before + 2, f.lm.stats().locksInUse(), "a's and b's locks, c's page 4 and its IWRITE: "
                    + f.lm.stats());
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(c, page(1), WRITE, LockManager.NOWAIT),
                    "a's WRITE lock survived the repair");
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(c, page(3), READ, LockManager.NOWAIT),
                    "b's WRITE lock survived the repair");
            f.lm.lock(c, page(2), READ, LockManager.NOWAIT);

            f.tm.commit(a); // a's chain was cut: rebuilt from the requests naming it, then released
            f.lm.lock(c, page(1), WRITE, LockManager.NOWAIT);
            f.tm.commit(b);
            f.tm.commit(c);
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertEquals(0, f.lm.stats().objectsInUse());
            assertNothingLeaked(t);
        }
    }

    @Test
    void aWaiterIsGrantedWhenTheRepairedQueueAllowsIt() throws Exception {
        try (LockFixture f = new LockFixture(dir, 0, onePartition())) {
            LockTable t = f.lm.table();
            Txn a = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            Txn w = f.tm.begin();
            long waits = f.lm.stats().waits();
            CompletableFuture<Void> waiter = CompletableFuture.runAsync(() -> f.lm.lock(w, page(1), WRITE, 0));
            while (f.lm.stats().waits() == waits) {
                Thread.sleep(5);
            }
            takeLatchAsDead(t, deadOwner(f));
            // The dead holder was releasing a's lock: taken out of the queue, status not yet free.
            int o = t.findObject(t.bucket(LockTable.hash(1, 1)), 1, 1);
            int r = t.findRequest(t.obj(o), a.slot());
            t.dequeue(LockTable.partBlock(0), t.obj(o), r);
            // The repair puts a's lock back (a is alive and still holds it); its commit releases it.
            f.tm.commit(a);
            waiter.get(10, TimeUnit.SECONDS);
            assertEquals(1, f.env.latchRepairs());
            f.tm.commit(w);
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertNothingLeaked(t);
        }
    }

    /**
     * Child: locks page 1 WRITE in a transaction, takes the partition latch, scribbles, prints
     * HOLDING and sleeps until killed. Args: home.
     */
    public static final class DiesHoldingThePartition {
        public static void main(String[] args) throws Exception {
            try (LockFixture f = new LockFixture(Path.of(args[0]), 100, onePartition())) {
                Txn t = f.tm.begin();
                f.lm.lock(t, page(1), WRITE, 0);
                f.lm.table().partLatches[0].acquire();
                scribble(f.lm.table(), t.slot());
                System.out.println("HOLDING");
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @Test
    void aProcessKilledHoldingAPartitionLatchDoesNotStopTheOthers() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (LockFixture f = new LockFixture(home, 100, onePartition())) {
            Txn mine = f.tm.begin();
            f.lm.lock(mine, page(2), WRITE, 0);
            try (ChildJvm c = ChildJvm.start(DiesHoldingThePartition.class, home.toString())) {
                c.awaitLine("HOLDING", Duration.ofSeconds(60));
                CompletableFuture<Void> blocked = CompletableFuture.runAsync(() -> {
                    Txn t = f.tm.begin();
                    f.lm.lock(t, page(1), WRITE, 0); // the latch, then the dead child's lock
                    f.tm.commit(t);
                });
                Thread.sleep(200);
                assertFalse(blocked.isDone(), "waits for the latch while the child lives");
                c.kill();
                blocked.get(10, TimeUnit.SECONDS);
            }
            assertFalse(f.env.isFailed());
            f.tm.commit(mine);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (f.lm.stats().locksInUse() != 0 && System.nanoTime() < deadline) {
                Thread.sleep(20);
            }
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertNothingLeaked(f.lm.table());
        }
    }

    /**
     * An uncontended unlock keeps its request and object in the partition's cache for the next
     * lock. They must be free there as on the stacks: a repair of the partition must not find a
     * granted lock in them (the lock came back, held by a transaction that had given it up and
     * never released it again: a leak that blocks the page for good).
     */
    @Test
    void aLockGivenBackToThePartitionCacheDoesNotComeBackInARepair() {
        try (LockFixture f = new LockFixture(dir, 0, onePartition())) {
            LockTable t = f.lm.table();
            Txn a = f.tm.begin();
            f.lm.lock(a, page(5), WRITE, 0);
            f.lm.unlock(a, page(5));
            long caches = t.mem.getLong(LockTable.partBlock(0) + P_CACHES);
            assertTrue((int) caches != 0 && (int) (caches >>> 32) != 0, "the unlock kept its entries in the cache");
            assertEquals(0, f.lm.freeEntries()[4], "the cached entries are free");

            takeLatchAsDead(t, deadOwner(f));
            Txn c = f.tm.begin();
            f.lm.lock(c, page(6), WRITE, 0); // the repair runs here
            assertEquals(1, f.env.latchRepairs());
            f.lm.lock(c, page(5), WRITE, LockManager.NOWAIT); // nobody holds page 5: a gave it back
            f.tm.commit(a);
            f.tm.commit(c);
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertEquals(0, f.lm.stats().objectsInUse(), f.lm.stats().toString());
            assertNothingLeaked(t);
        }
    }

    /**
     * A chain made again from the requests naming its locker (after a repair marked it suspect)
     * must not take in a request the locker gave back to the partition's cache: releasing that
     * one again unlinks and frees entries that are not in any queue (queues then run into cycles).
     */
    @Test
    void aRebuiltChainLeavesTheCachedEntriesAlone() {
        try (LockFixture f = new LockFixture(dir, 0, onePartition())) {
            LockTable t = f.lm.table();
            Txn a = f.tm.begin();
            f.lm.lock(a, page(7), READ, 0);
            f.lm.lock(a, page(5), WRITE, 0);
            f.lm.unlock(a, page(5));
            t.mem.putIntVolatile(t.locker(a.slot()) + L_SUSPECT, 1);
            f.tm.commit(a);
            assertFalse(f.env.isFailed());
            Txn c = f.tm.begin();
            f.lm.lock(c, page(5), WRITE, LockManager.NOWAIT);
            f.lm.lock(c, page(9), WRITE, LockManager.NOWAIT);
            f.tm.commit(c);
            assertEquals(0, f.lm.stats().locksInUse(), f.lm.stats().toString());
            assertEquals(0, f.lm.stats().objectsInUse(), f.lm.stats().toString());
            assertNothingLeaked(t);
        }
    }
}
