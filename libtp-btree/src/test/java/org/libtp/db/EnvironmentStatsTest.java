package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Environment.stats() and wasRecovered(): after a clean close, a kill -9, and for a second handle. */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class EnvironmentStatsTest {
    static final DatabaseConfig CREATE = DatabaseConfig.builder().allowCreate(true).build();

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void statsCountWhatHappened() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().cacheBytes(1 << 20).build());
             Database db = env.openDatabase(null, "s", CREATE)) {
            EnvironmentStats before = env.stats();
            try (Transaction t = env.beginTransaction()) {
                for (int i = 0; i < 500; i++) {
                    db.put(t, b("k" + i), new byte[100]);
                }
                EnvironmentStats during = env.stats();
                assertTrue(during.transactions().active() >= 1, during.toString());
                assertTrue(during.locks().locksInUse() >= 1, during.toString());
                assertTrue(during.cache().dirtyFrames() >= 1, during.toString());
                t.commit();
            }
            try (Transaction t = env.beginTransaction()) {
                db.put(t, b("x"), b("y"));
                t.abort();
            }
            env.checkpoint();
            EnvironmentStats s = env.stats();
            assertEquals(before.transactions().begun() + 2, s.transactions().begun(), s.toString());
            assertEquals(before.transactions().committed() + 1, s.transactions().committed(), s.toString());
            assertEquals(before.transactions().aborted() + 1, s.transactions().aborted(), s.toString());
            assertEquals(256, s.transactions().maxTransactions());
            assertTrue(s.log().endLsn() > before.log().endLsn(), s.toString());
            assertTrue(s.log().flushedLsn() >= before.log().flushedLsn(), s.toString());
            assertTrue(s.log().forces() > before.log().forces(), "SYNC commits force: " + s);
            assertTrue(s.log().forcesAll() >= s.log().forces() && s.log().forcesAll() > before.log().forcesAll(), s.toString());
            assertTrue(s.log().meanForceMicros() > 0, "forces take time: " + s);
            assertTrue(s.log().files() >= 1 && s.log().firstFile() >= 1 && s.log().lastFile() >= s.log().firstFile(), s.toString());
            assertTrue(s.log().lastCheckpointLsn() > before.log().lastCheckpointLsn(), s.toString());
            assertTrue(s.locks().requests() > before.locks().requests(), s.toString());
            assertEquals(20_000, s.locks().maxLocks());
            assertTrue(s.cache().hits() + s.cache().misses() > 0, s.toString());
            assertEquals(256, s.cache().frames());
            assertTrue(s.cache().hitRatio() >= 0 && s.cache().hitRatio() <= 1);
            String text = s.toString();
            for (String part : new String[] {"log: end (", "flushed", "forces", "locks:", "deadlocks", "cache:", "hits",
                    "dirty", "transactions:", "committed", "aborted"}) {
                assertTrue(text.contains(part), "'" + part + "' in " + text);
            }
        }
    }

    /** Child: commits one record, leaves another uncommitted, prints READY and waits to be killed. */
    public static final class Crasher {
        public static void main(String[] args) throws Exception {
            Environment env = Environment.open(Path.of(args[0]), EnvironmentConfig.defaults());
            Database db = env.openDatabase(null, "r", CREATE);
            db.put(null, b("committed"), b("1"));
            Transaction t = env.beginTransaction(Durability.SYNC, false);
            db.put(t, b("uncommitted"), b("2"));
            env.sync(); // the uncommitted change's log reaches the disk: recovery must roll it back
            System.out.println("READY");
            Thread.sleep(600_000);
        }
    }

    @Test
    void wasRecoveredOnlyAfterACrash() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults())) {
            assertFalse(env.wasRecovered(), "a new environment");
            env.openDatabase(null, "r", CREATE).close();
        }
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults())) {
            assertFalse(env.wasRecovered(), "after a clean close");
        }
        try (ChildJvm c = ChildJvm.start(Crasher.class, home.toString())) {
            c.awaitLine("READY", Duration.ofSeconds(60));
            c.kill();
        }
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "r", DatabaseConfig.defaults())) {
            assertTrue(env.wasRecovered(), "the child was killed with the environment open");
            assertArrayEquals(b("1"), db.get(null, b("committed")));
            assertNull(db.get(null, b("uncommitted")), "rolled back by recovery");
            try (Environment second = Environment.open(home, EnvironmentConfig.defaults())) {
                assertFalse(second.wasRecovered(), "a handle opened while the environment is open recovers nothing");
            }
        }
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults())) {
            assertFalse(env.wasRecovered(), "closed cleanly after the recovery");
            env.close();
            assertThrows(IllegalStateException.class, env::stats);
        }
    }
}
