package org.libtp.core.lock;

/**
 * Who holds and waits for locks (paper 3.2.3: the lock manager's "locker"): for LibTP a
 * transaction. Its slot indexes the shared locker table and the {@link LockerTable}'s
 * semaphores; it is unique among the active lockers of every process and reused after one ends.
 * The lock manager knows lockers only through this face, so it does not depend on the
 * transaction manager that implements it.
 */
public interface Locker {
    /** The locker's id, unique over the environment's life (a transaction id). */
    long id();

    /** Its index in the {@link LockerTable}, in [0, {@link LockerTable#maxLockers()}). */
    int slot();

    /** Throws {@link IllegalStateException} if the locker has ended (committed or aborted). */
    void checkActive();

    /** True once the locker has ended. */
    boolean isFinished();

    /**
     * Records that thread {@code t} asks for a lock for this locker (this JVM only): a request
     * of another locker of the same thread that waits for this one is refused at once.
     */
    void lockingFrom(Thread t);

    /** The thread that last asked for a lock for this locker, or null. */
    Thread lockingThread();
}
