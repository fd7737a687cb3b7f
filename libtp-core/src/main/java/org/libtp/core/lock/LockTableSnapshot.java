package org.libtp.core.lock;

import java.util.List;

/**
 * The lock table at one instant (every partition latch held while it was read): each lock
 * request, granted or waiting, and the waits-for graph between transactions (Berkeley DB's
 * {@code db_stat -CA}). For tools; reading it stops lock traffic for as long as a detection pass.
 *
 * @param requests every request, object by object: holders first, then waiters in arrival order
 * @param waitsFor edges {waiting transaction id, transaction id it waits for}
 */
public record LockTableSnapshot(List<Request> requests, List<long[]> waitsFor) {
    /**
     * One lock request.
     *
     * @param fileId  the locked object's data file id
     * @param pageNo  its page, {@link LockObject#WHOLE_FILE} for a file lock, or {@link LockObject#RECORD}
     *                {@code | id} for record {@code id}
     * @param txnId   the requesting transaction
     * @param locker  its transaction table slot
     * @param mode    the mode held (or wanted, while waiting)
     * @param waiting true if not granted yet
     * @param upgradeTo a holder waiting to convert to this mode, or null
     */
    public record Request(int fileId, long pageNo, long txnId, int locker, LockMode mode, boolean waiting,
                          LockMode upgradeTo) {
    }
}
