package org.libtp.bench.oo1;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code oo1}: the options of {@link Oo1Command}, its harness. */
@Command(name = "oo1", sortOptions = false,
        description = "the paper's OO1 (section 5.2): lookup, forward/backward traversal and insert on a 20,000- or"
                + " 200,000-part database, on libtp, notp, flock, fsync and the peers; --cold adds cold runs (store"
                + " reopened, OS page cache dropped); prints one JSON line per test and cache")
public final class Oo1Cli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--engine", paramLabel = "ENGINE", required = true,
            description = "libtp, notp, flock, fsync, sqlite, h2, je, lmdb (bdb: built with -Pbdb)")
    String engine;

    @Option(names = "--parts", paramLabel = "20000|200000", defaultValue = "20000",
            description = "parts in the database, at least 10 (default: ${DEFAULT-VALUE})")
    long parts;

    @Option(names = "--dir", paramLabel = "DIR", description = "the database's directory (default: a temporary one)")
    Path dir;

    @Option(names = "--durability", paramLabel = "sync|nosync", defaultValue = "sync",
            description = "whether the insert's commit forces the log (default: ${DEFAULT-VALUE})")
    String durability;

    @Option(names = "--cache-mb", paramLabel = "M", defaultValue = "64",
            description = "the engine's cache in MiB (default: ${DEFAULT-VALUE})")
    long cacheMb;

    @Option(names = "--repeat", paramLabel = "N", defaultValue = "3",
            description = "timed runs of each test and cache (default: ${DEFAULT-VALUE})")
    long repeat;

    @Option(names = "--seed", paramLabel = "S", defaultValue = "42",
            description = "seed of the generator and the tests (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--fresh", description = "delete the directory first (load a new database)")
    boolean fresh;

    @Option(names = "--test", paramLabel = "all|lookup|forward|backward|insert[,...]", defaultValue = "all",
            description = "the tests to run (default: ${DEFAULT-VALUE})")
    String test;

    @Option(names = "--cold", description = "also cold runs: store reopened, OS page cache dropped")
    boolean cold;

    @Option(names = "--warmup", paramLabel = "N", defaultValue = "100",
            description = "untimed operations before the warm runs (default: ${DEFAULT-VALUE})")
    long warmup;

    @Option(names = "--page-size", paramLabel = "BYTES", defaultValue = "4096",
            description = "libtp engines: bytes per page, a power of two in [512, 65536] (default: ${DEFAULT-VALUE})")
    int pageSize;

    private final PrintStream out;
    private final PrintStream err;

    public Oo1Cli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() {
        Oo1Command.Options o;
        try {
            o = options();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return Oo1Command.run(o, out, err);
    }

    /** Parses {@code args} alone (tests). */
    static Oo1Command.Options parse(String[] args) {
        Oo1Cli cli = new Oo1Cli(null, null);
        try {
            new CommandLine(cli).setOverwrittenOptionsAllowed(true).parseArgs(args);
        } catch (ParameterException e) {
            throw new IllegalArgumentException(e.getMessage(), e);
        }
        return cli.options();
    }

    /**
     * The options, checked.
     *
     * @throws IllegalArgumentException naming the option at fault
     */
    Oo1Command.Options options() {
        int p = positive("--parts", parts);
        int cache = positive("--cache-mb", cacheMb);
        int r = positive("--repeat", repeat);
        int w = positive("--warmup", warmup);
        boolean sync = switch (durability) {
            case "sync" -> true;
            case "nosync" -> false;
            default -> throw new IllegalArgumentException("--durability is sync or nosync");
        };
        List<Oo1Workload.Test> tests = tests(test);
        if (!Oo1Engines.NAMES.contains(engine) && !Oo1Engines.OPTIONAL.contains(engine)) {
            throw new IllegalArgumentException("--engine must be one of " + Oo1Engines.NAMES + " or, built with -Pbdb, "
                    + Oo1Engines.OPTIONAL);
        }
        if (p < 10) {
            throw new IllegalArgumentException("--parts must be >= 10 (the paper: 20000 or 200000)");
        }
        return new Oo1Command.Options(engine, p, dir, sync, (long) cache << 20, r, seed, fresh, tests, cold, w,
                org.libtp.bench.engine.LibtpEngine.checkPageSize(pageSize));
    }

    private static List<Oo1Workload.Test> tests(String v) {
        if (v.equals("all")) {
            return List.of(Oo1Workload.Test.values());
        }
        List<Oo1Workload.Test> l = new ArrayList<>();
        for (String s : v.split(",")) {
            Oo1Workload.Test t = switch (s) {
                case "lookup" -> Oo1Workload.Test.LOOKUP;
                case "forward" -> Oo1Workload.Test.FORWARD;
                case "backward" -> Oo1Workload.Test.BACKWARD;
                case "insert" -> Oo1Workload.Test.INSERT;
                default -> throw new IllegalArgumentException("--test is all or a list of lookup, forward, backward, insert;"
                        + " not '" + s + "'");
            };
            if (!l.contains(t)) {
                l.add(t);
            }
        }
        return List.copyOf(l);
    }

    private static int positive(String name, long n) {
        if (n < 1 || n > Integer.MAX_VALUE) {
            throw new IllegalArgumentException(name + " must be in 1.." + Integer.MAX_VALUE);
        }
        return (int) n;
    }
}
