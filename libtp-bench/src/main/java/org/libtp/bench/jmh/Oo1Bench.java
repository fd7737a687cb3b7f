package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.bench.oo1.Oo1Command;
import org.libtp.bench.oo1.Oo1Engines;
import org.libtp.bench.oo1.Oo1Generator;
import org.libtp.bench.oo1.Oo1Store;
import org.libtp.bench.oo1.Oo1Workload;
import org.libtp.bench.oo1.StoreOptions;
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
import org.openjdk.jmh.annotations.Threads;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.BenchmarkParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The OO1 tests of the {@code oo1} harness ({@link Oo1Command}) under JMH, warm: the same
 * engines ({@link Oo1Engines}), the same database ({@link Oo1Generator}) and the same test code
 * ({@link Oo1Workload}); one operation is one test, i.e. one transaction (1,000 lookups; a
 * 7-hop forward traversal of 3,280 parts; a 7-hop backward traversal; 100 parts inserted with
 * three connections each), average time in ms.
 *
 * <p>Each trial (fork) opens engine {@code engine} in a fresh temporary directory and loads
 * {@code parts} parts (the paper's small database, 20,000, by default); the store stays open,
 * so JMH's warm-up iterations warm its cache and the measured ones are the harness's "warm" runs.
 * {@code insert} grows the database by 100 parts per operation (the traversals of other
 * benchmarks never see that: each benchmark method has its own fork and database).
 * {@code durability} is what the insert's commit does; the default, {@code sync}, is the
 * harness's. At the end of the trial the store's counts must be consistent (three connections a
 * part, every connection in both indexes), or the tear-down throws and JMH reports a failure
 * instead of a number.
 *
 * <p>Single-threaded: the OO1 stores are not thread-safe (the harness runs one test at a time),
 * so a run with {@code -t} other than 1 fails at set-up.
 */
@State(Scope.Benchmark)
@Threads(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class Oo1Bench {
    @Param({"libtp", "notp", "sqlite", "h2", "je", "lmdb"})
    public String engine;

    /** Parts loaded (the paper: 20,000 or 200,000). */
    @Param({"20000"})
    public int parts;

    /** What the insert's commit does: {@code sync} or {@code nosync}. */
    @Param({"sync"})
    public String durability;

    /** The engine's cache where it has one, MiB (the harness's default). */
    @Param({"64"})
    public int cacheMb;

    private Path dir;
    private Oo1Store store;
    private SplittableRandom rnd;

    @Setup(Level.Trial)
    public void open(BenchmarkParams params) throws IOException {
        if (params.getThreads() != 1) {
            throw new IllegalArgumentException("Oo1Bench runs one thread (the OO1 stores are not thread-safe), not "
                    + params.getThreads());
        }
        boolean sync = switch (durability) {
            case "sync" -> true;
            case "nosync" -> false;
            default -> throw new IllegalArgumentException("durability is sync or nosync, not " + durability);
        };
        dir = Files.createTempDirectory("libtp-oo1bench-");
        store = Oo1Engines.open(engine, new StoreOptions(dir, sync, (long) cacheMb << 20));
        Oo1Generator.load(store, parts, 42);
        rnd = new SplittableRandom(42 * 1_000_003L + params.getBenchmark().hashCode());
    }

    @TearDown(Level.Trial)
    public void close() {
        try {
            Oo1Store.Counts c = store.counts();
            if (c.parts() < parts || c.connections() != c.parts() * Oo1Generator.CONNECTIONS_PER_PART
                    || c.fromEntries() != c.connections() || c.toEntries() != c.connections()) {
                throw new IllegalStateException("OO1 store of " + engine + " is inconsistent: " + c);
            }
        } finally {
            store.close();
            TempDirs.deleteRecursively(dir);
        }
    }

    @Benchmark
    public int lookup() {
        return Oo1Workload.run(Oo1Workload.Test.LOOKUP, store, parts, rnd);
    }

    @Benchmark
    public int forward() {
        return Oo1Workload.run(Oo1Workload.Test.FORWARD, store, parts, rnd);
    }

    @Benchmark
    public int backward() {
        return Oo1Workload.run(Oo1Workload.Test.BACKWARD, store, parts, rnd);
    }

    @Benchmark
    public int insert() {
        return Oo1Workload.run(Oo1Workload.Test.INSERT, store, parts, rnd);
    }
}
