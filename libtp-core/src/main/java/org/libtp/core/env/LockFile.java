package org.libtp.core.env;

import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The environment's lock file {@code __libtp.lock}: POSIX record locks ({@code fcntl}) on single
 * bytes, as Berkeley DB's DB_REGISTER does.
 *
 * <pre>
 *  byte           meaning while locked
 *  -------------  ----------------------------------------------------------
 *  0              creation lock: held (exclusive, blocking) while a process
 *                 creates or attaches regions, claims or frees its slot
 *  1024 + slot    liveness of registry slot {@code slot}: held by the owning
 *                 process for as long as it is attached
 * </pre>
 *
 * The kernel drops a process's record locks when it dies, however it dies: a slot whose byte
 * another process can lock belongs to a dead process, whatever its pid has become since. Record
 * locks belong to the process, and closing <em>any</em> channel of the file drops all of them, so
 * each JVM opens this file exactly once per environment (the per-JVM shared environment object
 * owns it) and every lock call is serialized on this object (Java refuses overlapping locks
 * within one JVM).
 */
final class LockFile implements AutoCloseable {
    static final String NAME = "__libtp.lock";
    static final long CREATION_BYTE = 0;
    static final long SLOT_BASE = 1024;

    private final Path path;
    private final FileChannel channel;
    private FileLock creation;

    private LockFile(Path path, FileChannel channel) {
        this.path = path;
        this.channel = channel;
    }

    static LockFile open(Path dir) throws IOException {
        Path p = dir.resolve(NAME);
        return new LockFile(p, FileChannel.open(p, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE));
    }

    Path path() {
        return path;
    }

    /** Blocks until this process holds the creation lock. */
    synchronized void lockCreation() throws IOException {
        if (creation != null) {
            throw new IllegalStateException("creation lock of " + path + " already held by this JVM");
        }
        creation = channel.lock(CREATION_BYTE, 1, false);
    }

    synchronized void unlockCreation() throws IOException {
        if (creation != null) {
            FileLock l = creation;
            creation = null;
            l.release();
        }
    }

    /**
     * Tries to lock the liveness byte of {@code slot}. Returns the lock (the slot's owner is dead
     * or there is none), or null if another process holds it (the owner is alive) — or if this
     * JVM holds it (its own slot).
     */
    synchronized FileLock tryLockSlot(int slot) throws IOException {
        try {
            return channel.tryLock(SLOT_BASE + slot, 1, false);
        } catch (OverlappingFileLockException mine) {
            return null;
        }
    }

    /** Releases a lock from {@link #tryLockSlot}. */
    synchronized void release(FileLock lock) throws IOException {
        if (lock.isValid()) {
            lock.release();
        }
    }

    /** True if the process owning {@code slot}'s byte is alive (or is this process). */
    synchronized boolean slotHeld(int slot) throws IOException {
        FileLock l = tryLockSlot(slot);
        if (l == null) {
            return true;
        }
        l.release();
        return false;
    }

    @Override
    public synchronized void close() throws IOException {
        channel.close(); // drops every record lock this process holds on the file
    }
}
