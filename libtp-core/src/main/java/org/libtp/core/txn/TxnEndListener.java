package org.libtp.core.txn;

/**
 * Told when a transaction ends; the lock manager releases its locks here (lock_unlock_all).
 * Called in the transaction's own process after its commit record is as durable as asked or
 * after its undo, and by failCheck (in whichever process runs it) for a dead process's
 * transaction after its rollback — always before its table slot is freed for reuse.
 */
@FunctionalInterface
public interface TxnEndListener {
    /**
     * @param slot      the transaction's index in the shared table ({@link Txn#slot()})
     * @param txnId     its id
     * @param committed true after commit, false after abort
     */
    void ended(int slot, long txnId, boolean committed);
}
