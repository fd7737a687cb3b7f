/**
 * The transaction manager (paper 3.2.5): begin, commit, abort, checkpoints and recovery, with
 * its transaction table in the shared region {@code txn} ({@code TxnLayout} has the offset
 * table). {@link org.libtp.core.txn.SharedTxnManager} is the facade (begin, log, commit, abort,
 * the table, dead processes' transactions); package-private parts: {@code Checkpointer} (when a
 * checkpoint is due, the checkpoint thread, the checkpoint), {@code LogRetention} (archivable log
 * files, the hot backup's pin, removal), {@code Recovery} (analysis, redo, undo of losers).
 *
 * <h2>Protocols</h2>
 * <ul>
 *   <li><b>Ids</b> come from a counter in the region under the txn latch, so they are unique
 *       across processes; recovery restarts it above every id in the log.</li>
 *   <li><b>Logging.</b> A record manager logs a change through {@link org.libtp.core.txn.Txn#log}
 *       (before+after images, chained by prev-LSN) while holding the latch of the data it changes,
 *       and applies it before releasing that latch.</li>
 *   <li><b>Commit</b> appends a commit record and flushes it per the transaction's durability
 *       (group commit in the log manager); a transaction that logged nothing writes nothing.
 *       Then the end listeners run: the lock manager releases the transaction's locks there
 *       (strict two-phase locking: after the commit is as durable as asked).</li>
 *   <li><b>Early lock release</b> ({@link org.libtp.core.txn.TxnConfig#earlyLockRelease()}, per
 *       process): the committer appends its commit record, raises {@code earlyReleaseEnd} in
 *       the region to that record's end (CAS, monotonic), runs the end listeners (locks go),
 *       then flushes and returns. Whoever read its changes is safe: a writer's own commit
 *       record comes later in the log, so it is never durable without this one; a transaction
 *       that logged nothing flushes (per its own durability) up to {@code earlyReleaseEnd}
 *       before its commit returns. A committer that dies between the release and the flush
 *       left its commit record in the shared buffer, so failCheck finishes it as committed,
 *       consistently with what the others saw; if every process dies the log is cut at the same
 *       point for it and for everything that depended on it.</li>
 *   <li><b>Abort</b> walks the chain backwards (log_unroll); for each change the record manager
 *       logs a compensation record (the inverse change, redo-only) and applies it; then an abort
 *       record. Recovery's redo pass therefore repeats aborts too, and only transactions with
 *       neither a commit nor an abort record are undone after a crash.</li>
 *   <li><b>Checkpoint</b> (fuzzy): note B = end of log and the active transactions with their first
 *       LSNs; force the log through B; each record manager writes what has been dirty since
 *       before the previous checkpoint's B and returns its dirty-page table; append and force
 *       the checkpoint record {redo = min(B, oldest recLsn), nextTxnId, active, dirty pages}. A
 *       transaction publishes a lower bound of its first LSN before its first append, so a
 *       checkpoint that misses it is sure to find all its records at or after B. Taken by a
 *       daemon thread per process ({@code libtp-checkpoint}) that a commit wakes once the log
 *       has grown by {@code checkpointBytes}; the checkpoint latch (tried, not waited for) keeps
 *       the processes' threads from taking two at once; a committer takes one itself only when the
 *       log is four intervals ahead.</li>
 *   <li><b>Recovery</b> runs in the first process that opens the transaction manager after the
 *       regions were rebuilt (every process had closed or died), under the txn latch, so the
 *       others wait: record managers load their durable state; the last checkpoint is found by
 *       reading log files from the newest back; one scan from its redo LSN (or the first LSN of a
 *       transaction active at it, if earlier) finds the last record of every transaction and
 *       which ended; redo from the redo LSN (page records are skipped where the page LSN is
 *       newer); undo every loser (with compensation records) and log its abort; then a
 *       checkpoint that writes no pages: its dirty-page table names what redo and undo changed
 *       (with their oldest LSNs), so its redo LSN stays where this recovery started; the next
 *       checkpoint, due by the usual rules, writes them in the background. Writing them all
 *       before the open returned was most of the wait for the first commit after a crash. A
 *       recovery that redid more than two checkpoint intervals (crashes in a row) writes them at
 *       open, as before, so the distance stays bounded. Running recovery again after a crash
 *       during it, or before that next checkpoint, gives the same state (redo is state-based and
 *       idempotent, undo is logged).</li>
 *   <li><b>Archiving</b>: log files wholly before the last checkpoint's R and before every active
 *       transaction's first record are not needed by recovery
 *       ({@link org.libtp.core.txn.SharedTxnManager#archivableLogFiles()}), nor by a running hot
 *       backup: its pin (first LSN, owner slot and generation in the region, set and cleared under
 *       the checkpoint latch, which log removal takes too) holds back every file from its LSN's
 *       file on; a pin whose owner died is ignored.</li>
 *   <li><b>Hot backup</b> ({@code org.libtp.core.tp.HotBackup}) is built on the pin above
 *       ({@link org.libtp.core.txn.SharedTxnManager#beginBackup}, {@code endBackup}); its copy
 *       protocol is described in {@code org.libtp.core.tp}.</li>
 *   <li><b>Dead processes</b>: a failCheck listener rolls back (or, if its commit record is in the
 *       log, finishes) every transaction whose owner slot is dead or reused. It first claims the
 *       entry (a compare-and-set of its claim word to this process's slot and generation; a dead
 *       claimer's claim is taken over), since every process's failCheck sees a transaction whose
 *       owner's slot was freed elsewhere; then it reads the log on from the entry's last LSN for
 *       records the owner appended but did not publish (a change, which a repaired frame holds,
 *       or its commit record) and undoes from the newest.</li>
 * </ul>
 *
 * <h2>Latches</h2>
 * The txn latch guards the table's entry states and the id counter (held for microseconds); the
 * checkpoint latch serializes checkpoints and is held across their forces. A table entry's
 * fields other than its state are written only by the owning thread (or by failCheck once the
 * owner is dead) with volatile stores.
 *
 * <p>A process killed inside the <b>checkpoint latch</b> leaves nothing for anyone to repair: the
 * words a checkpoint publishes are each valid for the checkpoint before or for its own (whose
 * record is forced first), log files are removed one at a time (the next checkpoint removes the
 * rest), and a dead backup's pin is ignored; the latch is taken over and released. One killed
 * inside the <b>txn latch</b> during a begin leaves its entry free (half-filled: the next begin
 * overwrites it) or running under the dead owner's name (failCheck rolls it back like the owner's
 * other transactions), and perhaps an id taken for nothing; the number of active transactions is
 * counted from the table, not kept, and the group-commit hint is counted again by the repair.
 * One killed in recovery at open (state still 0) fails the environment.
 *
 * <p>The last process to close takes a full checkpoint (every dirty page written), so a clean
 * reopen redoes nothing.
 */
package org.libtp.core.txn;
