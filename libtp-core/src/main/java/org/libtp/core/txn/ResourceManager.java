package org.libtp.core.txn;

import org.libtp.core.buffer.Page;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.RecordType;

import java.util.Set;

/**
 * A record manager as the transaction manager sees it (paper 3.2.6): the log record types it
 * owns, their redo and undo, and how to make its changes durable at a checkpoint. Registered with
 * the transaction manager when it opens, before recovery runs; the registry is then frozen.
 *
 * <p>Redo must be idempotent and state-based: recovery may apply a record whose effect is
 * already in the data, and a crash during recovery runs it again.
 */
public interface ResourceManager {

    /** The record types this manager redoes and undoes. */
    Set<RecordType> types();

    /** Loads the durable state (as of the last checkpoint or later) before recovery's passes. */
    void beforeRecovery();

    /**
     * Sees each of this manager's records of a type it {@link #analyzes} during recovery's
     * analysis pass (before any redo), in log order from where recovery starts reading.
     * Default: nothing.
     */
    default void analyze(LogEntry entry, LogRecord record) {
    }

    /**
     * True for the record types {@link #analyze} must see: the analysis pass decodes only those
     * (the others are decoded once, by redo). Default: none.
     */
    default boolean analyzes(RecordType type) {
        return false;
    }

    /**
     * Called once after the analysis pass and before the redo pass, which starts at
     * {@code redoLsn}: the place to repair what redo cannot read (the buffer manager rewrites
     * pages whose last write power loss tore). Default: nothing.
     */
    default void beforeRedo(long redoLsn) {
    }

    /**
     * False for the record types {@link #redo} would ignore (read before redo, as the buffer
     * manager's page writes): the redo pass does not decode those. Default: every type.
     */
    default boolean redoes(RecordType type) {
        return true;
    }

    /** Re-applies a logged change (forward pass of recovery). */
    void redo(LogEntry entry, LogRecord record);

    /**
     * Single-page recovery, while the process that held {@code page}'s frame latch is dead and the
     * page was read again from its data file: re-applies {@code record} to {@code page} if it
     * changes that page ({@link Page#fileId()}, {@link Page#pageNo()}) and the page's LSN is
     * older than the record's, exactly as {@link #redo} would, but on this page, already latched
     * by the caller, and on no other. Records of other pages are ignored. Called for every record
     * of this manager's types that {@link #redoes} from the page's LSN (or the last checkpoint's
     * redo LSN) to the end of the log, in order.
     *
     * <p>The default throws: a manager whose records change pages of the buffer pool must
     * implement this (otherwise a frame latch holder's death fails the environment); one whose
     * records change no pool page overrides it to do nothing.
     */
    default void redoOn(LogEntry entry, LogRecord record, Page page) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot redo a " + record.type()
                + " record on one page");
    }

    /**
     * Rolls back a logged change (abort, failCheck of a dead process, and recovery's backward
     * pass over losers). Under the same latch a normal update takes, the manager logs the
     * compensation (the inverse change, a normal redoable record) through {@code clr} and then
     * applies it — so recovery's redo pass repeats aborts too, and an aborted transaction never
     * needs undo again.
     */
    void undo(LogEntry entry, LogRecord record, CompensationLog clr);

    /** Appends a compensation record to the chain of the transaction being rolled back. */
    @FunctionalInterface
    interface CompensationLog {
        long log(LogRecord compensation);
    }

    /**
     * This manager's part of a fuzzy checkpoint that began when the log ended at
     * {@code beginLsn} (the log is already forced through it: write-ahead). When it returns,
     * every change logged before {@code writeBefore} (at most {@code beginLsn}) must be durable
     * in the data files; changes logged before {@code beginLsn} that are not durable yet are
     * returned as dirty pages, each with the LSN of its oldest such change (at most
     * {@code maxDirtyPages} of them: write more otherwise). Recovery then redoes from the oldest
     * of those LSNs, or from {@code beginLsn}.
     */
    java.util.List<org.libtp.core.log.record.LogRecord.DirtyPage> checkpoint(long beginLsn, long writeBefore,
                                                                             int maxDirtyPages);
}
