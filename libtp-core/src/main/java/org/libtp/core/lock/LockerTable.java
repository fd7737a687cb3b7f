package org.libtp.core.lock;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.sync.SharedSemaphore;

/**
 * The table of lockers the lock manager serves (for LibTP the shared transaction table): how
 * many there can be, which locker a slot holds now, the per-slot semaphore a blocked locker
 * sleeps on (the process manager of paper 3.2.4), and the end-of-locker notification on which
 * the lock manager releases a locker's locks (lock_unlock_all).
 */
public interface LockerTable {
    /** The environment whose regions hold the table. */
    RegionEnvironment environment();

    /** Size of the table: slots are 0..n-1. */
    int maxLockers();

    /** The id of the locker in slot {@code slot} now, or 0 if the slot is free. */
    long lockerIdAt(int slot);

    /**
     * The semaphore the locker in slot {@code slot} sleeps on while it waits for a lock; the
     * granter posts it. Posts may be stale (a slot's semaphore is reset when a locker begins in
     * it), so a woken waiter re-checks its request.
     */
    SharedSemaphore waiter(int slot);

    /** Registers {@code l} to hear of every locker of this process that ends (and of dead ones rolled back). */
    void addLockerEndListener(LockerEndListener l);
}
