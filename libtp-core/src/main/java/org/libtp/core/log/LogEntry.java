package org.libtp.core.log;

/**
 * One record as read back from the log: its LSN, the header fields and the payload. The log
 * manager knows nothing of payload formats (paper 3.2.1); record managers decode them.
 *
 * @param lsn     where it is
 * @param type    record type id (see the frozen registry of the transaction manager)
 * @param txnId   transaction id, 0 for none
 * @param prevLsn previous record of the same transaction, {@link Lsn#NULL} for the first
 * @param payload record manager data
 */
public record LogEntry(long lsn, int type, long txnId, long prevLsn, byte[] payload) {
    /** LSN of the record after this one (same file). */
    public long nextLsn() {
        return lsn + LogRecordCodec.HEADER_SIZE + payload.length;
    }

    @Override
    public String toString() {
        return "LogEntry[" + Lsn.toString(lsn) + " type " + type + " txn " + txnId + " prev "
                + Lsn.toString(prevLsn) + " " + payload.length + " bytes]";
    }
}
