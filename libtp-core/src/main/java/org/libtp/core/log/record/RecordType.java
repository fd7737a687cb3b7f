package org.libtp.core.log.record;

import org.libtp.core.CorruptionException;
import org.libtp.core.log.Lsn;

/**
 * The frozen registry of log record type ids. An id is never reused or renumbered: log files
 * outlive releases. New types get new ids; a retired type keeps its entry (marked retired).
 * Ids 1..9 belong to the transaction manager, 10..19 to the buffer manager's page records,
 * 20..29 to the log manager, 100..199 to record managers of tests and benchmarks, 200..299 to the B-tree, 300..399 to recno.
 */
public enum RecordType {
    TXN_COMMIT(1),
    TXN_ABORT(2),
    CHECKPOINT(3),
    /** A logged change of a byte range of one page: before and after image (buffer manager). */
    PAGE_UPDATE(10),
    /** A page's whole image after a structure change (B-tree split): redo-only, never undone. */
    PAGE_IMAGE(11),
    /**
     * A page exactly as it is about to be written to its data file (no transaction): the copy
     * recovery rewrites a page from when power loss tore that write (torn-write protection).
     */
    PAGE_WRITE(12),
    /**
     * The end of a log file that is not the last (log manager, no transaction): written and
     * forced before the next file is named, so a file whose records stop without one lost a
     * stretch. Scans step over it to the next file; recovery never sees it.
     */
    LOG_FILE_END(org.libtp.core.log.LogRecordCodec.FILE_END_TYPE),
    /**
     * The test record manager's slot update: before and after image. Owned by libtp-core's tests
     * ({@code SlotStore}), which register its codec.
     */
    SLOT_UPDATE(100),
    /**
     * A counter update of the commit benchmark's record manager: before and after image, the
     * after image padded to the benchmark's record size. Owned by libtp-bench
     * ({@code CounterStore}), which registers its codec.
     */
    COUNTER_UPDATE(101),
    /**
     * B-tree leaf insert of (key, data) at a slot: redo by slot, undo by key (logical). Owned by
     * libtp-btree, which registers its codec.
     */
    BTREE_INSERT(200),
    /** B-tree leaf delete of (key, data) at a slot, as {@link #BTREE_INSERT}. */
    BTREE_DELETE(201),
    /**
     * B-tree leaf update in place: the data of the key at a slot replaced by data of the same
     * length, logged as the range of bytes that differ (before and after). Redo by slot, undo by
     * key, as {@link #BTREE_INSERT}. Logged instead of a delete and an insert: one record with
     * the changed bytes rather than two with the whole entry, and redo repeats the update in
     * place instead of compacting the page for the insert.
     */
    BTREE_REPLACE(202);

    private final int id;

    /** Types by id (ids are small and frozen): recovery looks one up per record. */
    private static final RecordType[] BY_ID;

    static {
        int max = 0;
        for (RecordType t : values()) {
            max = Math.max(max, t.id);
        }
        BY_ID = new RecordType[max + 1];
        for (RecordType t : values()) {
            BY_ID[t.id] = t;
        }
    }

    RecordType(int id) {
        this.id = id;
    }

    public int id() {
        return id;
    }

    /**
     * True for the records of record managers (redone and undone through their
     * {@code ResourceManager}); false for the transaction manager's own. An exhaustive switch
     * expression: a new type does not compile until it is classified here.
     */
    public boolean isResourceRecord() {
        return switch (this) {
            case TXN_COMMIT, TXN_ABORT, CHECKPOINT, LOG_FILE_END -> false;
            case PAGE_UPDATE, PAGE_IMAGE, PAGE_WRITE, SLOT_UPDATE, COUNTER_UPDATE, BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> true;
        };
    }

    /**
     * True for records logged after their change was made (a page image records a structure
     * change already applied): the log must not refuse them for want of space, or a change would
     * be left unlogged, so they may use the reserve at the end of each log file, and a failure
     * to log one fails the environment. False for records logged before their change (which a
     * refusal simply prevents). An exhaustive switch, as above.
     */
    public boolean loggedAfterChange() {
        return switch (this) {
            case PAGE_IMAGE -> true;
            case TXN_COMMIT, TXN_ABORT, CHECKPOINT, LOG_FILE_END, PAGE_UPDATE, PAGE_WRITE, SLOT_UPDATE, COUNTER_UPDATE,
                 BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> false;
        };
    }

    /**
     * True for the types whose record class and codec live with their record manager outside the
     * core ({@link LogRecord.Registered}, {@link RecordCodec}). An exhaustive switch, as above.
     */
    public boolean isRegistered() {
        return switch (this) {
            case SLOT_UPDATE, COUNTER_UPDATE, BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> true;
            case TXN_COMMIT, TXN_ABORT, CHECKPOINT, LOG_FILE_END, PAGE_UPDATE, PAGE_IMAGE, PAGE_WRITE -> false;
        };
    }

    /** Who owns this type: the core's managers, the B-tree, a test or a benchmark. */
    public String owner() {
        return switch (this) {
            case TXN_COMMIT, TXN_ABORT, CHECKPOINT -> "the transaction manager";
            case LOG_FILE_END -> "the log manager";
            case PAGE_UPDATE, PAGE_IMAGE, PAGE_WRITE -> "the buffer manager";
            case SLOT_UPDATE -> "the test record manager (libtp-core's tests)";
            case COUNTER_UPDATE -> "the commit benchmark's record manager (libtp-bench)";
            case BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> "the B-tree (libtp-btree)";
        };
    }

    /**
     * The type with id {@code id}.
     *
     * @throws CorruptionException for an id this LibTP does not know, naming the LSN
     */
    public static RecordType of(int id, long lsn) {
        RecordType t = id >= 0 && id < BY_ID.length ? BY_ID[id] : null;
        if (t != null) {
            return t;
        }
        throw new CorruptionException("unknown log record type id " + id + " at LSN " + Lsn.toString(lsn)
                + ": the log was written by a newer LibTP, or is damaged");
    }
}
