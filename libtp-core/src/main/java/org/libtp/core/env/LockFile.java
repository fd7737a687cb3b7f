package org.libtp.core.env;

import java.io.IOException;
import java.nio.ByteBuffer;
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
 *
 * <p>Its content is the {@link RegionLocation} record: where the environment's shared regions
 * are. It is read and written only under the creation lock.
 */
final class LockFile implements AutoCloseable {
    static final String NAME = "__libtp.lock";
    static final long CREATION_BYTE = 0;
    static final long SLOT_BASE = 1024;
    /** Liveness bytes that can exist: EnvironmentConfig.maxProcesses is at most this. */
    static final long MAX_SLOTS = 4096;

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

    /** The region location recorded in the file, or null if none (or a torn or damaged one). */
    synchronized RegionLocation readLocation() throws IOException {
        byte[] b = new byte[RegionLocation.MAX_SIZE];
        ByteBuffer bb = ByteBuffer.wrap(b);
        while (bb.hasRemaining()) {
            if (channel.read(bb, bb.position()) < 0) {
                break;
            }
        }
        return RegionLocation.decode(path.toString(), b, bb.position());
    }

    /**
     * Records {@code location} (in place: the locks belong to this inode). {@code force}: made
     * durable before returning, so that a machine crash cannot lose an "open" state.
     */
    synchronized void writeLocation(RegionLocation location, boolean force) throws IOException {
        ByteBuffer b = location.encode();
        int n = b.remaining();
        while (b.hasRemaining()) {
            channel.write(b, b.position());
        }
        if (channel.size() > n) {
            channel.truncate(n); // no stale tail of a longer path
        }
        if (force) {
            channel.force(false);
        }
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

    /**
     * True if no process holds any liveness byte: nobody is attached (under the creation lock,
     * attaching and detaching processes take and drop theirs). Needs no region to read.
     */
    synchronized boolean noSlotHeld() throws IOException {
        FileLock l;
        try {
            l = channel.tryLock(SLOT_BASE, MAX_SLOTS, false);
        } catch (OverlappingFileLockException mine) {
            return false; // this JVM holds one
        }
        if (l == null) {
            return false;
        }
        l.release();
        return true;
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
