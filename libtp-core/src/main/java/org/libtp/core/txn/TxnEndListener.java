package org.libtp.core.txn;

/** Told when a transaction ends; the lock manager releases its locks here (lock_unlock_all). */
@FunctionalInterface
public interface TxnEndListener {
    /** @param committed true after commit, false after abort */
    void ended(long txnId, boolean committed);
}
