package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.testkit.Seeds;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Power loss under the record API: workers commit durable transactions through
 * {@link Environment} opened over a storage that loses, keeps or tears every write and directory
 * operation not yet forced (every write, data pages included, may tear by sector or keep a prefix:
 * torn data pages are rewritten by recovery from the page images logged before each page write);
 * at a random moment the machine "loses power". After recovery every
 * acknowledged commit must be there exactly, nothing else of a later one, and the tree verifies.
 * Worker w's transaction n puts key w/n (values of 10 bytes to 6 KiB: leaves, splits and
 * overflow chains), deletes w/(n-4) and sets w/count to n.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class PowerLossCrashTest {
    static final int WORKERS = 3;

    @TempDir
    Path dir;

    static byte[] key(int w, long n) {
        return String.format("w%d/%08d", w, n).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] countKey(int w) {
        return ("w" + w + "/count").getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int w, long n) {
        int len = n % 13 == 0 ? 6000 : 10 + (int) ((n * 37 + w) % 300);
        byte[] v = new byte[len];
        for (int i = 0; i < len; i++) {
            v[i] = (byte) (w * 11 + n * 7 + i);
        }
        return v;
    }

    /** Thrown inside a transaction to roll it back. */
    static final class OnPurpose extends RuntimeException {
        private static final long serialVersionUID = 1L;
    }

    static long decode(byte[] b) {
        return b == null ? 0 : Long.parseLong(new String(b, StandardCharsets.UTF_8));
    }

    @Test
    void everyAcknowledgedCommitSurvivesPowerLoss() throws Exception {
        long seed = Seeds.seed("PowerLossCrashTest");
        Random rnd = new Random(seed);
        int rounds = Seeds.rounds(20, 1000);
        EnvironmentConfig config = EnvironmentConfig.builder().cacheBytes(1 << 20).logFileSize(256 << 10)
                .logBufferSize(64 << 10).checkpointBytes(512 << 10).build();
        long commits = 0;
        for (int round = 0; round < rounds; round++) {
            String where = "seed " + seed + " round " + round + ": ";
            long[] before = new long[WORKERS];
            try (Environment env = Environment.open(dir, config);
                 Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
                for (int w = 0; w < WORKERS; w++) {
                    before[w] = decode(db.get(null, countKey(w)));
                }
            }
            FaultInjectingStorage fis = new FaultInjectingStorage(dir);
            // No write is atomic: data pages, log, anchor and registry writes all tear.
            Environment env = Environment.open(dir, config, fis);
            Path regions = env.tp.env().regionDirectory();
            Database db = env.openDatabase(null, "t", DatabaseConfig.defaults());
            AtomicLongArray acked = new AtomicLongArray(WORKERS);
            AtomicBoolean stop = new AtomicBoolean();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < WORKERS; w++) {
                int me = w;
                acked.set(me, before[me]);
                Random wr = new Random(rnd.nextLong());
                threads.add(new Thread(() -> {
                    long n = before[me];
                    try {
                        while (!stop.get()) {
                            long next = n + 1;
                            try {
                                env.runInTransaction(t -> {
                                    db.put(t, key(me, next), value(me, next));
                                    db.delete(t, key(me, next - 4));
                                    db.put(t, countKey(me), Long.toString(next).getBytes(StandardCharsets.UTF_8));
                                    if (wr.nextInt(10) == 0) {
                                        db.put(t, key(me, next + 1_000_000), value(me, next)); // rolled back
                                        throw new OnPurpose();
                                    }
                                });
                            } catch (OnPurpose rolledBack) {
                                continue;
                            }
                            n = next;
                            acked.set(me, n);
                        }
                    } catch (RuntimeException crashed) {
                        // the storage lost power under it: the environment failed
                    }
                }, "powerloss-" + round + "-" + w));
            }
            threads.forEach(Thread::start);
            Thread.sleep(30 + rnd.nextInt(200));
            FaultInjectingStorage.CrashReport report = fis.crash(rnd, rnd.nextInt(3) == 0
                    ? FaultInjectingStorage.CrashMode.LOSE_ALL : FaultInjectingStorage.CrashMode.RANDOM);
            long[] ack = new long[WORKERS];
            for (int w = 0; w < WORKERS; w++) {
                ack[w] = acked.get(w);
            }
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(60));
                if (t.isAlive()) {
                    StringBuilder dump = new StringBuilder();
                    for (Thread any : threads) {
                        dump.append('\n').append(any.getName()).append(any.isAlive() ? " (alive)" : "");
                        for (StackTraceElement e : any.getStackTrace()) {
                            dump.append("\n    at ").append(e);
                        }
                    }
                    assertFalse(true, where + "a worker hangs after the power loss:" + dump);
                }
            }
            try {
                db.close();
                env.close();
            } catch (RuntimeException ignored) {
                // the storage is gone
            }
            FaultInjectingStorage.loseSharedMemory(regions); // and the shared regions with it
            try (Environment after = Environment.open(dir, config);
                 Database t = after.openDatabase(null, "t", DatabaseConfig.defaults())) {
                for (int w = 0; w < WORKERS; w++) {
                    long c = decode(t.get(null, countKey(w)));
                    assertTrue(c >= ack[w], where + "worker " + w + " count " + c + " < " + ack[w]
                            + " acknowledged\n" + report);
                    assertTrue(c <= ack[w] + 1, where + "worker " + w + " count " + c + " > acknowledged + 1");
                    for (long n = Math.max(1, c - 10); n <= c + 2; n++) {
                        byte[] got = t.get(null, key(w, n));
                        if (n > c - 4 && n <= c) {
                            assertArrayEquals(value(w, n), got, where + "worker " + w + " key " + n + " of count " + c
                                    + "\n" + report);
                        } else {
                            assertNull(got, where + "worker " + w + " key " + n + " should be gone (count " + c + ")");
                        }
                        assertNull(t.get(null, key(w, n + 1_000_000)), where + "an aborted insert survived");
                    }
                    commits += c - before[w];
                }
                assertEquals(List.of(), t.verify(), where + "verify");
            }
        }
        System.out.println("PowerLossCrashTest: " + rounds + " power losses, " + commits + " acknowledged commits checked");
        assertTrue(Files.exists(dir.resolve("__libtp.anchor")));
    }
}
