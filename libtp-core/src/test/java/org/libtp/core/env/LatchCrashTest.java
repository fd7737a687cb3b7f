package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** kill -9 of processes that hold, or do not hold, a latch. */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class LatchCrashTest {
    @TempDir
    Path dir;

    /**
     * Child. Modes: "hold" takes latch 0 and sleeps; "spin" loops acquire/release of latch 0,
     * "spinOther" of latch 7, which nobody holds;
     * "idle" only calls environment methods; "count" increments counter 1 under latch 1 until the
     * stop file appears. Prints "RRE millis" when it gets RunRecoveryException.
     */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            String mode = args[1];
            Path stop = args.length > 2 ? Path.of(args[2]) : null;
            RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(250));
            TestRegion t = new TestRegion(env);
            try {
                switch (mode) {
                    case "hold": {
                        t.latch(0).acquire();
                        System.out.println("HOLDING");
                        Thread.sleep(Long.MAX_VALUE);
                        break;
                    }
                    case "spin":
                    case "spinOther": {
                        Latch l = t.latch(mode.equals("spin") ? 0 : 7); // held by the victim, or free
                        System.out.println("RUNNING");
                        while (true) {
                            l.acquire();
                            l.release();
                        }
                    }
                    case "idle": {
                        System.out.println("RUNNING");
                        while (true) {
                            env.processSlot(); // any call checks the environment
                            Thread.sleep(5);
                        }
                    }
                    case "count": {
                        Latch l = t.latch(1);
                        Memory m = t.region.memory();
                        System.out.println("RUNNING");
                        long n = 0;
                        while (!Files.exists(stop)) {
                            l.acquire();
                            m.putLong(t.counterOffset(1), m.getLong(t.counterOffset(1)) + 1);
                            l.release();
                            n++;
                        }
                        System.out.println("COUNTED " + n);
                        break;
                    }
                    default:
                        throw new IllegalArgumentException(mode);
                }
            } catch (RunRecoveryException e) {
                System.out.println("RRE " + System.currentTimeMillis() + " " + e.getMessage());
            } finally {
                env.close();
            }
            System.out.println("EXIT");
        }
    }

    @Test
    void killingALatchHolderFailsTheEnvironmentForEveryoneWithinOneSecond() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        List<ChildJvm> survivors = new ArrayList<>();
        try (ChildJvm holder = ChildJvm.start(Worker.class, home.toString(), "hold")) {
            holder.awaitLine("HOLDING", Duration.ofSeconds(60));
            survivors.add(ChildJvm.start(Worker.class, home.toString(), "spin"));
            survivors.add(ChildJvm.start(Worker.class, home.toString(), "spin"));
            survivors.add(ChildJvm.start(Worker.class, home.toString(), "idle"));
            survivors.add(ChildJvm.start(Worker.class, home.toString(), "spinOther"));
            for (ChildJvm s : survivors) {
                s.awaitLine("RUNNING", Duration.ofSeconds(60));
            }
            Thread.sleep(300); // let the spinners block on the held latch
            long killedAt = System.currentTimeMillis();
            holder.kill();
            for (ChildJvm s : survivors) {
                s.assertExitsCleanly(Duration.ofSeconds(30)); // no survivor hangs
                String rre = s.awaitLine("RRE", Duration.ofSeconds(1));
                long at = Long.parseLong(rre.split(" ")[1]);
                System.out.println("RunRecoveryException " + (at - killedAt) + " ms after kill -9 of the holder");
                assertTrue(at - killedAt <= 1_000, "RunRecoveryException " + (at - killedAt)
                        + " ms after the kill. " + s.outputText());
                assertTrue(rre.contains("died holding"), rre);
            }
        } finally {
            ChildJvm.closeAll(survivors);
        }
        // Everyone has closed: a fresh open rebuilds the regions and works.
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(0))) {
            assertTrue(env.createdRegions());
            assertTrue(env.wasUnclean(), "the failed environment must be reported as unclean");
            assertFalse(env.isFailed());
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(0);
            l.acquire(); // rebuilt: free again
            l.release();
        }
    }

    @Test
    void killingAProcessThatHoldsNoLatchOnlyFreesItsSlot() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path stop = dir.resolve("stop");
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(0));
             ChildJvm victim = ChildJvm.start(Worker.class, home.toString(), "idle");
             ChildJvm survivor = ChildJvm.start(Worker.class, home.toString(), "count", stop.toString())) {
            victim.awaitLine("RUNNING", Duration.ofSeconds(60));
            survivor.awaitLine("RUNNING", Duration.ofSeconds(60));
            victim.kill();
            // This process runs no background failCheck (failCheckMillis 0), so the slot is still
            // taken until the survivor's background check or ours frees it.
            long deadline = System.currentTimeMillis() + 10_000;
            int freed = 0;
            while (env.busyProcessSlots() > 2 && System.currentTimeMillis() < deadline) {
                freed += env.failCheck();
                Thread.sleep(20);
            }
            assertEquals(2, env.busyProcessSlots(), "the dead process's slot must be reclaimed");
            assertEquals(0, env.failCheck(), "nothing more to reclaim");
            assertFalse(env.isFailed());
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(1);
            long before;
            l.acquire();
            before = t.region.memory().getLong(t.counterOffset(1));
            l.release();
            Thread.sleep(200);
            l.acquire();
            long after = t.region.memory().getLong(t.counterOffset(1));
            l.release();
            assertTrue(after > before, "the survivor keeps working after the kill");
            Files.createFile(stop);
            survivor.assertExitsCleanly(Duration.ofSeconds(30));
            assertFalse(survivor.outputText().contains("RRE"), survivor.outputText());
            assertTrue(freed >= 0);
        }
    }
}
