package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CapacityExceededException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A cursor over a database with many more pages than the lock table holds completes in one
 * transaction (before, it failed with "lock table full ... raise LockConfig.maxObjects"): the
 * transaction escalates to a lock on the whole database, and a writer in another JVM waits for
 * the scan to commit instead of changing pages under it.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class BigScanMultiProcessTest {
    static final int ROWS = 40_000;

    @TempDir
    Path dir;

    static EnvironmentConfig config(int escalation) {
        return EnvironmentConfig.builder().maxLocks(500).maxLockObjects(500).lockEscalationThreshold(escalation)
                .durability(Durability.NO_SYNC).build();
    }

    static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    /** Child: puts key "late" (waiting for the scan's database lock), prints WROTE. */
    public static final class Writer {
        public static void main(String[] args) {
            try (Environment env = Environment.open(Path.of(args[0]), config(1000));
                 Database db = env.openDatabase(null, "big", DatabaseConfig.defaults())) {
                System.out.println("STARTED");
                db.put(null, "late".getBytes(StandardCharsets.UTF_8), new byte[10]);
                System.out.println("WROTE");
            }
        }
    }

    @Test
    void aScanOfAnySizeCompletesAndWritersWaitForIt() throws Exception {
        byte[] v = new byte[100];
        try (Environment env = Environment.open(dir, config(1000));
             Database db = env.openDatabase(null, "big", DatabaseConfig.builder().allowCreate(true).build())) {
            for (int i = 0; i < ROWS; i += 2000) {
                int from = i;
                env.runInTransaction(t -> {
                    for (int k = from; k < from + 2000; k++) {
                        db.put(t, key(k), v);
                    }
                });
            }
            assertTrue(db.stat().leafPages() > 1000, "more leaves than the lock table: " + db.stat());
            try (ChildJvm child = ChildJvm.start(Writer.class, dir.toString())) {
                try (Transaction t = env.beginTransaction(Durability.NO_SYNC, true); Cursor c = db.openCursor(t)) {
                    int n = 0;
                    for (boolean ok = c.first(); ok; ok = c.next()) {
                        n++;
                        if (n == ROWS / 2) {
                            assertNotNull(child.awaitLine("STARTED", Duration.ofSeconds(60)), child.outputText());
                        }
                    }
                    assertEquals(ROWS, n);
                    Thread.sleep(300);
                    assertTrue(child.linesStartingWith("WROTE").isEmpty(), "the writer waits for the scan's lock");
                    assertNull(db.get(t, "late".getBytes(StandardCharsets.UTF_8)));
                    assertTrue(env.stats().locks().escalations() >= 1, env.stats().toString());
                    c.close();
                    t.commit();
                }
                assertNotNull(child.awaitLine("WROTE", Duration.ofSeconds(60)), child.outputText());
                child.assertExitsCleanly(Duration.ofSeconds(60));
            }
        }
        // Without escalation the same scan overflows the table, naming the setting.
        try (Environment env = Environment.open(dir, config(0));
             Database db = env.openDatabase(null, "big", DatabaseConfig.defaults());
             Transaction t = env.beginTransaction(Durability.NO_SYNC, true);
             Cursor c = db.openCursor(t)) {
            CapacityExceededException e = assertThrows(CapacityExceededException.class, () -> {
                for (boolean ok = c.first(); ok; ok = c.next()) {
                    // scan
                }
            });
            assertTrue(e.getMessage().contains("maxObjects") || e.getMessage().contains("maxLocks"), e.getMessage());
        }
    }
}
