package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.core.memory.ChronicleMemory;
import org.libtp.core.memory.MappedMemory;
import org.libtp.core.memory.Memory;
import org.libtp.core.memory.MemoryFactory;
import org.libtp.core.memory.MemoryImpl;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * The two {@link Memory} implementations over a {@code MAP_SHARED} mapping of a temp file, one
 * thread, no contention: plain, volatile and atomic int/long access and 4 KiB copies.
 *
 * <p>Plain and volatile accesses walk 512 aligned slots of a 4 KiB page (so the JIT cannot hoist
 * a load out of JMH's loop); the walk costs the same for both implementations.
 *
 * <p>The 4 KiB copies start at a mapped offset that moves through the 64 cache-line positions of
 * a page, one per call, so each result is the mean over every relative alignment of source and
 * destination. With a fixed offset a heap-to-mapping or mapping-to-heap copy was bimodal across
 * forks (about 20 ns or about 165 ns per 4 KiB, for either implementation), depending on where
 * the heap array happened to land relative to the page (4 KiB aliasing between the copy's loads
 * and stores).
 *
 * <p>The Setup fails
 * if the implementation asked for is not the one {@link MemoryFactory} returned (it falls back
 * to VarHandle when Chronicle cannot start): measuring the wrong class would be a faked result.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        // Chronicle-Bytes' flags for JDK 17+ (harmless for the VarHandle implementation).
        "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED",
        "--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-opens=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED",
        "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED"})
public class MemoryBench {
    static final int COPY = 4096;
    static final long FILE_SIZE = 1 << 20;
    /** Start of the page walked by the plain and volatile accesses. */
    static final long WALK_BASE = 8192;
    static final long WALK_MASK = 4096 - 8;
    static final long CAS_AT = 64;
    static final long ADD_AT = 128;
    static final long COPY_SRC = 16384;
    static final long COPY_DST = 32768;

    @Param({"VARHANDLE", "CHRONICLE"})
    public MemoryImpl impl;

    private Path dir;
    private FileChannel channel;
    private FileChannel channel2;
    private Memory memory;
    /** A second mapping (another file) as the target of memory-to-memory copies. */
    private Memory other;
    private final byte[] heap = new byte[COPY];
    private long cursor;
    private int copyPosition;
    private int casValue;
    private int putValue;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("libtp-membench");
        try {
            channel = open(dir.resolve("a"));
            channel2 = open(dir.resolve("b"));
            memory = MemoryFactory.map(channel, "membench-a", FILE_SIZE, impl);
            other = MemoryFactory.map(channel2, "membench-b", FILE_SIZE, impl);
            requireImpl(impl, memory);
            requireImpl(impl, other);
        } catch (IOException | RuntimeException e) {
            tearDown(); // JMH skips the TearDown of a failed Setup
            throw e;
        }
        for (int i = 0; i < COPY; i++) {
            heap[i] = (byte) i;
        }
        memory.putBytes(COPY_SRC, heap, 0, COPY);
        memory.putBytes(COPY_SRC + COPY, heap, 0, COPY);
        memory.putIntVolatile(CAS_AT, 0);
        casValue = 0;
    }

    /** Fails unless {@code m} is the class that implements {@code impl}. */
    public static void requireImpl(MemoryImpl impl, Memory m) {
        Class<?> want;
        switch (impl) {
            case VARHANDLE:
                want = MappedMemory.class;
                break;
            case CHRONICLE:
                want = ChronicleMemory.class;
                break;
            default:
                throw new IllegalArgumentException("impl must name an implementation (VARHANDLE or "
                        + "CHRONICLE), not " + impl);
        }
        if (m.getClass() != want) {
            throw new IllegalStateException("asked for " + impl + " (" + want.getSimpleName() + ") but "
                    + "MemoryFactory returned " + m.getClass().getSimpleName()
                    + (impl == MemoryImpl.CHRONICLE ? "; Chronicle usable in this JVM: "
                    + MemoryFactory.chronicleUsable() + " (missing --add-opens?)" : "")
                    + "; refusing to report a result for the wrong implementation");
        }
    }

    private static FileChannel open(Path file) throws IOException {
        FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE);
        ch.write(ByteBuffer.allocate(1), FILE_SIZE - 1);
        return ch;
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (memory != null) {
            memory.close();
        }
        if (other != null) {
            other.close();
        }
        if (channel != null) {
            channel.close();
        }
        if (channel2 != null) {
            channel2.close();
        }
        TempDirs.deleteRecursively(dir);
    }

    private long next() {
        long c = (cursor + 8) & WALK_MASK;
        cursor = c;
        return WALK_BASE + c;
    }

    /** The next of 64 cache-line offsets within a page, for the copies. */
    private long shift() {
        int p = (copyPosition + 1) & 63;
        copyPosition = p;
        return (long) p << 6;
    }

    @Benchmark
    public int getInt() {
        return memory.getInt(next());
    }

    @Benchmark
    public void putInt() {
        memory.putInt(next(), putValue++);
    }

    @Benchmark
    public int getIntVolatile() {
        return memory.getIntVolatile(next());
    }

    /** Always succeeds: the word alternates 0, 1, 0, ... */
    @Benchmark
    public boolean compareAndSetInt() {
        int v = casValue;
        boolean ok = memory.compareAndSetInt(CAS_AT, v, v ^ 1);
        casValue = v ^ 1;
        return ok;
    }

    @Benchmark
    public long getAndAddLong() {
        return memory.getAndAddLong(ADD_AT, 1);
    }

    /** 4 KiB heap array to mapped memory. */
    @Benchmark
    public void putBytes4k() {
        memory.putBytes(COPY_DST + shift(), heap, 0, COPY);
    }

    /** 4 KiB mapped memory to heap array. */
    @Benchmark
    public byte[] getBytes4k() {
        memory.getBytes(COPY_SRC + shift(), heap, 0, COPY);
        return heap;
    }

    /** 4 KiB from one mapped file to another (same implementation on both sides). */
    @Benchmark
    public void copyTo4k() {
        memory.copyTo(COPY_SRC + shift(), other, COPY_DST, COPY);
    }
}
