package org.libtp.core.tp;

/**
 * How a hot backup runs ({@link HotBackup}). Immutable; build with {@link #builder()}, validated
 * at build.
 *
 * @param incremental       add the log written since the last backup in the directory to it,
 *                          instead of a full copy into an empty directory (default false)
 * @param maxBytesPerSecond copy at most this fast (0 = no fixed limit; default 0)
 * @param yieldToCommits    slow the copy down while it makes the log forces of processes
 *                          committing durably slower: the copy pauses for 100 ms every 3 s to
 *                          measure the mean force time without it, and halves its pace whenever
 *                          forces take more than 1.5 times that (default true; false copies as fast
 *                          as the disk and {@code maxBytesPerSecond} allow)
 * @param progress          told of the bytes copied, on the backup's own thread (default: nothing)
 */
public record BackupConfig(boolean incremental, long maxBytesPerSecond, boolean yieldToCommits,
                           HotBackup.Progress progress) {
    public BackupConfig {
        if (maxBytesPerSecond < 0) {
            throw new IllegalArgumentException("maxBytesPerSecond " + maxBytesPerSecond + " < 0");
        }
        if (progress == null) {
            throw new IllegalArgumentException("progress must not be null (HotBackup.Progress.NONE for none)");
        }
    }

    public static BackupConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private boolean incremental;
        private long maxBytesPerSecond;
        private boolean yieldToCommits = true;
        private HotBackup.Progress progress = HotBackup.Progress.NONE;

        public Builder incremental(boolean v) {
            incremental = v;
            return this;
        }

        public Builder maxBytesPerSecond(long v) {
            maxBytesPerSecond = v;
            return this;
        }

        public Builder yieldToCommits(boolean v) {
            yieldToCommits = v;
            return this;
        }

        public Builder progress(HotBackup.Progress v) {
            progress = v;
            return this;
        }

        public BackupConfig build() {
            return new BackupConfig(incremental, maxBytesPerSecond, yieldToCommits, progress);
        }
    }
}
