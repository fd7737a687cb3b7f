package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.txn.Txn;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A process killed (SIGKILL) holding a buffer frame latch in the middle of a page change, or
 * holding pages pinned: the other processes go on. The frame is taken over by a waiter or by
 * failCheck, its page rebuilt from the data file and the log, the dead process's pins given back
 * and its transaction rolled back; nothing fails.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.MINUTES)
class LatchRepairMultiProcessTest {
    static final long SCRIBBLE = 0x5C_5C_5C_5C_5C_5C_5C_5CL;

    @TempDir
    Path dir;

    /** Child: "latch" changes page 0 (logged) and scribbles on it (not logged) under its latch; "pin" pins pages. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            try (PageFixture f = new PageFixture(Path.of(args[0]), 16, 0)) {
                Txn t = f.tm.begin();
                if (args[1].startsWith("latch")) {
                    Page p = f.bp.get(f.file, 0, 0);
                    p.latch();
                    f.tp.pages().update(t, p, PageFixture.offset(0), PageFixture.longBytes(p.getLong(PageFixture.offset(0)) + 50));
                    p.putLong(PageFixture.offset(1), SCRIBBLE); // a change cut short: never logged
                    if (args[1].equals("latch+partition")) {
                        // As a holder killed in get() after claiming a frame: frame, then its hash partition.
                        f.bp.frameTable().partition(f.bp.frameTable().bucket(f.file, 0)).acquire();
                    }
                    System.out.println("HOLDING");
                } else {
                    f.add(t, 0, 3, 1); // a change to roll back, no latch held
                    f.bp.get(f.file, 1, BufferManager.CREATE);
                    f.bp.get(f.file, 2, BufferManager.CREATE);
                    f.bp.get(f.file, 1, 0);
                    System.out.println("PINNED");
                }
                Thread.sleep(600_000);
            }
        }
    }

    @Test
    void aWaiterTakesTheFrameOverAndFailCheckRollsTheDeadBack() throws Exception {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 1000);
            f.add(t, 0, 1, 7);
            f.tm.commit(t);
            try (ChildJvm c = ChildJvm.start(Holder.class, dir.toString(), "latch")) {
                c.awaitLine("HOLDING", Duration.ofSeconds(60));
                assertEquals(SCRIBBLE, f.get(0, 1), "the child's half-made change is in the shared frame");
                CompletableFuture<Long> waiter = CompletableFuture.supplyAsync(() -> {
                    Txn w = f.tm.begin();
                    long v = f.add(w, 0, 2, 1); // another slot of the same page: waits for the latch
                    f.tm.commit(w);
                    return v;
                });
                Thread.sleep(200);
                assertFalse(waiter.isDone(), "the waiter waits for the latch the child holds");
                c.signalKill();
                c.kill();
                assertEquals(1, waiter.get(30, TimeUnit.SECONDS), "the waiter took the latch over and went on");
            }
            assertEquals(7, f.get(0, 1), "the page was rebuilt: the unlogged change is gone");
            assertEquals(1050, f.get(0, 0), "the dead transaction's logged change is there until it is rolled back");
            assertEquals(1, f.bp.framesRepaired());
            assertEquals(1, f.tp.env().failCheck(), "the dead process's slot is freed");
            assertEquals(1000, f.get(0, 0), "rolled back");
            assertEquals(1, f.get(0, 2));
            assertEquals(0, f.bp.stats().pinnedFrames(), "its pin was given back");
            assertEquals(0, f.tm.activeCount());
            assertFalse(f.tp.env().isFailed());
        }
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            assertEquals(1000, f.get(0, 0));
            assertEquals(7, f.get(0, 1));
            assertEquals(1, f.get(0, 2));
        }
    }

    /**
     * The frame's repair needs the hash partition latch, which the dead process holds too: the
     * waiter repairs both (a repair nested in a repair of the same dead owner), instead of waiting
     * for itself.
     */
    @Test
    void aRepairThatNeedsAnotherLatchOfTheDeadProcessRepairsThatOneToo() throws Exception {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 1000);
            f.add(t, 0, 1, 7);
            f.tm.commit(t);
            Page mine = f.bp.get(f.file, 0, 0); // pinned before: the wait below is for the frame latch itself
            try (ChildJvm c = ChildJvm.start(Holder.class, dir.toString(), "latch+partition")) {
                c.awaitLine("HOLDING", Duration.ofSeconds(60));
                c.signalKill();
                c.kill();
            }
            CompletableFuture<Long> latched = CompletableFuture.supplyAsync(() -> {
                mine.latch();
                try {
                    return mine.getLong(PageFixture.offset(1));
                } finally {
                    mine.unlatch();
                }
            });
            assertEquals(7, latched.get(30, TimeUnit.SECONDS), "the frame rebuilt: the unlogged change is gone");
            f.bp.unpin(mine, false);
            assertEquals(1, f.bp.framesRepaired());
            assertEquals(2, f.tp.env().latchRepairs(), "the frame latch and the hash partition latch");
            assertEquals(1, f.tp.env().failCheck());
            assertEquals(1000, f.get(0, 0), "rolled back");
            assertFalse(f.tp.env().isFailed());
        }
    }

    @Test
    void failCheckRepairsAFrameNobodyWaitsFor() throws Exception {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 1000);
            f.add(t, 0, 1, 7);
            f.tm.commit(t);
            f.tm.checkpoint(true);
            try (ChildJvm c = ChildJvm.start(Holder.class, dir.toString(), "latch")) {
                c.awaitLine("HOLDING", Duration.ofSeconds(60));
                c.signalKill();
                c.kill();
            }
            assertEquals(1, f.tp.env().failCheck());
            assertEquals(1, f.bp.framesRepaired(), "failCheck took the latch over and rebuilt the page");
            assertEquals(1000, f.get(0, 0));
            assertEquals(7, f.get(0, 1));
            assertEquals(0, f.bp.stats().pinnedFrames());
            assertFalse(f.tp.env().isFailed());
            Txn w = f.tm.begin();
            assertEquals(1001, f.add(w, 0, 0, 1), "the frame latch is free again");
            f.tm.commit(w);
        }
    }

    @Test
    void pinsOfADeadProcessAreGivenBack() throws Exception {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            try (ChildJvm c = ChildJvm.start(Holder.class, dir.toString(), "pin")) {
                c.awaitLine("PINNED", Duration.ofSeconds(60));
                assertEquals(2, f.bp.stats().pinnedFrames());
                c.signalKill();
                c.kill();
            }
            assertEquals(1, f.tp.env().failCheck());
            assertEquals(0, f.bp.stats().pinnedFrames(), "the dead process's three pins of two pages are given back");
            assertEquals(0, f.get(0, 3), "its transaction was rolled back");
            assertFalse(f.tp.env().isFailed());
            // Every frame can be reused: a pass over more pages than the pool holds.
            for (long p = 0; p < 40; p++) {
                assertTrue(f.get(p, 0) >= 0);
            }
        }
    }
}
