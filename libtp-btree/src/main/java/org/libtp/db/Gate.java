package org.libtp.db;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * The threads of this JVM inside an operation of one environment handle, counted so that a
 * reopen swaps the managers only when none is inside: no operation mixes the managers of two
 * incarnations (a transaction of the failed one run against the new one's lock table). Counts
 * are striped by thread so that readers on different cores write different cache lines; an
 * operation pays one atomic add on entry and one on exit.
 *
 * <p>Dekker's protocol, on volatiles: {@link #enter} adds to its stripe and then reads
 * {@code closed}; {@link #close} writes {@code closed} and then reads the stripes. At least one
 * of the two sees the other: either the entering thread backs out, or the closer waits for it.
 */
final class Gate {
    private static final int STRIPES = 64;
    private static final int PAD = 16; // 128 bytes between stripes: no false sharing
    private final AtomicLongArray counts = new AtomicLongArray(STRIPES * PAD);
    private volatile boolean closed;

    private static int stripe() {
        long id = Thread.currentThread().getId();
        return (int) ((id ^ id >>> 7) & (STRIPES - 1)) * PAD;
    }

    /** Enters; false (and not entered) if the gate is closed. */
    boolean enter() {
        int s = stripe();
        counts.getAndIncrement(s);
        if (closed) {
            counts.getAndDecrement(s);
            return false;
        }
        return true;
    }

    void exit() {
        counts.getAndDecrement(stripe());
    }

    boolean isClosed() {
        return closed;
    }

    /** Closes the gate and waits up to {@code timeoutNanos} until no thread is inside; false on timeout. */
    boolean closeAndDrain(long timeoutNanos) {
        closed = true;
        long deadline = System.nanoTime() + timeoutNanos;
        while (inside() != 0) {
            if (System.nanoTime() - deadline > 0) {
                return false;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(200_000);
        }
        return true;
    }

    void open() {
        closed = false;
    }

    long inside() {
        long n = 0;
        for (int i = 0; i < STRIPES; i++) {
            n += counts.get(i * PAD);
        }
        return n;
    }
}
