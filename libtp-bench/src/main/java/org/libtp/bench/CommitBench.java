package org.libtp.bench;

import org.libtp.bench.engine.TempDirs;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.ParentWatch;
import org.libtp.core.testkit.Phases;
import org.libtp.core.testkit.PipedChild;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.SharedTxnManager;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * Commit throughput: {@code threads} threads in each of {@code processes} JVMs commit
 * in a loop with the given durability, at one of two levels.
 *
 * <p>{@code --level txn} (the default): the environment is a {@link TxnEnvironment} with one
 * record manager, {@link CounterStore}; a "commit" is {@code begin(durability)}, one counter
 * increment (a COUNTER_UPDATE record of about {@code payload} payload bytes, logged under the
 * counter's stripe latch) and {@code commit} (a TXN_COMMIT record, flushed as the durability
 * says). Thread t of process p owns counter {@code p * threads + t}, so transactions never
 * conflict and no lock manager is needed. Checkpoints are taken as {@link TxnConfig} says by
 * default (TxnConfig.defaults(): every 32 MiB of log or 60 s), by whichever committer notices. At the end each thread
 * checks that its counter grew by exactly its number of commits.
 *
 * <p>{@code --level log}: the log manager alone, as measured before the transaction manager existed: a "commit" is
 * exactly one {@link SharedLog#appendAndFlush} of a {@code payload}-byte record; nothing else.
 * {@code --active-txns} (log level only) makes each commit count as an active transaction
 * ({@link SharedLog#activeTransactions}), as a transaction manager would, so that the
 * group-commit delay can engage. {@code --stalls} (both levels) times every commit and reports
 * those slower than 5 ms.
 *
 * <p>Before the commit run the parent measures the disk: {@code rawForcesPerSec} is one thread
 * appending 256 bytes to a fresh file and calling {@code FileChannel.force(false)} in a loop;
 * {@code rawOverwriteForcesPerSec} does the same over a zero-preallocated file (as log files are).
 *
 * <p>With one process the workers run in the parent. With more, the parent holds the
 * environment open (so every child attaches to the same regions), starts the children (same
 * {@code java}, class path and JVM flags) and drives them over their stdin: {@code GO} starts
 * the warm-up, {@code MARK} starts the measured interval, {@code STOP} ends it; each child
 * answers {@code READY} and finally {@code RESULT commits forces nanos stalls stallNanos checkpoints}. A
 * child exits at once when its stdin reaches end of file (the parent died) or its parent process
 * changes.
 */
public final class CommitBench {
    static final String NOTES_TXN = "transaction-level commit: each commit is begin(durability), one CounterStore "
            + "increment (a COUNTER_UPDATE record, the benchmark's own, of recordBytes bytes, logged "
            + "under the counter's stripe latch) and commit (a TXN_COMMIT record of 40 bytes, flushed per durability); "
            + "LogConfig.defaults(); TxnConfig default checkpoints (32 MiB of log or 60 s), taken by each process's checkpoint thread; "
            + "no lock manager (each thread owns its counter); the transaction manager reports active transactions, "
            + "so the group-commit delay can engage";

    static final String NOTES = "log-level commit: each commit is one SharedLog.appendAndFlush(type 1, txnId, "
            + "Lsn.NULL, payload, durability) with LogConfig.defaults(); no transaction manager is involved "
            + "(log manager only)";
    static final String NOTES_NO_ACTIVE = "; nobody reports active transactions, so the group-commit delay "
            + "(groupThreshold on active transactions) never engages";
    static final String NOTES_ACTIVE = "; --active-txns: each commit counts as an active transaction "
            + "(SharedLog.activeTransactions +1 before the append, -1 after the flush), as a transaction manager "
            + "would report it, so the group-commit delay can engage";

    private static final int RECORD_TYPE = 1;
    /** Size of a TXN_COMMIT record: header + 8-byte time. */
    static final int COMMIT_RECORD_BYTES = LogRecordCodec.HEADER_SIZE + 8;
    private static final int RAW_BYTES = 256;
    private static final long RAW_PREALLOC = 8L * 1024 * 1024;
    private static final long READY_TIMEOUT_SECONDS = 60;
    private static final long STOP_TIMEOUT_SECONDS = 60;
    private static final long WATCHDOG_MILLIS = 1000;
    /** With --stalls, a commit that takes longer than this is a stall. */
    static final long STALL_NANOS = 5_000_000L;

    private CommitBench() {
    }

    /** What a commit is: a transaction, or one log append+flush. */
    enum Level {
        TXN, LOG
    }

    /** Command-line options. */
    record Options(Level level, Path dir, int threads, int processes, double seconds, double warmup,
                   Durability durability, int payload, double rawSeconds, boolean activeTxns, boolean stalls) {

        /** Bytes of the update (txn level) or of the one record (log level). */
        int recordBytes() {
            return LogRecordCodec.HEADER_SIZE
                    + (level == Level.TXN ? Math.max(payload, CounterStore.MIN_PAYLOAD) : payload);
        }

        /** Log bytes one commit appends (checkpoints aside). */
        int commitBytes() {
            return recordBytes() + (level == Level.TXN ? COMMIT_RECORD_BYTES : 0);
        }

        /** maxTransactions of the txn level: every committer may be active at once. */
        int maxTransactions() {
            return Math.max(TxnConfig.defaults().maxTransactions(), threads * processes);
        }
    }

    /** Counters of one process at one moment. */
    record Snapshot(long nanos, long commits, long forces, long stalls, long stallNanos, long checkpoints) {
    }

    /** What one process measured between MARK and STOP. */
    record Part(long commits, long forces, long nanos, long stalls, long stallNanos, long checkpoints) {
        double seconds() {
            return nanos / 1e9;
        }
    }

    // ------------------------------------------------------------------ command (parent)

    /** {@code commit} command, its options parsed ({@link CommitCommand}) and checked ({@link #options}). */
    static int run(Options o, PrintStream out, PrintStream err) throws Exception {
        boolean ownDir = o.dir() == null;
        Path dir;
        if (ownDir) {
            Path target = Paths.get("target");
            dir = Files.isDirectory(target) && Files.isWritable(target)
                    ? Files.createTempDirectory(target, "libtp-commit")
                    : Files.createTempDirectory("libtp-commit");
        } else {
            dir = o.dir();
            Files.createDirectories(dir);
        }
        List<Process> children = new ArrayList<>();
        Thread cleaner = new Thread(() -> {
            // Ctrl-C or SIGTERM: no stray JVMs, no stray temp directory.
            synchronized (children) {
                for (Process p : children) {
                    p.destroyForcibly();
                }
            }
            if (ownDir) {
                TempDirs.deleteRecursively(dir);
            }
        }, "commit bench cleaner");
        Runtime.getRuntime().addShutdownHook(cleaner);
        try {
            double raw = o.rawSeconds() > 0 ? rawForces(dir, o.rawSeconds(), true) : Double.NaN;
            double rawOverwrite = o.rawSeconds() > 0 ? rawForces(dir, o.rawSeconds(), false) : Double.NaN;
            List<Part> parts;
            String memory;
            if (o.processes() == 1) {
                try (Workers w = new Workers(dir, RegionEnvironmentConfig.defaults(), o, 0)) {
                    memory = w.env.memoryImplementation();
                    parts = List.of(drive(w, o));
                }
            } else if (o.level() == Level.TXN) {
                // The parent opens first (so it runs recovery and the first checkpoint) and holds the
                // environment open; the children attach.
                try (TxnEnvironment tp = openTxn(dir, RegionEnvironmentConfig.defaults(), o)) {
                    memory = tp.env().memoryImplementation();
                    parts = multiProcess(dir, o, children, err);
                }
            } else {
                try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.defaults())) {
                    // the log held open while the children append to it
                    SharedLog log = SharedLog.open(env, new FileStorage(dir), LogConfig.defaults());
                    try {
                        memory = env.memoryImplementation();
                        parts = multiProcess(dir, o, children, err);
                    } finally {
                        log.close();
                    }
                }
            }
            out.println(json(o, parts, raw, rawOverwrite, memory));
            return 0;
        } finally {
            synchronized (children) {
                for (Process p : children) {
                    if (p.isAlive()) {
                        p.destroyForcibly();
                        p.waitFor(10, TimeUnit.SECONDS);
                    }
                }
            }
            if (ownDir) {
                TempDirs.deleteRecursively(dir);
            }
            try {
                Runtime.getRuntime().removeShutdownHook(cleaner);
            } catch (IllegalStateException e) {
                // already shutting down
            }
        }
    }

    /** The txn level's environment: default log, TxnConfig defaults but the durability, one CounterStore. */
    static TxnEnvironment openTxn(Path dir, RegionEnvironmentConfig config, Options o) {
        TxnConfig txnConfig = TxnConfig.builder().durability(o.durability())
                .checkpointBytes(TxnConfig.defaults().checkpointBytes())
                .maxTransactions(o.maxTransactions()).build();
        return TxnEnvironment.open(dir, config, LogConfig.defaults(), txnConfig,
                (env, storage) -> List.of(new CounterStore(env, storage, o.payload())));
    }

    /**
     * The options, checked against each other and the log's limits.
     *
     * @throws IllegalArgumentException naming the option at fault
     */
    static Options options(Level level, Path dir, int threads, int processes, double seconds, double warmup,
                           Durability durability, int payload, double rawSeconds, boolean activeTxns,
                           boolean stalls) {
        if (threads < 1 || threads > 1024) {
            throw new IllegalArgumentException("--threads must be in [1, 1024]");
        }
        if (processes < 1 || processes > 32) {
            throw new IllegalArgumentException("--processes must be in [1, 32]");
        }
        if (!(seconds > 0) || !(warmup >= 0) || !(rawSeconds >= 0)) {
            throw new IllegalArgumentException("--seconds must be > 0, --warmup and --raw-seconds >= 0");
        }
        int maxPayload = LogConfig.defaults().bufferSize() - LogRecordCodec.HEADER_SIZE;
        if (payload < 0 || payload > maxPayload) {
            throw new IllegalArgumentException("--payload must be in [0, " + maxPayload + "]");
        }
        if (activeTxns && level == Level.TXN) {
            throw new IllegalArgumentException("--active-txns is for --level log only (the transaction manager "
                    + "reports active transactions itself)");
        }
        return new Options(level, dir, threads, processes, seconds, warmup, durability, payload, rawSeconds,
                activeTxns, stalls);
    }

    /** In-process: warm up, measure, stop. */
    private static Part drive(Workers w, Options o) throws InterruptedException {
        w.go();
        Phases.sleepSeconds(o.warmup());
        Snapshot a = w.snapshot();
        Phases.sleepSeconds(o.seconds());
        Snapshot b = w.snapshot();
        w.stop();
        return part(a, b);
    }

    static Part part(Snapshot a, Snapshot b) {
        return new Part(b.commits() - a.commits(), b.forces() - a.forces(), b.nanos() - a.nanos(),
                b.stalls() - a.stalls(), b.stallNanos() - a.stallNanos(), b.checkpoints() - a.checkpoints());
    }

    private static List<Part> multiProcess(Path dir, Options o, List<Process> registry, PrintStream err)
            throws Exception {
        List<PipedChild> cs = new ArrayList<>();
        for (int i = 0; i < o.processes(); i++) {
            PipedChild c = PipedChild.start("commit child " + i, childCommand(dir, o, i));
            synchronized (registry) {
                registry.add(c.process());
            }
            cs.add(c);
        }
        List<Part> parts = new ArrayList<>();
        for (String[] f : Phases.drive(cs, o.warmup(), o.seconds(), Duration.ofSeconds(READY_TIMEOUT_SECONDS),
                Duration.ofSeconds(STOP_TIMEOUT_SECONDS))) {
            parts.add(new Part(Long.parseLong(f[0]), Long.parseLong(f[1]), Long.parseLong(f[2]),
                    Long.parseLong(f[3]), Long.parseLong(f[4]), Long.parseLong(f[5])));
        }
        return parts;
    }

    private static List<String> childCommand(Path dir, Options o, int index) {
        List<String> cmd = ParentWatch.javaCommand(CommitBench.class);
        cmd.add(dir.toString());
        cmd.add(Integer.toString(o.threads()));
        cmd.add(o.durability().name());
        cmd.add(Integer.toString(o.payload()));
        cmd.add(Integer.toString(index));
        cmd.add(Long.toString(ProcessHandle.current().pid()));
        cmd.add(Boolean.toString(o.activeTxns()));
        cmd.add(Boolean.toString(o.stalls()));
        cmd.add(o.level().name());
        cmd.add(Integer.toString(o.processes()));
        return cmd;
    }


    // ------------------------------------------------------------------ raw force rate

    /**
     * Forces per second of one thread writing {@value #RAW_BYTES} bytes then calling
     * {@code force(false)} (fdatasync), after a short unmeasured warm-up. {@code append}: each
     * write extends a fresh file; otherwise the writes go round an 8 MiB zero-filled, forced file.
     */
    static double rawForces(Path dir, double seconds, boolean append) throws IOException {
        Path f = dir.resolve(append ? "rawforce-append.tmp" : "rawforce-overwrite.tmp");
        Files.deleteIfExists(f);
        try (FileChannel ch = FileChannel.open(f, StandardOpenOption.CREATE_NEW, StandardOpenOption.READ,
                StandardOpenOption.WRITE)) {
            if (!append) {
                ByteBuffer zeros = ByteBuffer.allocateDirect(64 * 1024);
                for (long at = 0; at < RAW_PREALLOC; at += zeros.capacity()) {
                    zeros.clear();
                    while (zeros.hasRemaining()) {
                        ch.write(zeros, at + zeros.position());
                    }
                }
                ch.force(true);
            }
            ByteBuffer buf = ByteBuffer.allocateDirect(RAW_BYTES);
            for (int i = 0; i < RAW_BYTES; i++) {
                buf.put(i, (byte) i);
            }
            long pos = 0;
            long warmEnd = System.nanoTime() + 300_000_000L;
            long start = 0;
            long end = 0;
            long n = 0;
            boolean measuring = false;
            while (true) {
                buf.clear();
                while (buf.hasRemaining()) {
                    ch.write(buf, pos + buf.position());
                }
                pos += RAW_BYTES;
                if (!append && pos + RAW_BYTES > RAW_PREALLOC) {
                    pos = 0;
                }
                ch.force(false);
                long now = System.nanoTime();
                if (!measuring) {
                    if (now - warmEnd >= 0) {
                        measuring = true;
                        start = now;
                        end = now + (long) (seconds * 1e9);
                    }
                    continue;
                }
                n++;
                if (now - end >= 0) {
                    return n / ((now - start) / 1e9);
                }
            }
        } finally {
            Files.deleteIfExists(f);
        }
    }

    // ------------------------------------------------------------------ output

    static String json(Options o, List<Part> parts, double raw, double rawOverwrite, String memory) {
        long commits = 0;
        long forces = 0;
        long checkpoints = 0;
        long stalls = 0;
        double stallSeconds = 0;
        double commitRate = 0;
        double forceRate = 0;
        double secs = 0;
        for (Part p : parts) {
            commits += p.commits();
            forces += p.forces();
            checkpoints += p.checkpoints();
            stalls += p.stalls();
            stallSeconds += p.stallNanos() / 1e9;
            commitRate += p.commits() / p.seconds();
            forceRate += p.forces() / p.seconds();
            secs += p.seconds();
        }
        secs /= parts.size();
        int recordBytes = o.recordBytes();
        int commitBytes = o.commitBytes();
        boolean txn = o.level() == Level.TXN;
        int committers = o.threads() * o.processes();
        StringBuilder b = new StringBuilder();
        b.append("{\"bench\":\"commit\"");
        b.append(",\"level\":\"").append(o.level().name().toLowerCase(Locale.ROOT)).append('"');
        b.append(",\"threads\":").append(o.threads());
        b.append(",\"processes\":").append(o.processes());
        b.append(",\"durability\":\"").append(o.durability().name().toLowerCase(Locale.ROOT)).append('"');
        b.append(",\"payload\":").append(o.payload());
        b.append(",\"recordBytes\":").append(recordBytes);
        if (txn) {
            b.append(",\"commitBytes\":").append(commitBytes); // update + commit record
        }
        b.append(",\"seconds\":").append(num(o.seconds()));
        b.append(",\"measuredSeconds\":").append(num(secs));
        b.append(",\"warmupSeconds\":").append(num(o.warmup()));
        b.append(",\"commits\":").append(commits);
        b.append(",\"commitsPerSec\":").append(num(commitRate));
        b.append(",\"meanCommitMicros\":").append(num(commitRate > 0 ? committers / commitRate * 1e6 : Double.NaN));
        b.append(",\"forces\":").append(forces);
        b.append(",\"forcesPerSec\":").append(num(forceRate));
        b.append(",\"commitsPerForce\":").append(num(forces > 0 ? (double) commits / forces : Double.NaN));
        b.append(",\"rawForcesPerSec\":").append(num(raw));
        b.append(",\"rawOverwriteForcesPerSec\":").append(num(rawOverwrite));
        b.append(",\"commitsPerRawForce\":").append(num(commitRate / raw));
        if (o.durability() == Durability.NO_SYNC) {
            b.append(",\"appendMBPerSec\":").append(num(commitRate * commitBytes / 1e6));
        }
        if (txn) {
            b.append(",\"checkpoints\":").append(checkpoints);
        }
        if (o.stalls()) {
            // Commits slower than STALL_NANOS, and the share of the committers' time they took.
            b.append(",\"stalls\":").append(stalls);
            b.append(",\"stallSeconds\":").append(num(stallSeconds));
            b.append(",\"stallFraction\":").append(num(stallSeconds / (secs * committers)));
        }
        if (parts.size() > 1) {
            b.append(",\"perProcessCommitsPerSec\":[");
            for (int i = 0; i < parts.size(); i++) {
                b.append(i == 0 ? "" : ",").append(num(parts.get(i).commits() / parts.get(i).seconds()));
            }
            b.append(']');
        }
        b.append(",\"activeTxns\":").append(txn || o.activeTxns());
        b.append(",\"memory\":\"").append(memory).append('"');
        b.append(",\"java\":\"").append(System.getProperty("java.version")).append('"');
        b.append(",\"notes\":\"");
        if (txn) {
            b.append(NOTES_TXN);
        } else {
            b.append(NOTES).append(o.activeTxns() ? NOTES_ACTIVE : NOTES_NO_ACTIVE);
        }
        b.append('"');
        b.append('}');
        return b.toString();
    }

    private static String num(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v)) {
            return "null";
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    // ------------------------------------------------------------------ workers (any process)

    /**
     * An environment, its log (and at the txn level its transaction manager and counter store)
     * and {@code threads} committers waiting for {@link #go()}.
     */
    static final class Workers implements AutoCloseable {
        private static final int STRIDE = 16; // longs: each thread's counter on its own 128 bytes
        private static final VarHandle COUNTS = MethodHandles.arrayElementVarHandle(long[].class);

        final RegionEnvironment env;
        final SharedLog log;
        private final TxnEnvironment tp; // txn level only
        private final CounterStore store; // txn level only
        private final Thread[] threads;
        private final long[] counts;
        private final CountDownLatch start = new CountDownLatch(1);
        private volatile boolean stop;
        private volatile Throwable failure;

        Workers(Path dir, RegionEnvironmentConfig config, Options o, int processIndex) {
            if (o.level() == Level.TXN) {
                tp = openTxn(dir, config, o);
                env = tp.env();
                log = tp.log();
                store = (CounterStore) tp.resourceManagers().get(0);
            } else {
                tp = null;
                store = null;
                env = RegionEnvironment.open(dir, config);
                try {
                    log = SharedLog.open(env, new FileStorage(dir), LogConfig.defaults());
                } catch (RuntimeException e) {
                    env.close();
                    throw e;
                }
            }
            int nThreads = o.threads();
            counts = new long[(nThreads + 1) * STRIDE];
            threads = new Thread[nThreads];
            for (int t = 0; t < nThreads; t++) {
                int slot = (t + 1) * STRIDE;
                Runnable body;
                if (tp != null) {
                    int counter = processIndex * nThreads + t;
                    body = () -> txnLoop(slot, counter, o.durability(), o.stalls());
                } else {
                    long txnBase = ((long) processIndex << 48) | ((long) t << 32);
                    byte[] payload = new byte[o.payload()];
                    for (int i = 0; i < payload.length; i++) {
                        payload[i] = (byte) (i * 31 + t);
                    }
                    body = () -> loop(slot, txnBase, payload, o.durability(), o.activeTxns(), o.stalls());
                }
                threads[t] = new Thread(body, "committer " + processIndex + "." + t);
                threads[t].setDaemon(true);
                threads[t].start();
            }
        }

        private void loop(int slot, long txnBase, byte[] payload, Durability durability, boolean activeTxns,
                          boolean timeCommits) {
            try {
                start.await();
                long n = 0;
                long stalls = 0;
                long stallNanos = 0;
                long t0 = timeCommits ? System.nanoTime() : 0;
                while (!stop) {
                    if (activeTxns) {
                        log.activeTransactions(1);
                        try {
                            log.appendAndFlush(RECORD_TYPE, txnBase + n + 1, Lsn.NULL, payload, durability);
                        } finally {
                            log.activeTransactions(-1);
                        }
                    } else {
                        log.appendAndFlush(RECORD_TYPE, txnBase + n + 1, Lsn.NULL, payload, durability);
                    }
                    if (timeCommits) {
                        long t1 = System.nanoTime();
                        if (t1 - t0 > STALL_NANOS) {
                            stallNanos += t1 - t0;
                            COUNTS.setRelease(counts, slot + 2, stallNanos);
                            COUNTS.setRelease(counts, slot + 1, ++stalls);
                        }
                        t0 = t1;
                    }
                    COUNTS.setRelease(counts, slot, ++n);
                }
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
                stop = true;
            }
        }

        /** Txn level: begin, increment this thread's counter, commit; at the end check the counter. */
        private void txnLoop(int slot, int counter, Durability durability, boolean timeCommits) {
            try {
                start.await();
                SharedTxnManager txn = tp.txn();
                long first = store.get(counter);
                long n = 0;
                long stalls = 0;
                long stallNanos = 0;
                long t0 = timeCommits ? System.nanoTime() : 0;
                while (!stop) {
                    Txn t = txn.begin(durability);
                    boolean committed = false;
                    try {
                        store.increment(t, counter);
                        txn.commit(t);
                        committed = true;
                    } finally {
                        if (!committed && !t.isFinished()) {
                            try {
                                txn.abort(t);
                            } catch (RuntimeException | Error e) {
                                // the first failure is the one to report
                            }
                        }
                    }
                    if (timeCommits) {
                        long t1 = System.nanoTime();
                        if (t1 - t0 > STALL_NANOS) {
                            stallNanos += t1 - t0;
                            COUNTS.setRelease(counts, slot + 2, stallNanos);
                            COUNTS.setRelease(counts, slot + 1, ++stalls);
                        }
                        t0 = t1;
                    }
                    COUNTS.setRelease(counts, slot, ++n);
                }
                long grew = store.get(counter) - first;
                if (grew != n) {
                    throw new IllegalStateException("counter " + counter + " grew by " + grew + " in " + n
                            + " committed increments");
                }
            } catch (Throwable t) {
                if (failure == null) {
                    failure = t;
                }
                stop = true;
            }
        }

        void go() {
            start.countDown();
        }

        Snapshot snapshot() {
            long c = 0;
            long st = 0;
            long stn = 0;
            for (int i = STRIDE; i < counts.length; i += STRIDE) {
                c += (long) COUNTS.getAcquire(counts, i);
                st += (long) COUNTS.getAcquire(counts, i + 1);
                stn += (long) COUNTS.getAcquire(counts, i + 2);
            }
            return new Snapshot(System.nanoTime(), c, log.forceCount(), st, stn,
                    store == null ? 0 : store.checkpoints());
        }

        /** Stops the committers and waits for them; throws if one failed. */
        void stop() throws InterruptedException {
            stop = true;
            start.countDown();
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(STOP_TIMEOUT_SECONDS);
            for (Thread t : threads) {
                t.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
                if (t.isAlive()) {
                    throw new IllegalStateException(t.getName() + " did not stop in " + STOP_TIMEOUT_SECONDS + " s");
                }
            }
            Throwable f = failure;
            if (f != null) {
                throw new IllegalStateException("a committer failed: " + f, f);
            }
        }

        @Override
        public void close() {
            stop = true;
            start.countDown();
            if (tp != null) {
                tp.close();
                return;
            }
            try {
                log.close();
            } finally {
                env.close();
            }
        }
    }

    // ------------------------------------------------------------------ child JVM

    /**
     * Child: {@code CommitBench <dir> <threads> <durability> <payload> <index> <parentPid> <activeTxns>
     * <stalls> <level> <processes>}.
     */
    public static void main(String[] args) {
        int status = 0;
        try {
            Options o = new Options(Level.valueOf(args[8]), Paths.get(args[0]), Integer.parseInt(args[1]),
                    Integer.parseInt(args[9]), 0, 0, Durability.valueOf(args[2]), Integer.parseInt(args[3]), 0,
                    Boolean.parseBoolean(args[6]), Boolean.parseBoolean(args[7]));
            child(o, Integer.parseInt(args[4]), Long.parseLong(args[5]));
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }


    private static void child(Options o, int index, long parentPid) throws Exception {
        ParentWatch.startWatchdog(parentPid, "commit child", WATCHDOG_MILLIS);
        RegionEnvironmentConfig config = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
        try (Workers w = new Workers(o.dir(), config, o, index)) {
            Phases.serve("commit child", new Phases.Worker() {
                private Snapshot mark;

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
                    Snapshot end = w.snapshot();
                    w.stop();
                    Part p = part(mark, end);
                    return p.commits() + " " + p.forces() + " " + p.nanos() + " " + p.stalls() + " " + p.stallNanos()
                            + " " + p.checkpoints();
                }
            });
        }
    }
}
