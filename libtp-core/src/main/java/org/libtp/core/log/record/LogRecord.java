package org.libtp.core.log.record;

import java.util.Arrays;
import java.util.List;

/**
 * Every typed log record, one sealed hierarchy: the core's own types are records here, one per
 * {@link RecordType}, and their codec, printer and (with the transaction manager) redo/undo
 * dispatch are exhaustive switch expressions over {@link #type()}, so a new type cannot be
 * half-handled (Java 17 has no pattern switch). The types of record managers outside the core
 * (access methods, the test record manager, the commit benchmark's) implement
 * {@link Registered} in their own module and bring their codec ({@link RecordCodec}); their ids
 * are still frozen in {@link RecordType}.
 */
public sealed interface LogRecord permits LogRecord.TxnCommit, LogRecord.TxnAbort, LogRecord.Checkpoint,
        LogRecord.FileEnd, LogRecord.PageUpdate, LogRecord.PageImage, LogRecord.PageWrite, LogRecord.Registered {

    RecordType type();

    /**
     * A record of a type owned by a record manager outside the core, encoded by the
     * {@link RecordCodec} it registered ({@link LogRecords#register}).
     */
    non-sealed interface Registered extends LogRecord {
    }

    /** The end of a transaction that committed. */
    record TxnCommit(long timeMillis) implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.TXN_COMMIT;
        }
    }

    /** The end of a transaction whose undo is complete. */
    record TxnAbort() implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.TXN_ABORT;
        }
    }

    /**
     * The end of a log file that is not the last: the log goes on in file {@code nextFile}
     * (the log manager writes it at a file switch; nothing else logs one).
     */
    record FileEnd(int nextFile) implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.LOG_FILE_END;
        }
    }

    /**
     * A fuzzy checkpoint. Every change logged before {@code redoLsn} was durable in the data
     * files when this record was written, so recovery redoes from {@code redoLsn}; the
     * transactions active then (with their first LSNs) may still need undo from further back.
     * {@code dirty} is the buffer manager's dirty-page table: the pages whose changes since
     * {@code recLsn} were not yet written ({@code redoLsn} is at or before the oldest recLsn).
     * {@code nextTxnId} is above every transaction id used so far, so recovery, which reads the
     * log only from the last checkpoint on, never hands out an old id again.
     */
    record Checkpoint(long redoLsn, long nextTxnId, List<ActiveTxn> active, List<DirtyPage> dirty) implements LogRecord {
        public Checkpoint {
            active = List.copyOf(active);
            dirty = List.copyOf(dirty);
        }

        public Checkpoint(long redoLsn, List<ActiveTxn> active) {
            this(redoLsn, 0, active, List.of());
        }

        public Checkpoint(long redoLsn, List<ActiveTxn> active, List<DirtyPage> dirty) {
            this(redoLsn, 0, active, dirty);
        }

        @Override
        public RecordType type() {
            return RecordType.CHECKPOINT;
        }
    }

    /** One active transaction in a checkpoint. */
    record ActiveTxn(long txnId, long firstLsn) {
    }

    /** One entry of a checkpoint's dirty-page table: the page's oldest change not yet written. */
    record DirtyPage(int fileId, long pageNo, long recLsn) {
    }

    /**
     * Bytes {@code [offset, offset + after.length)} of page {@code pageNo} of file {@code fileId}
     * changed from {@code before} to {@code after} (same length). Redo applies {@code after} if
     * the page's LSN is older than the record; undo logs and applies the inverse.
     */
    record PageUpdate(int fileId, long pageNo, int offset, byte[] before, byte[] after) implements LogRecord {
        public PageUpdate {
            if (before.length != after.length) {
                throw new IllegalArgumentException("page update before (" + before.length + " bytes) and after ("
                        + after.length + " bytes) differ in length");
            }
        }

        @Override
        public RecordType type() {
            return RecordType.PAGE_UPDATE;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof PageUpdate)) {
                return false;
            }
            PageUpdate u = (PageUpdate) o;
            return u.fileId == fileId && u.pageNo == pageNo && u.offset == offset
                    && Arrays.equals(u.before, before) && Arrays.equals(u.after, after);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * (31 * fileId + Long.hashCode(pageNo)) + offset) + Arrays.hashCode(after);
        }

        @Override
        public String toString() {
            return "PageUpdate[file " + fileId + " page " + pageNo + " @" + offset + ", " + after.length + " bytes]";
        }
    }

    /**
     * The image of page {@code pageNo} of file {@code fileId} from byte
     * {@link org.libtp.core.buffer.PageHeader#OFF_TYPE} to its end, after a structure change.
     * Redo-only: undo does nothing (a split is never rolled back, paper 3.1.2).
     */
    record PageImage(int fileId, long pageNo, byte[] image) implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.PAGE_IMAGE;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PageImage && ((PageImage) o).fileId == fileId && ((PageImage) o).pageNo == pageNo
                    && Arrays.equals(((PageImage) o).image, image);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * fileId + Long.hashCode(pageNo)) + Arrays.hashCode(image);
        }

        @Override
        public String toString() {
            return "PageImage[file " + fileId + " page " + pageNo + ", " + image.length + " bytes]";
        }
    }

    /**
     * Page {@code pageNo} of file {@code fileId} whole, header and checksum included, exactly as
     * it is about to be written to the data file. Logged and forced before that write when
     * torn-write protection is on; belongs to no transaction. Recovery, before its redo pass,
     * rewrites a page that fails its checksum from the newest such copy, then redo goes on from
     * the copy's page LSN.
     */
    record PageWrite(int fileId, long pageNo, byte[] page) implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.PAGE_WRITE;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof PageWrite && ((PageWrite) o).fileId == fileId && ((PageWrite) o).pageNo == pageNo
                    && Arrays.equals(((PageWrite) o).page, page);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * fileId + Long.hashCode(pageNo)) + Arrays.hashCode(page);
        }

        @Override
        public String toString() {
            return "PageWrite[file " + fileId + " page " + pageNo + ", " + page.length + " bytes]";
        }
    }
}
