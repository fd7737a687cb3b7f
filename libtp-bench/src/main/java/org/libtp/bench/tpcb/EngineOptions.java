package org.libtp.bench.tpcb;

import java.nio.file.Path;

/**
 * How to open an engine's store, the same for every engine.
 *
 * @param dir        the engine's directory (created if missing)
 * @param sync       true: a commit is forced to disk before it returns; false: the engine's
 *                   no-force commit (see each engine's class comment for what that means)
 * @param cacheBytes the cache the engine may use, where it has one of its own
 * @param mpl        worker threads in this process (some engines size pools by it)
 * @param earlyLockRelease libtp only: release a committing transaction's locks once its commit
 *                   record is in the log buffer (EnvironmentConfig.earlyLockRelease)
 */
public record EngineOptions(Path dir, boolean sync, long cacheBytes, int mpl, boolean earlyLockRelease, int pageSize) {
    /** With LibTP's default page size. */
    public EngineOptions(Path dir, boolean sync, long cacheBytes, int mpl, boolean earlyLockRelease) {
        this(dir, sync, cacheBytes, mpl, earlyLockRelease, 4096);
    }

    public EngineOptions {
        if (dir == null || cacheBytes < (1 << 20) || mpl < 1) {
            throw new IllegalArgumentException("dir must be set, cacheBytes >= 1 MiB, mpl >= 1");
        }
    }
}
