package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The disk an empty environment takes in its directory, as {@code du -s} counts it: at most 1 MiB
 * while open and after close. Before the shared regions moved to shared memory (and log files
 * were preallocated only ahead of the writer), it was about 13 MB (80 MB apparent): the buffer
 * pool's touched pages, the lock tables and a 10 MiB zero-filled log file.
 */
class EnvironmentFootprintTest {
    @TempDir
    Path dir;

    /** Bytes of disk {@code du} counts for {@code d}. */
    static long du(Path d) throws Exception {
        Process p = new ProcessBuilder("du", "-s", "-B1", d.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        assertTrue(p.waitFor(30, TimeUnit.SECONDS) && p.exitValue() == 0, "du failed: " + out);
        return Long.parseLong(out.split("\\s+")[0]);
    }

    static String listing(Path d) throws Exception {
        StringBuilder b = new StringBuilder();
        try (Stream<Path> s = Files.list(d)) {
            for (Path p : s.sorted().toList()) {
                b.append(p.getFileName()).append(' ').append(Files.size(p)).append("; ");
            }
        }
        return b.toString();
    }

    @Test
    void anEmptyEnvironmentTakesAtMostOneMebibyte() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "empty", DatabaseConfig.builder().allowCreate(true).build())) {
            long open = du(home);
            assertTrue(open <= 1 << 20, "an open empty environment takes " + open + " bytes of disk: " + listing(home));
        }
        long closed = du(home);
        assertTrue(closed <= 1 << 20, "a closed empty environment takes " + closed + " bytes of disk: " + listing(home));
    }
}
