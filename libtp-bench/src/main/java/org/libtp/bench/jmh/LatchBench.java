package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.memory.MemoryImpl;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;
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
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Uncontended mutual exclusion, one thread: a LibTP {@link Latch} in an environment region
 * (one CAS to acquire, one volatile read plus one atomic swap to release) beside
 * {@link ReentrantLock} and {@link FileChannel#lock()}, all in the same run; and a
 * {@link SharedSemaphore} post + tryAcquire. The substrate's target: latch acquire+release &lt;= 50 ns.
 *
 * <p>{@code impl} picks the region's memory implementation (default VARHANDLE, the library's
 * default; {@code -p impl=CHRONICLE} measures the latch over Chronicle-Bytes). The setup fails if
 * the region is not mapped with the implementation asked for.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {
        // Chronicle-Bytes' flags, only needed with -p impl=CHRONICLE.
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
public class LatchBench {
    private static final long LATCHES = 256;
    private static final long SEMAPHORE = 1024;

    @Param({"VARHANDLE"})
    public MemoryImpl impl;

    private Path dir;
    private RegionEnvironment env;
    private Latch latch;
    private SharedSemaphore semaphore;
    private final ReentrantLock reentrantLock = new ReentrantLock();
    private FileChannel lockChannel;

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("libtp-latchbench");
        try {
            env = RegionEnvironment.open(dir, RegionEnvironmentConfig.builder().failCheckMillis(0).memory(impl).build());
            Region region = env.region(new RegionSpec("latchbench", 4096, 1, new LatchArray(LATCHES, 64, 4)));
            MemoryBench.requireImpl(impl, region.memory());
            latch = env.latch(region, LATCHES, "bench latch");
            semaphore = env.semaphore(region, SEMAPHORE, "bench semaphore");
            lockChannel = FileChannel.open(dir.resolve("filelock"), StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.READ, StandardOpenOption.WRITE);
        } catch (IOException | RuntimeException e) {
            closeAll(); // JMH skips the TearDown of a failed Setup
            throw e;
        }
    }

    private void closeAll() throws IOException {
        if (lockChannel != null) {
            lockChannel.close();
        }
        if (env != null) {
            env.close();
        }
        TempDirs.deleteRecursively(dir);
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        try {
            if (latch.owner() != 0) {
                throw new IllegalStateException("latch left held: " + latch);
            }
            if (semaphore.availablePermits() != 0) {
                throw new IllegalStateException("semaphore has " + semaphore.availablePermits()
                        + " permits left; post and tryAcquire did not pair up");
            }
        } finally {
            closeAll();
        }
    }

    @Benchmark
    public void latchAcquireRelease() {
        latch.acquire();
        latch.release();
    }

    @Benchmark
    public void reentrantLockUnlock() {
        reentrantLock.lock();
        reentrantLock.unlock();
    }

    @Benchmark
    public void fileChannelLockRelease() throws IOException {
        FileLock l = lockChannel.lock();
        l.release();
    }

    @Benchmark
    public boolean semaphorePostTryAcquire() {
        semaphore.post();
        return semaphore.tryAcquire();
    }
}
