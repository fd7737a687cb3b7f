package org.libtp.core.sync;

import org.libtp.core.memory.Memory;

import java.util.concurrent.TimeUnit;

import static org.libtp.core.sync.SemaphoreLayout.PERMITS;
import static org.libtp.core.sync.SemaphoreLayout.WAITERS;

/**
 * A counting semaphore on a {@link SemaphoreLayout} in shared memory, for the process manager
 * (paper 3.2.4): a waiter sleeps in the kernel, costing no CPU, until another process posts.
 * A post with no sleeper is one atomic add and one read. As with latches, a sleeper wakes every
 * {@link SyncContext#checkIntervalNanos()} to check the environment's failed flag.
 */
public final class SharedSemaphore {
    private final Memory memory;
    private final long offset;
    private final String name;
    private final SyncContext context;

    public SharedSemaphore(Memory memory, long offset, String name, SyncContext context) {
        if ((offset & 3) != 0 || offset < 0 || offset > memory.size() - SemaphoreLayout.SIZE) {
            throw new IllegalArgumentException("semaphore " + name + " at offset " + offset
                    + " is not a 4-aligned in-range position of " + memory.name());
        }
        this.memory = memory;
        this.offset = offset;
        this.name = name;
        this.context = context;
    }

    public String name() {
        return name;
    }

    /** Adds one permit, waking one sleeper if there is any. */
    public void post() {
        memory.getAndAddInt(offset + PERMITS, 1);
        if (memory.getIntVolatile(offset + WAITERS) > 0) {
            context.futex().wake(memory, offset + PERMITS, 1);
        }
    }

    /** Takes a permit if one is available now. */
    public boolean tryAcquire() {
        while (true) {
            int p = memory.getIntVolatile(offset + PERMITS);
            if (p <= 0) {
                return false;
            }
            if (memory.compareAndSetInt(offset + PERMITS, p, p - 1)) {
                return true;
            }
        }
    }

    /** Takes a permit, sleeping until one is posted. */
    public void acquire() {
        acquire(-1L);
    }

    /** Takes a permit, sleeping at most {@code timeout}; false if none came. */
    public boolean tryAcquire(long timeout, TimeUnit unit) {
        return acquire(Math.max(0, unit.toNanos(timeout)));
    }

    private boolean acquire(long timeoutNanos) {
        if (tryAcquire()) {
            return true;
        }
        context.checkValid();
        long start = System.nanoTime();
        long interval = context.checkIntervalNanos();
        while (true) {
            if (tryAcquire()) {
                return true;
            }
            long sleep = interval;
            if (timeoutNanos >= 0) {
                long left = timeoutNanos - (System.nanoTime() - start);
                if (left <= 0) {
                    return false;
                }
                sleep = Math.min(sleep, left);
            }
            memory.getAndAddInt(offset + WAITERS, 1);
            try {
                // The kernel compares permits with 0 atomically with going to sleep: a post
                // after our waiters increment either changed it or will see waiters > 0.
                context.futex().await(memory, offset + PERMITS, 0, sleep);
            } finally {
                memory.getAndAddInt(offset + WAITERS, -1);
            }
            context.checkValid();
        }
    }

    /** Permits available now. */
    public int availablePermits() {
        return memory.getIntVolatile(offset + PERMITS);
    }

    @Override
    public String toString() {
        return "SharedSemaphore[" + name + " @" + offset + " of " + memory.name() + "]";
    }
}
