package org.libtp.core.sync;

import org.libtp.core.memory.Memory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Sleep until a 32-bit word in shared memory changes: the kernel half of the latch and
 * semaphore. Linux uses the futex system call on the shared mapping (no
 * {@code FUTEX_PRIVATE_FLAG}, so a waiter in one process is woken from another). Elsewhere a
 * polling fallback parks with a bounded back-off: correct, costs a little CPU while waiting.
 */
public interface Futex {

    /**
     * Sleeps while the int at {@code offset} equals {@code expected}, at most
     * {@code timeoutNanos}. Returns early on a wake, a changed value, or spuriously; callers
     * always re-check their condition.
     */
    void await(Memory memory, long offset, int expected, long timeoutNanos);

    /** Wakes up to {@code count} waiters sleeping on the int at {@code offset}. */
    void wake(Memory memory, long offset, int count);

    /** A short name for logs and benchmarks. */
    String kind();

    /** The best futex for this platform: Linux futex when available, else polling. */
    static Futex platform() {
        return Holder.PLATFORM;
    }

    /** The portable fallback, also used by tests to cover it on Linux. */
    static Futex polling() {
        return new PollingFutex();
    }

    /** Lazy holder so that JNA is loaded only when a futex is first needed. */
    final class Holder {
        private static final Logger LOG = LoggerFactory.getLogger(Futex.class);
        static final Futex PLATFORM = choose();

        private Holder() {
        }

        private static Futex choose() {
            String problem = LinuxFutex.unavailableReason();
            if (problem == null) {
                return new LinuxFutex();
            }
            LOG.info("futex system call not available ({}); latches fall back to spin + park", problem);
            return new PollingFutex();
        }
    }
}
