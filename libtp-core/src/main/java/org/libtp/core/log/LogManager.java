package org.libtp.core.log;

import java.util.function.Predicate;

/**
 * The log manager (paper 3.2.1): write-ahead log shared by every process of an environment.
 * Records are appended to a shared buffer and get totally ordered LSNs; {@link #flush} makes them
 * durable with group commit. The log knows only record headers, not payload formats.
 *
 * <p>Thread-safe, and safe across processes. Every method throws
 * {@link org.libtp.core.RunRecoveryException} once the environment has failed; a failed force
 * fails the environment (it is never retried).
 */
public interface LogManager extends AutoCloseable {

    /** The paper's {@code log}: a buffered append; returns the record's LSN. */
    long append(int type, long txnId, long prevLsn, byte[] payload);

    /**
     * Makes every record before {@code upTo} as durable as {@code durability} says: SYNC forces
     * (group commit: one force covers every committer waiting for it), WRITE_NO_SYNC writes to
     * the OS unless the buffer is salvaged after a crash (then nothing), NO_SYNC does nothing.
     */
    void flush(long upTo, Durability durability);

    /** The paper's {@code log_commit}: append, then flush through the end of the new record. */
    default long appendAndFlush(int type, long txnId, long prevLsn, byte[] payload, Durability durability) {
        long lsn = append(type, txnId, prevLsn, payload);
        flush(lsn + LogRecordCodec.HEADER_SIZE + payload.length, durability);
        return lsn;
    }

    /** The paper's {@code log_read}: the record at {@code lsn} (checksum verified). */
    LogEntry read(long lsn);

    /**
     * The paper's {@code log_roll}: every record from {@code from} (an LSN, or {@link Lsn#NULL}
     * for the start of the oldest log file) to the end of the log, in order, until the visitor
     * returns false.
     */
    void scan(long from, Predicate<LogEntry> visitor);

    /**
     * The paper's {@code log_unroll} walk: the records of one transaction from {@code lastLsn}
     * backwards along the prev-LSN chain, until the visitor returns false.
     */
    default void scanBackward(long lastLsn, Predicate<LogEntry> visitor) {
        long lsn = lastLsn;
        while (lsn != Lsn.NULL) {
            LogEntry e = read(lsn);
            if (!visitor.test(e)) {
                return;
            }
            lsn = e.prevLsn();
        }
    }

    /** LSN the next record will get (the end of the log). */
    /**
     * Appends a record; {@code mayUseReserve} as {@link SharedLog#append(int, long, long, byte[], boolean)}:
     * false for a record whose refusal (for want of log space) simply prevents what it announces.
     */
    default long append(int type, long txnId, long prevLsn, byte[] payload, boolean mayUseReserve) {
        return append(type, txnId, prevLsn, payload);
    }

    long endLsn();

    /** The environment's random id (from the log anchor), 0 if this log has none. */
    default long environmentId() {
        return 0;
    }

    /** Every record before this LSN is on stable storage. */
    long flushedLsn();

    /** Log file numbers present, oldest first. */
    int[] fileNumbers();

    /** Forces made by this process so far (for statistics and tests). */
    long forceCount();

    /**
     * Forces of the log made by every process since the shared regions were created, and their
     * summed duration: the mean force time tells how busy the disk is for committers.
     */
    ForceTotals forceTotals();

    /** Log forces by every process and their summed duration in nanoseconds. */
    record ForceTotals(long forces, long nanos) {
        /** Mean microseconds per force between {@code earlier} and this, or -1 if none was made. */
        public double meanMicrosSince(ForceTotals earlier) {
            long n = forces - earlier.forces;
            return n <= 0 ? -1 : (nanos - earlier.nanos) / 1e3 / n;
        }
    }

    @Override
    void close();
}
