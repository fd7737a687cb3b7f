package org.libtp.bench.tpcb;

import org.libtp.bench.engine.TempDirs;
import org.libtp.bench.report.Json;
import org.libtp.core.testkit.ParentWatch;
import org.libtp.core.testkit.Phases;
import org.libtp.core.testkit.PipedChild;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;

/**
 * {@code tpcb}: the paper's TPC-B (section 5.1) on one engine; prints one JSON line.
 *
 * <p>The parent opens the engine's store, loads it if it does not hold the asked shape yet,
 * and checks the consistency condition before and after the run. With {@code --processes 1}
 * the {@code --mpl} worker threads run in the parent; with more, the parent starts that many
 * child JVMs on the same directory, each with {@code --mpl} threads, and drives them over their
 * stdin ({@code GO} starts the warm-up, {@code MARK} the measured interval, {@code STOP} ends
 * it; a child answers {@code READY} and at the end {@code RESULT commits aborts nanos
 * allCommits}); throughput is the sum of the children's.
 *
 * <p>The warm-up (default 3 s, times P with P processes: child JVMs compiling at once on the same
 * cores need it) is not measured.
 *
 * <p>A transaction (TPC-B clause 1.2 and 5.3): a random teller, its branch, an account of that
 * branch (85 %) or of another one (15 %), a delta in [-999999, 999999]. The READ-ONLY variant
 * (paper figure 8) reads the same three records. An aborted transaction (deadlock victim) is
 * counted and not retried: the next one draws new ids.
 *
 * <p>{@code invariantOk}: Σaccounts = Σtellers = Σbranches = Σhistory deltas after the run, and
 * the history grew by exactly the number of commits (warm-up included) the workers counted.
 */
public final class TpcbCommand {
    public static final String USAGE = "tpcb --engine " + String.join("|", TpcbEngines.NAMES) + "[|bdb with -Pbdb]"
            + " [--mpl N] [--processes P] [--seconds S] [--warmup W] [--scale BRANCHES] [--accounts TOTAL]"
            + " [--durability sync|nosync] [--txn full|readonly] [--dir DIR] [--cache-mb M] [--elr on|off]"
            + " [--seed N] [--fresh] [--page-size BYTES]";

    /** Parsed command line. {@code accounts} 0 = TPC-B scaling (100,000 per branch). */
    record Options(String engine, int mpl, int processes, double seconds, double warmup, int scale, int accounts,
                   boolean sync, boolean readOnly, Path dir, long cacheBytes, boolean elr, long seed, boolean fresh,
                   int pageSize) {
        TpcbShape shape() {
            return accounts == 0 ? TpcbShape.scale(scale) : TpcbShape.of(scale, accounts);
        }

        EngineOptions engineOptions(Path d) {
            return new EngineOptions(d, sync, cacheBytes, mpl, elr, pageSize);
        }
    }

    /** What one process's workers did. {@code allCommits} includes the warm-up. */
    /** One process's counts over the measured interval; {@code logForces} -1 where not known. */
    record Part(long commits, long aborts, long nanos, long allCommits, long logForces, long lockWaits) {
    }

    private TpcbCommand() {
    }

    /** {@code tpcb} with its arguments (tests): status 2 for a usage error. */
    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("tpcb: " + e.getMessage());
            err.println("usage: " + USAGE);
            return 2;
        }
        return run(o, out, err);
    }

    /** {@code tpcb}, its options parsed and checked ({@link TpcbCli}). */
    static int run(Options o, PrintStream out, PrintStream err) throws Exception {
        Path dir = o.dir() != null ? o.dir() : Files.createTempDirectory("libtp-tpcb-");
        if (o.fresh()) {
            TempDirs.deleteRecursively(dir);
        }
        Files.createDirectories(dir);
        try {
            out.println(Json.line(runOnce(o, dir, err)));
            out.flush();
            return 0;
        } finally {
            if (o.dir() == null) {
                TempDirs.deleteRecursively(dir);
            }
        }
    }

    /** Loads if needed, runs, checks; returns the result line's fields. */
    static Map<String, Object> runOnce(Options o, Path dir, PrintStream err) throws Exception {
        TpcbShape shape = o.shape();
        try (TpcbStore store = TpcbEngines.open(o.engine(), o.engineOptions(dir))) {
            if (o.processes() > 1 && !store.multiProcess()) {
                throw new IllegalArgumentException("engine " + o.engine() + " cannot be shared by several processes");
            }
            double loadSeconds = 0;
            if (!store.loaded(shape)) {
                long t0 = System.nanoTime();
                store.load(shape);
                loadSeconds = (System.nanoTime() - t0) / 1e9;
                err.printf("tpcb: loaded %s %d branches, %d tellers, %d accounts in %.1f s%n", o.engine(),
                        shape.branches(), shape.tellers(), shape.accounts(), loadSeconds);
            }
            TpcbStore.Sums before = store.sums();
            if (!before.consistent()) {
                throw new IllegalStateException("the " + o.engine() + " database in " + dir + " is inconsistent before "
                        + "the run: " + before + "; run with --fresh");
            }
            List<Part> parts = o.processes() == 1 ? List.of(local(store, o, 0)) : multiProcess(o, dir);
            TpcbStore.Sums after = store.sums();
            long commits = 0;
            long aborts = 0;
            long all = 0;
            double perSec = 0;
            for (Part p : parts) {
                commits += p.commits();
                aborts += p.aborts();
                all += p.allCommits();
                perSec += p.commits() / (p.nanos() / 1e9);
            }
            boolean grew = o.readOnly() || after.historyRows() - before.historyRows() == all;
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("bench", "tpcb");
            m.put("engine", o.engine());
            m.put("durability", store.durability());
            m.put("txn", o.readOnly() ? "readonly" : "full");
            m.put("mpl", o.mpl());
            m.put("processes", o.processes());
            m.put("scale", shape.branches());
            m.put("accounts", shape.accounts());
            m.put("seconds", o.seconds());
            m.put("txnPerSec", perSec);
            m.put("commits", commits);
            m.put("aborts", aborts);
            m.put("abortRate", commits + aborts == 0 ? 0.0 : (double) aborts / (commits + aborts));
            m.put("invariantOk", after.consistent() && grew);
            m.put("historyRows", after.historyRows());
            m.put("elr", o.engine().equals("libtp") && o.elr());
            m.put("cacheMiB", o.cacheBytes() >> 20);
            if (parts.size() == 1 && parts.get(0).logForces() >= 0) { // group commit: how many commits a force carried
                long forces = parts.get(0).logForces();
                m.put("logForcesPerSec", forces / (parts.get(0).nanos() / 1e9));
                m.put("commitsPerForce", forces == 0 ? 0.0 : (double) commits / forces);
            }
            if (parts.size() == 1 && parts.get(0).lockWaits() >= 0) { // lock contention: waits per transaction
                m.put("lockWaitsPerTxn", commits == 0 ? 0.0 : (double) parts.get(0).lockWaits() / commits);
            }
            if (o.pageSize() != 4096) {
                m.put("pageSize", o.pageSize()); // absent: the default, as in every earlier result
            }
            m.put("loadSeconds", loadSeconds);
            m.put("jdk", System.getProperty("java.version"));
            if (!after.consistent() || !grew) {
                err.println("tpcb: INVARIANT VIOLATED before " + before + " after " + after + " commits counted " + all);
            }
            return m;
        }
    }

    // ------------------------------------------------------------------ workers

    /** How long a child may take to open its engine, or to stop and answer (generous: a cold disk). */
    private static final Duration CHILD_TIMEOUT = Duration.ofMinutes(10);

    /** {@code mpl} threads, each with its own session and random stream. */
    static final class Workers implements AutoCloseable {
        private final List<Thread> threads = new ArrayList<>();
        private final Worker[] workers;
        private volatile boolean stop;
        private volatile Throwable failure;

        Workers(TpcbStore store, Options o, int processIndex) {
            TpcbShape shape = o.shape();
            workers = new Worker[o.mpl()];
            for (int i = 0; i < o.mpl(); i++) {
                Worker w = new Worker(store.session(), shape, o.readOnly(),
                        new SplittableRandom(o.seed() * 1_000_003L + processIndex * 1_009L + i));
                workers[i] = w;
                Thread t = new Thread(w, "tpcb-" + processIndex + "-" + i);
                t.setDaemon(true);
                threads.add(t);
            }
        }

        void go() {
            threads.forEach(Thread::start);
        }

        long[] snapshot() {
            checkFailure();
            long c = 0;
            long a = 0;
            for (Worker w : workers) {
                c += w.commits;
                a += w.aborts;
            }
            return new long[] {c, a, System.nanoTime()};
        }

        void stopAndJoin() throws InterruptedException {
            stop = true;
            for (Thread t : threads) {
                t.join();
            }
            checkFailure();
        }

        private void checkFailure() {
            Throwable f = failure;
            if (f != null) {
                throw new IllegalStateException("a TPC-B worker failed: " + f, f);
            }
        }

        /**
         * Stops the workers, waits for each to finish its transaction and closes their sessions;
         * an interrupt does not cut the wait short (a session must not close under its worker),
         * it is kept for the caller.
         */
        @Override
        public void close() {
            stop = true;
            boolean interrupted = false;
            for (Thread t : threads) {
                while (t.isAlive()) {
                    try {
                        t.join();
                    } catch (InterruptedException e) {
                        interrupted = true;
                    }
                }
            }
            for (Worker w : workers) {
                w.session.close();
            }
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }

        final class Worker implements Runnable {
            final TpcbStore.TpcbSession session;
            final TpcbShape shape;
            final boolean readOnly;
            final SplittableRandom rnd;
            volatile long commits;
            volatile long aborts;
            long sink;

            Worker(TpcbStore.TpcbSession session, TpcbShape shape, boolean readOnly, SplittableRandom rnd) {
                this.session = session;
                this.shape = shape;
                this.readOnly = readOnly;
                this.rnd = rnd;
            }

            @Override
            public void run() {
                try {
                    int[] ids = new int[3];
                    while (!stop) {
                        drawIds(shape, rnd, ids);
                        int aid = ids[0];
                        int tid = ids[1];
                        int bid = ids[2];
                        boolean ok;
                        if (readOnly) {
                            long s = session.readOnly(aid, tid, bid);
                            ok = s != Long.MIN_VALUE;
                            sink += s;
                        } else {
                            ok = session.transfer(aid, tid, bid, drawDelta(rnd));
                        }
                        if (ok) {
                            commits++;
                        } else {
                            aborts++;
                        }
                    }
                } catch (Throwable t) {
                    failure = t;
                    stop = true;
                }
            }
        }
    }

    /**
     * Draws the ids of one transaction into {@code ids} as {aid, tid, bid}: a random teller, its
     * branch, an account of that branch (85 %) or of another one (15 %, if there are several).
     * The workers and the JMH benchmark (org.libtp.bench.jmh.TpcbBench) both draw through here.
     */
    public static void drawIds(TpcbShape shape, SplittableRandom rnd, int[] ids) {
        int tid = rnd.nextInt(shape.tellers());
        int bid = shape.branchOfTeller(tid);
        int ab = bid;
        if (shape.branches() > 1 && rnd.nextInt(100) < 15) {
            ab = rnd.nextInt(shape.branches() - 1);
            if (ab >= bid) {
                ab++;
            }
        }
        ids[0] = ab * shape.accountsPerBranch() + rnd.nextInt(shape.accountsPerBranch());
        ids[1] = tid;
        ids[2] = bid;
    }

    /** A transfer's delta, in [-999999, 999999] (drawn after {@link #drawIds}). */
    public static long drawDelta(SplittableRandom rnd) {
        return rnd.nextInt(1_999_999) - 999_999;
    }

    static Part local(TpcbStore store, Options o, int index) throws Exception {
        try (Workers w = new Workers(store, o, index)) {
            w.go();
            sleep(o.warmup());
            long forces0 = store.logForces();
            long waits0 = store.lockWaits();
            long[] a = w.snapshot();
            sleep(o.seconds());
            long[] b = w.snapshot();
            long forces1 = store.logForces();
            long waits1 = store.lockWaits();
            w.stopAndJoin();
            long[] end = w.snapshot();
            return new Part(b[0] - a[0], b[1] - a[1], b[2] - a[2], end[0], forces0 < 0 ? -1 : forces1 - forces0,
                    waits0 < 0 ? -1 : waits1 - waits0);
        }
    }

    private static void sleep(double seconds) throws InterruptedException {
        Thread.sleep(Math.round(seconds * 1000));
    }

    // ------------------------------------------------------------------ processes

    private static List<Part> multiProcess(Options o, Path dir) throws Exception {
        List<PipedChild> children = new ArrayList<>();
        try {
            for (int i = 0; i < o.processes(); i++) {
                List<String> cmd = ParentWatch.javaCommand(TpcbCommand.class);
                // lmdbjava needs these; a parent started with java -jar has them from the manifest only
                cmd.add(1, "--add-opens=java.base/java.nio=ALL-UNNAMED");
                cmd.add(2, "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED");
                cmd.addAll(List.of(unparse(o, dir)));
                cmd.add("--child");
                cmd.add(Integer.toString(i + 1));
                cmd.add(Long.toString(ProcessHandle.current().pid()));
                children.add(PipedChild.start("tpcb child " + (i + 1), cmd));
            }
            List<Part> parts = new ArrayList<>();
            for (String[] f : Phases.drive(children, o.warmup(), o.seconds(), CHILD_TIMEOUT, CHILD_TIMEOUT)) {
                parts.add(new Part(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]), Long.parseLong(f[3]), -1, -1));
            }
            return parts;
        } finally {
            for (PipedChild c : children) {
                c.close();
            }
        }
    }

    /** Child JVM: {@code TpcbCommand <options> --child INDEX PARENT_PID}. */
    public static void main(String[] args) {
        int status = 0;
        try {
            int at = List.of(args).indexOf("--child");
            Options o = parse(java.util.Arrays.copyOf(args, at));
            child(o, Integer.parseInt(args[at + 1]), Long.parseLong(args[at + 2]));
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    private static void child(Options o, int index, long parentPid) throws Exception {
        ParentWatch.startWatchdog(parentPid, "tpcb child", 500);
        try (TpcbStore store = TpcbEngines.open(o.engine(), o.engineOptions(o.dir()));
             Workers w = new Workers(store, o, index)) {
            Phases.serve("tpcb child", new Phases.Worker() {
                private long[] mark;

                @Override
                public void go() {
                    w.go();
                }

                @Override
                public void mark() {
                    mark = w.snapshot();
                }

                @Override
                public String stop() throws Exception {
                    long[] b = w.snapshot();
                    w.stopAndJoin();
                    long[] end = w.snapshot();
                    return (b[0] - mark[0]) + " " + (b[1] - mark[1]) + " " + (b[2] - mark[2]) + " " + end[0];
                }
            });
        }
    }

    // ------------------------------------------------------------------ arguments

    static Options parse(String[] args) {
        return TpcbCli.parse(args);
    }

    static String[] unparse(Options o, Path dir) {
        List<String> a = new ArrayList<>(List.of("--engine", o.engine(), "--mpl", Integer.toString(o.mpl()),
                "--seconds", Double.toString(o.seconds()), "--warmup", Double.toString(o.warmup()),
                "--scale", Integer.toString(o.scale()), "--durability", o.sync() ? "sync" : "nosync",
                "--txn", o.readOnly() ? "readonly" : "full", "--dir", dir.toString(),
                "--cache-mb", Long.toString(o.cacheBytes() >> 20), "--elr", o.elr() ? "on" : "off",
                "--seed", Long.toString(o.seed()), "--page-size", Integer.toString(o.pageSize())));
        if (o.accounts() != 0) {
            a.add("--accounts");
            a.add(Integer.toString(o.accounts()));
        }
        return a.toArray(String[]::new);
    }
}
