package org.libtp.bench.oo1;

import java.nio.file.Path;

/**
 * How to open an engine's OO1 store, the same for every engine.
 *
 * @param dir        the engine's directory (created if missing)
 * @param sync       true: the insert test's commit is forced to disk before it returns; false:
 *                   the engine's no-force commit (see each engine's class comment for what that
 *                   means)
 * @param cacheBytes the cache the engine may use, where it has one of its own
 */
public record StoreOptions(Path dir, boolean sync, long cacheBytes, int pageSize) {
    /** With LibTP's default page size. */
    public StoreOptions(Path dir, boolean sync, long cacheBytes) {
        this(dir, sync, cacheBytes, 4096);
    }

    public StoreOptions {
        if (dir == null || cacheBytes < (1 << 20)) {
            throw new IllegalArgumentException("dir must be set and cacheBytes >= 1 MiB");
        }
    }
}
