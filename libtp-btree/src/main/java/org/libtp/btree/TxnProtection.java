package org.libtp.btree;

import org.libtp.core.LockNotGrantedException;
import org.libtp.core.lock.LockManager;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.txn.Txn;

/** TP mode's page and record locks: the lock manager's, held by the operation's transaction. */
final class TxnProtection implements Protection {
    private final LockManager locks;
    final Txn txn;
    private final int file;

    TxnProtection(LockManager locks, Txn txn, int file) {
        this.locks = locks;
        this.txn = txn;
        this.file = file;
    }

    @Override
    public void lock(long pageNo, LockMode mode) {
        locks.lockPage(txn, file, pageNo, mode, 0);
    }

    @Override
    public boolean tryLock(long pageNo, LockMode mode) {
        try {
            locks.lockPage(txn, file, pageNo, mode, LockManager.NOWAIT);
            return true;
        } catch (LockNotGrantedException e) {
            return false;
        }
    }

    @Override
    public boolean lockRecord(long pageNo, long recordId, LockMode mode, boolean wait) {
        try {
            locks.lockRecord(txn, file, pageNo, recordId, mode, wait ? 0 : LockManager.NOWAIT);
            return true;
        } catch (LockNotGrantedException e) {
            return false;
        }
    }

    @Override
    public void unlock(long pageNo) {
        locks.unlock(txn, new LockObject(file, pageNo));
    }
}
