package org.libtp.core.env;

import org.libtp.core.memory.MemoryImpl;

/**
 * How to open an environment. Immutable; build with {@link #builder()}, validated at build.
 *
 * <p>{@code maxProcesses} and {@code maxRegions} size shared tables and are fixed when the
 * environment's regions are created: a process that attaches to a running environment uses the
 * creator's values (and logs it when its own differ). The others are per process.
 *
 * @param maxProcesses      process slots in the registry (1..4096; default 64)
 * @param maxRegions        entries in the region directory (4..1024; default 32)
 * @param memory            how regions are mapped (default {@link MemoryImpl#AUTO})
 * @param latchCheckMillis  how often a thread waiting on a latch or semaphore wakes to check the
 *                          failed flag and the latch owner's liveness (10..10000; default 100)
 * @param failCheckMillis   period of the background thread that runs {@code failCheck()};
 *                          0 turns it off (0 or 10..600000; default 250)
 * @param pollingFutex      use the portable spin+park wait instead of the futex system call
 *                          (default false; true is for testing the fallback)
 */
public record EnvironmentConfig(int maxProcesses, int maxRegions, MemoryImpl memory,
                                long latchCheckMillis, long failCheckMillis, boolean pollingFutex) {

    public EnvironmentConfig {
        if (maxProcesses < 1 || maxProcesses > 4096) {
            throw new IllegalArgumentException("maxProcesses " + maxProcesses + " not in [1, 4096]");
        }
        if (maxRegions < 4 || maxRegions > 1024) {
            throw new IllegalArgumentException("maxRegions " + maxRegions + " not in [4, 1024]");
        }
        if (memory == null) {
            throw new IllegalArgumentException("memory must not be null");
        }
        if (latchCheckMillis < 10 || latchCheckMillis > 10_000) {
            throw new IllegalArgumentException("latchCheckMillis " + latchCheckMillis + " not in [10, 10000]");
        }
        if (failCheckMillis != 0 && (failCheckMillis < 10 || failCheckMillis > 600_000)) {
            throw new IllegalArgumentException("failCheckMillis " + failCheckMillis
                    + " must be 0 (off) or in [10, 600000]");
        }
    }

    public static EnvironmentConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxProcesses(maxProcesses).maxRegions(maxRegions).memory(memory)
                .latchCheckMillis(latchCheckMillis).failCheckMillis(failCheckMillis)
                .pollingFutex(pollingFutex);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int maxProcesses = 64;
        private int maxRegions = 32;
        private MemoryImpl memory = MemoryImpl.AUTO;
        private long latchCheckMillis = 100;
        private long failCheckMillis = 250;
        private boolean pollingFutex;

        public Builder maxProcesses(int v) {
            maxProcesses = v;
            return this;
        }

        public Builder maxRegions(int v) {
            maxRegions = v;
            return this;
        }

        public Builder memory(MemoryImpl v) {
            memory = v;
            return this;
        }

        public Builder latchCheckMillis(long v) {
            latchCheckMillis = v;
            return this;
        }

        public Builder failCheckMillis(long v) {
            failCheckMillis = v;
            return this;
        }

        public Builder pollingFutex(boolean v) {
            pollingFutex = v;
            return this;
        }

        public EnvironmentConfig build() {
            return new EnvironmentConfig(maxProcesses, maxRegions, memory, latchCheckMillis,
                    failCheckMillis, pollingFutex);
        }
    }
}
