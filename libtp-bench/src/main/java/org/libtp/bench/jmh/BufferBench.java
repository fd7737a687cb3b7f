package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FileStorage;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Buffer pool hit path, one thread: {@code get} of a cached page + {@code unpin} (partition
 * latch, hash chain walk, pin CAS, per-process pin count, reference bit) beside an in-process
 * equivalent measured in the same run: a {@link ConcurrentHashMap} from (file, page) to a frame
 * with an atomic pin count. The buffer manager's target: hit get + unpin &lt;= 100 ns.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(1)
public class BufferBench {
    private static final int PAGES = 64;

    private Path dir;
    private RegionEnvironment env;
    private SharedBufferPool pool;
    private int file;
    private int next;

    /** The in-process equivalent's frame. */
    static final class Frame {
        final AtomicInteger pins = new AtomicInteger();
        final ByteBuffer page = ByteBuffer.allocateDirect(4096);
    }

    private final ConcurrentHashMap<Long, Frame> map = new ConcurrentHashMap<>();

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("libtp-bufferbench");
        env = RegionEnvironment.open(dir, RegionEnvironmentConfig.builder().failCheckMillis(0).build());
        pool = SharedBufferPool.open(env, new FileStorage(dir), null,
                BufferConfig.builder().poolBytes(16L << 20).build());
        file = pool.open("bench.db");
        for (int p = 0; p < PAGES; p++) {
            pool.unpin(pool.get(file, p, BufferManager.CREATE), false);
            map.put(((long) file << 40) | p, new Frame());
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        pool.close();
        env.close();
        TempDirs.deleteRecursively(dir);
    }

    @Benchmark
    public long libtpGetUnpin() {
        Page p = pool.get(file, next++ & (PAGES - 1), 0);
        long v = p.pageNo();
        pool.unpin(p, false);
        return v;
    }

    @Benchmark
    public long concurrentHashMapGetUnpin() {
        Frame f = map.get(((long) file << 40) | (next++ & (PAGES - 1)));
        f.pins.incrementAndGet();
        long v = f.page.capacity();
        f.pins.decrementAndGet();
        return v;
    }
}
