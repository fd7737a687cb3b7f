package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The shared latch and semaphore across JVMs. */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class LatchMultiProcessTest {
    static final int PROCESSES = 4;
    static final int THREADS = 2;
    static final int INCREMENTS = 250_000;

    @TempDir
    Path dir;

    /** Child: THREADS threads each add 1 to a plain (non-atomic) counter INCREMENTS times under the latch. */
    public static final class CounterChild {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            Path go = Path.of(args[1]);
            try (RegionEnvironment env = RegionEnvironment.open(dir, TestRegion.config(250))) {
                TestRegion t = new TestRegion(env);
                Latch latch = t.latch(0);
                Memory m = t.region.memory();
                long counter = t.counterOffset(0);
                System.out.println("READY slot " + env.processSlot());
                while (!Files.exists(go)) {
                    Thread.sleep(5);
                }
                List<Thread> threads = new ArrayList<>();
                for (int k = 0; k < THREADS; k++) {
                    Thread th = new Thread(() -> {
                        for (int i = 0; i < INCREMENTS; i++) {
                            latch.acquire();
                            try {
                                m.putLong(counter, m.getLong(counter) + 1); // plain read-modify-write
                            } finally {
                                latch.release();
                            }
                        }
                    });
                    threads.add(th);
                    th.start();
                }
                for (Thread th : threads) {
                    th.join();
                }
                System.out.println("DONE");
            }
        }
    }

    @Test
    void plainCounterUnderSharedLatchIsExactAcrossFourJvms() throws Exception {
        Path go = dir.resolve("go");
        Path home = Files.createDirectory(dir.resolve("env"));
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(250))) {
            TestRegion region = new TestRegion(env);
            List<ChildJvm> children = ChildJvm.startAll(PROCESSES, CounterChild.class,
                    i -> new String[] {home.toString(), go.toString()});
            try {
                for (ChildJvm c : children) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Files.createFile(go);
                for (ChildJvm c : children) {
                    c.assertExitsCleanly(Duration.ofMinutes(5));
                    assertTrue(c.output().contains("DONE"), c.outputText());
                }
            } finally {
                ChildJvm.closeAll(children);
            }
            long total = region.region.memory().getLong(region.counterOffset(0));
            assertEquals((long) PROCESSES * THREADS * INCREMENTS, total);
            assertEquals(0, region.latch(0).owner(), "latch left held");
        }
    }

    /** Child: waits on semaphore 0 and answers on semaphore 1, {@code n} times. */
    public static final class EchoChild {
        public static void main(String[] args) {
            Path dir = Path.of(args[0]);
            int n = Integer.parseInt(args[1]);
            try (RegionEnvironment env = RegionEnvironment.open(dir, TestRegion.config(250))) {
                TestRegion t = new TestRegion(env);
                SharedSemaphore ping = t.semaphore(0);
                SharedSemaphore pong = t.semaphore(1);
                System.out.println("READY");
                for (int i = 0; i < n; i++) {
                    ping.acquire();
                    pong.post();
                }
                System.out.println("DONE");
            }
        }
    }

    @Test
    void semaphorePingPongAcrossJvms() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        int n = 2_000;
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(250))) {
            TestRegion t = new TestRegion(env);
            SharedSemaphore ping = t.semaphore(0);
            SharedSemaphore pong = t.semaphore(1);
            try (ChildJvm child = ChildJvm.start(EchoChild.class, home.toString(), Integer.toString(n))) {
                child.awaitLine("READY", Duration.ofSeconds(60));
                for (int i = 0; i < n; i++) {
                    ping.post();
                    assertTrue(pong.tryAcquire(10, java.util.concurrent.TimeUnit.SECONDS),
                            "no answer to ping " + i + ". " + child.outputText());
                }
                child.assertExitsCleanly(Duration.ofSeconds(60));
            }
            assertEquals(0, ping.availablePermits());
            assertEquals(0, pong.availablePermits());
        }
    }
}
