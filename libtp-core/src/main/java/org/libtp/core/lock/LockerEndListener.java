package org.libtp.core.lock;

/** Told when a locker ended: the lock manager then releases its locks. */
@FunctionalInterface
public interface LockerEndListener {
    /**
     * @param slot      the locker's slot ({@link Locker#slot()})
     * @param lockerId  its id
     * @param committed true after commit, false after abort
     */
    void ended(int slot, long lockerId, boolean committed);
}
