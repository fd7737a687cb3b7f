package org.libtp.bench;

import org.libtp.core.log.Durability;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code commit}: the options of {@link CommitBench}, its harness. */
@Command(name = "commit", sortOptions = false,
        description = "commit throughput by N threads in P JVMs: --level txn (default) = begin + one update + commit"
                + " through the transaction manager; --level log = one SharedLog.appendAndFlush, no transaction"
                + " manager; plus the raw force rate of the disk; prints one JSON line")
final class CommitCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--level", paramLabel = "txn|log", defaultValue = "txn",
            description = "what a commit is: a transaction, or one log append and flush (default: ${DEFAULT-VALUE})")
    CommitBench.Level level;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "the environment's directory (default: a temporary one, deleted at the end)")
    Path dir;

    @Option(names = "--threads", paramLabel = "N", defaultValue = "1",
            description = "committer threads per process, 1 to 1024 (default: ${DEFAULT-VALUE})")
    int threads;

    @Option(names = "--processes", paramLabel = "P", defaultValue = "1",
            description = "processes (JVMs), 1 to 32; more than one start child JVMs (default: ${DEFAULT-VALUE})")
    int processes;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "the measured interval (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--warmup", paramLabel = "W", defaultValue = "2",
            description = "the unmeasured warm-up before it (default: ${DEFAULT-VALUE})")
    double warmup;

    @Option(names = "--durability", paramLabel = "sync|write_no_sync|no_sync", defaultValue = "sync",
            description = "what a commit waits for (default: ${DEFAULT-VALUE})")
    Durability durability;

    @Option(names = "--payload", paramLabel = "BYTES", defaultValue = "100",
            description = "bytes of the update's image (txn) or of the record (log) (default: ${DEFAULT-VALUE})")
    int payload;

    @Option(names = "--raw-seconds", paramLabel = "R", defaultValue = "3",
            description = "seconds of each raw force-rate measurement of the disk, 0 for none (default: ${DEFAULT-VALUE})")
    double rawSeconds;

    @Option(names = "--active-txns",
            description = "log level only: count each commit as an active transaction, so the group-commit delay"
                    + " can engage")
    boolean activeTxns;

    @Option(names = "--stalls", description = "count commits slower than 5 ms")
    boolean stalls;

    private final PrintStream out;
    private final PrintStream err;

    CommitCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws Exception {
        CommitBench.Options o;
        try {
            o = CommitBench.options(level, dir, threads, processes, seconds, warmup, durability, payload, rawSeconds,
                    activeTxns, stalls);
        } catch (IllegalArgumentException e) {
            throw new ParameterException(spec.commandLine(), e.getMessage(), e);
        }
        return CommitBench.run(o, out, err);
    }
}
