package org.libtp.core.env;

/**
 * Where an environment's shared regions (the region files every process maps: the buffer pool,
 * the log buffer, the lock and transaction tables, the process registry) live. They hold nothing
 * that outlives the last process, so they need no disk: on a disk, the kernel writes their dirty
 * pages back (I/O for nothing) and they take room in the environment directory.
 *
 * <p>Chosen by the process that creates the regions (the first to open the environment when no
 * other has it open) and recorded in the environment's lock file; every later process attaches
 * where they are. A later process that asks for another placement explicitly gets a
 * {@link org.libtp.core.ConfigMismatchException}; one with {@link #AUTO} follows the record.
 */
public enum RegionPlacement {
    /**
     * {@link #SHM} where the shared-memory directory ({@link RegionEnvironmentConfig#shmDirectory()},
     * default {@code /dev/shm}) is a usable tmpfs (Linux, present, writable, at least 128 MiB
     * free, a directory of ours can be made there), else {@link #ENV_DIR}. The default.
     */
    AUTO,
    /**
     * In a directory {@code libtp-<id>} (mode 0700) under {@link RegionEnvironmentConfig#shmDirectory()},
     * where {@code id} is derived from the environment directory's real path, device and inode;
     * an open that cannot use it fails rather than falling back.
     */
    SHM,
    /** Files {@code __libtp.env} and {@code __libtp.rgn.*} in the environment directory itself. */
    ENV_DIR;

    /** The value of system property {@code libtp.regions} (auto, shm, env_dir), or AUTO. */
    static RegionPlacement fromSystemProperty() {
        String v = System.getProperty(RegionEnvironmentConfig.PLACEMENT_PROPERTY);
        if (v == null || v.isBlank()) {
            return AUTO;
        }
        try {
            return valueOf(v.trim().toUpperCase(java.util.Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("system property " + RegionEnvironmentConfig.PLACEMENT_PROPERTY + "='" + v
                    + "' is not one of auto, shm, env_dir");
        }
    }
}
