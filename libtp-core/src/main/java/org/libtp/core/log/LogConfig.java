package org.libtp.core.log;

/**
 * Log manager configuration. Immutable; build with {@link #builder()}, validated at build. The
 * file and buffer sizes are fixed when the environment's regions are created.
 *
 * @param fileSize             bytes per log file, preallocated (64 KiB..1 GiB; default 10 MiB)
 * @param bufferSize           shared log buffer (16 KiB..fileSize/2; default 1 MiB); also the
 *                             largest record
 * @param groupThreshold       group commit (paper 4.2): the minimum number of active
 *                             transactions before a commit leader waits for others (default 4)
 * @param waitThresholdPercent the leader stops waiting once this percentage of the active
 *                             transactions wait to commit (1..100; default 50)
 * @param logDelayBytes        ... or once this many unflushed bytes have accumulated
 *                             (default 64 KiB)
 * @param maxGroupDelayMicros  ... or after this long at most (0..100000; default 500; 0 = never wait)
 * @param autoRemove           remove log files that recovery no longer needs after each checkpoint
 *                             (default true, Berkeley DB's {@code DB_LOG_AUTO_REMOVE}); false keeps
 *                             them, for backups and catastrophic recovery, until the application
 *                             removes them ({@code SharedTxnManager.removeLogFiles})
 */
public record LogConfig(long fileSize, int bufferSize, int groupThreshold, int waitThresholdPercent,
                        long logDelayBytes, long maxGroupDelayMicros, boolean autoRemove) {

    /** The largest log file size. */
    public static final long MAX_FILE_SIZE = 1L << 30;

    public LogConfig {
        if (fileSize < 64 * 1024 || fileSize > MAX_FILE_SIZE) {
            throw new IllegalArgumentException("log fileSize " + fileSize + " not in [64 KiB, 1 GiB]");
        }
        if (bufferSize < 16 * 1024 || bufferSize > fileSize / 2) {
            throw new IllegalArgumentException("log bufferSize " + bufferSize + " not in [16 KiB, fileSize/2]");
        }
        if (groupThreshold < 1) {
            throw new IllegalArgumentException("groupThreshold " + groupThreshold + " < 1");
        }
        if (waitThresholdPercent < 1 || waitThresholdPercent > 100) {
            throw new IllegalArgumentException("waitThresholdPercent " + waitThresholdPercent + " not in [1, 100]");
        }
        if (logDelayBytes < 0) {
            throw new IllegalArgumentException("logDelayBytes " + logDelayBytes + " < 0");
        }
        if (maxGroupDelayMicros < 0 || maxGroupDelayMicros > 100_000) {
            throw new IllegalArgumentException("maxGroupDelayMicros " + maxGroupDelayMicros + " not in [0, 100000]");
        }
    }

    public static LogConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private long fileSize = 10L * 1024 * 1024;
        private int bufferSize = 1024 * 1024;
        private int groupThreshold = 4;
        private int waitThresholdPercent = 50;
        private long logDelayBytes = 64 * 1024;
        private long maxGroupDelayMicros = 500;
        private boolean autoRemove = true;

        public Builder autoRemove(boolean v) {
            autoRemove = v;
            return this;
        }

        public Builder fileSize(long v) {
            fileSize = v;
            return this;
        }

        public Builder bufferSize(int v) {
            bufferSize = v;
            return this;
        }

        public Builder groupThreshold(int v) {
            groupThreshold = v;
            return this;
        }

        public Builder waitThresholdPercent(int v) {
            waitThresholdPercent = v;
            return this;
        }

        public Builder logDelayBytes(long v) {
            logDelayBytes = v;
            return this;
        }

        public Builder maxGroupDelayMicros(long v) {
            maxGroupDelayMicros = v;
            return this;
        }

        public LogConfig build() {
            return new LogConfig(fileSize, bufferSize, groupThreshold, waitThresholdPercent, logDelayBytes,
                    maxGroupDelayMicros, autoRemove);
        }
    }
}
