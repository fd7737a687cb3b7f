package org.libtp.core.txn;

import org.libtp.core.log.Durability;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;

/**
 * A transaction handle (paper 3.2.5). Use from one thread at a time. After
 * {@link TransactionManager#commit} or {@link TransactionManager#abort} every use throws
 * {@link IllegalStateException}.
 */
public final class Txn implements org.libtp.core.lock.Locker {
    private final SharedTxnManager manager;
    final int slot;
    final long id;
    final Durability durability;
    long firstLsn = Lsn.NULL;
    long lastLsn = Lsn.NULL;
    long lastEnd = Lsn.NULL;
    boolean finished;
    boolean finishedCommitted;
    /** The thread that last asked for a lock for this transaction (in this JVM). */
    private volatile Thread lockingThread;

    Txn(SharedTxnManager manager, int slot, long id, Durability durability) {
        this.manager = manager;
        this.slot = slot;
        this.id = id;
        this.durability = durability;
    }

    SharedTxnManager manager() {
        return manager;
    }

    @Override
    public long id() {
        return id;
    }

    /**
     * This transaction's index in the shared transaction table: the lock manager's locker
     * number, unique among active transactions of all processes (reused after it ends).
     */
    @Override
    public int slot() {
        return slot;
    }

    /** Throws {@link IllegalStateException} if this transaction has committed or aborted. */
    @Override
    public void checkActive() {
        if (finished) {
            throw new IllegalStateException("transaction " + id + " has already "
                    + "committed or aborted; begin a new one");
        }
    }

    public Durability durability() {
        return durability;
    }

    /** LSN of this transaction's last record, {@link Lsn#NULL} if it wrote none. */
    public long lastLsn() {
        return lastLsn;
    }

    /**
     * Where this transaction's last record logged through {@link #log} ends: forcing the log to
     * here makes that record durable (the write-ahead bound of a page it changed).
     */
    public long lastLsnEnd() {
        return lastEnd;
    }

    /**
     * Records that the calling thread is asking for a lock for this transaction: a request of
     * another transaction of the same thread that waits for this one could never be granted
     * while the thread waits, so the lock manager refuses it at once.
     */
    @Override
    public void lockingFrom(Thread t) {
        if (lockingThread != t) {
            lockingThread = t;
        }
    }

    /** The thread that last asked for a lock for this transaction, or null. */
    @Override
    public Thread lockingThread() {
        return lockingThread;
    }

    @Override
    public boolean isFinished() {
        return finished;
    }

    /**
     * Asks whether about {@code bytes} of log records could be appended now, before a change
     * that can only be logged once made (page images of a structure change): throws
     * {@link org.libtp.core.OutOfSpaceException}, with nothing changed, if the log has no room,
     * so that the change is not made. See {@link org.libtp.core.log.SharedLog#ensureSpace}.
     */
    public void ensureLogSpace(long bytes) {
        manager.ensureLogSpace(this, bytes);
    }

    /**
     * Logs a change made by a record manager on behalf of this transaction (before the change
     * reaches any data page: write-ahead). Returns its LSN.
     */
    public long log(LogRecord record) {
        return manager.log(this, record);
    }

    @Override
    public String toString() {
        return "Transaction[" + id + (finished ? ", finished" : "") + ", last " + Lsn.toString(lastLsn) + "]";
    }
}
