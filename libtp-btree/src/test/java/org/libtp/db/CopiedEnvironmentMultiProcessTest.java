package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.ChildJvm;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A user copies the directory of an environment that another JVM is running ({@code cp -r},
 * lock file included) and opens the copy: the copy recovers to a committed state, and the
 * original's JVM goes on committing undisturbed. (The copy's lock file names the original's
 * shared regions; taking them for its own leftovers once wiped the running original's memory.)
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 5, unit = java.util.concurrent.TimeUnit.MINUTES)
class CopiedEnvironmentMultiProcessTest {
    @TempDir
    Path dir;

    static byte[] key(int i) {
        return String.format("key%07d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        return ("value-" + i).getBytes(StandardCharsets.UTF_8);
    }

    /** Child: commits keys 0, 1, 2, ... for {@code millis}, then reads every one back. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            long millis = Long.parseLong(args[1]);
            int n = 0;
            try (Environment env = Environment.open(home, EnvironmentConfig.builder().durability(Durability.SYNC).build());
                 Database db = env.openDatabase(null, "d", DatabaseConfig.builder().allowCreate(true).build())) {
                db.put(null, key(n), value(n));
                n++;
                System.out.println("READY");
                long end = System.currentTimeMillis() + millis;
                while (System.currentTimeMillis() < end || n <= 200) {
                    db.put(null, key(n), value(n));
                    n++;
                    if (n == 200) {
                        System.out.println("COMMITTED 200");
                    }
                }
                for (int i = 0; i < n; i++) {
                    byte[] v = db.get(null, key(i));
                    if (v == null || !java.util.Arrays.equals(v, value(i))) {
                        System.out.println("WRONG " + i);
                    }
                }
            }
            System.out.println("DONE " + n);
        }
    }

    private static void copyDirectory(Path from, Path to) throws IOException {
        Files.createDirectories(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : files.toList()) {
                try {
                    Files.copy(p, to.resolve(p.getFileName()));
                } catch (java.nio.file.NoSuchFileException gone) {
                    // a file removed while we listed (a log file recovery no longer needs)
                }
            }
        }
    }

    @Test
    void aCopyOfARunningEnvironmentOpensWithoutDisturbingIt() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path copy = dir.resolve("copy");
        try (ChildJvm w = ChildJvm.start(Writer.class, home.toString(), "4000")) {
            w.awaitLine("COMMITTED 200", Duration.ofMinutes(1)); // copy while it commits on
            copyDirectory(home, copy);
            int found = 0;
            try (Environment env = Environment.open(copy, EnvironmentConfig.defaults());
                 Database db = env.openDatabase(null, "d", DatabaseConfig.defaults());
                 Cursor c = db.openCursor(null)) {
                // A crash image: whatever it holds is a prefix of the commits, each whole.
                for (boolean more = c.first(); more; more = c.next()) {
                    assertArrayEquals(key(found), c.key(), "keys 0.." + (found - 1) + " then a gap");
                    assertArrayEquals(value(found), c.data());
                    found++;
                }
            }
            assertTrue(found >= 1, "the copy holds the first commit at least");
            w.assertExitsCleanly(Duration.ofMinutes(2));
            assertEquals(java.util.List.of(), w.linesStartingWith("WRONG "), w.outputText());
            int n = Integer.parseInt(w.linesStartingWith("DONE ").get(0).substring(5));
            assertTrue(n > found, "the original went on committing: " + n + " after " + found);
            try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
                 Database db = env.openDatabase(null, "d", DatabaseConfig.defaults())) {
                for (int i = 0; i < n; i++) {
                    assertArrayEquals(value(i), db.get(null, key(i)), "key " + i);
                }
            }
            System.out.println("CopiedEnvironmentMultiProcessTest: the copy held " + found + " commits, the original "
                    + "made " + n);
        }
    }
}
