/**
 * The managers assembled into one transactional environment (the paper's LIBTP as a whole):
 * {@link org.libtp.core.tp.TxnEnvironment} opens the region environment, log, buffer pool, record
 * managers, transaction manager (which runs recovery when the environment was not closed
 * cleanly) and lock manager in that order and closes them in reverse; what needs all of them
 * lives here too: the hot backup ({@link org.libtp.core.tp.HotBackup}, {@code BackupConfig}, the
 * manifest {@code __libtp.backup}, the pacer that yields to committers, the copy's lower-priority
 * thread) and {@link org.libtp.core.tp.Repair} (log reset, file registry rebuild). The managers'
 * packages do not depend on this one.
 *
 * <h2>Hot backup</h2>
 * {@link org.libtp.core.tp.HotBackup}: pin (the transaction manager's {@code beginBackup}), data files page by page,
 * force the log to E and re-read the file registry until no file is new, log files up to
 * E, manifest. Write-ahead logging makes every copied page's LSN lower than E; the copied
 * log holds every commit before the backup began. The copy's data may be older than its
 * last checkpoint says, so its first open recovers <em>catastrophically</em>: analysis and
 * redo from the first log file, not the last checkpoint (the manifest
 * {@code __libtp.backup} asks for it and is deleted once recovery's checkpoint is durable,
 * so a crash during that recovery repeats it). The copy yields to committers: it runs at a
 * lower CPU priority and at the pace {@code BackupPacer} sets from the mean log force time,
 * which every process adds to in the log region.
 *
 * <h2>Catastrophic recovery at open</h2>
 * {@code TxnEnvironment.open} reads the manifest first: "incomplete" (a backup or restore cut
 * short) is refused; "backup" or "recover" opens the transaction manager with catastrophic
 * recovery and deletes the manifest after recovery's checkpoint is durable.
 */
package org.libtp.core.tp;
