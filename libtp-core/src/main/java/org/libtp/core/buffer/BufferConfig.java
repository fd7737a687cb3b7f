package org.libtp.core.buffer;

/**
 * Buffer manager configuration. Immutable; build with {@link #builder()}, validated at build.
 * All settings are fixed when the environment's regions are created; a process that opens a
 * running environment with different ones gets {@link IllegalArgumentException}.
 *
 * @param pageSize   bytes per page, a power of two in [512, 65536] (default 4096)
 * @param poolBytes  bytes of page frames in the shared pool (default 64 MiB); at least 16 frames
 * @param maxFiles   entries in the shared file registry (default 256)
 * @param partitions latches over the page hash table, a power of two (default 256)
 * @param tornWriteProtection before a page is written to its data file, its whole image is
 *                   logged and forced (with a log; default true), so that recovery can rewrite a
 *                   page whose write power loss tore (a device or file system that writes a page
 *                   only partly). Costs a page of log per page write. Turn it off only where
 *                   page writes are atomic (a copy-on-write file system, a device with atomic
 *                   writes of the page size); a torn page is then detected by its checksum and
 *                   the environment must be restored from a backup.
 */
public record BufferConfig(int pageSize, long poolBytes, int maxFiles, int partitions, boolean tornWriteProtection) {
    public BufferConfig {
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize " + pageSize + " must be a power of two in [512, 65536]");
        }
        if (poolBytes / pageSize < 16 || poolBytes / pageSize > (1 << 24)) {
            throw new IllegalArgumentException("poolBytes " + poolBytes + " must hold 16 to 16M pages of "
                    + pageSize + " bytes");
        }
        if (maxFiles < 1 || maxFiles > 65536) {
            throw new IllegalArgumentException("maxFiles " + maxFiles + " not in [1, 65536]");
        }
        if (partitions < 1 || partitions > 65536 || Integer.bitCount(partitions) != 1) {
            throw new IllegalArgumentException("partitions " + partitions + " must be a power of two in [1, 65536]");
        }
    }

    /** Number of page frames. */
    public int frames() {
        return (int) (poolBytes / pageSize);
    }

    public static BufferConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int pageSize = 4096;
        private long poolBytes = 64L << 20;
        private int maxFiles = 256;
        private int partitions = 256;
        private boolean tornWriteProtection = true;

        public Builder pageSize(int v) {
            pageSize = v;
            return this;
        }

        public Builder poolBytes(long v) {
            poolBytes = v;
            return this;
        }

        public Builder maxFiles(int v) {
            maxFiles = v;
            return this;
        }

        public Builder partitions(int v) {
            partitions = v;
            return this;
        }

        public Builder tornWriteProtection(boolean v) {
            tornWriteProtection = v;
            return this;
        }

        public BufferConfig build() {
            return new BufferConfig(pageSize, poolBytes, maxFiles, partitions, tornWriteProtection);
        }
    }
}
