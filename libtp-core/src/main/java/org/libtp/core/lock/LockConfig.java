package org.libtp.core.lock;

/**
 * Lock manager configuration. Immutable; build with {@link #builder()}, validated at build.
 *
 * <p>The capacity settings ({@code maxLocks}, {@code maxObjects}, {@code partitions}) size the
 * shared lock table and are fixed when the environment's regions are created: a process that
 * opens a running environment with different ones gets {@link IllegalArgumentException} naming
 * the setting. The others are per process.
 *
 * @param maxLocks             lock requests the table holds, granted or waiting, over all
 *                             transactions (1..16M; default 20000)
 * @param maxObjects           distinct locked objects (1..16M; default 20000)
 * @param partitions           latches over the lock hash table, a power of two (1..4096; default
 *                             64); each guards its own hash buckets and their objects' queues
 * @param lockTimeoutMillis    how long a request waits before {@link org.libtp.core.LockTimeoutException}
 *                             (0 = forever; default 0)
 * @param detectIntervalMillis period of the deadlock detector thread (the paper's one second;
 *                             0 = this process never runs it; else 10..3600000; default 1000).
 *                             One process at a time runs it, with its own period.
 * @param detectOnBlock        look for a cycle through a request as soon as it blocks (default true)
 * @param victimPolicy         which transaction of a cycle is aborted (default
 *                             {@link VictimPolicy#YOUNGEST})
 * @param escalationThreshold  page locks one transaction takes in one file before it tries to
 *                             lock the whole file instead (READ, or WRITE if it changed pages
 *                             of it) and takes no more page locks there: a scan of any size then
 *                             fits the table. Tried without waiting at each multiple of this;
 *                             with waiting when the table is full (default 1000; 0 = never, not even then)
 */
public record LockConfig(int maxLocks, int maxObjects, int partitions, long lockTimeoutMillis,
                         long detectIntervalMillis, boolean detectOnBlock, VictimPolicy victimPolicy,
                         int escalationThreshold) {
    static final int MAX_ENTRIES = 1 << 24;
    static final int MAX_PARTITIONS = 4096;

    public LockConfig {
        if (maxLocks < 1 || maxLocks > MAX_ENTRIES) {
            throw new IllegalArgumentException("maxLocks " + maxLocks + " not in [1, " + MAX_ENTRIES + "]");
        }
        if (maxObjects < 1 || maxObjects > MAX_ENTRIES) {
            throw new IllegalArgumentException("maxObjects " + maxObjects + " not in [1, " + MAX_ENTRIES + "]");
        }
        if (partitions < 1 || partitions > MAX_PARTITIONS || Integer.bitCount(partitions) != 1) {
            throw new IllegalArgumentException("partitions " + partitions + " must be a power of two in [1, "
                    + MAX_PARTITIONS + "]");
        }
        if (lockTimeoutMillis < 0) {
            throw new IllegalArgumentException("lockTimeoutMillis " + lockTimeoutMillis + " < 0");
        }
        if (detectIntervalMillis != 0 && (detectIntervalMillis < 10 || detectIntervalMillis > 3_600_000)) {
            throw new IllegalArgumentException("detectIntervalMillis " + detectIntervalMillis
                    + " must be 0 (no periodic detector) or in [10, 3600000]");
        }
        if (victimPolicy == null) {
            throw new IllegalArgumentException("victimPolicy must not be null");
        }
        if (escalationThreshold < 0) {
            throw new IllegalArgumentException("escalationThreshold " + escalationThreshold + " < 0");
        }
    }

    public static LockConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxLocks(maxLocks).maxObjects(maxObjects).partitions(partitions)
                .lockTimeoutMillis(lockTimeoutMillis).detectIntervalMillis(detectIntervalMillis)
                .detectOnBlock(detectOnBlock).victimPolicy(victimPolicy).escalationThreshold(escalationThreshold);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int maxLocks = 20_000;
        private int maxObjects = 20_000;
        private int partitions = 64;
        private long lockTimeoutMillis;
        private long detectIntervalMillis = 1000;
        private boolean detectOnBlock = true;
        private VictimPolicy victimPolicy = VictimPolicy.YOUNGEST;
        private int escalationThreshold = 1000;

        public Builder escalationThreshold(int v) {
            escalationThreshold = v;
            return this;
        }

        public Builder maxLocks(int v) {
            maxLocks = v;
            return this;
        }

        public Builder maxObjects(int v) {
            maxObjects = v;
            return this;
        }

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder lockTimeoutMillis(long v) {
            lockTimeoutMillis = v;
            return this;
        }

        public Builder detectIntervalMillis(long v) {
            detectIntervalMillis = v;
            return this;
        }

        public Builder detectOnBlock(boolean v) {
            detectOnBlock = v;
            return this;
        }

        public Builder victimPolicy(VictimPolicy v) {
            victimPolicy = v;
            return this;
        }

        public LockConfig build() {
            return new LockConfig(maxLocks, maxObjects, partitions, lockTimeoutMillis, detectIntervalMillis,
                    detectOnBlock, victimPolicy, escalationThreshold);
        }
    }
}
