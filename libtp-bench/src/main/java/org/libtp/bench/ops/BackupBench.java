package org.libtp.bench.ops;

import org.libtp.core.tp.HotBackup;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;

import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;

/**
 * {@code backup}: hot backups of an environment other processes run, one after another for S
 * seconds from this JVM (joined with their settings), each into a fresh directory: the
 * backup's throughput, and the load that a concurrent TPC-B run sees. One JSON line.
 */
public final class BackupBench {
    public static final String USAGE = "backup --dir ENV --dest DIR [--seconds S] [--pause-ms P] [--rate-mb MB] [--full-speed]";

    private BackupBench() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
        Path dir = null;
        Path dest = null;
        double seconds = 10;
        long pauseMs = 0;
        double rateMb = 0;
        boolean fullSpeed = false;
        for (int i = 0; i < args.length; i++) {
            switch (args[i]) {
                case "--dir" -> dir = Path.of(args[++i]);
                case "--dest" -> dest = Path.of(args[++i]);
                case "--seconds" -> seconds = Double.parseDouble(args[++i]);
                case "--pause-ms" -> pauseMs = Long.parseLong(args[++i]);
                case "--rate-mb" -> rateMb = Double.parseDouble(args[++i]);
                case "--full-speed" -> fullSpeed = true;
                default -> {
                    err.println("backup: unknown option " + args[i] + "; usage: " + USAGE);
                    return 2;
                }
            }
        }
        if (dir == null || dest == null) {
            err.println("backup: --dir and --dest are required; usage: " + USAGE);
            return 2;
        }
        long bytes = 0;
        long millis = 0;
        int n = 0;
        int reread = 0;
        long finalRate = 0;
        double undisturbed = -1;
        long end = System.nanoTime() + (long) (seconds * 1e9);
        try (Environment env = Environment.join(dir, EnvironmentConfig.defaults())) {
            while (System.nanoTime() < end) {
                org.libtp.bench.TempDirs.deleteRecursively(dest);
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
