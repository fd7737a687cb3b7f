package org.libtp.bench.ops;

import org.libtp.core.tp.HotBackup;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;

import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code backup}: hot backups of an environment other processes run, one after another for S
 * seconds from this JVM (joined with their settings), each into a fresh directory: the
 * backup's throughput, and the load that a concurrent TPC-B run sees. One JSON line.
 */
@Command(name = "backup", sortOptions = false,
        description = "hot backups of a running environment, one after another for S seconds from this JVM: MB/s; run beside"
                + " tpcb to measure what a backup costs it (scripts/ops-bench.sh); prints one JSON line")
public final class BackupBench implements Callable<Integer> {
    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--dir", paramLabel = "ENV", required = true,
            description = "the running environment's directory (joined with its settings)")
    Path dir;

    @Option(names = "--dest", paramLabel = "DIR", required = true,
            description = "where each backup goes (deleted and made again before each one)")
    Path dest;

    @Option(names = "--seconds", paramLabel = "S", defaultValue = "10",
            description = "how long to keep taking backups (default: ${DEFAULT-VALUE})")
    double seconds;

    @Option(names = "--pause-ms", paramLabel = "P", defaultValue = "0",
            description = "pause between two backups, in milliseconds (default: ${DEFAULT-VALUE})")
    long pauseMs;

    @Option(names = "--rate-mb", paramLabel = "MB", defaultValue = "0",
            description = "the backups' rate limit in MB/s, 0 for none (default: ${DEFAULT-VALUE})")
    double rateMb;

    @Option(names = "--full-speed", description = "do not yield the disk to committing transactions")
    boolean fullSpeed;

    private final PrintStream out;

    public BackupBench(PrintStream out) {
        this.out = out;
    }

    @Override
    public Integer call() throws Exception {
        long bytes = 0;
        long millis = 0;
        int n = 0;
        int reread = 0;
        long finalRate = 0;
        double undisturbed = -1;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        try (Environment env = Environment.join(dir, EnvironmentConfig.defaults())) {
            while (System.nanoTime() < end) {
                org.libtp.bench.engine.TempDirs.deleteRecursively(dest);
                HotBackup.Result r = env.backup(dest, org.libtp.core.tp.BackupConfig.builder()
                        .maxBytesPerSecond((long) (rateMb * 1e6)).yieldToCommits(!fullSpeed).build());
                bytes += r.bytes();
                millis += r.millis();
                reread += r.pagesReread() + r.pagesTorn();
                finalRate = r.finalRate();
                undisturbed = r.undisturbedForceMicros();
                n++;
                if (pauseMs > 0) {
                    Thread.sleep(pauseMs);
                }
            }
        }
        long bytesOnDisk;
        try (var s = Files.walk(dest)) {
            bytesOnDisk = s.filter(Files::isRegularFile).mapToLong(p -> p.toFile().length()).sum();
        }
        out.println(String.format(Locale.ROOT, "{\"bench\":\"backup\",\"rateMb\":%.0f,\"backups\":%d,\"bytes\":%d,\"ms\":%d,"
                        + "\"mbPerSecond\":%.1f,\"lastBackupBytesOnDisk\":%d,\"pagesReread\":%d,"
                        + "\"yieldToCommits\":%s,\"lastPaceMb\":%.0f,\"undisturbedForceMicros\":%.1f,\"jdk\":\"%s\"}",
                rateMb, n, bytes, millis, millis > 0 ? bytes / 1e6 / (millis / 1e3) : 0, bytesOnDisk, reread,
                !fullSpeed, finalRate >= Long.MAX_VALUE / 4 ? -1.0 : finalRate / 1e6, undisturbed,
                System.getProperty("java.version")));
        return 0;
    }
}
