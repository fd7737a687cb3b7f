package org.libtp.bench.engine;

import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;

import java.nio.ByteBuffer;
import java.nio.file.Path;

/**
 * An LMDB environment (lmdbjava) with the harness's durability: {@code sync} is LMDB's default,
 * the data pages and then the meta page forced at every commit; {@code nosync} is
 * {@code MDB_NOSYNC}, the pages written to the OS at commit and never forced (survives the
 * process, not the OS). Four named databases at most.
 *
 * <p>The harnesses size it differently, at the call: TPC-B's map grows with the data file and
 * its reader slots with the worker threads of every process, OO1's map is fixed and one thread
 * keeps LMDB's default reader table.
 */
public final class LmdbEngine {
    private LmdbEngine() {
    }

    /**
     * Opens (or creates) the environment in {@code dir}, which must exist.
     *
     * @param mapBytes   the memory map's size, the most the data file can grow to
     * @param maxReaders reader slots; 0 keeps LMDB's default
     */
    public static Env<ByteBuffer> open(Path dir, long mapBytes, int maxReaders, boolean sync) {
        Env.Builder<ByteBuffer> b = Env.create().setMapSize(mapBytes).setMaxDbs(4);
        if (maxReaders > 0) {
            b.setMaxReaders(maxReaders);
        }
        return b.open(dir.toFile(), sync ? new EnvFlags[0] : new EnvFlags[] {EnvFlags.MDB_NOSYNC});
    }
}
