package org.libtp.core.sync;

import org.libtp.core.memory.Memory;

/**
 * A broadcast event in shared memory: a generation counter that waiters sleep on and
 * {@link #signalAll()} advances, waking every sleeper of every process. Used by group commit:
 * committers sleep until the leader's force covers them.
 *
 * <pre>
 *  offset size field
 *       0    4 generation  the futex word; +1 per signal
 *       4    4 waiters     sleepers; signalAll() makes the wake system call only when &gt; 0
 * </pre>
 */
public final class SharedEvent {
    public static final int OFF_GENERATION = 0;
    public static final int OFF_WAITERS = 4;
    public static final int SIZE = 8;

    private final Memory memory;
    private final long offset;
    private final SyncContext context;

    public SharedEvent(Memory memory, long offset, SyncContext context) {
        if ((offset & 3) != 0 || offset < 0 || offset > memory.size() - SIZE) {
            throw new IllegalArgumentException("event at offset " + offset + " is not a 4-aligned "
                    + "in-range position of " + memory.name());
        }
        this.memory = memory;
        this.offset = offset;
        this.context = context;
    }

    /** The current generation: read it before checking the condition, then {@link #await}. */
    public int generation() {
        return memory.getIntVolatile(offset + OFF_GENERATION);
    }

    /**
     * Sleeps until the generation differs from {@code generation} or {@code timeoutNanos}
     * passes (spurious returns allowed); then checks the environment's failed flag.
     */
    public void await(int generation, long timeoutNanos) {
        memory.getAndAddInt(offset + OFF_WAITERS, 1);
        try {
            context.futex().await(memory, offset + OFF_GENERATION, generation,
                    Math.min(timeoutNanos, context.checkIntervalNanos()));
        } finally {
            memory.getAndAddInt(offset + OFF_WAITERS, -1);
        }
        context.checkValid();
    }

    /** Advances the generation and wakes every sleeper. */
    public void signalAll() {
        memory.getAndAddInt(offset + OFF_GENERATION, 1);
        if (memory.getIntVolatile(offset + OFF_WAITERS) > 0) {
            context.futex().wake(memory, offset + OFF_GENERATION, Integer.MAX_VALUE);
        }
    }
}
