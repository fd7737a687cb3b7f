package org.libtp.bench.oo1;

import org.libtp.bench.engine.TempDirs;
import org.libtp.bench.report.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.SplittableRandom;

/**
 * {@code oo1}: the paper's OO1 benchmark (section 5.2, Cattell's OO1) on one engine; prints one
 * JSON line per (test, cache).
 *
 * <p>The engine's store in {@code --dir} is loaded with the database of {@code --parts} parts
 * generated from {@code --seed} ({@link Oo1Generator}) unless it already holds it: a file
 * {@code oo1.properties} next to the engine's files records what was loaded, so that a later run
 * can reuse the database (the insert test makes it grow by 100 parts per run; {@code --fresh}
 * starts over). Then, for each test ({@link Oo1Workload}):
 * <ul>
 * <li>cold (with {@code --cold}): the {@code --warmup} untimed runs below first (so that the JIT
 *     has compiled the engine's code: a cold run measures the disk), then {@code --repeat} times:
 *     close the store, drop the OS page
 *     cache ({@link OsCache}; {@code "osCacheDropped":false} on the line if this system does not
 *     allow it), reopen, time the first run of the test;
 * <li>warm: {@code --warmup} untimed runs (default 100; one for the insert test, which grows the
 *     database), then {@code --repeat} timed runs. The untimed runs warm the caches and let the
 *     JIT compile the engine's read path: with one, a JVM engine's "warm" lookup measured about
 *     three times its steady state (2.0 against 0.7 ms), which compares the JIT, not the engine.
 * </ul>
 * {@code seconds} is the mean time of one run (one transaction: begin, the test, commit);
 * {@code visited} the mean parts a run fetched or inserted (3280 for a forward traversal; a
 * backward traversal's count depends on the parts met). Every run draws its ids from its own
 * random stream, derived from the seed, the test and the run's number, so that all engines do the
 * same work.
 */
public final class Oo1Command {
    public static final String USAGE = "oo1 --engine " + String.join("|", Oo1Engines.NAMES) + "[|bdb with -Pbdb]"
            + " [--parts 20000|200000] [--dir DIR] [--durability sync|nosync] [--cache-mb M] [--repeat N]"
            + " [--seed S] [--fresh] [--test all|lookup|forward|backward|insert[,...]] [--cold] [--warmup N]"
            + " [--page-size BYTES]";
    static final String META = "oo1.properties";

    /** Parsed command line. */
    record Options(String engine, int parts, Path dir, boolean sync, long cacheBytes, int repeat, long seed,
                   boolean fresh, List<Oo1Workload.Test> tests, boolean cold, int warmup, int pageSize) {
        StoreOptions storeOptions(Path d) {
            return new StoreOptions(d, sync, cacheBytes, pageSize);
        }
    }

    /** Timed runs of one (test, cache). */
    record Timing(double meanSeconds, double sdSeconds, double minSeconds, double meanVisited) {
        static Timing of(long[] nanos, long[] visited) {
            double sum = 0;
            double min = Double.MAX_VALUE;
            double v = 0;
            for (int i = 0; i < nanos.length; i++) {
                sum += nanos[i] / 1e9;
                min = Math.min(min, nanos[i] / 1e9);
                v += visited[i];
            }
            double mean = sum / nanos.length;
            double sq = 0;
            for (long n : nanos) {
                sq += (n / 1e9 - mean) * (n / 1e9 - mean);
            }
            double sd = nanos.length > 1 ? Math.sqrt(sq / (nanos.length - 1)) : 0.0;
            return new Timing(mean, sd, min, v / nanos.length);
        }
    }

    private Oo1Command() {
    }

    /** {@code oo1} with its arguments: status 2 for a usage error. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        Options o;
        try {
            o = parse(args);
        } catch (IllegalArgumentException e) {
            err.println("oo1: " + e.getMessage());
            err.println("usage: " + USAGE);
            return 2;
        }
        return run(o, out, err);
    }

    /** {@code oo1}, its options parsed and checked ({@link Oo1Cli}). */
    static int run(Options o, PrintStream out, PrintStream err) {
        Path dir;
        try {
            dir = o.dir() != null ? o.dir() : Files.createTempDirectory("libtp-oo1-");
            if (o.fresh()) {
                TempDirs.deleteRecursively(dir);
            }
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create the OO1 directory " + o.dir() + ": " + e.getMessage(), e);
        }
        try {
            runAll(o, dir, err, out);
            return 0;
        } catch (IllegalArgumentException e) {
            err.println("oo1: " + e.getMessage()); // e.g. the directory holds another database
            return 1;
        } finally {
            if (o.dir() == null) {
                TempDirs.deleteRecursively(dir);
            }
        }
    }

    /**
     * Loads if needed and runs the tests of {@code o} on {@code dir}; prints each result line to
     * {@code out} (if not null) as soon as it is measured, and returns them all.
     */
    static List<Map<String, Object>> runAll(Options o, Path dir, PrintStream err, PrintStream out) {
        return runAll(o, dir, err, out, OsCache::drop);
    }

    /** {@link #runAll(Options, Path, PrintStream, PrintStream)} with {@code dropCache} for the cold runs (tests). */
    static List<Map<String, Object>> runAll(Options o, Path dir, PrintStream err, PrintStream out,
                                            java.util.function.BooleanSupplier dropCache) {
        List<Map<String, Object>> lines = new ArrayList<>();
        StoreOptions so = o.storeOptions(dir);
        Oo1Store store = Oo1Engines.open(o.engine(), so);
        try {
            double loadSeconds = ensureLoaded(store, o, dir, err);
            for (Oo1Workload.Test test : o.tests()) {
                int run = 0;
                int untimed = test == Oo1Workload.Test.INSERT ? 1 : o.warmup();
                if (o.cold()) {
                    // Warm the JIT first: a cold run is to measure the disk, not the interpreter.
                    run = untimed(o, test, store, run, untimed);
                    long[] nanos = new long[o.repeat()];
                    long[] visited = new long[o.repeat()];
                    boolean dropped = true;
                    for (int i = 0; i < o.repeat(); i++) {
                        store.close();
                        store = null;
                        dropped &= dropCache.getAsBoolean();
                        store = Oo1Engines.open(o.engine(), so);
                        SplittableRandom rnd = random(o, test, run++);
                        long t0 = System.nanoTime();
                        visited[i] = Oo1Workload.run(test, store, o.parts(), rnd);
                        nanos[i] = System.nanoTime() - t0;
                    }
                    Map<String, Object> m = line(o, store, test, "cold", Timing.of(nanos, visited), loadSeconds);
                    m.put("osCacheDropped", dropped);
                    emit(lines, m, out);
                }
                run = untimed(o, test, store, run, untimed); // warm the caches (again after a reopen)
                long[] nanos = new long[o.repeat()];
                long[] visited = new long[o.repeat()];
                for (int i = 0; i < o.repeat(); i++) {
                    SplittableRandom rnd = random(o, test, run++);
                    long t0 = System.nanoTime();
                    visited[i] = Oo1Workload.run(test, store, o.parts(), rnd);
                    nanos[i] = System.nanoTime() - t0;
                }
                emit(lines, line(o, store, test, "warm", Timing.of(nanos, visited), loadSeconds), out);
            }
            return lines;
        } finally {
            if (store != null) {
                store.close();
            }
        }
    }

    /** Runs {@code count} untimed runs from run number {@code run}; returns the next run number. */
    private static int untimed(Options o, Oo1Workload.Test test, Oo1Store store, int run, int count) {
        for (int i = 0; i < count; i++) {
            Oo1Workload.run(test, store, o.parts(), random(o, test, run++));
        }
        return run;
    }

    private static void emit(List<Map<String, Object>> lines, Map<String, Object> m, PrintStream out) {
        lines.add(m);
        if (out != null) {
            out.println(Json.line(m));
            out.flush();
        }
    }

    /** The random stream of run {@code run} (from 0, in execution order) of {@code test}. */
    static SplittableRandom random(Options o, Oo1Workload.Test test, int run) {
        return new SplittableRandom(o.seed() * 1_000_003L + (test.ordinal() + 1) * 10_007L + run);
    }

    private static Map<String, Object> line(Options o, Oo1Store store, Oo1Workload.Test test, String cache, Timing t,
                                            double loadSeconds) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bench", "oo1");
        m.put("engine", o.engine());
        m.put("test", test.label());
        m.put("cache", cache);
        // %.3f (Json's format for doubles) would leave one digit of a 3 ms lookup: microseconds here
        m.put("seconds", java.math.BigDecimal.valueOf(t.meanSeconds()).setScale(6, java.math.RoundingMode.HALF_EVEN));
        m.put("ms", t.meanSeconds() * 1000);
        m.put("sdMs", t.sdSeconds() * 1000);
        m.put("minMs", t.minSeconds() * 1000);
        m.put("visited", t.meanVisited());
        m.put("parts", o.parts());
        m.put("repeat", o.repeat());
        m.put("warmup", test == Oo1Workload.Test.INSERT ? 1 : o.warmup()); // untimed runs before these
        m.put("durability", store.durability());
        m.put("cacheMiB", o.cacheBytes() >> 20);
        if (o.pageSize() != 4096) {
            m.put("pageSize", o.pageSize()); // absent: the default, as in every earlier result
        }
        m.put("seed", o.seed());
        m.put("loadSeconds", loadSeconds);
        m.put("jdk", System.getProperty("java.version"));
        return m;
    }

    /**
     * Loads the database into {@code store} unless {@link #META} says it holds it; returns the
     * seconds the load took (0 if there was none).
     */
    static double ensureLoaded(Oo1Store store, Options o, Path dir, PrintStream err) {
        Path meta = dir.resolve(META);
        int maxId = store.read(Oo1Store.Reader::maxPartId);
        if (Files.exists(meta)) {
            Properties p = new Properties();
            try (Reader r = Files.newBufferedReader(meta, StandardCharsets.UTF_8)) {
                p.load(r);
            } catch (IOException e) {
                throw new UncheckedIOException("cannot read " + meta + ": " + e.getMessage(), e);
            }
            String want = o.parts() + "/" + o.seed() + "/" + o.engine();
            String have = p.getProperty("parts") + "/" + p.getProperty("seed") + "/" + p.getProperty("engine");
            if (!want.equals(have) || maxId < o.parts()) {
                throw new IllegalArgumentException("the OO1 database in " + dir + " (parts/seed/engine " + have
                        + ", highest part id " + maxId + ") is not the one asked for (" + want + "); run with --fresh");
            }
            return 0;
        }
        if (maxId != 0) {
            throw new IllegalArgumentException("the " + o.engine() + " store in " + dir + " holds parts but no " + META
                    + " (an interrupted load?); run with --fresh");
        }
        long t0 = System.nanoTime();
        Oo1Generator.load(store, o.parts(), o.seed());
        double seconds = (System.nanoTime() - t0) / 1e9;
        Properties p = new Properties();
        p.setProperty("parts", Integer.toString(o.parts()));
        p.setProperty("seed", Long.toString(o.seed()));
        p.setProperty("engine", o.engine());
        try (Writer w = Files.newBufferedWriter(meta, StandardCharsets.UTF_8)) {
            p.store(w, "OO1 database loaded by libtp-bench oo1");
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write " + meta + ": " + e.getMessage(), e);
        }
        err.printf("oo1: loaded %s with %d parts and %d connections in %.1f s%n", o.engine(), o.parts(),
                (long) o.parts() * Oo1Generator.CONNECTIONS_PER_PART, seconds);
        return seconds;
    }

    // ------------------------------------------------------------------ arguments

    static Options parse(String[] args) {
        return Oo1Cli.parse(args);
    }
}
