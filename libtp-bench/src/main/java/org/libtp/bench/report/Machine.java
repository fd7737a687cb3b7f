package org.libtp.bench.report;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * Facts about the machine a report's numbers come from: the {@code machine} JSON line of
 * {@code report --probe-machine DIR}, which {@code libtp-bench/scripts/bench-report.sh} writes before its
 * runs. Every fact is best effort: a missing one is "unknown".
 */
final class Machine {
    static final String UNKNOWN = "unknown";

    private Machine() {
    }

    /** The facts, with the file system of {@code dir} (the results or database directory). */
    static Map<String, Object> probe(Path dir) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("bench", "machine");
        m.put("date", Instant.now().truncatedTo(ChronoUnit.SECONDS).toString());
        m.put("jdk", System.getProperty("java.version") + " (" + System.getProperty("java.vm.name") + ", "
                + System.getProperty("java.vm.version") + ")");
        List<String> cpuinfo = lines(Paths.get("/proc/cpuinfo"));
        String model = UNKNOWN;
        int processors = 0;
        for (String l : cpuinfo) {
            if (l.startsWith("model name") && model.equals(UNKNOWN)) {
                model = afterColon(l);
            }
            if (l.startsWith("processor")) {
                processors++;
            }
        }
        m.put("cpu", model);
        m.put("cores", processors > 0 ? processors : Runtime.getRuntime().availableProcessors());
        m.put("availableProcessors", Runtime.getRuntime().availableProcessors());
        long memKb = 0;
        for (String l : lines(Paths.get("/proc/meminfo"))) {
            if (l.startsWith("MemTotal:")) {
                memKb = Long.parseLong(afterColon(l).replaceAll("[^0-9]", ""));
            }
        }
        m.put("memMiB", memKb >> 10);
        List<String> rel = lines(Paths.get("/proc/sys/kernel/osrelease"));
        m.put("kernel", System.getProperty("os.name") + " " + (rel.isEmpty() ? System.getProperty("os.version")
                : rel.get(0).strip()));
        String[] fs = fileSystem(dir);
        m.put("resultsDir", dir.toAbsolutePath().normalize().toString());
        m.put("fsType", fs[0]);
        m.put("fsSource", fs[1]);
        m.put("fsMount", fs[2]);
        return m;
    }

    /** {type, source, mount point} of the file system holding {@code dir}: df -T, else /proc/mounts. */
    static String[] fileSystem(Path dir) {
        Path p = dir.toAbsolutePath().normalize();
        while (p != null && !Files.exists(p)) {
            p = p.getParent();
        }
        if (p == null) {
            return new String[] {UNKNOWN, UNKNOWN, UNKNOWN};
        }
        try {
            Process proc = new ProcessBuilder("df", "-PT", p.toString()).redirectErrorStream(true).start();
            String out;
            try (InputStream in = proc.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            if (proc.waitFor(10, TimeUnit.SECONDS) && proc.exitValue() == 0) {
                String[] rows = out.strip().split("\n");
                String[] f = rows[rows.length - 1].trim().split("\\s+");
                if (f.length >= 7) {
                    return new String[] {f[1], f[0], f[6]};
                }
            }
        } catch (IOException | InterruptedException e) {
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
        }
        String[] best = {UNKNOWN, UNKNOWN, UNKNOWN};
        int bestLen = -1;
        String path;
        try {
            path = p.toRealPath().toString();
        } catch (IOException e) {
            path = p.toString();
        }
        for (String l : lines(Paths.get("/proc/mounts"))) {
            String[] f = l.split(" ");
            if (f.length < 3) {
                continue;
            }
            String mount = f[1].replace("\\040", " ");
            boolean under = path.equals(mount) || path.startsWith(mount.endsWith("/") ? mount : mount + "/");
            if (under && mount.length() > bestLen) {
                bestLen = mount.length();
                best = new String[] {f[2], f[0], mount};
            }
        }
        return best;
    }

    private static String afterColon(String l) {
        int c = l.indexOf(':');
        return c < 0 ? l.strip() : l.substring(c + 1).strip();
    }

    private static List<String> lines(Path p) {
        try {
            return Files.readAllLines(p, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return List.of();
        }
    }
}
