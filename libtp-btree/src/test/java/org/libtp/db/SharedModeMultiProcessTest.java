package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

/**
 * The paper's SHARED mode across JVMs: three processes write and read one B-tree at once through
 * the shared buffer pool, serialized per operation by the database lock, with no transactions.
 * Each writes its own keys (many splits) and reads back the others' as they appear; at the end
 * every key is there and the tree verifies.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class SharedModeMultiProcessTest {
    static final int PER_PROCESS = 3000;
    static final EnvironmentConfig SHARED = EnvironmentConfig.builder().mode(OpenMode.SHARED).cacheBytes(1 << 20).build();

    @TempDir
    Path dir;

    static byte[] key(int proc, int i) {
        return String.format("%05d-p%d", i, proc).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int proc, int i) {
        return ("value " + proc + " " + i + " " + "z".repeat(i % 90)).getBytes(StandardCharsets.UTF_8);
    }

    /** Child: writes its keys, checking each earlier one of its own and some of the others'. */
    public static final class Writer {
        public static void main(String[] args) {
            Path home = Path.of(args[0]);
            int proc = Integer.parseInt(args[1]);
            try (Environment env = Environment.open(home, SHARED);
                 Database db = env.openDatabase(null, "shared", DatabaseConfig.builder().allowCreate(true).build())) {
                System.out.println("READY");
                int seenOthers = 0;
                for (int i = 0; i < PER_PROCESS; i++) {
                    db.put(null, key(proc, i), value(proc, i));
                    int j = i / 2;
                    byte[] mine = db.get(null, key(proc, j));
                    if (mine == null || !java.util.Arrays.equals(mine, value(proc, j))) {
                        System.out.println("LOST " + new String(key(proc, j), StandardCharsets.UTF_8));
                    }
                    byte[] other = db.get(null, key((proc + 1) % 3, j));
                    if (other != null) {
                        seenOthers++;
                        if (!java.util.Arrays.equals(other, value((proc + 1) % 3, j))) {
                            System.out.println("WRONG " + j);
                        }
                    }
                }
                System.out.println("SEEN " + seenOthers);
            }
        }
    }

    @Test
    void threeProcessesShareOneTreeWithoutTransactions() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (Environment env = Environment.open(home, SHARED)) {
            env.openDatabase(null, "shared", DatabaseConfig.builder().allowCreate(true).build()).close();
        }
        List<ChildJvm> cs = ChildJvm.startAll(3, Writer.class, i -> new String[] {home.toString(), Integer.toString(i)});
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(3));
                assertEquals(List.of(), c.linesStartingWith("LOST"));
                assertEquals(List.of(), c.linesStartingWith("WRONG"));
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        try (Environment env = Environment.open(home, SHARED);
             Database db = env.openDatabase(null, "shared", DatabaseConfig.defaults())) {
            assertEquals(List.of(), db.verify());
            assertEquals(3L * PER_PROCESS, db.stat().entries());
            for (int p = 0; p < 3; p++) {
                for (int i = 0; i < PER_PROCESS; i += 97) {
                    assertArrayEquals(value(p, i), db.get(null, key(p, i)));
                }
            }
        }
    }
}
