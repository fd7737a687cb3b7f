package org.libtp.core.lock;

/**
 * Lock manager statistics of the whole environment (every process), read without latches, so
 * a snapshot of counters that may be moving.
 *
 * @param requests     lock, upgrade calls since the lock region was created
 * @param waits        requests that had to wait
 * @param deadlocks    deadlock victims chosen
 * @param timeouts     requests that timed out
 * @param escalations  file locks taken in place of more page locks (see {@link LockConfig#escalationThreshold()})
 * @param locksInUse   lock requests in the table now (granted and waiting)
 * @param objectsInUse locked objects in the table now
 */
public record LockStats(long requests, long waits, long deadlocks, long timeouts, long escalations, int locksInUse,
                        int objectsInUse) {
}
