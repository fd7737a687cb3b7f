package org.libtp.core.txn;

import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.PageHeader;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The record manager of the buffer manager's pages (it lives with the transaction manager, so
 * that the buffer package knows nothing of transactions): logged byte-range changes of pages
 * ({@link LogRecord.PageUpdate}, before and after image), their redo (skipped when the page LSN
 * shows the change is already there) and undo (a compensating page update), and the buffer
 * pool's part of checkpoints (fuzzy write-out and the dirty-page table). Access methods that log
 * physically (recno records, the test page store) use {@link #update}; the B-tree's logical
 * records come with their own manager.
 */
public final class PageUpdates implements ResourceManager {
    private final SharedBufferPool pool;

    public PageUpdates(SharedBufferPool pool) {
        if (pool == null) {
            throw new IllegalArgumentException("pool must not be null");
        }
        this.pool = pool;
    }

    public SharedBufferPool pool() {
        return pool;
    }

    /**
     * Changes bytes {@code [offset, offset + after.length)} of {@code page} in {@code txn}: logs
     * the before and after images, applies the change and sets the page LSN. The caller holds
     * the page latch (and, in TP mode, a WRITE lock on the page). Returns the record's LSN.
     */
    public long update(Txn txn, Page page, int offset, byte[] after) {
        checkChange(txn, page, offset, after);
        byte[] before = page.getBytes(offset, after.length);
        long lsn = txn.log(new LogRecord.PageUpdate(page.fileId(), page.pageNo(), offset, before, after));
        page.putBytes(offset, after);
        page.setLsn(lsn, txn.lastLsnEnd());
        return lsn;
    }

    /** The arguments of a byte-range change: not null, an active transaction, a latched page, a range in its data. */
    private static void checkChange(Txn txn, Page page, int offset, byte[] after) {
        if (txn == null || page == null || after == null) {
            throw new IllegalArgumentException("transaction, page and after image must not be null");
        }
        txn.checkActive();
        if (!page.isLatched()) {
            throw new IllegalStateException("latch " + page + " before changing it");
        }
        if (offset < PageHeader.OFF_RESERVED || offset > page.size() - after.length) {
            throw new IndexOutOfBoundsException("range [" + offset + ", +" + after.length + ") outside the data of "
                    + page);
        }
    }

    /**
     * Changes bytes {@code [offset, offset + after.length)} of {@code page} in {@code txn}
     * redo-only: logged as an update whose before image is its after image, which undo leaves
     * alone (restoring equal bytes changes nothing anyway under a WRITE lock). For a value that
     * other transactions change beside this one under intention locks and that must not be
     * rolled back over their changes (a recno's record count under concurrent appends). The
     * caller holds the page latch. Returns the record's LSN.
     */
    public long redoOnly(Txn txn, Page page, int offset, byte[] after) {
        checkChange(txn, page, offset, after);
        long lsn = txn.log(new LogRecord.PageUpdate(page.fileId(), page.pageNo(), offset, after, after));
        page.putBytes(offset, after);
        page.setLsn(lsn, txn.lastLsnEnd());
        return lsn;
    }

    /**
     * Logs the whole image of {@code page} (latched, just changed by a structure change such as a
     * B-tree split) redo-only in {@code txn}, and sets the page LSN. Returns the record's LSN.
     */
    public long image(Txn txn, Page page) {
        if (txn == null || page == null) {
            throw new IllegalArgumentException("transaction and page must not be null");
        }
        txn.checkActive();
        if (!page.isLatched()) {
            throw new IllegalStateException("latch " + page + " before logging its image");
        }
        byte[] image = page.getBytes(PageHeader.OFF_TYPE, page.size() - PageHeader.OFF_TYPE);
        long lsn = txn.log(new LogRecord.PageImage(page.fileId(), page.pageNo(), image));
        page.setLsn(lsn, txn.lastLsnEnd());
        return lsn;
    }

    @Override
    public Set<RecordType> types() {
        return Set.of(RecordType.PAGE_UPDATE, RecordType.PAGE_IMAGE, RecordType.PAGE_WRITE);
    }

    @Override
    public void beforeRecovery() {
        // The pool is empty after the regions were rebuilt: pages come from the data files.
        newestWrite.clear();
    }

    /** (fileId, pageNo) of each page written since recovery's start → LSN of its newest logged image. */
    private final Map<List<Long>, Long> newestWrite = new HashMap<>();

    @Override
    public boolean analyzes(RecordType type) {
        return type == RecordType.PAGE_WRITE;
    }

    @Override
    public void analyze(LogEntry entry, LogRecord record) {
        if (record.type() == RecordType.PAGE_WRITE) {
            LogRecord.PageWrite w = (LogRecord.PageWrite) record;
            newestWrite.put(List.of((long) w.fileId(), w.pageNo()), entry.lsn());
        }
    }

    /**
     * Torn-write repair. A write that power loss tore is not covered by the last complete
     * checkpoint's force: it began after that checkpoint's dirty-page pass passed its frame (a
     * write begun before holds the frame latch, which the pass waits for), so after the
     * checkpoint's begin LSN, and so its image was logged and forced after that begin, which is
     * at or after the redo LSN. So a page is rewritten only from its newest image, and only if
     * that image lies at or after the redo LSN: the page had no change between the image's page
     * LSN and the image, so redo from the redo LSN on top of it repeats every later one. An
     * older image is not used (changes between it and the redo point would be skipped): such a
     * damaged page stays a CorruptionException.
     */
    @Override
    public void beforeRedo(long redoLsn) {
        int repaired = 0;
        for (Map.Entry<List<Long>, Long> e : newestWrite.entrySet()) {
            if (e.getValue() < redoLsn) {
                continue;
            }
            int fileId = (int) (long) e.getKey().get(0);
            long pageNo = e.getKey().get(1);
            long at = e.getValue();
            if (pool.repairTorn(fileId, pageNo, () -> ((LogRecord.PageWrite) LogRecords.decode(pool.log().read(at))).page(), at)) {
                repaired++;
            }
        }
        torn = repaired;
        newestWrite.clear();
    }

    private int torn;

    /** Pages the last recovery in this process rewrote from their logged images (torn by a crash). */
    public int tornPagesRepaired() {
        return torn;
    }

    @Override
    public boolean redoes(RecordType type) {
        return type != RecordType.PAGE_WRITE;
    }

    @Override
    public void redo(LogEntry entry, LogRecord record) {
        if (record.type() == RecordType.PAGE_WRITE) {
            return; // read by the torn-write repair before redo; the changes it holds are logged too
        }
        int fileId = record instanceof LogRecord.PageImage im ? im.fileId() : ((LogRecord.PageUpdate) record).fileId();
        long pageNo = record instanceof LogRecord.PageImage im ? im.pageNo() : ((LogRecord.PageUpdate) record).pageNo();
        Page p = pool.get(fileId, pageNo, BufferManager.CREATE);
        try {
            p.latch();
            try {
                apply(entry, record, p);
            } finally {
                p.unlatch();
            }
        } finally {
            pool.unpin(p, false);
        }
    }

    @Override
    public void redoOn(LogEntry entry, LogRecord record, Page page) {
        if (record instanceof LogRecord.PageImage im ? im.fileId() == page.fileId() && im.pageNo() == page.pageNo()
                : record instanceof LogRecord.PageUpdate u && u.fileId() == page.fileId() && u.pageNo() == page.pageNo()) {
            apply(entry, record, page);
        }
    }

    /** Redo of a page image or update on its page (latched), if the page is older than the record. */
    private static void apply(LogEntry entry, LogRecord record, Page p) {
        if (p.lsn() >= entry.lsn()) {
            return;
        }
        if (record instanceof LogRecord.PageImage im) {
            if (im.image().length != p.size() - PageHeader.OFF_TYPE) {
                throw new org.libtp.core.CorruptionException("page image at LSN "
                        + org.libtp.core.log.Lsn.toString(entry.lsn()) + " has " + im.image().length
                        + " bytes; pages of this environment hold " + (p.size() - PageHeader.OFF_TYPE));
            }
            p.putBytesAnywhere(PageHeader.OFF_TYPE, im.image());
        } else {
            LogRecord.PageUpdate u = (LogRecord.PageUpdate) record;
            p.putBytesAnywhere(u.offset(), u.after());
        }
        p.setLsn(entry.lsn(), entry.lsn() + LogRecordCodec.HEADER_SIZE + entry.payload().length);
    }

    @Override
    public void undo(LogEntry entry, LogRecord record, CompensationLog clr) {
        if (record.type() == RecordType.PAGE_IMAGE || record.type() == RecordType.PAGE_WRITE) {
            return; // redo-only: structure changes are never rolled back; page writes belong to no transaction
        }
        LogRecord.PageUpdate u = (LogRecord.PageUpdate) record;
        if (java.util.Arrays.equals(u.before(), u.after())) {
            return; // redo-only (see redoOnly): others may have changed these bytes since
        }
        LogRecord.PageUpdate inverse = new LogRecord.PageUpdate(u.fileId(), u.pageNo(), u.offset(), u.after(), u.before());
        Page p = pool.get(u.fileId(), u.pageNo(), BufferManager.CREATE);
        try {
            p.latch();
            try {
                long lsn = clr.log(inverse);
                p.putBytesAnywhere(u.offset(), u.before());
                p.setLsn(lsn, lsn + LogRecordCodec.HEADER_SIZE + LogRecords.encode(inverse).length);
            } finally {
                p.unlatch();
            }
        } finally {
            pool.unpin(p, false);
        }
    }

    @Override
    public List<LogRecord.DirtyPage> checkpoint(long beginLsn, long writeBefore, int maxDirtyPages) {
        return pool.checkpoint(writeBefore, maxDirtyPages);
    }
}
