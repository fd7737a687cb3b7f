/**
 * The record API, in the style of Berkeley DB, LMDB (lmdbjava) and H2 MVStore: everything an
 * application needs is in this package, and the exceptions it catches are in
 * {@link org.libtp.core} (table below).
 *
 * <h2>The pieces</h2>
 * <ul>
 * <li>{@link org.libtp.db.Environment}: a directory of databases, opened with an
 *     {@link org.libtp.db.EnvironmentConfig} (every setting, with its default) in one of the
 *     paper's {@link org.libtp.db.OpenMode}s. Several threads and JVM processes may have it open
 *     at once. Opening it after a crash runs recovery ({@link org.libtp.db.Environment#wasRecovered()});
 *     {@link org.libtp.db.Environment#stats()} gives an {@link org.libtp.db.EnvironmentStats}.</li>
 * <li>{@link org.libtp.db.Transaction} (TP mode): two-phase page locks, write-ahead logging;
 *     commit waits as its {@link org.libtp.db.Durability} says (SYNC survives power loss,
 *     WRITE_NO_SYNC kill -9 of every process without a system call on Linux, NO_SYNC a clean
 *     close).
 *     {@link org.libtp.db.Environment#runInTransaction} / {@link org.libtp.db.Environment#inTransaction}
 *     begin, run, commit and retry deadlock victims and lock timeouts.</li>
 * <li>{@link org.libtp.db.Database}: get, put, putIfAbsent, delete, getForUpdate, update, zero-copy
 *     get; RECNO databases by record number. A null transaction in TP mode is auto-commit. Keys
 *     up to {@link org.libtp.db.Database#maxKeyLength()} bytes, data of any length.</li>
 * <li>{@link org.libtp.db.Cursor}: first, last, next, prev, seek, seekRange, put, delete, on the
 *     whole database or a {@link org.libtp.db.KeyRange} it never leaves; as an
 *     {@code Iterable}/{@code Stream} of {@link org.libtp.db.Entry}, or through
 *     {@link org.libtp.db.Database#entries} ({@link org.libtp.db.CursorIterable}). A cursor opened
 *     without a transaction in TP mode reads in a read-only transaction of its own.</li>
 * <li>Databases are named in a transactional catalog: created, renamed and removed with their
 *     transaction.</li>
 * </ul>
 *
 * <h2>Exceptions</h2>
 * All are unchecked. {@link org.libtp.core.OperationFailureException} and its subclasses: this
 * operation failed, the environment is fine. {@link org.libtp.core.EnvironmentFailureException}
 * and its subclasses: the environment can no longer be used by anyone until it is reopened.
 *
 * <table>
 * <caption>What the record API throws, and what to do</caption>
 * <tr><th>exception</th><th>meaning</th><th>what to do</th></tr>
 * <tr><td>{@link org.libtp.core.DeadlockException}</td>
 *     <td>this transaction was chosen as the victim of a deadlock (a cycle of lock waits, across
 *     processes too); its lock request was refused</td>
 *     <td>abort the transaction and run it again (or let {@code runInTransaction} do it;
 *     auto-commit operations retry by themselves)</td></tr>
 * <tr><td>{@link org.libtp.core.LockTimeoutException}</td>
 *     <td>a lock request waited {@link org.libtp.db.EnvironmentConfig#lockTimeoutMillis()} (10 s
 *     by default) behind a holder that is alive but does not finish</td>
 *     <td>abort and retry; if it recurs, find the transaction that is never committed or aborted
 *     (the message names the lock)</td></tr>
 * <tr><td>{@link org.libtp.core.SelfDeadlockException}</td>
 *     <td>a lock request would wait for a transaction that the same thread last used (an
 *     auto-commit call, or a second transaction, while the thread's own transaction holds the
 *     page): it could never be granted, so it is refused at once instead of hanging</td>
 *     <td>do the call in that transaction (pass it instead of null), or end it first; retrying
 *     as it is cannot succeed</td></tr>
 * <tr><td>{@link org.libtp.core.LockNotGrantedException}</td>
 *     <td>a lock asked for without waiting was not free (not thrown by this package's operations,
 *     which wait)</td>
 *     <td>go on without it, or abort</td></tr>
 * <tr><td>{@link org.libtp.core.CapacityExceededException}</td>
 *     <td>a shared table is full: transactions, locks, lock objects, data files, process slots,
 *     or every buffer frame pinned; the message names the setting</td>
 *     <td>abort; raise the setting named (it takes effect when the environment is next created,
 *     after every process closed it), or make transactions smaller</td></tr>
 * <tr><td>{@link org.libtp.core.OutOfSpaceException}</td>
 *     <td>the file system has no room for a log file, a stretch of the log, a data page or the
 *     shared memory at open; nothing half-written was left, committed data is intact</td>
 *     <td>abort; free space (the message names the file and the size), then retry</td></tr>
 * <tr><td>{@link org.libtp.core.DatabaseNotFoundException}</td>
 *     <td>the database named does not exist (opened without {@code allowCreate}), or the handle
 *     used refers to a database removed or renamed since, by this or another process</td>
 *     <td>create it ({@code DatabaseConfig.allowCreate(true)}) or use the right name; nothing
 *     changed</td></tr>
 * <tr><td>{@link org.libtp.core.EnvironmentAccessException}</td>
 *     <td>at open: the directory does not exist, is not a directory or is not writable, or an
 *     I/O error; the message names the path</td>
 *     <td>create the directory or fix its permissions; nothing changed</td></tr>
 * <tr><td>{@link org.libtp.core.ConfigMismatchException}</td>
 *     <td>at open: other processes have the environment open in another {@link org.libtp.db.OpenMode}
 *     or with another size setting (page size, cache, table sizes, log file size); the message
 *     names each setting with the running value and this process's</td>
 *     <td>open with the running values, or close the environment everywhere first; nothing
 *     changed</td></tr>
 * <tr><td>{@link org.libtp.core.EnvironmentReopenedException}</td>
 *     <td>the environment failed while this transaction was active (a process died where its
 *     work cannot be repaired in place, or a log force failed) and the handle reopened it: every
 *     process detached, the first to open again ran recovery, which rolled this transaction
 *     back. The {@code Environment} and {@code Database} handles stay valid; cursors of the
 *     transaction are done. {@code commitInDoubt()}: it failed during its commit, which may have
 *     happened</td>
 *     <td>abort (a no-op now) and run the transaction again ({@code runInTransaction} does);
 *     if {@code commitInDoubt()}, first read whether its changes are there</td></tr>
 * <tr><td>{@link org.libtp.core.RunRecoveryException}</td>
 *     <td>the environment has failed and this handle could not reopen it within
 *     {@link org.libtp.db.EnvironmentConfig#reopenTimeoutMillis()} (another process keeps it
 *     open without reopening: a tool, or a handle with reopening off), or reopening is off
 *     ({@code reopenTimeoutMillis(0)})</td>
 *     <td>close the environment in every process (or let the others reopen), then use it again:
 *     the handle retries the reopen at its next call and every 100 ms; the first open runs
 *     recovery (committed transactions are kept)</td></tr>
 * <tr><td>{@link org.libtp.core.CorruptionException}</td>
 *     <td>a page or file failed its checksum or another check; the message names the file and
 *     page; no wrong data was returned</td>
 *     <td>restore the file from a backup; {@link org.libtp.db.Database#verify()} lists what is
 *     damaged. At open, a log cut short, emptied or deleted under pages that carry its LSNs is
 *     refused with nothing changed: restore the directory, or accept possibly incomplete
 *     transactions with {@link org.libtp.db.Environment#resetLog}; a damaged or missing file
 *     registry ({@code __libtp.files}): {@link org.libtp.db.Environment#rebuildFileRegistry}; a damaged
 *     catalog ({@code catalog.libtp}): {@link org.libtp.db.Environment#rebuildCatalog}</td></tr>
 * <tr><td>{@link org.libtp.core.VersionMismatchException}</td>
 *     <td>at open: a file written by another program or an incompatible LibTP version</td>
 *     <td>open it with the version that wrote it; nothing changed</td></tr>
 * <tr><td>{@link java.lang.IllegalStateException}</td>
 *     <td>misuse: a closed handle, a finished transaction, a write in a read-only transaction,
 *     database handle, cursor without a transaction or read-only environment, transactions
 *     outside TP mode</td>
 *     <td>fix the program (the message says what was refused and why)</td></tr>
 * <tr><td>{@link java.lang.IllegalArgumentException}</td>
 *     <td>a bad argument: null, empty or too long key, bad name, bad setting, a range with its
 *     ends swapped</td>
 *     <td>fix the program</td></tr>
 * </table>
 *
 * <h2>Design notes</h2>
 * <ul>
 * <li>The API has its own {@link org.libtp.db.Durability}, mapped to the log manager's: the
 *     record API documents what a user can count on after each kind of failure, which is less
 *     than the log manager guarantees to its own callers for NO_SYNC (there the commit also
 *     survives the committing process's death while another process keeps the log buffer).</li>
 * <li>The lock timeout is finite by default (10 s) because deadlocks are detected when a request
 *     blocks: the only waits a timeout ends are those behind a stuck holder, which without it
 *     hang silently.</li>
 * <li>A cursor checks each entry it reaches against its range in the database's key order and
 *     stays where it was when the entry is outside; a range's bounds are given lowest first
 *     whatever its direction. Iteration moves the cursor itself, so put and delete apply to the
 *     entry just returned.</li>
 * <li>{@link org.libtp.db.Environment#close()} aborts what the application left active and
 *     closes cursors left open, with a WARN each, instead of leaving their locks held in the
 *     shared lock table for other processes to wait on.</li>
 * <li>{@link org.libtp.db.Environment#open} does not create the directory: a mistyped path is an
 *     error, not a new empty environment.</li>
 * </ul>
 */
package org.libtp.db;
