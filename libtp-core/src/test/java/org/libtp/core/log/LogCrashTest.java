package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Log durability across JVMs: several processes append and SYNC-flush records concurrently and
 * print each acknowledged LSN; then all are killed with SIGKILL at a random moment. After reopen
 * every acknowledged record is present with its payload, and the log scans cleanly to its end.
 * 20 iterations in {@code mvn verify}, 500 under {@code -Pstress}.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class LogCrashTest {
    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
    static final LogConfig LOG = LogConfig.builder().fileSize(256 * 1024).bufferSize(32 * 1024).build();

    @TempDir
    Path dir;

    /** Child: {@code threads} threads append + SYNC flush until killed (or {@code count} each). */
    public static final class Appender {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            String id = args[1];
            int threads = Integer.parseInt(args[2]);
            int count = Integer.parseInt(args[3]);
            try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
                 SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
                System.out.println("READY");
                List<Thread> ts = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    String who = id + "." + t;
                    Thread th = new Thread(() -> {
                        for (int i = 0; i < count; i++) {
                            byte[] p = (who + ":" + i + ":" + "p".repeat(i % 200)).getBytes(StandardCharsets.UTF_8);
                            long lsn = log.appendAndFlush(5, 1, Lsn.NULL, p, Durability.SYNC);
                            synchronized (System.out) {
                                System.out.println("ACK " + lsn + " " + who + ":" + i);
                            }
                        }
                    });
                    ts.add(th);
                    th.start();
                }
                for (Thread th : ts) {
                    th.join();
                }
                System.out.println("DONE forces=" + log.forceCount());
            }
        }
    }

    private static byte[] expected(String tag) {
        int i = Integer.parseInt(tag.substring(tag.indexOf(':') + 1));
        return (tag + ":" + "p".repeat(i % 200)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void concurrentSyncAppendsFromFourJvms() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        List<ChildJvm> cs = ChildJvm.startAll(4, Appender.class, i -> new String[] {home.toString(), "p" + i, "2", "300"});
        Map<Long, String> acked = new HashMap<>();
        long forces = 0;
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(3));
                for (String l : c.linesStartingWith("ACK ")) {
                    String[] f = l.split(" ");
                    acked.put(Long.parseLong(f[1]), f[2]);
                }
                forces += Long.parseLong(c.awaitLine("DONE", Duration.ofSeconds(1)).split("=")[1]);
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        assertEquals(4 * 2 * 300, acked.size(), "every append got its own LSN");
        System.out.println("4 JVMs x 2 threads: " + acked.size() + " SYNC commits, " + forces + " forces");
        verify(home, acked, acked.size());
    }

    @Test
    void everyAcknowledgedRecordSurvivesKillOfEveryProcess() throws Exception {
        long seed = Seeds.seed("LogCrashTest");
        Random rnd = new Random(seed);
        int iterations = Seeds.rounds(20, 500);
        Path home = Files.createDirectory(dir.resolve("env"));
        Map<Long, String> acked = new HashMap<>();
        for (int it = 0; it < iterations; it++) {
            List<ChildJvm> cs = ChildJvm.startAll(4, Appender.class,
                    i -> new String[] {home.toString(), "i" + i + "p" + rnd.nextInt(1_000_000), "2", "1000000"});
            try {
                for (ChildJvm c : cs) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Thread.sleep(20 + rnd.nextInt(400));
                for (ChildJvm c : cs) {
                    c.signalKill(); // all at once, as close together as we can
                }
                for (ChildJvm c : cs) {
                    c.kill();
                }
            } finally {
                ChildJvm.closeAll(cs);
            }
            for (ChildJvm c : cs) {
                for (String l : c.linesStartingWith("ACK ")) {
                    String[] f = l.split(" ");
                    if (f.length == 3) {
                        acked.put(Long.parseLong(f[1]), f[2]);
                    }
                }
            }
            verify(home, acked, -1);
        }
        System.out.println("LogCrashTest: " + iterations + " kill -9 rounds, " + acked.size()
                + " acknowledged records all present");
    }

    /** Reopens (recovering the end of the log) and checks every acknowledged record. */
    private static void verify(Path home, Map<Long, String> acked, int expectedRecords) {
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            for (Map.Entry<Long, String> a : acked.entrySet()) {
                LogEntry e = log.read(a.getKey());
                assertArrayEquals(expected(a.getValue()), e.payload(), "acknowledged record at " + Lsn.toString(a.getKey()));
            }
            int[] n = {0};
            long[] prev = {Lsn.NULL};
            log.scan(Lsn.NULL, e -> {
                assertTrue(e.lsn() > prev[0]);
                prev[0] = e.lsn();
                n[0]++;
                return true;
            });
            assertTrue(n[0] >= acked.size());
            if (expectedRecords >= 0) {
                assertEquals(expectedRecords, n[0]);
            }
        }
    }
}
