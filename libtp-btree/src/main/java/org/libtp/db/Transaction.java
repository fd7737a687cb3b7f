package org.libtp.db;

import org.libtp.core.txn.Txn;

/**
 * A transaction of a TP-mode {@link Environment}: its locks are held until {@link #commit()} or
 * {@link #abort()}. Use it from one thread at a time; after it ends every use throws
 * {@link IllegalStateException}. After a {@link org.libtp.core.DeadlockException} or
 * {@link org.libtp.core.LockTimeoutException} it must be aborted (and may be run again:
 * {@link Environment#runInTransaction} does that). A transaction still active when the
 * environment is closed is aborted then, with a warning in the log.
 *
 * <p>If the environment fails while the transaction is active and the handle reopens it
 * ({@link EnvironmentConfig#reopenTimeoutMillis()}), the recovery of the reopen rolls the
 * transaction back: its next operation, or its commit, throws
 * {@link org.libtp.core.EnvironmentReopenedException}; {@link #abort()} then does nothing more, and
 * the work may run again in a new transaction.
 */
public final class Transaction implements AutoCloseable {
    final Environment env;
    final Txn txn;
    final boolean readOnly;
    /** The environment incarnation it runs in: after a reopen it has been rolled back. */
    final long incarnation;
    /** Rolled back by a reopen's recovery: ended, whatever its Txn (of the old managers) says. */
    private volatile boolean stale;
    private Object attachment;

    Transaction(Environment env, Txn txn, boolean readOnly, long incarnation) {
        this.env = env;
        this.txn = txn;
        this.readOnly = readOnly;
        this.incarnation = incarnation;
    }

    /** The environment was reopened since this transaction began (its recovery rolled it back). */
    void stale() {
        stale = true;
    }

    /** Throws if the environment was reopened since this transaction began. */
    void checkCurrent() {
        if (stale || incarnation != env.incarnation) {
            stale = true;
            env.ended(this);
            throw new org.libtp.core.EnvironmentReopenedException("transaction " + txn.id() + " was rolled back: "
                    + "environment " + env.home() + " failed and was reopened while it was active; run it again in a new "
                    + "transaction", false, null);
        }
    }

    public long id() {
        return txn.id();
    }

    public boolean isReadOnly() {
        return readOnly;
    }

    public boolean isActive() {
        return !stale && incarnation == env.incarnation && !txn.isFinished();
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
        env.guarded(this, () -> {
            checkCurrent();
            try {
                env.tp.txn().commit(txn);
            } catch (org.libtp.core.RunRecoveryException e) {
                throw new Environment.CommitInDoubt(e);
            } finally {
                if (txn.isFinished()) {
                    env.ended(this);
                }
            }
            env.am.ended(txn, true);
            return null;
        });
    }

    /**
     * Rolls back every change of this transaction and releases its locks.
     *
     * @throws IllegalStateException if the transaction has ended or the environment is closed
     */
    public void abort() {
        env.checkOpen();
        if (stale || incarnation != env.incarnation) {
            stale = true; // rolled back by the reopen's recovery already
            env.ended(this);
            return;
        }
        try {
            env.guarded(this, () -> {
                checkCurrent();
                try {
                    env.tp.txn().abort(txn);
                } finally {
                    if (txn.isFinished()) {
                        env.ended(this);
                    }
                }
                env.am.ended(txn, false);
                return null;
            });
        } catch (org.libtp.core.EnvironmentReopenedException e) {
            // The environment failed during the abort and was reopened: recovery rolled it back.
            stale = true;
            env.ended(this);
        }
    }

    /** Aborts if still active (try-with-resources: a transaction not committed is rolled back). */
    @Override
    public void close() {
        if (isActive() && !env.isClosed()) {
            abort();
        } else if (stale || incarnation != env.incarnation) {
            env.ended(this);
        }
    }

    void checkWritable() {
        checkCurrent();
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
