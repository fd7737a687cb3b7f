package org.libtp.db;

import org.libtp.core.txn.Txn;

/**
 * A transaction of a TP-mode {@link Environment}: its locks are held until {@link #commit()} or
 * {@link #abort()}. Use it from one thread at a time; after it ends every use throws
 * {@link IllegalStateException}. After a {@link org.libtp.core.DeadlockException} or
 * {@link org.libtp.core.LockTimeoutException} it must be aborted (and may be run again:
 * {@link Environment#runInTransaction} does that). A transaction still active when the
 * environment is closed is aborted then, with a warning in the log.
 */
public final class Transaction implements AutoCloseable {
    final Environment env;
    final Txn txn;
    final boolean readOnly;
    private Object attachment;

    Transaction(Environment env, Txn txn, boolean readOnly) {
        this.env = env;
        this.txn = txn;
        this.readOnly = readOnly;
    }

    public long id() {
        return txn.id();
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public boolean isActive() {
        return !txn.isFinished();
    }

    /**
     * The object a layer above attached to this transaction (Berkeley DB's {@code app_private}),
     * or null: state that lives exactly as long as the transaction, such as what a SQL layer has
     * already read and locked in it. Not shared with other processes; not logged.
     */
    public Object attachment() {
        return attachment;
    }

    /** Attaches {@code o} (null detaches); see {@link #attachment()}. */
    public void attach(Object o) {
        attachment = o;
    }

    /** What this transaction's commit waits for. */
    public Durability durability() {
        return Durability.of(txn.durability());
    }

    /**
     * Commits: returns when the commit is as durable as the transaction's durability asks.
     *
     * @throws org.libtp.core.RunRecoveryException if the log could not be forced (the
     *         environment has failed: the commit is not acknowledged)
     * @throws IllegalStateException if the transaction has ended or the environment is closed
     */
    public void commit() {
        env.checkOpen();
        try {
            env.tp.txn().commit(txn);
        } finally {
            if (!isActive()) {
                env.ended(this);
            }
        }
        env.am.ended(txn, true);
    }

    /**
     * Rolls back every change of this transaction and releases its locks.
     *
     * @throws IllegalStateException if the transaction has ended or the environment is closed
     */
    public void abort() {
        env.checkOpen();
        try {
            env.tp.txn().abort(txn);
        } finally {
            if (!isActive()) {
                env.ended(this);
            }
        }
        env.am.ended(txn, false);
    }

    /** Aborts if still active (try-with-resources: a transaction not committed is rolled back). */
    @Override
    public void close() {
        if (isActive() && !env.isClosed()) {
            abort();
        }
    }

    void checkWritable() {
        txn.checkActive();
        if (readOnly) {
            throw new IllegalStateException("transaction " + txn.id() + " is read-only; begin a writable one to change data");
        }
    }

    @Override
    public String toString() {
        return "Transaction[" + txn.id() + (readOnly ? ", read-only" : "") + (isActive() ? "" : ", finished") + "]";
    }
}
