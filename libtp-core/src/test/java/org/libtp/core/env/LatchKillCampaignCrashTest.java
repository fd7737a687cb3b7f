package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Randomized kill -9 campaign. Each iteration: three workers update pairs of counters (a, b)
 * under four latches (a += 1, some work, b += 1); one is killed at a random instant, holding a
 * latch or not. The parent stays attached as an observer and checks afterwards:
 * <ul>
 *   <li>if a latch word names the victim, the environment failed and every survivor got
 *       {@code RunRecoveryException} within 1 s;</li>
 *   <li>otherwise nothing failed, failCheck frees the victim's slot, survivors go on, and every
 *       pair is consistent (a == b) under its latch.</li>
 * </ul>
 * 4 iterations in {@code mvn verify}, 100 under {@code -Pstress}; the seed replays.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class LatchKillCampaignCrashTest {
    static final int LATCHES = 4;

    @TempDir
    Path dir;

    /** Worker: updates random pairs until the stop file appears or the environment fails. */
    public static final class PairWorker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            Path stop = Path.of(args[1]);
            Random rnd = new Random(Long.parseLong(args[2]));
            try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(250))) {
                TestRegion t = new TestRegion(env);
                Memory m = t.region.memory();
                Latch[] latches = new Latch[LATCHES];
                for (int i = 0; i < LATCHES; i++) {
                    latches[i] = t.latch(8 + i);
                }
                System.out.println("RUNNING slot " + env.processSlot());
                long n = 0;
                try {
                    while (!Files.exists(stop)) {
                        int i = rnd.nextInt(LATCHES);
                        latches[i].acquire();
                        m.putLong(t.counterOffset(2 * i), m.getLong(t.counterOffset(2 * i)) + 1);
                        for (int spin = rnd.nextInt(2000); spin > 0; spin--) {
                            Thread.onSpinWait(); // hold the latch a while: kills land inside too
                        }
                        m.putLong(t.counterOffset(2 * i + 1), m.getLong(t.counterOffset(2 * i + 1)) + 1);
                        latches[i].release();
                        n++;
                    }
                    System.out.println("STOPPED " + n);
                } catch (RunRecoveryException e) {
                    System.out.println("RRE " + System.currentTimeMillis());
                }
            }
        }
    }

    @Test
    void randomKillsNeverHangAndNeverCorruptSilently() throws Exception {
        long seed = Seeds.seed("LatchKillCampaignCrashTest");
        Random rnd = new Random(seed);
        int iterations = Seeds.stress() ? 100 : 4;
        int failures = 0;
        for (int it = 0; it < iterations; it++) {
            if (iteration(it, rnd)) {
                failures++;
            }
        }
        System.out.println("LatchKillCampaignCrashTest: " + iterations + " iterations, " + failures
                + " killed inside a latch (environment failed), " + (iterations - failures) + " outside");
    }

    /** Returns true if the victim died holding a latch. */
    private boolean iteration(int it, Random rnd) throws Exception {
        Path home = Files.createDirectory(dir.resolve("env" + it));
        Path stop = dir.resolve("stop" + it);
        List<ChildJvm> workers = new ArrayList<>();
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(0))) {
            TestRegion t = new TestRegion(env);
            for (int w = 0; w < 3; w++) {
                workers.add(ChildJvm.start(PairWorker.class, home.toString(), stop.toString(),
                        Long.toString(rnd.nextLong())));
            }
            int[] slots = new int[3];
            for (int w = 0; w < 3; w++) {
                slots[w] = Integer.parseInt(workers.get(w).awaitLine("RUNNING", Duration.ofSeconds(60)).split(" ")[2]);
            }
            Latch[] latches = new Latch[LATCHES]; // views made now: after a failure env.latch() throws
            for (int i = 0; i < LATCHES; i++) {
                latches[i] = t.latch(8 + i);
            }
            Thread.sleep(50 + rnd.nextInt(300));
            int v = rnd.nextInt(3);
            long killedAt = System.currentTimeMillis();
            workers.get(v).kill();
            int victimOwner = slots[v] + 1;
            Thread.sleep(1_500);
            boolean heldByVictim = false;
            for (int i = 0; i < LATCHES; i++) {
                heldByVictim |= latches[i].owner() == victimOwner;
            }
            String ctx = "iteration " + it + ", victim slot " + slots[v];
            if (heldByVictim) {
                assertTrue(env.isFailed(), ctx + ": victim held a latch, environment must have failed");
                for (int w = 0; w < 3; w++) {
                    if (w == v) {
                        continue;
                    }
                    ChildJvm s = workers.get(w);
                    s.assertExitsCleanly(Duration.ofSeconds(30));
                    long at = Long.parseLong(s.awaitLine("RRE", Duration.ofSeconds(1)).split(" ")[1]);
                    assertTrue(at - killedAt <= 1_000, ctx + ": RunRecoveryException after " + (at - killedAt) + " ms");
                }
            } else {
                assertFalse(env.isFailed(), ctx + ": victim held no latch, nothing may fail");
                long deadline = System.currentTimeMillis() + 10_000;
                while (env.busyProcessSlots() > 3 && System.currentTimeMillis() < deadline) {
                    env.failCheck();
                    Thread.sleep(20);
                }
                assertEquals(3, env.busyProcessSlots(), ctx + ": victim slot not reclaimed");
                Memory m = t.region.memory();
                for (int i = 0; i < LATCHES; i++) {
                    Latch l = latches[i];
                    l.acquire();
                    try {
                        assertEquals(m.getLong(t.counterOffset(2 * i)), m.getLong(t.counterOffset(2 * i + 1)),
                                ctx + ": pair " + i + " inconsistent under its latch");
                    } finally {
                        l.release();
                    }
                }
                Files.createFile(stop);
                for (int w = 0; w < 3; w++) {
                    if (w != v) {
                        workers.get(w).assertExitsCleanly(Duration.ofSeconds(30));
                        assertTrue(workers.get(w).output().stream().anyMatch(l -> l.startsWith("STOPPED")),
                                workers.get(w).outputText());
                    }
                }
            }
            return heldByVictim;
        } finally {
            ChildJvm.closeAll(workers);
        }
    }
}
