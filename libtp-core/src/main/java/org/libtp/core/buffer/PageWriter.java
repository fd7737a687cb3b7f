package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogManager;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.StorageErrors;
import org.libtp.core.storage.StorageFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * The buffer manager's page writes: the write-ahead rule (the log forced to a frame's flushLsn
 * before its page is written), torn-write protection (the sealed page logged, forced, then
 * written; batches of images share one force, for checkpoints and for the cold dirty frames an
 * eviction cleans ahead), data file forces, the checkpoint's writes and its dirty-page table, and
 * recovery's rewrite of torn pages. Frames are latched one at a time.
 */
final class PageWriter {
    private static final Logger LOG = LoggerFactory.getLogger(SharedBufferPool.class);
    /** Pages whose images a checkpoint logs before one log force, then writes. */
    static final int IMAGE_BATCH = 32;

    private final SharedBufferPool pool;
    private final RegionEnvironment env;
    private final LogManager log;
    private final Layout lay;
    private final Memory mem;
    private final DataFileTable files;
    private final FrameTable ft;
    private final int frames;
    private final int pageSize;
    /** Log each page's image (forced) before writing it: recovery repairs torn writes from it. */
    private final boolean imagesBeforeWrites;
    private final ThreadLocal<byte[]> io;
    final LongAdder writes = new LongAdder();
    final LongAdder imagedWrites = new LongAdder();

    PageWriter(SharedBufferPool pool, RegionEnvironment env, LogManager log, Layout lay, Memory mem, DataFileTable files,
               FrameTable ft, boolean imagesBeforeWrites, ThreadLocal<byte[]> io) {
        this.pool = pool;
        this.env = env;
        this.log = log;
        this.lay = lay;
        this.mem = mem;
        this.files = files;
        this.ft = ft;
        this.frames = lay.frames();
        this.pageSize = lay.pageSize();
        this.imagesBeforeWrites = imagesBeforeWrites;
        this.io = io;
    }

    private long fileEntry(int fileId) {
        return files.fileEntry(fileId);
    }

    private StorageFile file(int fileId) {
        return files.file(fileId);
    }

    private void checkFile(int fileId) {
        files.checkFile(fileId);
    }

    private String nameAt(int fileId) {
        return files.nameAt(fileId);
    }

    /** The free bytes of the environment's file system, for a message about a full disk. */
    private String freeSpace() {
        long free = StorageErrors.usableSpace(env.home());
        return free < 0 ? "free space unknown" : free + " bytes free";
    }

    private RuntimeException writeFailure(IOException e, int fileId, long pageNo) {
        if (StorageErrors.isNoSpace(e)) {
            return new OutOfSpaceException("no space to write page " + pageNo + " of data file " + nameAt(fileId)
                    + " in " + env.home() + " (" + e.getMessage() + "; " + freeSpace()
                    + "): the page stays in the buffer pool; abort the transaction, free "
                    + "space on that file system and retry", e);
        }
        return new EnvironmentAccessException("cannot write page " + pageNo + " of " + nameAt(fileId) + " in "
                + env.home() + ": " + e, e);
    }

    /**
     * Pages of this process whose image was logged (and forced) but whose write failed, by
     * (file id, page): the sealed copy that was imaged. Empty but while writes fail.
     */
    private final Map<Long, byte[]> imagedNotWritten = new java.util.concurrent.ConcurrentHashMap<>();
    /** A length each data file is known to have reached (this process saw it or wrote it), by file id. */
    private final Map<Integer, Long> knownLength = new java.util.concurrent.ConcurrentHashMap<>();

    /** Writes frame {@code f} (latch held, valid, dirty) to its file: the log first. */
    void write(int f) {
        writeFrame(f, null, true);
    }

    /**
     * Writes frame {@code f} (latch held, valid, dirty) to its file: the log first. With
     * torn-write protection the page's image is logged and forced before the write, unless it is
     * {@code imaged} (a copy whose image the log holds, forced); {@code mayUseReserve}: that
     * image may use the log's end-of-file reserve (an eviction an abort may depend on).
     */
    void writeFrame(int f, byte[] imaged, boolean mayUseReserve) {
        long m = pool.meta(f);
        int fileId = mem.getInt(m + FR_FILE);
        long pageNo = mem.getLong(m + FR_PAGE);
        long flushTo = mem.getLong(m + FR_FLUSH_LSN);
        if (log != null && flushTo != Lsn.NULL && !imagesBeforeWrites) {
            log.flush(flushTo, Durability.SYNC); // the write-ahead rule (the image's force covers it)
        }
        byte[] buf = io.get();
        mem.putIntVolatile(m + FR_DIRTY, 0); // before the copy: a change after it re-dirties
        mem.getBytes(pool.pageBase(f), buf, 0, pageSize);
        PageHeader.seal(buf, pageSize, pageNo);
        long pageKey = (long) fileId << 40 | pageNo;
        byte[] known = imaged != null ? imaged : imagedNotWritten.get(pageKey);
        if (imagesBeforeWrites && !java.util.Arrays.equals(buf, known)) {
            // A page past the file's end needs new blocks: get them (zeros: a page never written)
            // before its image goes to the log, so that a full disk refuses the write before it
            // has used log space (evictions may use the log's reserve, which a full disk would
            // otherwise drain one image per failed write).
            try {
                long at = (pageNo + 1) * pageSize;
                Long reached = knownLength.get(fileId); // files never shrink: no size call below it
                if (reached == null || reached < at + pageSize) {
                    StorageFile sf = file(fileId);
                    long size = sf.size();
                    if (size < at + pageSize) {
                        sf.write(ByteBuffer.allocate(pageSize), at);
                        size = at + pageSize;
                    }
                    knownLength.merge(fileId, size, Math::max);
                }
            } catch (IOException e) {
                mem.putIntVolatile(m + FR_DIRTY, 1);
                throw writeFailure(e, fileId, pageNo);
            }
            try {
                // The image follows every change of the page in the log: its force is also the
                // write-ahead force.
                log.flush(logImage(fileId, pageNo, buf, mayUseReserve), Durability.SYNC);
            } catch (RuntimeException e) {
                mem.putIntVolatile(m + FR_DIRTY, 1); // not written: stays dirty
                throw e;
            }
        }
        try {
            file(fileId).write(ByteBuffer.wrap(buf), (pageNo + 1) * pageSize); // after the header page
            imagedNotWritten.remove(pageKey);
        } catch (IOException e) {
            // The page stays dirty in the pool: written again later, nothing is lost. Its image
            // is in the log already: a retry of the same content logs none again (while a disk
            // stays full, evictions retrying one page would otherwise eat the log's reserve).
            if (imagesBeforeWrites) {
                imagedNotWritten.put(pageKey, buf.clone());
            }
            mem.putIntVolatile(m + FR_DIRTY, 1);
            throw writeFailure(e, fileId, pageNo);
        }
        mem.putLongVolatile(m + FR_REC_LSN, Lsn.NULL);
        mem.putIntVolatile(fileEntry(fileId) + F_NEEDS_FORCE, 1);
        writes.increment();
    }

    /** Appends (does not force) the image of a sealed page about to be written; returns the record's end. */
    private long logImage(int fileId, long pageNo, byte[] sealed, boolean mayUseReserve) {
        byte[] payload = LogRecords.encode(new LogRecord.PageWrite(fileId, pageNo, sealed));
        long lsn = log.append(RecordType.PAGE_WRITE.id(), 0, Lsn.NULL, payload, mayUseReserve);
        imagedWrites.increment();
        return lsn + org.libtp.core.log.LogRecordCodec.HEADER_SIZE + payload.length;
    }

    private byte[] tornCheckBuffer = new byte[0]; // recovery's, single-threaded

    boolean repairTorn(int fileId, long pageNo, java.util.function.Supplier<byte[]> copy, long imageLsn) {
        pool.checkOpen();
        if (fileId < 1 || fileId > lay.maxFiles() || mem.getIntVolatile(fileEntry(fileId) + F_STATE) != 1) {
            return false;
        }
        byte[] buf = tornCheckBuffer.length == pageSize ? tornCheckBuffer : (tornCheckBuffer = new byte[pageSize]);
        int n = pool.read(fileId, pageNo, buf);
        java.util.Arrays.fill(buf, n, pageSize, (byte) 0);
        String why = n < pageSize ? (n == 0 ? "missing" : "cut short at " + n + " bytes")
                : PageHeader.check(buf, pageSize, pageNo);
        if (why == null) {
            return false; // intact (maybe older than the image: redo brings it forward)
        }
        byte[] image = copy.get();
        if (image.length != pageSize) {
            return false;
        }
        try {
            StorageFile file = file(fileId);
            file.write(ByteBuffer.wrap(image), (pageNo + 1) * pageSize);
            file.force();
        } catch (IOException e) {
            if (StorageErrors.isNoSpace(e)) {
                // A page missing past its file's end was never written, often because the disk
                // was full then; it still is. The log holds the page: nothing is lost.
                throw new OutOfSpaceException("recovery cannot write page " + pageNo + " of data file "
                        + nameAt(fileId) + " in " + env.home() + " (" + why + "; to be rewritten from its image logged at "
                        + Lsn.toString(imageLsn) + "): " + e.getMessage() + " (" + freeSpace()
                        + "); nothing is lost, the log holds the page: free space on that "
                        + "file system and open the environment again", e);
            }
            throw new EnvironmentAccessException("recovery cannot rewrite page " + pageNo + " of " + nameAt(fileId)
                    + " in " + env.home() + " (" + why + ") from its image logged at " + Lsn.toString(imageLsn) + ": "
                    + e + "; nothing was lost (the log holds the page): fix the I/O error and open again", e);
        }
        LOG.warn("page {} of data file {} in {} failed its check ({}: a write torn by a crash, or damage since); "
                + "rewritten from its image logged at {}", pageNo, nameAt(fileId), env.home(), why, Lsn.toString(imageLsn));
        return true;
    }

    // ------------------------------------------------------------------ flush, sync, checkpoint

    void flush(int fileId) {
        pool.checkOpen();
        checkFile(fileId);
        env.checkValid();
        writeDirty(fileId, Long.MAX_VALUE);
        force(fileId);
    }

    void sync() {
        pool.checkOpen();
        env.checkValid();
        writeDirty(0, Long.MAX_VALUE);
        forceAll();
    }

    /**
     * Writes the dirty pages of {@code fileId} (0 = all files) whose oldest unwritten change is
     * before {@code before} (pages changed without logging always), one frame latch at a time.
     */
    private void writeDirty(int fileId, long before) {
        // One pass finds the candidates (and the newest change among them), the next writes
        // only those: a pool of 64k frames is not walked twice per checkpoint.
        int[] found = new int[64];
        int n = 0;
        long upTo = Lsn.NULL;
        for (int f = 0; f < frames; f++) {
            if (toWrite(f, fileId, before)) {
                if (n == found.length) {
                    found = java.util.Arrays.copyOf(found, n * 2);
                }
                found[n++] = f;
                upTo = Math.max(upTo, mem.getLongVolatile(pool.meta(f) + FR_FLUSH_LSN));
            }
        }
        if (imagesBeforeWrites) {
            for (int k = 0; k < n; k += IMAGE_BATCH) {
                writeImaged(found, k, Math.min(n, k + IMAGE_BATCH), fileId);
            }
            return;
        }
        // One write-ahead force up front, to the newest change of the pages to be written,
        // rather than one per frame under its latch (and none if nothing needs it). A frame
        // changed since is forced for again by write() itself.
        if (log != null && upTo > log.flushedLsn()) {
            log.flush(upTo, Durability.SYNC);
        }
        for (int k = 0; k < n; k++) {
            int f = found[k];
            ft.latchFrame(f);
            try {
                if (stillToWrite(f, fileId)) {
                    write(f);
                }
            } finally {
                ft.unlatchFrame(f);
            }
        }
    }

    /**
     * Writes frames {@code found[from..to)} with torn-write protection at one log force for all:
     * each page's image is logged under its latch, the log forced once, then each page written
     * under its latch again if it still equals its logged image (else with an image of its own).
     */
    private void writeImaged(int[] found, int from, int to, int fileId) {
        writeImaged(found, from, to, fileId, false);
    }

    /**
     * Cleans the cold dirty frames from {@code victim} on in clock order (the victim first, at
     * most {@link #IMAGE_BATCH}, looking at no more than four times as many): each unpinned,
     * valid, dirty frame whose reference bit is clear. Latches are only tried: the caller may
     * hold a page latch (a B-tree descent), so waiting for another could deadlock.
     */
    void cleanAhead(int victim) {
        int[] batch = new int[IMAGE_BATCH];
        int n = 0;
        for (int i = 0, look = Math.min(4 * IMAGE_BATCH, frames); i < look && n < IMAGE_BATCH; i++) { // each frame once
            int f = (victim + i) % frames;
            long m = pool.meta(f);
            if (mem.getIntVolatile(m + FR_DIRTY) != 0 && mem.getIntVolatile(m + FR_STATE) == VALID
                    && mem.getIntVolatile(m + FR_PINS) == 0 && (f == victim || mem.getIntVolatile(m + FR_REF) == 0)) {
                batch[n++] = f;
            }
        }
        writeImaged(batch, 0, n, 0, true);
    }

    /** As above; {@code tryOnly}: frames whose latch is busy are skipped instead of waited for. */
    private void writeImaged(int[] found, int from, int to, int fileId, boolean tryOnly) {
        byte[][] imaged = new byte[to - from][];
        long upTo = Lsn.NULL;
        for (int k = from; k < to; k++) {
            int f = found[k];
            if (tryOnly) {
                if (!ft.tryLatchFrame(f)) {
                    continue;
                }
            } else {
                ft.latchFrame(f);
            }
            try {
                if (stillToWrite(f, fileId)) {
                    byte[] copy = new byte[pageSize];
                    mem.getBytes(pool.pageBase(f), copy, 0, pageSize);
                    long pageNo = mem.getLong(pool.meta(f) + FR_PAGE);
                    PageHeader.seal(copy, pageSize, pageNo);
                    upTo = Math.max(upTo, logImage(mem.getInt(pool.meta(f) + FR_FILE), pageNo, copy, false));
                    imaged[k - from] = copy;
                }
            } finally {
                ft.unlatchFrame(f);
            }
        }
        if (upTo > log.flushedLsn()) {
            log.flush(upTo, Durability.SYNC);
        }
        for (int k = from; k < to; k++) {
            int f = found[k];
            if (tryOnly) {
                if (imaged[k - from] == null || !ft.tryLatchFrame(f)) {
                    continue; // busy: written later (an image without its write is harmless)
                }
            } else {
                ft.latchFrame(f);
            }
            try {
                if (stillToWrite(f, fileId)) {
                    writeFrame(f, imaged[k - from], false);
                }
            } finally {
                ft.unlatchFrame(f);
            }
        }
    }

    private boolean stillToWrite(int f, int fileId) {
        long m = pool.meta(f);
        return mem.getIntVolatile(m + FR_DIRTY) != 0 && mem.getIntVolatile(m + FR_STATE) == VALID
                && (fileId == 0 || mem.getInt(m + FR_FILE) == fileId);
    }

    private boolean toWrite(int f, int fileId, long before) {
        long m = pool.meta(f);
        if (mem.getIntVolatile(m + FR_DIRTY) == 0 || mem.getIntVolatile(m + FR_STATE) != VALID
                || fileId != 0 && mem.getInt(m + FR_FILE) != fileId) {
            return false;
        }
        long rec = mem.getLongVolatile(m + FR_REC_LSN);
        return rec == Lsn.NULL || rec < before;
    }

    private void force(int fileId) {
        long at = fileEntry(fileId) + F_NEEDS_FORCE;
        if (mem.getIntVolatile(at) == 0) {
            return;
        }
        mem.putIntVolatile(at, 0); // before the force: a write after it sets it again
        try {
            file(fileId).force();
        } catch (IOException e) {
            // fsyncgate: the kernel may have dropped the pages; a retry proves nothing.
            throw env.fail("force of data file " + nameAt(fileId) + " in " + env.home() + " failed: " + e);
        }
    }

    private void forceAll() {
        for (int id = 1; id <= lay.maxFiles(); id++) {
            if (mem.getIntVolatile(fileEntry(id) + F_STATE) == 1) {
                force(id);
            }
        }
    }

    List<LogRecord.DirtyPage> checkpoint(long writeBefore, int maxEntries) {
        pool.checkOpen();
        writeDirty(0, writeBefore);
        List<LogRecord.DirtyPage> table = dirtyPageTable();
        if (table.size() > maxEntries) {
            table.sort(Comparator.comparingLong(LogRecord.DirtyPage::recLsn));
            long cut = table.get(table.size() - maxEntries).recLsn();
            writeDirty(0, cut);
            table = dirtyPageTable();
        }
        forceAll();
        return table;
    }

    /** Dirty frames with their recLsn, each read under its latch (see the package note). */
    List<LogRecord.DirtyPage> dirtyPageTable() {
        List<LogRecord.DirtyPage> out = new ArrayList<>();
        for (int f = 0; f < frames; f++) {
            long m = pool.meta(f);
            if (mem.getIntVolatile(m + FR_STATE) == FREE) {
                continue;
            }
            ft.latchFrame(f);
            try {
                long rec = mem.getLong(m + FR_REC_LSN);
                if (mem.getIntVolatile(m + FR_STATE) == VALID && mem.getIntVolatile(m + FR_DIRTY) != 0
                        && rec != Lsn.NULL) {
                    out.add(new LogRecord.DirtyPage(mem.getInt(m + FR_FILE), mem.getLong(m + FR_PAGE), rec));
                }
            } finally {
                ft.unlatchFrame(f);
            }
        }
        return out;
    }
}
