package org.libtp.core.txn;

/**
 * How a hot backup runs ({@link HotBackup}). Immutable; build with {@link #builder()}, validated
 * at build.
 *
 * @param incremental       add the log written since the last backup in the directory to it,
 *                          instead of a full copy into an empty directory (default false)
 * @param maxBytesPerSecond copy at most this fast, so that the backup leaves the disk to the
 *                          applications' commits (0 = as fast as it can; default 0)
 * @param progress          told of the bytes copied (default: nothing)
 */
public record BackupConfig(boolean incremental, long maxBytesPerSecond, HotBackup.Progress progress) {
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
        private HotBackup.Progress progress = HotBackup.Progress.NONE;

        public Builder incremental(boolean v) {
            incremental = v;
            return this;
        }

        public Builder maxBytesPerSecond(long v) {
            maxBytesPerSecond = v;
            return this;
        }

        public Builder progress(HotBackup.Progress v) {
            progress = v;
            return this;
        }

        public BackupConfig build() {
            return new BackupConfig(incremental, maxBytesPerSecond, progress);
        }
    }
}
