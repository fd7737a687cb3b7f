package org.libtp.bench.tpcb;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code tpcb}: the options of {@link TpcbCommand}, its harness. The parent's child JVMs get the
 * same options back ({@link TpcbCommand#unparse}) and parse them here too.
 */
@Command(name = "tpcb", sortOptions = false,
        description = "the paper's TPC-B (section 5.1) on one engine: libtp (TP mode), its baselines notp, flock, fsync,"
                + " and the peers; --accounts 1000 --scale 10 is the paper's small database; prints one JSON line")
public final class TpcbCli implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--engine", paramLabel = "ENGINE", required = true,
            description = "libtp, notp, flock, fsync, sqlite, h2, je, lmdb, libtp-jdbc, h2-sql (bdb: built with -Pbdb)")
    String engine;

    @Option(names = "--mpl", paramLabel = "N", defaultValue = "1",
            description = "worker threads per process (default: ${DEFAULT-VALUE})")
    int mpl;

    @Option(names = "--processes", paramLabel = "P", defaultValue = "1",
            description = "processes; more than one start child JVMs (default: ${DEFAULT-VALUE})")
    int processes;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "the measured interval (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", paramLabel = "W",
            description = "the unmeasured warm-up before it (default: 3 s per process)")
    Double warmup;

    @Option(names = "--scale", paramLabel = "BRANCHES", defaultValue = "1",
            description = "branches (default: ${DEFAULT-VALUE})")
    int scale;

    @Option(names = "--accounts", paramLabel = "TOTAL", defaultValue = "0",
            description = "accounts in all (default: TPC-B's 100,000 per branch)")
    int accounts;

    @Option(names = "--durability", paramLabel = "sync|nosync", defaultValue = "sync",
            description = "whether a commit forces the log (default: ${DEFAULT-VALUE})")
    String durability;

    @Option(names = "--txn", paramLabel = "full|readonly", defaultValue = "full",
            description = "full transfers, or read-only ones (default: ${DEFAULT-VALUE})")
    String txn;

    @Option(names = "--dir", paramLabel = "DIR", description = "the database's directory (default: a temporary one)")
    Path dir;

    @Option(names = "--cache-mb", paramLabel = "M", defaultValue = "256",
            description = "the engine's cache in MiB (default: ${DEFAULT-VALUE})")
    int cacheMb;

    @Option(names = "--elr", paramLabel = "on|off", defaultValue = "on",
            description = "early lock release, where the engine has it (default: ${DEFAULT-VALUE})")
    String elr;

    @Option(names = "--page-size", paramLabel = "BYTES", defaultValue = "4096",
            description = "libtp engines: bytes per page, a power of two in [512, 65536] (default: ${DEFAULT-VALUE})")
    int pageSize;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "42",
            description = "seed of the workers' random transfers (default: ${DEFAULT-VALUE})")
    long seed;

    @Option(names = "--fresh", description = "delete the directory first (load a new database)")
    boolean fresh;

    private final PrintStream out;
    private final PrintStream err;

    public TpcbCli(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws Exception {
        TpcbCommand.Options o;
        try {
            o = options();
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return TpcbCommand.run(o, out, err);
    }

    /** Parses {@code args} alone (tests, child JVMs). */
    static TpcbCommand.Options parse(String[] args) {
        TpcbCli cli = new TpcbCli(null, null);
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
    TpcbCommand.Options options() {
        positive("--mpl", mpl);
        positive("--processes", processes);
        positive("--scale", scale);
        if (accounts != 0) {
            positive("--accounts", accounts);
        }
        positive("--cache-mb", cacheMb);
        boolean sync = switch (durability) {
            case "sync" -> true;
            case "nosync" -> false;
            default -> throw new IllegalArgumentException("--durability is sync or nosync");
        };
        boolean readOnly = switch (txn) {
            case "full" -> false;
            case "readonly" -> true;
            default -> throw new IllegalArgumentException("--txn is full or readonly");
        };
        boolean earlyRelease = switch (elr) {
            case "on" -> true;
            case "off" -> false;
            default -> throw new IllegalArgumentException("--elr is on or off");
        };
        if (!TpcbEngines.NAMES.contains(engine) && !TpcbEngines.OPTIONAL.contains(engine)) {
            throw new IllegalArgumentException("--engine must be one of " + TpcbEngines.NAMES + " or, built with -Pbdb, "
                    + TpcbEngines.OPTIONAL);
        }
        // Child JVMs compile their hot code at once on the same cores: 4 of them on 2 cores
        // need about 10 s before they run at their steady rate.
        double w = warmup != null ? warmup : 3.0 * processes;
        if (seconds <= 0 || w < 0) {
            throw new IllegalArgumentException("--seconds must be > 0 and --warmup >= 0");
        }
        TpcbCommand.Options o = new TpcbCommand.Options(engine, mpl, processes, seconds, w, scale, accounts, sync,
                readOnly, dir, (long) cacheMb << 20, earlyRelease, seed, fresh, org.libtp.bench.engine.LibtpEngine.checkPageSize(pageSize));
        o.shape(); // validates scale/accounts
        return o;
    }

    private static void positive(String name, int n) {
        if (n < 1) {
            throw new IllegalArgumentException(name + " must be >= 1");
        }
    }
}
