/**
 * The environment: a directory whose region files several processes map, and the process
 * registry that tells live processes from dead ones.
 *
 * <h2>Files</h2>
 * <pre>
 *  __libtp.lock        record locks only (see LockFile): byte 0 = creation lock,
 *                      byte 1024+s = liveness of registry slot s
 *  __libtp.env         environment region: flags, failure reason, region directory,
 *                      process registry (see EnvLayout)
 *  __libtp.rgn.NAME    named regions created on demand (later: one per manager)
 * </pre>
 *
 * <h2>Open and close</h2>
 * Open takes the creation lock (exclusive {@code fcntl} lock, blocking), so creation and attach
 * are serialized across processes. If no live process is attached (every BUSY slot's liveness
 * byte can be locked), the opener is alone: it deletes the old region files, creates new ones
 * (a new random incarnation id), and notes whether the previous incarnation was closed cleanly
 * (flag NEEDS_RECOVERY is set while open and cleared by the last clean close; FAILED by a
 * failure). Otherwise it attaches; a FAILED environment refuses with
 * {@code RunRecoveryException}. The process then claims a FREE slot whose liveness byte it can
 * lock and keeps that lock until it closes. In one JVM, all handles of a directory share one
 * {@code SharedEnvironment} (one slot, one lock-file channel: closing any channel of a file drops
 * all of the process's record locks on it).
 *
 * <h2>Dead processes</h2>
 * A slot is dead when it is BUSY and its liveness byte can be locked (the kernel released the
 * dead owner's lock; robust to pid reuse). {@code failCheck()} — called by the user and every
 * {@code failCheckMillis} by a daemon thread — scans the latch arrays of every region in the
 * directory for latches the dead owner holds: none means its slot is simply freed (later issues
 * also roll back its transactions and release its locks); any means the environment is failed.
 * A latch waiter detects a dead owner by itself within {@code latchCheckMillis}.
 *
 * <h2>Latches guarding what</h2>
 * None in the environment region: directory and registry changes happen under the creation lock
 * (between processes) and this package's Java monitors (between threads); slot state words are
 * written with volatile stores and read without locks.
 */
package org.libtp.core.env;
