package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.PageHeader;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.txn.ResourceManager;

import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * The B-tree's record manager: redo of leaf inserts and deletes by slot (physiological: skipped
 * when the page LSN is not older), undo by key (logical: the key is looked for from the logged
 * page to the right, since B-link splits move keys only rightwards — except a root split, which
 * moves the root's entries down: a logged page that is internal now is the root, and the search
 * descends from it). Split images are the buffer manager's PAGE_IMAGE records (redo-only).
 */
final class BtreeRecords implements ResourceManager {
    private final BufferManager pool;
    private final java.util.function.Function<String, java.util.Comparator<byte[]>> orders;

    BtreeRecords(BufferManager pool, Function<String, Comparator<byte[]>> orders) {
        this.pool = pool;
        this.orders = orders;
        BtreeLeafRecord.register(); // before recovery decodes the first one
        BtreeReplaceRecord.register();
    }

    /** The tree of file {@code fileId} in the key order its meta page names. */
    private Btree tree(int fileId) {
        String name = Btree.orderName(pool, fileId);
        return new Btree(pool, fileId, Btree.resolve(name, orders, fileId), name, Btree.Epochs.NONE);
    }

    @Override
    public Set<RecordType> types() {
        return Set.of(RecordType.BTREE_INSERT, RecordType.BTREE_DELETE, RecordType.BTREE_REPLACE);
    }

    @Override
    public void beforeRecovery() {
    }

    @Override
    public void redo(LogEntry entry, LogRecord record) {
        try (PinnedPage h = PinnedPage.pin(pool, fileIdOf(record), pageNoOf(record), BufferManager.CREATE).dirty().latch()) {
            apply(entry, record, h.page());
        }
    }

    @Override
    public void redoOn(LogEntry entry, LogRecord record, Page page) {
        if (fileIdOf(record) == page.fileId() && pageNoOf(record) == page.pageNo()) {
            apply(entry, record, page);
        }
    }

    private static int fileIdOf(LogRecord record) {
        return record instanceof BtreeReplaceRecord r ? r.fileId() : ((BtreeLeafRecord) record).fileId();
    }

    private static long pageNoOf(LogRecord record) {
        return record instanceof BtreeReplaceRecord r ? r.pageNo() : ((BtreeLeafRecord) record).pageNo();
    }

    /** Redo of a leaf insert, delete or replace on its page (latched), if the page is older than the record. */
    private static void apply(LogEntry entry, LogRecord record, Page p) {
        if (p.lsn() >= entry.lsn()) {
            return;
        }
        BtreePage bp = new BtreePage(p).check("redo");
        if (record instanceof BtreeReplaceRecord r) {
            if (r.slot() >= bp.count() || !Arrays.equals(bp.key(r.slot()), r.key())
                    || !bp.patchData(r.slot(), r.length(), r.offset(), r.after())) {
                throw bp.corrupt("redo of a replace at LSN " + Lsn.toString(entry.lsn())
                        + " does not find its key with " + r.length() + " bytes of data at slot " + r.slot());
            }
        } else {
            BtreeLeafRecord r = (BtreeLeafRecord) record;
            if (r.insert()) {
                if (r.slot() > bp.count()) {
                    throw bp.corrupt("redo of an insert at LSN " + Lsn.toString(entry.lsn()) + " at slot " + r.slot()
                            + " of " + bp.count());
                }
                bp.insertLeaf(r.slot(), r.key(), r.data());
            } else {
                if (r.slot() >= bp.count() || !Arrays.equals(bp.key(r.slot()), r.key())) {
                    throw bp.corrupt("redo of a delete at LSN " + Lsn.toString(entry.lsn())
                            + " does not find its key at slot " + r.slot());
                }
                bp.delete(r.slot());
            }
        }
        p.setLsn(entry.lsn(), entry.lsn() + LogRecordCodec.HEADER_SIZE + entry.payload().length);
    }

    @Override
    public void undo(LogEntry entry, LogRecord record, CompensationLog clr) {
        if (record instanceof BtreeReplaceRecord r) {
            undoReplace(entry, r, new ClrLog(clr));
            return;
        }
        BtreeLeafRecord r = (BtreeLeafRecord) record;
        // Runs without page locks (the transaction's own leaf locks keep others off these keys);
        // structure changes are made and read under page latches.
        BtreeLog log = new ClrLog(clr);
        if (r.insert()) {
            atKey(entry, "insert", r.fileId(), r.pageNo(), r.key(), (p, bp, i, pageNo) -> {
                log.leafDelete(p, i, r.key(), bp.data(i));
                bp.delete(i);
            });
            return;
        }
        // A delete is undone by inserting the pair again where it belongs now.
        tree(r.fileId()).reinsertFrom(r.pageNo(), r.key(), r.data(), log);
    }

    /**
     * Writes the replace's before data back over its key's data, found as an insert's undo
     * finds its key (splits move keys right only); the length is the same, so in place.
     */
    private void undoReplace(LogEntry entry, BtreeReplaceRecord r, BtreeLog log) {
        atKey(entry, "replace", r.fileId(), r.pageNo(), r.key(), (p, bp, i, pageNo) -> {
            log.leafReplace(p, new BtreeReplaceRecord(r.fileId(), pageNo, i, r.key(), r.length(), r.offset(), r.after(),
                    r.before()));
            if (!bp.patchData(i, r.length(), r.offset(), r.before())) {
                throw bp.corrupt("undo of the replace at LSN " + Lsn.toString(entry.lsn()) + " finds "
                        + "data of another length than " + r.length() + " bytes at slot " + i);
            }
        });
    }

    /** What an undo does at its key's slot, with the leaf pinned, latched and marked dirty. */
    @FunctionalInterface
    private interface AtKey {
        void apply(Page p, BtreePage bp, int slot, long pageNo);
    }

    /**
     * Finds {@code key} for an undo from the logged leaf {@code pageNo}, moving right (splits move
     * keys right only; a logged page that is internal now is the root, searched from the top),
     * and applies {@code action} there under the leaf latch.
     */
    private void atKey(LogEntry entry, String what, int fileId, long loggedPage, byte[] key, AtKey action) {
        long pageNo = tree(fileId).leafFrom(loggedPage, key);
        while (pageNo != 0) {
            try (PinnedPage h = PinnedPage.pin(pool, fileId, pageNo).dirty().latch()) {
                Page p = h.page();
                BtreePage bp = new BtreePage(p).check("undo");
                for (int i = 0; i < bp.count(); i++) {
                    if (Arrays.equals(bp.key(i), key)) {
                        action.apply(p, bp, i, pageNo);
                        return;
                    }
                }
                pageNo = bp.rightLink();
            }
        }
        throw new CorruptionException("undo of the B-tree " + what + " at LSN " + Lsn.toString(entry.lsn())
                + " cannot find its key in " + pool.describe(fileId) + " from page " + loggedPage);
    }

    @Override
    public List<LogRecord.DirtyPage> checkpoint(long beginLsn, long writeBefore, int maxDirtyPages) {
        return List.of(); // the pages are the buffer manager's; it reports them
    }

    /** Undo's logging: compensation records in the chain being rolled back. */
    private static final class ClrLog implements BtreeLog {
        private final CompensationLog clr;

        ClrLog(CompensationLog clr) {
            this.clr = clr;
        }

        private static void setLsn(Page page, long lsn, LogRecord rec) {
            page.setLsn(lsn, lsn + LogRecordCodec.HEADER_SIZE + LogRecords.encode(rec).length);
        }

        @Override
        public void leafInsert(Page page, int slot, byte[] key, byte[] data) {
            LogRecord rec = new BtreeLeafRecord(true, page.fileId(), page.pageNo(), slot, key, data);
            setLsn(page, clr.log(rec), rec);
        }

        @Override
        public void leafDelete(Page page, int slot, byte[] key, byte[] data) {
            LogRecord rec = new BtreeLeafRecord(false, page.fileId(), page.pageNo(), slot, key, data);
            setLsn(page, clr.log(rec), rec);
        }

        @Override
        public void leafReplace(Page page, BtreeReplaceRecord change) {
            setLsn(page, clr.log(change), change);
        }

        @Override
        public boolean drains() {
            return true;
        }

        @Override
        public void onEnd(boolean onCommit, int file, EndAction action) {
            throw new IllegalStateException("undo frees no pages");
        }

        @Override
        public void pageUpdate(Page page, int offset, byte[] after) {
            throw new IllegalStateException("undo of a B-tree record overwrites no overflow page");
        }

        @Override
        public void image(Page page) {
            byte[] image = page.getBytes(PageHeader.OFF_TYPE, page.size() - PageHeader.OFF_TYPE);
            LogRecord rec = new LogRecord.PageImage(page.fileId(), page.pageNo(), image);
            setLsn(page, clr.log(rec), rec);
        }
    }
}
