package org.libtp.core.sync;

import org.libtp.core.memory.Memory;

import java.util.concurrent.locks.LockSupport;

/**
 * The fallback for platforms without a usable futex: waiters poll the word, parking with an
 * exponential back-off from 1 µs up to 1 ms. Correct across processes; wake-up latency is at
 * most about a millisecond. Where the futex system call exists, {@link #wake} still makes it,
 * for processes of the same environment that sleep in the kernel.
 */
final class PollingFutex implements Futex {
    private static final long MAX_PARK_NANOS = 1_000_000L;

    @Override
    public void await(Memory memory, long offset, int expected, long timeoutNanos) {
        long deadline = System.nanoTime() + timeoutNanos;
        long park = 1_000L;
        while (memory.getIntVolatile(offset) == expected) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return;
            }
            LockSupport.parkNanos(Math.min(park, left));
            park = Math.min(park * 2, MAX_PARK_NANOS);
        }
    }

    @Override
    public void wake(Memory memory, long offset, int count) {
        // Pollers see the changed word by themselves. But a process of the same environment may
        // sleep in the kernel (pollingFutex is a per-process setting): wake it too where we can.
        if (LinuxFutex.unavailableReason() == null) {
            Futex.platform().wake(memory, offset, count);
        }
    }

    @Override
    public String kind() {
        return "polling";
    }
}
