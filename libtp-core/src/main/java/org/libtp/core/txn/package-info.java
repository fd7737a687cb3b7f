/**
 * The transaction manager (paper 3.2.5): begin, commit, abort, checkpoints and recovery, with
 * its transaction table in the shared region {@code txn} ({@link org.libtp.core.txn.SharedTxnManager}
 * has the offset table).
 *
 * <h2>Protocols</h2>
 * <ul>
 *   <li><b>Ids</b> come from a counter in the region under the txn latch, so they are unique
 *       across processes; recovery restarts it above every id in the log.</li>
 *   <li><b>Logging.</b> A record manager logs a change through {@link org.libtp.core.txn.Transaction#log}
 *       (before+after images, chained by prev-LSN) while holding the latch of the data it changes,
 *       and applies it before releasing that latch.</li>
 *   <li><b>Commit</b> appends a commit record and flushes it per the transaction's durability
 *       (group commit in the log manager); a transaction that logged nothing writes nothing.
 *       Locks will be released here by the lock manager (issue 4).</li>
 *   <li><b>Abort</b> walks the chain backwards (log_unroll); for each change the record manager
 *       logs a compensation record (the inverse change, redo-only) and applies it; then an abort
 *       record. Recovery's redo pass therefore repeats aborts too, and only transactions with
 *       neither a commit nor an abort record are undone after a crash.</li>
 *   <li><b>Checkpoint</b> (fuzzy): note R = end of log and the active transactions with their first
 *       LSNs; force the log through R; each record manager makes its changes logged before R
 *       durable; append and force the checkpoint record {R, active}. A transaction publishes a
 *       lower bound of its first LSN before its first append, so a checkpoint that misses it is
 *       sure to find all its records at or after R.</li>
 *   <li><b>Recovery</b> runs in the first process that opens the transaction manager after the
 *       regions were rebuilt (every process had closed or died), under the txn latch, so the
 *       others wait: record managers load their durable state; one scan of the log finds the last
 *       checkpoint, the last record of every transaction and which ended; redo from the
 *       checkpoint's R; undo every loser (with compensation records) and log its abort; then a
 *       checkpoint. Running it again after a crash during it gives the same state (redo is
 *       state-based and idempotent, undo is logged).</li>
 *   <li><b>Archiving</b>: log files wholly before the last checkpoint's R and before every active
 *       transaction's first record are not needed by recovery
 *       ({@link org.libtp.core.txn.SharedTxnManager#archivableLogFiles()}).</li>
 *   <li><b>Dead processes</b>: a failCheck listener rolls back (or, if its commit record is in the
 *       log, finishes) every transaction whose owner slot is dead or reused.</li>
 * </ul>
 *
 * <h2>Latches</h2>
 * The txn latch guards the table's entry states and the id counter (held for microseconds); the
 * checkpoint latch serializes checkpoints and is held across their forces. A table entry's
 * fields other than its state are written only by the owning thread (or by failCheck once the
 * owner is dead) with volatile stores.
 *
 * <p>Not yet here (issue 3 continues): integration into one {@code Environment.open} that runs
 * recovery without the caller composing the managers, fault-injection tests through the storage
 * interface (torn last write, crash during recovery, failed force), and the commit benchmark
 * numbers at the transaction level.
 */
package org.libtp.core.txn;
