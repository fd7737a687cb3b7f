package org.libtp.core.sync;

import org.libtp.core.memory.Memory;

import java.util.concurrent.TimeUnit;

import static org.libtp.core.sync.LatchLayout.CONTENDED;
import static org.libtp.core.sync.LatchLayout.THREAD;
import static org.libtp.core.sync.LatchLayout.WORD;

/**
 * A cross-process mutex on a {@link LatchLayout} in shared memory: the paper's section 4.3
 * design — an uncontended acquire is one CAS, a bounded spin follows, and only then a futex
 * system call. Not re-entrant (a second acquire by the owning thread throws rather than hangs).
 *
 * <p>Crash protocol: the owner id is part of the latch word, so a holder that dies is always
 * named. A waiter never sleeps longer than {@link SyncContext#checkIntervalNanos()}; each time it
 * wakes it checks the environment's failed flag and whether the owner is alive. A dead owner
 * fails the environment ({@link SyncContext#ownerDied}) and the waiter throws — every process
 * then gets a {@code RunRecoveryException}, as the structure the latch guarded may be
 * half-updated.
 *
 * <p>This object is a view: any number of views of the same latch, in any processes and threads,
 * may exist. It holds no state of its own but where the latch lives.
 */
public final class Latch {
    private static final int SPINS = 100;

    private final Memory memory;
    private final long offset;
    private final String name;
    private final SyncContext context;
    private final int mine;

    /**
     * @param memory  the region holding the latch
     * @param offset  8-aligned offset of a {@link LatchLayout}
     * @param name    for messages, e.g. "counter latch of region demo"
     */
    public Latch(Memory memory, long offset, String name, SyncContext context) {
        if ((offset & 7) != 0 || offset < 0 || offset > memory.size() - LatchLayout.SIZE) {
            throw new IllegalArgumentException("latch " + name + " at offset " + offset
                    + " is not an 8-aligned in-range position of " + memory.name());
        }
        this.memory = memory;
        this.offset = offset;
        this.name = name;
        this.context = context;
        this.mine = context.ownerId() << 1;
    }

    public String name() {
        return name;
    }

    /**
     * The calling thread's tag for the THREAD field: this process's owner id in the high bits,
     * the thread id in the low 40. Java thread ids are unique only within one JVM (identical
     * child JVMs give their threads the same ids), so the owner id keeps the re-entry check from
     * mistaking another process's thread for this one.
     */
    private long threadTag() {
        return ((long) (mine >>> 1) << 40) | (Thread.currentThread().getId() & 0xFF_FFFF_FFFFL);
    }

    /**
     * Acquires the latch, waiting as long as needed.
     *
     * @throws org.libtp.core.RunRecoveryException if the environment has failed (checked even
     *         when the latch is free: one volatile read of a read-mostly word)
     */
    public void acquire() {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return;
        }
        acquireSlow(-1L);
    }

    /** Acquires the latch only if it is free now. */
    public boolean tryAcquire() {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return true;
        }
        return false;
    }

    /** Acquires the latch, waiting at most {@code timeout}; returns false if it timed out. */
    public boolean acquire(long timeout, TimeUnit unit) {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return true;
        }
        return acquireSlow(Math.max(0, unit.toNanos(timeout)));
    }

    private boolean acquireSlow(long timeoutNanos) {
        long tid = threadTag();
        long off = offset + WORD;
        int w = 0;
        for (int i = 0; i < SPINS; i++) {
            w = memory.getIntVolatile(off);
            if (w == 0 && memory.compareAndSetInt(off, 0, mine)) {
                memory.putLong(offset + THREAD, tid);
                return true;
            }
            Thread.onSpinWait();
        }
        if ((w & ~CONTENDED) == mine && memory.getLong(offset + THREAD) == tid) {
            throw new IllegalStateException("latch " + name + " is already held by this thread");
        }
        long start = System.nanoTime();
        long lastCheck = start;
        long interval = context.checkIntervalNanos();
        Futex futex = context.futex();
        while (true) {
            w = memory.getIntVolatile(off);
            if (w == 0) {
                // Take it marked contended: others may still sleep (Drepper's mutex 3).
                if (memory.compareAndSetInt(off, 0, mine | CONTENDED)) {
                    memory.putLong(offset + THREAD, tid);
                    return true;
                }
                continue;
            }
            if ((w & CONTENDED) == 0) {
                if (!memory.compareAndSetInt(off, w, w | CONTENDED)) {
                    continue;
                }
                w |= CONTENDED;
            }
            long now = System.nanoTime();
            long sleep = interval - (now - lastCheck);
            if (timeoutNanos >= 0) {
                long left = timeoutNanos - (now - start);
                if (left <= 0) {
                    return false;
                }
                sleep = Math.min(sleep, left);
            }
            if (sleep > 0) {
                futex.await(memory, off, w, sleep);
            }
            context.checkValid();
            now = System.nanoTime();
            if (now - lastCheck >= interval) {
                lastCheck = now;
                int owner = LatchLayout.ownerOf(memory.getIntVolatile(off));
                if (owner != 0 && owner != context.ownerId() && !context.isAlive(owner)) {
                    throw context.ownerDied(name, owner);
                }
            }
        }
    }

    /** Releases the latch, which this process must hold. */
    public void release() {
        long off = offset + WORD;
        int w = memory.getIntVolatile(off);
        if ((w & ~CONTENDED) != mine) {
            throw new IllegalStateException("latch " + name + " released by owner "
                    + context.ownerId() + " but held by owner " + LatchLayout.ownerOf(w));
        }
        memory.putLong(offset + THREAD, 0L);
        if ((memory.getAndSetInt(off, 0) & CONTENDED) != 0) {
            context.futex().wake(memory, off, 1);
        }
    }

    /**
     * Fails the environment if the latch is held by a dead process: for waiters that do not
     * sleep on the latch itself (e.g. group-commit followers waiting for the leader's force).
     */
    public void checkOwnerAlive() {
        int owner = owner();
        if (owner != 0 && owner != context.ownerId() && !context.isAlive(owner)) {
            throw context.ownerDied(name, owner);
        }
    }

    /** The owner id holding the latch now, 0 if free. */
    public int owner() {
        return LatchLayout.ownerOf(memory.getIntVolatile(offset + WORD));
    }

    /** True if this thread holds the latch. */
    public boolean isHeldByCurrentThread() {
        return (memory.getIntVolatile(offset + WORD) & ~CONTENDED) == mine
                && memory.getLong(offset + THREAD) == threadTag();
    }

    @Override
    public String toString() {
        return "Latch[" + name + " @" + offset + " of " + memory.name() + ", owner " + owner() + "]";
    }
}
