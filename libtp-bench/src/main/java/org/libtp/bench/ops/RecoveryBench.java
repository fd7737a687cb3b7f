package org.libtp.bench.ops;

import org.libtp.bench.tpcb.EngineOptions;
import org.libtp.bench.tpcb.TpcbEngines;
import org.libtp.bench.tpcb.TpcbStore;
import org.libtp.core.testkit.ParentWatch;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code recovery}: how long an application waits after a crash. Each round runs the TPC-B
 * harness in a child JVM ({@code tpcb --engine libtp}, this command's settings), kills it with
 * SIGKILL after a random time, then opens the environment in a fresh JVM and times the open
 * (recovery included) and the first committed TPC-B transaction, and checks TPC-B's consistency
 * condition. One JSON line per round, then one with the worst and the mean.
 */
@Command(name = "recovery", sortOptions = false,
        description = "kill -9 of a TPC-B run, then the time from open to the first commit in a fresh JVM, per round;"
                + " prints one JSON line per round and a summary line")
public final class RecoveryBench implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--dir", paramLabel = "DIR", required = true,
            description = "the TPC-B database's directory (loaded by the first round if empty)")
    Path dir;

    @Option(names = "--rounds", paramLabel = "N", defaultValue = "3", description = "rounds (default: ${DEFAULT-VALUE})")
    int rounds;

    @Spec
    CommandSpec spec;

    @Option(names = "--kill-after", paramLabel = "MIN,MAX", defaultValue = "20,40",
            description = "seconds the TPC-B run lasts before SIGKILL, drawn uniformly (default: ${DEFAULT-VALUE})")
    String killAfterOption;

    @Option(names = "--durability", paramLabel = "sync|nosync", defaultValue = "sync",
            description = "the TPC-B run's commits (default: ${DEFAULT-VALUE}, tpcb's default)")
    String durability;

    @Option(names = "--mpl", paramLabel = "N", defaultValue = "1", description = "TPC-B threads (default: ${DEFAULT-VALUE})")
    int mpl;

    @Option(names = "--scale", paramLabel = "BRANCHES", defaultValue = "1", description = "TPC-B scale (default: ${DEFAULT-VALUE})")
    int scale;

    @Option(names = "--accounts", paramLabel = "TOTAL", defaultValue = "0",
            description = "TPC-B accounts, 0 for TPC-B's 100,000 per branch (default: ${DEFAULT-VALUE})")
    int accounts;

    @Option(names = "--cache-mb", paramLabel = "M", defaultValue = "256", description = "cache in MiB, tpcb's and the open's (default: ${DEFAULT-VALUE})")
    long cacheMb;

    @Option(names = "--seed", paramLabel = "N", defaultValue = "1", description = "seed of the kill times (default: ${DEFAULT-VALUE})")
    long seed;
    private static final String BENCH_MAIN = "org.libtp.bench.BenchMain";
    private static final Pattern RECOVERY_LINE = Pattern.compile("redid (\\d+) records from \\((\\d+),(\\d+)\\).* in (\\d+) ms");

    private final PrintStream out;
    private final PrintStream err;

    public RecoveryBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws Exception {
        double[] killAfter;
        try {
            killAfter = java.util.Arrays.stream(killAfterOption.split(",", -1)).mapToDouble(Double::parseDouble).toArray();
        } catch (NumberFormatException e) {
            killAfter = new double[0];
        }
        if (killAfter.length != 2 || !(killAfter[0] > 0) || !(killAfter[1] >= killAfter[0])) {
            throw bad("--kill-after takes MIN,MAX seconds, 0 < MIN <= MAX");
        }
        if (!durability.equals("sync") && !durability.equals("nosync")) {
            throw bad("--durability is sync or nosync, not " + durability);
        }
        if (rounds < 1 || mpl < 1 || scale < 1 || accounts < 0 || cacheMb < 1) {
            throw bad("--rounds, --mpl, --scale and --cache-mb are at least 1, --accounts at least 0");
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        err.printf("recovery: seed %d%n", seed);
        List<String> tpcb = new ArrayList<>(ParentWatch.javaCommand(RecoveryBench.class));
        tpcb.set(tpcb.size() - 1, BENCH_MAIN); // the benchmark jar's main class, by name: it lists this command
        tpcb.addAll(List.of("tpcb", "--engine", "libtp", "--dir", dir.toString(), "--scale", Integer.toString(scale),
                "--mpl", Integer.toString(mpl), "--durability", durability, "--warmup", "0", "--cache-mb", Long.toString(cacheMb)));
        if (accounts > 0) {
            tpcb.addAll(List.of("--accounts", Integer.toString(accounts)));
        }
        // Load once (a clean run), so that every round's kill falls into the transactions.
        List<String> load = new ArrayList<>(tpcb);
        load.addAll(List.of("--seconds", "1"));
        Process p = new ProcessBuilder(load).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                .redirectError(ProcessBuilder.Redirect.INHERIT).start();
        if (p.waitFor() != 0) {
            throw new IllegalStateException("tpcb load in " + dir + " failed (status " + p.exitValue() + ")");
        }
        double worst = 0;
        double sum = 0;
        for (int r = 1; r <= rounds; r++) {
            double after = killAfter[0] + rnd.nextDouble() * (killAfter[1] - killAfter[0]);
            List<String> run = new ArrayList<>(tpcb);
            run.addAll(List.of("--seconds", "100000"));
            Process victim = new ProcessBuilder(run).redirectOutput(ProcessBuilder.Redirect.DISCARD)
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            try {
                if (victim.waitFor(Math.round(after * 1000), TimeUnit.MILLISECONDS)) {
                    throw new IllegalStateException("the TPC-B run ended by itself (status " + victim.exitValue() + ")");
                }
            } finally {
                victim.destroyForcibly(); // SIGKILL
                victim.waitFor();
            }
            List<String> open = new ArrayList<>(ParentWatch.javaCommand(RecoveryBench.class));
            open.add(1, "-Dorg.slf4j.simpleLogger.defaultLogLevel=info");
            open.addAll(List.of(dir.toString(), durability, Long.toString(cacheMb)));
            Process child = new ProcessBuilder(open).redirectErrorStream(true).start();
            String result = null;
            long redone = -1;
            long recoveryMs = -1;
            try (BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = in.readLine()) != null; ) {
                    Matcher m = RECOVERY_LINE.matcher(line);
                    if (m.find()) {
                        redone = Long.parseLong(m.group(1));
                        recoveryMs = Long.parseLong(m.group(4));
                    } else if (line.startsWith("RESULT ")) {
                        result = line.substring(7);
                    } else if (!line.contains(" INFO ") && !line.startsWith("INFO ")) {
                        err.println("recovery child: " + line);
                    }
                }
            }
            if (child.waitFor() != 0 || result == null) {
                throw new IllegalStateException("the open after the kill failed (status " + child.exitValue() + ")");
            }
            String[] f = result.split(" ");
            double openMs = Double.parseDouble(f[0]);
            double firstMs = Double.parseDouble(f[1]);
            boolean consistent = Boolean.parseBoolean(f[2]);
            double total = openMs + firstMs;
            worst = Math.max(worst, total);
            sum += total;
            out.println(String.format(Locale.ROOT, "{\"bench\":\"recovery\",\"round\":%d,\"durability\":\"%s\",\"mpl\":%d,"
                            + "\"scale\":%d,\"killAfterSeconds\":%.1f,\"openMs\":%.1f,\"firstCommitMs\":%.1f,"
                            + "\"openToFirstCommitMs\":%.1f,\"recoveryMs\":%d,\"recordsRedone\":%d,\"consistent\":%s,\"jdk\":\"%s\"}",
                    r, durability, mpl, scale, after, openMs, firstMs, total, recoveryMs, redone, consistent,
                    System.getProperty("java.version")));
            if (!consistent) {
                err.println("recovery: INVARIANT VIOLATED after round " + r);
                return 1;
            }
        }
        out.println(String.format(Locale.ROOT, "{\"bench\":\"recovery-summary\",\"rounds\":%d,\"durability\":\"%s\",\"mpl\":%d,"
                        + "\"scale\":%d,\"worstOpenToFirstCommitMs\":%.1f,\"meanOpenToFirstCommitMs\":%.1f,\"jdk\":\"%s\"}",
                rounds, durability, mpl, scale, worst, sum / rounds, System.getProperty("java.version")));
        return 0;
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    /**
     * The fresh JVM of a round: {@code RecoveryBench DIR sync|nosync CACHE_MB}. Prints
     * {@code RESULT openMs firstCommitMs consistent}.
     */
    public static void main(String[] args) {
        int status = 0;
        try {
            Path dir = Path.of(args[0]);
            boolean sync = args[1].equals("sync");
            long cache = Long.parseLong(args[2]) << 20;
            long t0 = System.nanoTime();
            try (TpcbStore store = TpcbEngines.open("libtp", new EngineOptions(dir, sync, cache, 1, true, 4096))) {
                long t1 = System.nanoTime();
                boolean committed;
                try (TpcbStore.TpcbSession s = store.session()) {
                    committed = s.transfer(0, 0, 0, 1); // account, teller and branch 0: every scale has them
                }
                long t2 = System.nanoTime();
                if (!committed) {
                    throw new IllegalStateException("the first transaction after recovery aborted");
                }
                boolean consistent = store.sums().consistent();
                System.out.printf(Locale.ROOT, "RESULT %.1f %.1f %s%n", (t1 - t0) / 1e6, (t2 - t1) / 1e6, consistent);
            }
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }
}
