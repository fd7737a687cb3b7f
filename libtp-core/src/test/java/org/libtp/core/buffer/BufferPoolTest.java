package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;
import org.libtp.core.storage.FileStorage;

import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BufferPoolTest {
    @TempDir
    Path home;

    @Test
    void layoutOffsetsAreFrozen() {
        assertEquals(0, PageHeader.OFF_CHECKSUM);
        assertEquals(4, PageHeader.OFF_MAGIC);
        assertEquals(6, PageHeader.OFF_VERSION);
        assertEquals(7, PageHeader.OFF_TYPE);
        assertEquals(8, PageHeader.OFF_LSN);
        assertEquals(16, PageHeader.OFF_PAGE_NO);
        assertEquals(24, PageHeader.OFF_RESERVED);
        assertEquals(32, PageHeader.SIZE);
        assertEquals(256, BufferLayout.OFF_REGISTRY_LATCH);
        assertEquals(320, BufferLayout.OFF_CLOCK);
        assertEquals(348, BufferLayout.OFF_STATE);
        assertEquals(352, BufferLayout.OFF_MAX_PROCESSES);
        assertEquals(360, BufferLayout.OFF_EVICTIONS);
        assertEquals(6, BufferLayout.LAYOUT_VERSION);
        assertEquals(24, BufferLayout.F_GENERATION);
        assertEquals(1024, BufferLayout.OFF_PINS);
        assertEquals(128, BufferLayout.FRAME);
        assertEquals(16, BufferLayout.FR_STATE);
        assertEquals(20, BufferLayout.FR_PINS);
        assertEquals(40, BufferLayout.FR_REC_LSN);
        assertEquals(48, BufferLayout.FR_FLUSH_LSN);
        assertEquals(64, BufferLayout.FR_VALID);
        assertEquals(32, BufferLayout.F_NAME);
        assertEquals(16, FileRegistryCodec.OFF_ENTRIES);
        BufferLayout.Layout l = BufferLayout.Layout.of(BufferConfig.defaults(), 64);
        assertEquals(16384, l.frames());
        assertEquals(0, l.offPages() % 4096, "pages are aligned to the page size");
        assertTrue(l.buckets() >= 2 * l.frames());
    }

    @Test
    void pagesSurviveEvictionAndReopenWithStableFileIds() {
        int a;
        int b;
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            a = f.file;
            b = f.bp.open("other.db");
            assertNotEquals(a, b);
            assertEquals(a, f.bp.open(PageFixture.FILE));
            assertEquals("other.db", f.bp.fileName(b));
            Txn t = f.tm.begin();
            for (int p = 0; p < 100; p++) { // 100 pages through 16 frames
                f.add(t, p, p % 50, p + 1);
            }
            f.tm.commit(t);
            for (int p = 0; p < 100; p++) {
                assertEquals(p + 1, f.get(p, p % 50), "page " + p);
            }
            assertTrue(f.bp.stats().evictions() > 50, f.bp.stats().toString());
            assertTrue(f.bp.stats().writes() > 50);
            assertEquals(100, f.bp.pageCount(a));
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            assertEquals(a, f.bp.fileId(PageFixture.FILE), "file ids come from the durable registry");
            assertEquals(b, f.bp.fileId("other.db"));
            for (int p = 0; p < 100; p++) {
                assertEquals(p + 1, f.get(p, p % 50), "page " + p + " after reopen");
            }
            Page p = f.bp.get(f.file, 3, 0);
            assertEquals(4096, p.validLength());
            f.bp.unpin(p, false);
            Page fresh = f.bp.allocate(f.file);
            assertEquals(0, fresh.validLength());
            assertTrue(fresh.pageNo() >= 100);
            f.bp.unpin(fresh, false);
        }
    }

    @Test
    void aColdPoolReadsAheadIntoFreeFramesOnly() {
        int pages = 100;
        int group = SharedBufferPool.READ_AHEAD_PAGES;
        try (PageFixture f = new PageFixture(home, 256, 0)) {
            Txn t = f.tm.begin();
            for (int p = 0; p < pages; p++) {
                f.add(t, p, 1, p + 1);
            }
            f.tm.commit(t);
        }
        try (PageFixture f = new PageFixture(home, 256, 0)) { // cold: an empty pool
            assertEquals(5 + 1, read(f, 5));
            BufferStats after = f.bp.stats();
            assertEquals(1, after.misses(), after.toString());
            assertEquals(group, after.reads(), "page 5 and its group: " + after);
            for (int p = 0; p < group; p++) {
                assertEquals(p + 1, read(f, p), "page " + p);
            }
            assertEquals(1, f.bp.stats().misses(), "the group came with one read: " + f.bp.stats());
            for (int p = 0; p < pages; p++) {
                assertEquals(p + 1, read(f, p), "page " + p);
            }
            int groups = (pages + group - 1) / group;
            assertEquals(groups, f.bp.stats().misses(), pages + " pages in " + groups + " reads: " + f.bp.stats());
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) { // a pool too small for the file
            for (int round = 0; round < 2; round++) {
                for (int p = 0; p < pages; p++) {
                    assertEquals(p + 1, read(f, p), "page " + p + " through 16 frames");
                }
            }
            assertTrue(f.bp.stats().evictions() > 0, f.bp.stats().toString());
        }
    }

    /** Slot 1 of an existing page, read without CREATE (a get that creates never reads ahead). */
    private static long read(PageFixture f, long page) {
        Page p = f.bp.get(f.file, page, 0);
        try {
            return p.getLong(PageFixture.offset(1));
        } finally {
            f.bp.unpin(p, false);
        }
    }

    @Test
    void aCorruptPageIsReportedNamingFileAndPage() throws Exception {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            for (int p = 0; p < 4; p++) {
                f.add(t, p, 1, 7);
            }
            f.tm.commit(t);
            f.bp.sync();
        }
        try (RandomAccessFile raf = new RandomAccessFile(home.resolve(PageFixture.FILE).toFile(), "rw")) {
            raf.seek((2 + 1) * 4096 + 1000); // page 2, after the header page
            raf.write(0x5A); // one flipped byte in page 2's data
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            assertEquals(7, f.get(1, 1));
            CorruptionException e = assertThrows(CorruptionException.class, () -> f.bp.get(f.file, 2, 0));
            assertTrue(e.getMessage().contains("page 2") && e.getMessage().contains(PageFixture.FILE)
                    && e.getMessage().contains("checksum"), e.getMessage());
            assertEquals(7, f.get(3, 1), "the pool still works");
            assertEquals(0, f.bp.stats().pinnedFrames(), "a failed read leaves no pin");
        }
    }

    @Test
    void aPageWrittenToTheWrongPlaceIsCaught() throws Exception {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 1, 7);
            f.add(t, 1, 1, 8);
            f.tm.commit(t);
            f.bp.sync();
        }
        byte[] page0 = new byte[4096];
        try (RandomAccessFile raf = new RandomAccessFile(home.resolve(PageFixture.FILE).toFile(), "rw")) {
            raf.seek(4096); // page 0, after the header page
            raf.readFully(page0);
            raf.seek(2 * 4096);
            raf.write(page0);
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            CorruptionException e = assertThrows(CorruptionException.class, () -> f.bp.get(f.file, 1, 0));
            assertTrue(e.getMessage().contains("misplaced"), e.getMessage());
        }
    }

    @Test
    void whenEveryFrameIsPinnedGetFailsClearlyAndRecovers() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            List<Page> pinned = new ArrayList<>();
            for (int p = 0; p < 16; p++) {
                pinned.add(f.bp.get(f.file, p, BufferManager.CREATE));
            }
            CapacityExceededException e = assertThrows(CapacityExceededException.class,
                    () -> f.bp.get(f.file, 99, BufferManager.CREATE));
            assertTrue(e.getMessage().contains("BufferConfig.poolBytes"), e.getMessage());
            assertEquals(16, f.bp.stats().pinnedFrames());
            for (Page p : pinned) {
                f.bp.unpin(p, false);
            }
            Page p = f.bp.get(f.file, 99, BufferManager.CREATE);
            f.bp.unpin(p, false);
        }
    }

    @Test
    void anOptimisticViewValidatesUntilALatchHolderOrAReplacementComesBetween() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 3, 42);
            f.tm.commit(t);
            assertEquals(null, f.bp.tryOptimistic(f.file, 77), "not in the pool (nor in the file)");
            assertEquals(null, f.bp.tryOptimistic(12345, 0), "no such file");
            Page v = f.bp.tryOptimistic(f.file, 0);
            assertTrue(v != null && v.isOptimistic());
            assertEquals(42, v.getLong(PageFixture.offset(3)));
            assertTrue(v.validate());
            // The view is read only, never pinned, never latched.
            assertThrows(IllegalStateException.class, v::latch);
            assertThrows(IllegalStateException.class, () -> v.putLong(64, 1));
            assertThrows(IllegalStateException.class, () -> v.setType(3));
            assertThrows(IllegalStateException.class, () -> f.bp.unpin(v, false));
            assertThrows(IndexOutOfBoundsException.class, () -> v.getLong(4090), "bounds-checked like a pinned page");
            // A latch holder (even one that only reads) invalidates it; while latched there is no view.
            Page p = f.bp.get(f.file, 0, 0);
            p.latch();
            assertEquals(null, f.bp.tryOptimistic(f.file, 0), "latched: read it the ordinary way");
            p.unlatch();
            f.bp.unpin(p, false);
            assertFalse(v.validate());
            Page w = f.bp.tryOptimistic(f.file, 0);
            assertTrue(w.validate());
            // A frame given to another page invalidates it too.
            for (int q = 1; q <= 40; q++) {
                f.bp.unpin(f.bp.get(f.file, q, BufferManager.CREATE), false);
            }
            assertEquals(null, f.bp.tryOptimistic(f.file, 0), "page 0 left the pool (16 frames, 41 pages)");
            assertFalse(w.validate(), "and its frame went to another page");
            BufferStats st = f.bp.stats();
            assertEquals(2, st.optimisticViews(), st.toString());
            assertEquals(2, st.optimisticInvalid(), st.toString());
            Page again = f.bp.get(f.file, 0, 0);
            assertEquals(42, again.getLong(PageFixture.offset(3)));
            f.bp.unpin(again, false);
        }
    }

    @Test
    void optimisticViewsAreReusedAndSequencesWrapAround() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 3, 42);
            f.add(t, 1, 3, 43);
            f.tm.commit(t);
            Page v = f.bp.tryOptimistic(f.file, 0, null);
            assertTrue(v != null && v.validate());
            // Near the end of the int range: the sequence wraps to negative values, which must
            // validate as any other (a view once told itself from a pinned page by the sign).
            long seqAt = f.bp.meta(v.frame) + BufferLayout.FR_SEQ;
            f.bp.regionMemory().putIntVolatile(seqAt, Integer.MAX_VALUE - 1);
            Page w = f.bp.tryOptimistic(f.file, 0, v);
            assertTrue(w == v, "the view is rebound, not allocated");
            assertTrue(w.validate());
            Page p = f.bp.get(f.file, 0, 0);
            p.latch();
            assertEquals(null, f.bp.tryOptimistic(f.file, 0, w));
            assertFalse(w.validate());
            p.unlatch();
            assertEquals(Integer.MIN_VALUE, f.bp.regionMemory().getIntVolatile(seqAt));
            Page x = f.bp.tryOptimistic(f.file, 0, w);
            assertTrue(x == w && x.isOptimistic() && x.validate());
            assertThrows(IllegalStateException.class, x::latch, "still a read-only view");
            p.latch();
            assertFalse(x.validate(), "a negative sequence validates as any other");
            p.unlatch();
            f.bp.unpin(p, false);
            Page y = f.bp.tryOptimistic(f.file, 1, x);
            assertTrue(y == x);
            assertEquals(1, y.pageNo());
            assertEquals(43, y.getLong(PageFixture.offset(3)));
            assertTrue(y.validate());
            Page pinned = f.bp.get(f.file, 0, 0);
            Page z = f.bp.tryOptimistic(f.file, 1, pinned);
            assertTrue(z != pinned && pinned.pageNo() == 0, "a pinned page is never rebound");
            f.bp.unpin(pinned, false);
        }
    }

    @Test
    void badInputAndMisuse() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            assertThrows(IllegalArgumentException.class, () -> f.bp.open("../escape"));
            assertThrows(IllegalArgumentException.class, () -> f.bp.open("__libtp.env"));
            assertThrows(IllegalArgumentException.class, () -> f.bp.open(""));
            assertThrows(IllegalArgumentException.class, () -> f.bp.open(null));
            assertThrows(IllegalArgumentException.class, () -> f.bp.get(f.file, -1, BufferManager.CREATE));
            assertThrows(IllegalArgumentException.class, () -> f.bp.get(12345, 0, BufferManager.CREATE));
            assertThrows(IllegalArgumentException.class, () -> f.bp.get(f.file, 0, 8));
            // Access methods ask for pages their own pages point to: one past the end is damage.
            CorruptionException missing = assertThrows(CorruptionException.class, () -> f.bp.get(f.file, 5, 0));
            assertTrue(missing.getMessage().contains("does not exist") && missing.getMessage().contains(PageFixture.FILE),
                    missing.getMessage());
            Page p = f.bp.get(f.file, 0, BufferManager.CREATE);
            assertThrows(IndexOutOfBoundsException.class, () -> p.getLong(4090));
            assertThrows(IndexOutOfBoundsException.class, () -> p.getInt(-1));
            assertThrows(IllegalArgumentException.class, () -> p.putLong(8, 1), "the page LSN is not the caller's");
            assertThrows(IllegalStateException.class, () -> p.setLsn(1, 2), "needs the latch");
            p.latch();
            assertThrows(IllegalStateException.class, () -> f.bp.unpin(p, false), "unlatch first");
            p.unlatch();
            f.bp.unpin(p, false);
            assertThrows(IllegalStateException.class, () -> p.getLong(64));
            assertThrows(IllegalStateException.class, () -> f.bp.unpin(p, false));
            Txn t = f.tm.begin();
            Page q = f.bp.get(f.file, 0, BufferManager.CREATE);
            assertThrows(IllegalStateException.class, () -> f.tp.pages().update(t, q, 64, new byte[8]), "latch first");
            f.bp.unpin(q, false);
            f.tm.commit(t);
        }
        PageFixture f = new PageFixture(home, 16, 0);
        f.close();
        assertThrows(IllegalStateException.class, () -> f.bp.get(1, 0, BufferManager.CREATE));
    }

    @Test
    void theLogIsForcedBeforeADirtyPageIsWritten() {
        try (PageFixture f = new PageFixture(home, 16, 0, TxnConfig.builder().checkpointBytes(0).checkpointSeconds(0).build(),
                new FileStorage(home))) {
            Txn t = f.tm.begin(Durability.NO_SYNC);
            f.add(t, 0, 0, 42);
            long end = t.lastLsnEnd();
            assertTrue(f.tp.log().flushedLsn() < end, "nothing forced the record yet");
            for (int p = 1; p < 40; p++) { // push page 0 out
                f.get(p, 0);
            }
            assertTrue(f.bp.stats().writes() >= 1);
            assertTrue(f.tp.log().flushedLsn() >= end, "page 0 went out: its log record must be durable first");
            f.tm.abort(t);
            assertEquals(0, f.get(0, 0));
        }
    }

    @Test
    void redoSkipsAPageWhoseLsnIsNewer() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 5);
            long first = t.lastLsn();
            f.add(t, 0, 0, 6); // 11
            f.tm.commit(t);
            LogEntry e = f.tp.log().read(first);
            LogRecord r = LogRecords.decode(e);
            assertEquals(RecordType.PAGE_UPDATE, r.type());
            f.tp.pages().redo(e, r); // older than the page LSN: must not go back to 5
            assertEquals(11, f.get(0, 0));
        }
    }

    @Test
    void checkpointsCarryTheDirtyPageTableAndWriteOldPages() {
        try (PageFixture f = new PageFixture(home, 64, 0, TxnConfig.builder().checkpointBytes(0).checkpointSeconds(0).build(),
                new FileStorage(home))) {
            Txn t = f.tm.begin();
            f.add(t, 1, 0, 1);
            long rec = t.lastLsn();
            f.tm.commit(t);
            long c1 = f.tm.checkpoint();
            LogRecord.Checkpoint k1 = (LogRecord.Checkpoint) LogRecords.decode(f.tp.log().read(c1));
            assertEquals(List.of(new LogRecord.DirtyPage(f.file, 1, rec)), k1.dirty(),
                    "page 1 changed in this interval stays in the pool, listed");
            assertEquals(rec, k1.redoLsn(), "redo starts at its oldest change");
            long c2 = f.tm.checkpoint();
            LogRecord.Checkpoint k2 = (LogRecord.Checkpoint) LogRecords.decode(f.tp.log().read(c2));
            assertEquals(List.of(), k2.dirty(), "dirty since before the previous checkpoint: written now");
            assertTrue(k2.redoLsn() > c1);
            assertEquals(0, f.bp.stats().dirtyFrames());
        }
    }

    /** Random transactions (some aborted) over more pages than frames, checked against a model, then reopened. */
    @Test
    void randomTransactionsMatchAModelAcrossEvictionAbortAndReopen() {
        long seed = Seeds.seed("BufferPoolTest");
        Random rnd = new Random(seed);
        Map<Long, Long> model = new HashMap<>();
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            for (int i = 0; i < 300; i++) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                Map<Long, Long> mine = new HashMap<>();
                for (int k = 0, n = 1 + rnd.nextInt(6); k < n; k++) {
                    long page = rnd.nextInt(64);
                    int slot = rnd.nextInt(4);
                    long key = page * 4 + slot;
                    long delta = rnd.nextInt(1000) - 500;
                    f.add(t, page, slot, delta);
                    mine.merge(key, delta, Long::sum);
                }
                if (rnd.nextInt(4) == 0) {
                    f.tm.abort(t);
                } else {
                    f.tm.commit(t);
                    mine.forEach((k, d) -> model.merge(k, d, Long::sum));
                }
                if (i % 97 == 0) {
                    f.tm.checkpoint();
                }
            }
            f.tp.log().flush(f.tp.log().endLsn(), Durability.SYNC);
            check(f, model, seed);
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            check(f, model, seed);
        }
    }

    private static void check(PageFixture f, Map<Long, Long> model, long seed) {
        for (long page = 0; page < 64; page++) {
            for (int slot = 0; slot < 4; slot++) {
                assertEquals((long) model.getOrDefault(page * 4 + slot, 0L), f.get(page, slot),
                        "page " + page + " slot " + slot + " (seed " + seed + ")");
            }
        }
    }

    @Test
    void zeroPagesReadAsNewPages() throws Exception {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 5, 0, 1); // pages 0..4 exist only as a hole
            f.tm.commit(t);
            f.bp.sync();
        }
        assertEquals((1 + 6) * 4096, Files.size(home.resolve(PageFixture.FILE)), "the header page and 6 pages");
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            assertEquals(0, f.get(2, 0));
            assertEquals(1, f.get(5, 0));
            assertFalse(f.bp.stats().pinnedFrames() > 0);
            assertEquals(Lsn.NULL, Lsn.NULL);
        }
    }

    @Test
    void aProcessWithOtherBufferSettingsIsToldWhichOne() {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> new PageFixture(home, 32, 0));
            assertTrue(e.getMessage().contains("poolBytes"), e.getMessage());
            assertEquals(0, f.get(0, 0), "the running environment is unharmed");
        }
    }
}
