package org.libtp.bench;

import org.libtp.bench.engine.TempDirs;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Futex;
import org.libtp.core.sync.SharedSemaphore;
import org.libtp.core.testkit.ParentWatch;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import java.util.concurrent.TimeUnit;

/**
 * Two-JVM ping-pong over two {@link SharedSemaphore}s in one region: the parent posts
 * <em>ping</em>, the child acquires it and posts <em>pong</em>, the parent acquires pong. One
 * round trip is two cross-process wake-ups (normally two futex wakes and two sleeps). The parent
 * warms up, then measures for a fixed time and prints one JSON line.
 *
 * <p>The child never outlives the parent: it waits for each ping at most one second and then
 * checks that the parent process is alive, and it exits when the parent raises the stop flag.
 */
public final class PingPong {
    private static final String REGION = "pingpong";
    private static final long PING = 256;   // SharedSemaphore, own cache line
    private static final long PONG = 320;   // SharedSemaphore, own cache line
    private static final long STOP = 384;   // int: 1 = child must exit
    private static final RegionSpec SPEC = new RegionSpec(REGION, 4096, 1);
    private static final long CHILD_POLL_SECONDS = 1;
    private static final long PARENT_TIMEOUT_SECONDS = 10;

    private PingPong() {
    }

    /** The result of one run. */
    public record Result(long roundTrips, double seconds, double roundTripMicros, double p50Micros,
                         double p99Micros, double maxMicros, String futex, String memory,
                         String java) {
        public String toJson() {
            return String.format(Locale.ROOT,
                    "{\"bench\":\"pingpong\",\"roundTrips\":%d,\"seconds\":%.3f,\"roundTripMicros\":%.3f,"
                            + "\"p50Micros\":%.3f,\"p99Micros\":%.3f,\"maxMicros\":%.3f,\"futex\":\"%s\","
                            + "\"memory\":\"%s\",\"java\":\"%s\"}",
                    roundTrips, seconds, roundTripMicros, p50Micros, p99Micros, maxMicros, futex, memory,
                    java);
        }
    }

    /** {@code pingpong}: the parent's options; it runs the parent and prints the JSON line. */
    @Command(name = "pingpong", sortOptions = false,
            description = "two-JVM shared-semaphore ping-pong; prints one JSON line")
    static final class Cli implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
        boolean help;

        @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
                description = "the measured interval (default: ${DEFAULT-VALUE})")
        double seconds;

        @Option(names = "--warmup", paramLabel = "W", defaultValue = "2",
                description = "the unmeasured warm-up before it (default: ${DEFAULT-VALUE})")
        double warmup;

        @Option(names = "--dir", paramLabel = "DIR",
                description = "the environment's directory (default: a temporary one, deleted at the end)")
        Path dir;

        @Option(names = "--polling-futex", description = "wait by polling instead of the futex system call")
        boolean polling;

        private final PrintStream out;
        private final PrintStream err;

        Cli(PrintStream out, PrintStream err) {
            this.out = out;
            this.err = err;
        }

        @Override
        public Integer call() throws Exception {
            if (!(seconds > 0) || !(warmup >= 0)) {
                throw new ParameterException(spec.commandLine(), "--seconds must be > 0 and --warmup >= 0");
            }
            Path d = dir;
            boolean ownDir = d == null;
            if (ownDir) {
                d = Files.createTempDirectory("libtp-pingpong");
            } else {
                Files.createDirectories(d);
            }
            try {
                Result r = parent(d, seconds, warmup, polling, err);
                out.println(r.toJson());
                return 0;
            } finally {
                if (ownDir) {
                    TempDirs.deleteRecursively(d);
                }
            }
        }
    }

    private static RegionEnvironmentConfig config(boolean polling) {
        return RegionEnvironmentConfig.builder().failCheckMillis(0).pollingFutex(polling).build();
    }

    /** Runs the parent side; the child JVM is started and stopped here. */
    public static Result parent(Path dir, double seconds, double warmup, boolean polling, PrintStream err)
            throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(dir, config(polling))) {
            Region region = env.region(SPEC);
            Memory mem = region.memory();
            SharedSemaphore ping = env.semaphore(region, PING, "ping");
            SharedSemaphore pong = env.semaphore(region, PONG, "pong");
            mem.putIntVolatile(STOP, 0);

            Process child = startChild(dir, polling);
            Thread reaper = new Thread(child::destroyForcibly, "pingpong child reaper");
            Runtime.getRuntime().addShutdownHook(reaper);
            try {
                // The child posts pong once when it is attached and ready.
                awaitPong(pong, child, 60);

                long end = System.nanoTime() + (long) (warmup * 1e9);
                while (System.nanoTime() - end < 0) {
                    ping.post();
                    awaitPong(pong, child, PARENT_TIMEOUT_SECONDS);
                }

                long[] samples = new long[1 << 16];
                int n = 0;
                long start = System.nanoTime();
                long stop = start + (long) (seconds * 1e9);
                long t = start;
                while (t - stop < 0) {
                    ping.post();
                    awaitPong(pong, child, PARENT_TIMEOUT_SECONDS);
                    long now = System.nanoTime();
                    if (n == samples.length) {
                        samples = Arrays.copyOf(samples, n * 2);
                    }
                    samples[n++] = now - t;
                    t = now;
                }
                double elapsed = (t - start) / 1e9;

                mem.putIntVolatile(STOP, 1);
                ping.post();
                if (!child.waitFor(PARENT_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                    err.println("pingpong child did not exit; killing it");
                    child.destroyForcibly();
                } else if (child.exitValue() != 0) {
                    throw new IllegalStateException("pingpong child exited with status " + child.exitValue());
                }

                Arrays.sort(samples, 0, n);
                return new Result(n, elapsed, elapsed * 1e6 / n, percentile(samples, n, 0.50) / 1e3,
                        percentile(samples, n, 0.99) / 1e3, samples[n - 1] / 1e3,
                        polling ? Futex.polling().kind() : Futex.platform().kind(),
                        env.memoryImplementation(), System.getProperty("java.version"));
            } finally {
                if (child.isAlive()) {
                    child.destroyForcibly();
                    child.waitFor(10, TimeUnit.SECONDS);
                }
                try {
                    Runtime.getRuntime().removeShutdownHook(reaper);
                } catch (IllegalStateException e) {
                    // already shutting down
                }
            }
        }
    }

    private static double percentile(long[] sorted, int n, double p) {
        int i = (int) Math.ceil(p * n) - 1;
        return sorted[Math.max(0, Math.min(n - 1, i))];
    }

    private static void awaitPong(SharedSemaphore pong, Process child, long timeoutSeconds) {
        if (pong.tryAcquire()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        while (!pong.tryAcquire(1, TimeUnit.SECONDS)) {
            if (!child.isAlive()) {
                throw new IllegalStateException("pingpong child died (exit status " + child.exitValue() + ")");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no pong from the child in " + timeoutSeconds + " s");
            }
        }
    }

    private static Process startChild(Path dir, boolean polling) throws Exception {
        List<String> cmd = ParentWatch.javaCommand(PingPong.class);
        cmd.add(dir.toString());
        cmd.add(Long.toString(ProcessHandle.current().pid()));
        cmd.add(Boolean.toString(polling));
        ProcessBuilder pb = new ProcessBuilder(cmd);
        pb.redirectOutput(ProcessBuilder.Redirect.DISCARD); // stdout belongs to the JSON line
        pb.redirectError(ProcessBuilder.Redirect.INHERIT);
        return pb.start();
    }


    /** The child: {@code PingPong <dir> <parentPid> <pollingFutex>}. */
    public static void main(String[] args) {
        int status = 0;
        try {
            child(Paths.get(args[0]), Long.parseLong(args[1]), Boolean.parseBoolean(args[2]));
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.exit(status);
    }


    private static void child(Path dir, long parentPid, boolean polling) {
        try (RegionEnvironment env = RegionEnvironment.open(dir, config(polling))) {
            Region region = env.region(SPEC);
            Memory mem = region.memory();
            SharedSemaphore ping = env.semaphore(region, PING, "ping");
            SharedSemaphore pong = env.semaphore(region, PONG, "pong");
            pong.post(); // ready
            while (true) {
                if (ping.tryAcquire(CHILD_POLL_SECONDS, TimeUnit.SECONDS)) {
                    if (mem.getIntVolatile(STOP) != 0) {
                        return;
                    }
                    pong.post();
                } else if (!ParentWatch.parentAlive(parentPid)) {
                    System.err.println("pingpong child: parent " + parentPid + " is gone; exiting");
                    return;
                }
            }
        }
    }
}
