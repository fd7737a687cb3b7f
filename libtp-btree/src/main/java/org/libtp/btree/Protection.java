package org.libtp.btree;

import org.libtp.core.lock.LockMode;

/**
 * What an open mode does around the B-tree's page accesses: page and record locks (TP), nothing
 * (unprotected). Logging of changes is {@link BtreeLog}'s.
 */
interface Protection {
    /** Locks page {@code pageNo} of the tree's file in {@code mode} for the current operation's transaction. */
    void lock(long pageNo, LockMode mode);

    /**
     * Locks page {@code pageNo} in {@code mode} if that needs no wait; false if another
     * transaction holds a conflicting lock. Used where waiting could deadlock (page reclamation
     * locks left and down while holding pages to the right).
     */
    boolean tryLock(long pageNo, LockMode mode);

    /** Releases one reference to the lock on {@code pageNo} (internal pages, pages moved away from). */
    void unlock(long pageNo);

    /**
     * Locks record {@code recordId} of the tree's file, on page {@code pageNo}, in {@code mode}
     * (READ or WRITE) under the page's intention lock; without {@code wait}, false if another
     * transaction holds a conflicting lock on the record (or the page).
     */
    boolean lockRecord(long pageNo, long recordId, LockMode mode, boolean wait);

    /** No locks: the paper's unprotected mode (one thread, or the caller serializes). */
    Protection NONE = new Protection() {
        @Override
        public void lock(long pageNo, LockMode mode) {
        }

        @Override
        public boolean tryLock(long pageNo, LockMode mode) {
            return true;
        }

        @Override
        public void unlock(long pageNo) {
        }

        @Override
        public boolean lockRecord(long pageNo, long recordId, LockMode mode, boolean wait) {
            return true;
        }
    };
}
