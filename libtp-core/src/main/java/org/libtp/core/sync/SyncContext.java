package org.libtp.core.sync;

/**
 * What a latch or semaphore needs from its environment: who "I" am, whether another owner is
 * still alive, and how to fail the environment. Implemented by the environment; tests may supply
 * their own.
 */
public interface SyncContext {

    /** This process's owner id: its registry slot + 1, in {@code [1, 2^30)}. Never 0. */
    int ownerId();

    /** True unless the process that holds owner id {@code ownerId} is known to be dead. */
    boolean isAlive(int ownerId);

    /**
     * Before a waiter repairs a latch of dead owner {@code ownerId}: claims the right to clean up
     * after that owner, so that what its repair puts back (a lock the dead owner was releasing)
     * is in place before anyone gives back what the owner held (failCheck's listeners). Null if
     * someone else is at it (a failCheck, here or in another process, which repairs the latch
     * itself): the waiter waits. The handle is closed after the repair.
     */
    default AutoCloseable claimDeadOwner(int ownerId) {
        return () -> { };
    }

    /** Throws the environment's failure exception if it has been marked failed. */
    void checkValid();

    /**
     * Marks the environment failed because owner {@code ownerId} died holding latch
     * {@code latchName}, and returns the exception the caller throws.
     */
    RuntimeException ownerDied(String latchName, int ownerId);

    /**
     * As {@link #ownerDied(String, int)}, when the latch's repair could not make what it guards
     * consistent ({@code why}).
     */
    default RuntimeException ownerDied(String latchName, int ownerId, String why) {
        return ownerDied(latchName + " (repair failed: " + why + ")", ownerId);
    }

    /** "process PID (slot S)" for owner id {@code ownerId}, for messages. */
    default String describeOwner(int ownerId) {
        return "owner " + ownerId;
    }

    /** Notes (logs, counts) that latch {@code latchName} of dead owner {@code ownerId} was repaired in place. */
    default void repaired(String latchName, int ownerId) {
    }

    /** How often a sleeping waiter wakes to check its latch owner and the failed flag. */
    long checkIntervalNanos();

    /** The futex to sleep on. */
    Futex futex();

    /**
     * Processes attached to the shared memory now (live or not yet reclaimed); 1 if unknown.
     * Waiters spin before sleeping only when this is 1: spinners of other processes cannot be
     * counted, and on a small machine they take the CPU from the holders they wait for.
     */
    default int attachedProcesses() {
        return 1;
    }
}
