package org.libtp.core.env;

import org.libtp.core.RunRecoveryException;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Latch and semaphore semantics within one JVM, with the futex and with the polling fallback. */
class LatchTest {
    @TempDir
    Path home;

    private RegionEnvironment open(boolean polling) {
        return RegionEnvironment.open(home, RegionEnvironmentConfig.builder().pollingFutex(polling)
                .latchCheckMillis(10_000).failCheckMillis(0).build());
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void threadsCountExactly(boolean polling) throws Exception {
        try (RegionEnvironment env = open(polling)) {
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(2);
            Memory m = t.region.memory();
            List<Thread> ths = new ArrayList<>();
            for (int k = 0; k < 4; k++) {
                Thread th = new Thread(() -> {
                    for (int i = 0; i < 50_000; i++) {
                        l.acquire();
                        m.putLong(t.counterOffset(2), m.getLong(t.counterOffset(2)) + 1);
                        l.release();
                    }
                });
                ths.add(th);
                th.start();
            }
            for (Thread th : ths) {
                th.join();
            }
            assertEquals(200_000, m.getLong(t.counterOffset(2)));
        }
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void releaseWakesASleeperPromptly(boolean polling) throws Exception {
        // The liveness check interval is 10 s: a prompt acquire proves the wake, not a timeout.
        try (RegionEnvironment env = open(polling)) {
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(3);
            l.acquire();
            AtomicLong acquiredAt = new AtomicLong();
            CountDownLatch started = new CountDownLatch(1);
            Thread waiter = new Thread(() -> {
                started.countDown();
                l.acquire();
                acquiredAt.set(System.nanoTime());
                l.release();
            });
            waiter.start();
            started.await();
            Thread.sleep(200); // the waiter is asleep in the kernel (or polling) by now
            assertTrue(waiter.isAlive());
            long releasedAt = System.nanoTime();
            l.release();
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
            long wokeMillis = TimeUnit.NANOSECONDS.toMillis(acquiredAt.get() - releasedAt);
            assertTrue(wokeMillis < 1_000, "woke " + wokeMillis + " ms after release");
        }
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void tryAndTimedAcquire(boolean polling) throws Exception {
        try (RegionEnvironment env = open(polling)) {
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(4);
            assertTrue(l.tryAcquire());
            assertTrue(l.isHeldByCurrentThread());
            assertEquals(env.processSlot() + 1, l.owner());
            Thread other = new Thread(() -> {
                assertFalse(l.tryAcquire());
                long t0 = System.nanoTime();
                assertFalse(l.acquire(150, TimeUnit.MILLISECONDS));
                long waited = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - t0);
                assertTrue(waited >= 140 && waited < 5_000, "timed acquire waited " + waited + " ms");
                assertFalse(l.isHeldByCurrentThread());
            });
            other.start();
            other.join();
            l.release();
            assertEquals(0, l.owner());
            assertTrue(l.acquire(1, TimeUnit.SECONDS));
            l.release();
        }
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void misuseIsRefusedNotHung(boolean polling) {
        try (RegionEnvironment env = open(polling)) {
            TestRegion t = new TestRegion(env);
            Latch l = t.latch(5);
            assertThrows(IllegalStateException.class, l::release, "release of a free latch");
            l.acquire();
            IllegalStateException again = assertThrows(IllegalStateException.class, l::acquire);
            assertTrue(again.getMessage().contains("already held by this thread"), again.getMessage());
            l.release();
            assertThrows(IllegalArgumentException.class, () -> env.latch(t.region, 4096, "not declared"));
            assertThrows(IllegalArgumentException.class, () -> env.latch(t.region, TestRegion.LATCHES + 8, "inside"));
            // a run of latches: all 16 declared ones, one past the array refused, named by index
            Latch[] all = env.latches(t.region, TestRegion.LATCHES, TestRegion.LATCH_STRIDE, 16, "run");
            assertEquals(16, all.length);
            assertTrue(all[15].toString().contains("run 15"), all[15].toString());
            assertThrows(IllegalArgumentException.class,
                    () -> env.latches(t.region, TestRegion.LATCHES, TestRegion.LATCH_STRIDE, 17, "run"));
            assertThrows(IllegalArgumentException.class,
                    () -> env.latches(t.region, TestRegion.LATCHES + 8, TestRegion.LATCH_STRIDE, 2, "inside"));
        }
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void semaphoreCountsAndWakes(boolean polling) throws Exception {
        try (RegionEnvironment env = open(polling)) {
            TestRegion t = new TestRegion(env);
            SharedSemaphore s = t.semaphore(2);
            assertFalse(s.tryAcquire());
            assertFalse(s.tryAcquire(50, TimeUnit.MILLISECONDS));
            s.post();
            s.post();
            assertEquals(2, s.availablePermits());
            assertTrue(s.tryAcquire());
            assertTrue(s.tryAcquire(1, TimeUnit.MILLISECONDS));
            assertEquals(0, s.availablePermits());
            AtomicLong got = new AtomicLong();
            Thread waiter = new Thread(() -> {
                s.acquire();
                got.set(System.nanoTime());
            });
            waiter.start();
            Thread.sleep(200);
            long postedAt = System.nanoTime();
            s.post();
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
            assertTrue(TimeUnit.NANOSECONDS.toMillis(got.get() - postedAt) < 1_000);
            assertThrows(IllegalArgumentException.class, () -> env.semaphore(t.region, 100, "in header"));
        }
    }

    @ParameterizedTest(name = "polling={0}")
    @ValueSource(booleans = {false, true})
    void aFailedEnvironmentWakesSleepers(boolean polling) throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(home, RegionEnvironmentConfig.builder().pollingFutex(polling)
                .latchCheckMillis(20).failCheckMillis(0).build())) {
            TestRegion t = new TestRegion(env);
            SharedSemaphore s = t.semaphore(3);
            AtomicLong failedAt = new AtomicLong();
            Thread waiter = new Thread(() -> {
                try {
                    s.acquire();
                } catch (RunRecoveryException e) {
                    failedAt.set(System.nanoTime());
                }
            });
            waiter.start();
            Thread.sleep(100);
            long t0 = System.nanoTime();
            ((SharedEnvironmentAccess) () -> env).fail("test failure");
            waiter.join(5_000);
            assertFalse(waiter.isAlive());
            assertTrue(failedAt.get() > 0, "the sleeper must get RunRecoveryException");
            assertTrue(TimeUnit.NANOSECONDS.toMillis(failedAt.get() - t0) < 1_000);
            assertTrue(env.isFailed());
            RunRecoveryException e = assertThrows(RunRecoveryException.class,
                    env::processSlot);
            assertTrue(e.getMessage().contains("test failure") && e.getMessage().contains(home.toRealPath().toString()),
                    e.getMessage());
        }
        try (RegionEnvironment env = open(polling)) {
            assertTrue(env.wasUnclean());
            assertFalse(env.isFailed());
        }
    }

    /** Test access to the package-private failure path. */
    @FunctionalInterface
    interface SharedEnvironmentAccess {
        RegionEnvironment env();

        default void fail(String reason) {
            env().sharedForTest().fail(reason);
        }
    }
}
