package org.libtp.core.log.record;

import java.util.Arrays;
import java.util.List;

/**
 * Every typed log record, one sealed hierarchy, one subtype per {@link RecordType}: codec,
 * printer and (with the transaction manager) redo/undo dispatch are exhaustive switch expressions
 * over {@link #type()}, so a new type cannot be half-handled (Java 17 has no pattern switch).
 */
public sealed interface LogRecord permits LogRecord.TxnCommit, LogRecord.TxnAbort, LogRecord.Checkpoint,
        LogRecord.SlotUpdate {

    RecordType type();

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
     * A fuzzy checkpoint. Every change logged before {@code redoLsn} was durable in the data
     * files when this record was written, so recovery redoes from {@code redoLsn}; the
     * transactions active then (with their first LSNs) may still need undo from further back.
     * The buffer manager adds its dirty-page table later.
     */
    record Checkpoint(long redoLsn, List<ActiveTxn> active) implements LogRecord {
        public Checkpoint {
            active = List.copyOf(active);
        }

        @Override
        public RecordType type() {
            return RecordType.CHECKPOINT;
        }
    }

    /** One active transaction in a checkpoint. */
    record ActiveTxn(long txnId, long firstLsn) {
    }

    /** The test record manager: slot {@code slot} of file {@code fileId} changed from before to after. */
    record SlotUpdate(int fileId, int slot, byte[] before, byte[] after) implements LogRecord {
        @Override
        public RecordType type() {
            return RecordType.SLOT_UPDATE;
        }

        @Override
        public boolean equals(Object o) {
            if (!(o instanceof SlotUpdate)) {
                return false;
            }
            SlotUpdate u = (SlotUpdate) o;
            return u.fileId == fileId && u.slot == slot
                    && Arrays.equals(u.before, before) && Arrays.equals(u.after, after);
        }

        @Override
        public int hashCode() {
            return 31 * (31 * fileId + slot) + Arrays.hashCode(after);
        }

        @Override
        public String toString() {
            return "SlotUpdate[file " + fileId + " slot " + slot + ", " + before.length + " -> " + after.length + " bytes]";
        }
    }
}
