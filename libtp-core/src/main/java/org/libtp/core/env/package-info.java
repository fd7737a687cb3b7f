/**
 * The environment: a directory of data files and logs whose shared regions several processes
 * map, and the process registry that tells live processes from dead ones.
 *
 * <h2>Files</h2>
 * <pre>
 *  environment directory
 *    __libtp.lock        record locks (see LockFile): byte 0 = creation lock,
 *                        byte 1024+s = liveness of registry slot s; content: the
 *                        RegionLocation record (where the regions are)
 *  region directory: /dev/shm/libtp-&lt;id&gt; (SHM) or the environment directory (ENV_DIR)
 *    __libtp.env         environment region: flags, failure reason, the environment
 *                        directory's path, region directory, process registry (EnvLayout)
 *    __libtp.rgn.NAME    named regions created on demand (one or two per manager)
 * </pre>
 *
 * <h2>Where the regions live</h2>
 * Regions hold nothing that outlives the last process, so by default ({@link
 * org.libtp.core.env.RegionPlacement#AUTO}) they go to shared memory that is never written back
 * to a disk: a directory {@code libtp-<id>} (mode 0700, checked to be a real directory of this
 * user) under {@code /dev/shm}, where {@code <id>} is 128 bits of SHA-256 over the environment
 * directory's real path, device and inode — one directory per environment, the same through
 * symbolic links. Where no usable tmpfs exists (not Linux, no {@code /dev/shm}, not writable,
 * another user's directory in the way) AUTO falls back to the environment directory, with one
 * INFO line; {@code SHM} fails instead, {@code ENV_DIR} asks for the environment directory. The
 * lock file must stay in the environment directory: its record locks are how processes of one
 * environment find each other. The creator records the chosen directory in it, and every later
 * process attaches there (a process reaching the environment by a bind mount, whose real path
 * differs, still finds it); one whose configuration asks explicitly for another placement gets
 * {@code ConfigMismatchException}. Region files are allocated whole before they are mapped
 * ({@code posix_fallocate}): a full file system is an {@code OutOfSpaceException} at creation,
 * never a fault (SIGBUS, {@code InternalError}) at a later access.
 *
 * <h2>Open and close</h2>
 * Open takes the creation lock (exclusive {@code fcntl} lock, blocking), so creation and attach
 * are serialized across processes. If no process holds a liveness byte of the lock file, the
 * opener is alone: it deletes the old region files (wherever the lock file says they were),
 * creates new ones (a new random incarnation id), records their place (state open, forced), and
 * notes whether the previous incarnation ended cleanly (flag NEEDS_RECOVERY is set while open
 * and cleared by the last clean close; FAILED by a failure; regions gone while the record says
 * open — a machine restart emptied {@code /dev/shm} — count as unclean too). Otherwise it
 * attaches; a FAILED environment refuses with {@code RunRecoveryException}. The process then
 * claims a FREE slot whose liveness byte it can lock and keeps that lock until it closes. In one
 * JVM, all handles of a directory share one {@code SharedEnvironment} (one slot, one lock-file
 * channel: closing any channel of a file drops all of the process's record locks on it); its
 * {@code ProcessRegistry} holds the slots' liveness checks and failCheck. The
 * last process to close cleanly deletes the region files (and the shared-memory directory, its
 * pages punched out first so the memory returns at once) and records state closed; a failed
 * environment's regions stay, so the next open can say it had failed.
 *
 * <h2>Leftovers</h2>
 * A process killed with SIGKILL cleans nothing up: its regions stay (in memory, for SHM) until
 * the environment is opened again (rebuilt, then removed by the clean close) or the machine
 * restarts. A shared-memory region directory whose environment directory is gone (deleted, or
 * replaced: the id no longer matches) is removed by the next creation of any environment's
 * regions under the same shared-memory directory; {@code rm -r /dev/shm/libtp-*} while no LibTP
 * process runs is always safe.
 *
 * <h2>Dead processes</h2>
 * A slot is dead when it is BUSY and its liveness byte can be locked (the kernel released the
 * dead owner's lock; robust to pid reuse). {@code failCheck()} — called by the user and every
 * {@code failCheckMillis} by a daemon thread — scans the latch arrays of every region in the
 * directory for latches the dead owner holds and repairs each through this process's
 * {@link org.libtp.core.sync.LatchRepair} for it ({@code RegionEnvironment.repairLatches});
 * a latch this process has no repair for fails the environment, as before. Then the listeners
 * give back what the dead process held (its buffer pins, its transactions rolled back, its
 * locks) and its slot is freed. A latch waiter detects a dead owner by itself within
 * {@code latchCheckMillis} and repairs the same way. While failCheck holds a dead slot's liveness
 * lock, the lock alone would make the slot look alive to this process, so failCheck repairs the
 * latches naming the slot without asking again, and this process's liveness checks answer "dead"
 * for that slot from failCheck's list: a repair that waits for something the dead process held
 * (the group-commit leader word, taken over from a dead leader) would otherwise wait for
 * failCheck, and failCheck for it. The same holds across processes: whoever takes a dead
 * slot's liveness lock (failCheck, a latch waiter repairing) first writes the slot's generation
 * into its dead generation, and every process's liveness check answers "dead" for a BUSY slot
 * whose two agree. Otherwise a committer in a third process waits for the dead leader while
 * failCheck's rollback of the dead transaction waits for a frame latch that committer holds
 * (it forces the log before writing the page). Only a holder of the lock writes it, so it names
 * a dead incarnation; the next process to claim the slot gets the next generation. A latch this
 * process has no repair for, in an
 * array its region declares repairable (the directory entry's repairable bits), is left to a
 * process that has opened that manager: the slot stays until then. A process without a listener
 * of a kind some process has had ({@code listenerKinds}: the buffer pool's, which gives back a
 * dead process's pins) runs its own listeners but frees no slot.
 *
 * <h2>Latches guarding what</h2>
 * None in the environment region: directory and registry changes happen under the creation lock
 * (between processes) and this package's Java monitors (between threads); slot state words are
 * written with volatile stores and read without locks.
 */
package org.libtp.core.env;
