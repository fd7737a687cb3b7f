package org.libtp.db;

/**
 * How to open an {@link Environment}. Immutable; build with {@link #builder()}, validated at
 * build. Sizes are fixed when the environment's shared regions are created (by the first process
 * to open it); later processes must pass equal ones.
 *
 * @param mode              {@link OpenMode} (default TP)
 * @param durability        default commit durability in TP mode (default SYNC: a commit survives
 *                          kill -9 of every process and power loss once acknowledged)
 * @param pageSize          page size of new databases, a power of two in [512, 65536] (default 4096)
 * @param cacheBytes        shared buffer pool size (default 64 MiB)
 * @param maxTransactions   concurrent transactions, all processes (default 256)
 * @param lockTimeoutMillis how long a lock request waits before LockTimeoutException (0 = forever,
 *                          the default; deadlocks are detected either way)
 * @param maxProcesses      processes that may have the environment open at once (default 64)
 * @param keyOrders         named key orders (comparators) that B-tree databases may use
 *                          ({@link DatabaseConfig#keyOrder()}). A database records the name of its
 *                          order; every process that opens the environment must register the same
 *                          orders under the same names, because recovery and rollback need them
 *                          before any database is opened
 * @param earlyLockRelease  TP mode: a committing transaction's locks are released once its
 *                          commit record is in the shared log buffer, and the commit returns
 *                          after the force, as its durability says (default false). Hot records
 *                          then see more than one commit per disk force; read-only transactions
 *                          wait at commit until what they may have read is durable. Each process
 *                          chooses for its own commits.
 */
public record EnvironmentConfig(OpenMode mode, Durability durability, int pageSize, long cacheBytes,
                                int maxTransactions, long lockTimeoutMillis, int maxProcesses,
                                java.util.Map<String, java.util.Comparator<byte[]>> keyOrders,
                                boolean earlyLockRelease) {
    public EnvironmentConfig {
        keyOrders = java.util.Map.copyOf(keyOrders);
        for (String n : keyOrders.keySet()) {
            DatabaseConfig.checkOrderName(n);
        }
        if (mode == null || durability == null) {
            throw new IllegalArgumentException("mode and durability must not be null");
        }
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize " + pageSize + " must be a power of two in [512, 65536]");
        }
        if (cacheBytes / pageSize < 16) {
            throw new IllegalArgumentException("cacheBytes " + cacheBytes + " must hold at least 16 pages");
        }
        if (maxTransactions < 1 || lockTimeoutMillis < 0 || maxProcesses < 1) {
            throw new IllegalArgumentException("maxTransactions and maxProcesses must be >= 1, lockTimeoutMillis >= 0");
        }
    }

    public static EnvironmentConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private OpenMode mode = OpenMode.TP;
        private Durability durability = Durability.SYNC;
        private int pageSize = 4096;
        private long cacheBytes = 64L << 20;
        private int maxTransactions = 256;
        private long lockTimeoutMillis;
        private int maxProcesses = 64;
        private final java.util.Map<String, java.util.Comparator<byte[]>> keyOrders = new java.util.HashMap<>();
        private boolean earlyLockRelease;

        public Builder earlyLockRelease(boolean v) {
            earlyLockRelease = v;
            return this;
        }

        /** Registers key order {@code name} (1..64 characters of [A-Za-z0-9_.-]). */
        public Builder keyOrder(String name, java.util.Comparator<byte[]> order) {
            DatabaseConfig.checkOrderName(name);
            if (order == null) {
                throw new IllegalArgumentException("key order " + name + " must not be null");
            }
            keyOrders.put(name, order);
            return this;
        }

        public Builder mode(OpenMode v) {
            mode = v;
            return this;
        }

        public Builder durability(Durability v) {
            durability = v;
            return this;
        }

        public Builder pageSize(int v) {
            pageSize = v;
            return this;
        }

        public Builder cacheBytes(long v) {
            cacheBytes = v;
            return this;
        }

        public Builder maxTransactions(int v) {
            maxTransactions = v;
            return this;
        }

        public Builder lockTimeoutMillis(long v) {
            lockTimeoutMillis = v;
            return this;
        }

        public Builder maxProcesses(int v) {
            maxProcesses = v;
            return this;
        }

        public EnvironmentConfig build() {
            return new EnvironmentConfig(mode, durability, pageSize, cacheBytes, maxTransactions, lockTimeoutMillis,
                    maxProcesses, keyOrders, earlyLockRelease);
        }
    }
}
