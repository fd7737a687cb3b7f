package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.sync.LatchLayout;
import org.libtp.core.txn.Txn;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A frame latch whose holder died, in one JVM: the latch word is made to name an owner id whose
 * registry slot no process holds (what a SIGKILL leaves), and the page bytes are scribbled on as
 * a holder killed in the middle of a change leaves them. The next thread to latch the frame takes
 * it over and rebuilds the page from its data file and the log. The multi-JVM tests kill real
 * holders ({@code LatchRepairMultiProcessTest}).
 */
class FrameLatchRepairTest {
    @TempDir
    Path dir;

    /** An owner id no process holds: the registry's last slot (tests use the first ones). */
    private static int deadOwner(RegionEnvironment env) {
        return env.config().maxProcesses();
    }

    private static int frameOf(PageFixture f, long page) {
        Page p = f.bp.get(f.file, page, BufferManager.CREATE);
        try {
            return p.frame;
        } finally {
            f.bp.unpin(p, false);
        }
    }

    /** What a holder killed mid-change leaves: the latch named after it, the sequence odd, bytes changed. */
    private static void dieHolding(PageFixture f, int frame, int scribbleSlot) {
        Memory mem = f.bp.regionMemory();
        long m = f.bp.meta(frame);
        assertTrue(mem.compareAndSetInt(m + BufferLayout.FR_LATCH + LatchLayout.WORD, 0, deadOwner(f.tp.env()) << 1));
        mem.putIntVolatile(m + BufferLayout.FR_SEQ, mem.getInt(m + BufferLayout.FR_SEQ) | 1);
        mem.putLong(f.bp.pageBase(frame) + PageFixture.offset(scribbleSlot), 0xDEAD_BEEF_DEAD_BEEFL);
    }

    @Test
    void aValidPageIsRebuiltFromItsFileAndTheLog() {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 100);
            f.add(t, 0, 1, 1);
            f.tm.commit(t);
            f.tm.checkpoint(true); // on disk: 100, 1
            t = f.tm.begin();
            f.add(t, 0, 0, 5); // in the pool and the log only: 105
            f.tm.commit(t);
            int frame = frameOf(f, 0);
            dieHolding(f, frame, 1);
            assertEquals(0xDEAD_BEEF_DEAD_BEEFL, f.get(0, 1), "a reader without a latch sees the scribble (a page "
                    + "lock would keep it off the page until the dead transaction is rolled back)");
            assertNull(f.bp.tryOptimistic(f.file, 0), "an odd sequence: no optimistic read");

            t = f.tm.begin();
            assertEquals(112, f.add(t, 0, 0, 7), "the latch was taken over and the page rebuilt: 100 on disk + 5 logged");
            f.tm.commit(t);
            assertEquals(1, f.get(0, 1), "the scribble is gone");
            assertEquals(1, f.bp.framesRepaired());
            assertFalse(f.tp.env().isFailed());
            assertEquals(0, f.bp.stats().pinnedFrames());
            Page v = f.bp.tryOptimistic(f.file, 0);
            assertTrue(v != null && v.getLong(PageFixture.offset(0)) == 112 && v.validate(), "optimistic reads again");
        }
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            assertEquals(112, f.get(0, 0));
            assertEquals(1, f.get(0, 1));
        }
    }

    @Test
    void aPageNeverWrittenIsRebuiltFromTheLogAlone() {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            f.tm.checkpoint(true);
            Txn t = f.tm.begin();
            f.add(t, 3, 2, 42); // page 3: created in the pool, not in the file
            f.tm.commit(t);
            int frame = frameOf(f, 3);
            dieHolding(f, frame, 2);
            t = f.tm.begin();
            assertEquals(43, f.add(t, 3, 2, 1));
            f.tm.commit(t);
            assertEquals(1, f.bp.framesRepaired());
        }
    }

    @Test
    void aFrameBeingReadInIsFreedAndReadAgain() {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 9);
            f.tm.commit(t);
            f.tm.checkpoint(true); // clean: a reader could be loading it
            int frame = frameOf(f, 0);
            dieHolding(f, frame, 0);
            f.bp.regionMemory().putIntVolatile(f.bp.meta(frame) + BufferLayout.FR_STATE, BufferLayout.LOADING);
            assertEquals(9, f.get(0, 0), "the waiter took the frame over, freed it and read the page again");
            assertEquals(0, f.bp.stats().pinnedFrames());
            assertFalse(f.tp.env().isFailed());
        }
    }

    @Test
    void aHashPartitionIsRelinkedFromTheFramesInUse() {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            for (int page = 0; page < 6; page++) {
                f.add(t, page, 0, 100 + page);
            }
            f.tm.commit(t);
            int[] frameOfPage = new int[6];
            for (int page = 0; page < 6; page++) {
                frameOfPage[page] = frameOf(f, page);
            }
            FrameTable ft = f.bp.frameTable();
            Memory mem = f.bp.regionMemory();
            int b0 = ft.bucket(f.file, 0);
            int part = b0 & (f.bp.layout().partitions() - 1);
            long latchWord = f.bp.layout().offPart() + (long) BufferLayout.PART_STRIDE * part + LatchLayout.WORD;
            assertTrue(mem.compareAndSetInt(latchWord, 0, deadOwner(f.tp.env()) << 1));
            // What a holder killed in the middle of a relink leaves: every chain of the partition cut.
            for (int b = part; b < f.bp.layout().buckets(); b += f.bp.layout().partitions()) {
                mem.putInt(ft.bucketAt(b), 0);
            }
            for (int page = 0; page < 6; page++) {
                assertEquals(100 + page, f.get(page, 0), "page " + page);
                assertEquals(frameOfPage[page], frameOf(f, page), "page " + page + " found in its frame, not read twice");
            }
            assertFalse(f.tp.env().isFailed());
            assertEquals(1, f.tp.env().latchRepairs());
            assertEquals(0, f.bp.stats().pinnedFrames());
        }
    }

    @Test
    void withoutALogTheDeathFailsTheEnvironment() throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.builder().latchCheckMillis(50)
                .failCheckMillis(0).build())) {
            SharedBufferPool bp = SharedBufferPool.open(env, new FileStorage(dir), null,
                    BufferConfig.builder().pageSize(4096).poolBytes(4096L * 16).build());
            int file = bp.open("x.db");
            Page p = bp.get(file, 0, BufferManager.CREATE);
            int frame = p.frame;
            bp.unpin(p, false);
            Memory mem = bp.regionMemory();
            assertTrue(mem.compareAndSetInt(bp.meta(frame) + BufferLayout.FR_LATCH, 0, deadOwner(env) << 1));
            Page q = bp.get(file, 0, 0);
            RunRecoveryException e = assertThrows(RunRecoveryException.class, q::latch);
            assertTrue(e.getMessage().contains("died holding latch 'buffer frame 0'"), e.getMessage());
            assertTrue(env.isFailed());
        }
    }
}
