package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.bench.tpcb.EngineOptions;
import org.libtp.bench.tpcb.TpcbCommand;
import org.libtp.bench.tpcb.TpcbEngines;
import org.libtp.bench.tpcb.TpcbShape;
import org.libtp.bench.tpcb.TpcbStore;
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
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.infra.ThreadParams;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * The TPC-B transaction of the {@code tpcb} harness ({@link TpcbCommand}) under JMH: the same
 * engines ({@link TpcbEngines}), the same store code and the same random draw
 * ({@link TpcbCommand#drawIds}, {@link TpcbCommand#drawDelta}), one transaction per benchmark
 * operation, throughput in transactions per second.
 *
 * <p>Each trial (fork) opens engine {@code engine} in a fresh temporary directory and loads a
 * database of {@code scale} branches and {@code accounts} accounts in all (default 1 branch and
 * 100,000 accounts: TPC-B's scale 1, a few seconds to load). Every JMH thread ({@code -t N}) has
 * its own session and random stream; the engine is opened with mpl = the thread count.
 * {@code transfer} is the full transaction (its result: whether it committed; a deadlock victim
 * is not retried, as in the harness), {@code readOnly} the paper's read-only variant.
 *
 * <p>At the end of the trial the consistency condition is checked (Σaccounts = Σtellers =
 * Σbranches = Σhistory deltas) and the history must have grown by exactly the commits the
 * threads counted; if not, the tear-down throws and JMH reports the benchmark as failed rather
 * than a number.
 *
 * <p>{@code durability=nosync} (the default) measures the engines' CPU path; {@code sync} forces
 * every commit to disk, which with one thread measures the disk's force latency more than the
 * engine (group commit needs the multi-threaded harness or {@code -t N}).
 */
@BenchmarkMode(Mode.Throughput)
@OutputTimeUnit(TimeUnit.SECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class TpcbBench {

    /** One store per trial, shared by the benchmark's threads. */
    @State(Scope.Benchmark)
    public static class Store {
        @Param({"libtp", "notp", "sqlite", "h2", "je", "lmdb"})
        public String engine;

        /** {@code nosync} or {@code sync}. */
        @Param({"nosync"})
        public String durability;

        /** Branches (the TPC-B scale factor). */
        @Param({"1"})
        public int scale;

        /** Accounts in all (a multiple of {@code scale}); TPC-B's is 100,000 x scale. */
        @Param({"100000"})
        public int accounts;

        /** The engine's cache where it has one, MiB (the harness's default). */
        @Param({"256"})
        public int cacheMb;

        TpcbShape shape;
        TpcbStore store;
        private Path dir;
        private TpcbStore.Sums before;
        /**
         * Every thread's session state. The store's tear-down closes their sessions and adds up
         * their commits: JMH runs it in the first thread past the end-of-trial barrier, possibly
         * before the other threads' own tear-downs, but after every thread's last operation.
         */
        private final List<Session> sessions = new ArrayList<>();

        synchronized void register(Session s) {
            sessions.add(s);
        }

        @Setup(Level.Trial)
        public void open(BenchmarkParams params) throws IOException {
            boolean sync = switch (durability) {
                case "sync" -> true;
                case "nosync" -> false;
                default -> throw new IllegalArgumentException("durability is sync or nosync, not " + durability);
            };
            shape = TpcbShape.of(scale, accounts);
            dir = Files.createTempDirectory("libtp-tpcbbench-");
            store = TpcbEngines.open(engine, new EngineOptions(dir, sync, (long) cacheMb << 20,
                    Math.max(1, params.getThreads()), true));
            store.load(shape);
            before = store.sums();
            if (!before.consistent() || before.historyRows() != 0) {
                throw new IllegalStateException(engine + ": inconsistent right after the load: " + before);
            }
        }

        @TearDown(Level.Trial)
        public synchronized void close() {
            try {
                long commits = 0;
                for (Session s : sessions) {
                    commits += s.commits;
                    s.session.close();
                }
                TpcbStore.Sums after = store.sums();
                long grew = after.historyRows() - before.historyRows();
                if (!after.consistent() || grew != commits) {
                    throw new IllegalStateException("TPC-B invariant violated on " + engine + ": " + after
                            + ", history grew by " + grew + ", commits counted " + commits);
                }
            } finally {
                store.close();
                TempDirs.deleteRecursively(dir);
            }
        }
    }

    /** A thread's session and random stream. */
    @State(Scope.Thread)
    public static class Session {
        TpcbStore.TpcbSession session;
        TpcbShape shape;
        SplittableRandom rnd;
        final int[] ids = new int[3];
        /** Commits of this thread (read by {@link Store#close} after the threads have stopped). */
        long commits;

        @Setup(Level.Trial)
        public void open(Store s, ThreadParams t) {
            shape = s.shape;
            session = s.store.session();
            rnd = new SplittableRandom(42 * 1_000_003L + t.getThreadIndex());
            s.register(this);
        }
    }

    @Benchmark
    public boolean transfer(Session s) {
        TpcbCommand.drawIds(s.shape, s.rnd, s.ids);
        boolean ok = s.session.transfer(s.ids[0], s.ids[1], s.ids[2], TpcbCommand.drawDelta(s.rnd));
        if (ok) {
            s.commits++;
        }
        return ok;
    }

    @Benchmark
    public long readOnly(Session s) {
        TpcbCommand.drawIds(s.shape, s.rnd, s.ids);
        long sum = s.session.readOnly(s.ids[0], s.ids[1], s.ids[2]);
        if (sum == Long.MIN_VALUE) {
            throw new IllegalStateException("a read-only transaction aborted (no writer is running)");
        }
        return sum;
    }
}
