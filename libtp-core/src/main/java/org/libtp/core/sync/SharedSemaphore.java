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

    /**
     * How long a waiter spins for a permit before it sleeps in the kernel. A lock handed from
     * one short transaction to the next (TPC-B's hot branch, no-sync commits) is posted within
     * microseconds; a futex sleep and wake-up costs tens of them and turned every hand-off into
     * a context switch (MPL 2 ran at a third of MPL 1's rate). Only while this process is the
     * environment's only one (see {@link SyncContext#attachedProcesses()}): with four processes
     * on two cores, spinning cut TPC-B's durable throughput from 17k to 12k transactions/s.
     */
    static final long SPIN_NANOS = 20_000;

    /**
     * Waiters of this process spinning at once, at most one fewer than the processors: more
     * spinners than that take the CPU from the very holders they wait for (MPL 8 on 2 cores ran
     * slower with unbounded spinning than with none).
     */
    private static final java.util.concurrent.atomic.AtomicInteger SPINNERS = new java.util.concurrent.atomic.AtomicInteger();
    private static final int MAX_SPINNERS = Math.max(0, Runtime.getRuntime().availableProcessors() - 1);

    private boolean acquire(long timeoutNanos) {
        if (tryAcquire()) {
            return true;
        }
        context.checkValid();
        long start = System.nanoTime();
        if (SPINNERS.incrementAndGet() <= MAX_SPINNERS && context.attachedProcesses() == 1) {
            try {
                long spinUntil = start + Math.min(SPIN_NANOS, timeoutNanos >= 0 ? timeoutNanos : SPIN_NANOS);
                for (int i = 0; ; i++) {
                    if (tryAcquire()) {
                        return true;
                    }
                    if ((i & 7) == 7) {
                        if (System.nanoTime() - spinUntil >= 0) {
                            break;
                        }
                        // Give the CPU to whoever is runnable (perhaps the holder we wait
                        // for, in another process that our spinner count cannot see).
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                }
            } finally {
                SPINNERS.decrementAndGet();
            }
        } else {
            SPINNERS.decrementAndGet();
        }
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
