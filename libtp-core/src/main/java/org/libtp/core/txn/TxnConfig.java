package org.libtp.core.txn;

import org.libtp.core.log.Durability;

/**
 * Transaction manager configuration. Immutable; build with {@link #builder()}, validated at
 * build.
 *
 * @param maxTransactions   slots in the shared transaction table (1..65536; default 256); fixed
 *                          when the environment's regions are created
 * @param durability        default durability of a commit (default {@link Durability#SYNC})
 * @param checkpointBytes   a commit that finds this many log bytes since the last checkpoint
 *                          wakes the process's checkpoint thread (daemon {@code libtp-checkpoint}),
 *                          which takes one; at four times this the committer takes it itself
 *                          (0 = never; default 32 MiB: a checkpoint scans the whole buffer pool
 *                          and writes and forces what is dirty)
 * @param checkpointSeconds ... or this many seconds since the last checkpoint (0 = never;
 *                          default 60)
 * @param earlyLockRelease  release a committing transaction's locks as soon as its commit record
 *                          is in the log buffer, before the force it waits for (default false).
 *                          Others may then read its changes before they are durable; that is
 *                          safe because a writer that read them commits later in the log, and a
 *                          read-only transaction's commit waits until the log is durable past
 *                          the last early release. Lets hot records (TPC-B's branch) take more
 *                          than one commit per force.
 */
public record TxnConfig(int maxTransactions, Durability durability, long checkpointBytes, long checkpointSeconds,
                        boolean earlyLockRelease) {
    public TxnConfig {
        if (maxTransactions < 1 || maxTransactions > 65536) {
            throw new IllegalArgumentException("maxTransactions " + maxTransactions + " not in [1, 65536]");
        }
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        if (checkpointBytes < 0) {
            throw new IllegalArgumentException("checkpointBytes " + checkpointBytes + " < 0");
        }
        if (checkpointSeconds < 0) {
            throw new IllegalArgumentException("checkpointSeconds " + checkpointSeconds + " < 0");
        }
    }

    public static TxnConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int maxTransactions = 256;
        private Durability durability = Durability.SYNC;
        private long checkpointBytes = 32L * 1024 * 1024;
        private long checkpointSeconds = 60;
        private boolean earlyLockRelease;

        public Builder maxTransactions(int v) {
            maxTransactions = v;
            return this;
        }

        public Builder durability(Durability v) {
            durability = v;
            return this;
        }

        public Builder checkpointBytes(long v) {
            checkpointBytes = v;
            return this;
        }

        public Builder checkpointSeconds(long v) {
            checkpointSeconds = v;
            return this;
        }

        public Builder earlyLockRelease(boolean v) {
            earlyLockRelease = v;
            return this;
        }

        public TxnConfig build() {
            return new TxnConfig(maxTransactions, durability, checkpointBytes, checkpointSeconds, earlyLockRelease);
        }
    }
}
