package org.libtp.bench;

import java.io.PrintStream;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Main class of {@code libtp-bench.jar}: {@code java -jar libtp-bench.jar <command> [args...]}.
 *
 * <p>Each command is a {@link Command} registered in {@link #COMMANDS}; adding one (commit,
 * tpcb, oo1...) is one more {@code put}. Commands return an exit status and never call
 * {@link System#exit}; only {@link #main} does, once, at the end.
 */
public final class BenchMain {

    /** A subcommand: runs with the arguments after its name and returns the exit status. */
    public interface Command {
        int run(String[] args, PrintStream out, PrintStream err) throws Exception;
    }

    private record Entry(String usage, String description, Command command) {
    }

    private static final Map<String, Entry> COMMANDS = new LinkedHashMap<>();

    static {
        COMMANDS.put("jmh", new Entry("jmh [JMH args...]",
                "run the JMH benchmarks (org.libtp.bench.jmh.*); e.g. jmh -f 1 -wi 3 -w 1s -i 5 -r 1s LatchBench"
                        + "; 'jmh -h' lists JMH's options",
                JmhCommand::run));
        COMMANDS.put("pingpong", new Entry(PingPong.USAGE,
                "two-JVM shared-semaphore ping-pong; prints one JSON line", PingPong::run));
        COMMANDS.put("commit", new Entry(CommitBench.USAGE,
                "commit throughput by N threads in P JVMs: --level txn (default) = begin + one update + commit through the"
                        + " transaction manager; --level log = one SharedLog.appendAndFlush, no transaction manager"
                        + "; plus the raw force rate of the disk; prints one JSON line",
                CommitBench::run));
        COMMANDS.put("tpcb", new Entry(org.libtp.bench.tpcb.TpcbCommand.USAGE,
                "the paper's TPC-B (section 5.1) on one engine: libtp (TP mode), its baselines notp, flock, fsync,"
                        + " and the peers; --accounts 1000 --scale 10 is the paper's small database; prints one JSON line",
                org.libtp.bench.tpcb.TpcbCommand::run));
        COMMANDS.put("oo1", new Entry(org.libtp.bench.oo1.Oo1Command.USAGE,
                "the paper's OO1 (section 5.2): lookup, forward/backward traversal and insert on a 20,000- or 200,000-part"
                        + " database, on libtp, notp, flock, fsync and the peers; --cold adds cold runs (store reopened, OS page"
                        + " cache dropped); prints one JSON line per test and cache",
                org.libtp.bench.oo1.Oo1Command::run));
        COMMANDS.put("load", new Entry(org.libtp.bench.ops.LoadBench.USAGE,
                "bulk load of N records: a Database.put loop in transactions, libtp load from a dump, db5.3_load (if"
                        + " installed) on the same dump; prints one JSON line",
                org.libtp.bench.ops.LoadBench::run));
        COMMANDS.put("backup", new Entry(org.libtp.bench.ops.BackupBench.USAGE,
                "hot backups of a running environment, one after another for S seconds from this JVM: MB/s; run beside"
                        + " tpcb to measure what a backup costs it (scripts/ops-bench.sh); prints one JSON line",
                org.libtp.bench.ops.BackupBench::run));
        COMMANDS.put("report", new Entry(org.libtp.bench.report.ReportCommand.USAGE,
                "the generated section of docs/benchmarks.md (between its generated markers) and its PNG charts, from the"
                        + " JSON lines of commit, tpcb and oo1 runs: machine facts, the performance targets evaluated,"
                        + " TPC-B and OO1 tables, the paper's ratios; libtp-bench/scripts/bench-report.sh runs the whole matrix",
                org.libtp.bench.report.ReportCommand::run));
        COMMANDS.put("help", new Entry("help", "this text", (args, out, err) -> {
            usage(out);
            return 0;
        }));
    }

    private BenchMain() {
    }

    public static void main(String[] args) {
        int status;
        try {
            status = dispatch(args, System.out, System.err);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command named by {@code args[0]}; returns its exit status. */
    public static int dispatch(String[] args, PrintStream out, PrintStream err) throws Exception {
        if (args.length == 0) {
            usage(out);
            return 0;
        }
        Entry e = COMMANDS.get(args[0]);
        if (e == null) {
            err.println("unknown command '" + args[0] + "'");
            usage(err);
            return 2;
        }
        return e.command().run(Arrays.copyOfRange(args, 1, args.length), out, err);
    }

    static void usage(PrintStream out) {
        out.println("usage: java -jar libtp-bench.jar <command> [args...]");
        out.println("commands:");
        for (Entry e : COMMANDS.values()) {
            out.println("  " + e.usage());
            out.println("      " + e.description());
        }
    }
}
