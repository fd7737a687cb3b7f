package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A group-commit leader killed while it led, and another process's failCheck still busy with
 * the dead process (holding its liveness lock, so that the lock alone makes it look alive): a
 * committer in a third process must see the leader dead and lead itself. Waiting for the leader
 * instead once hung three processes (kill 654 of a kill-one-of-four campaign): failCheck's
 * rollback of the dead transaction waited for a frame latch, the frame's holder for a log force,
 * and the force for the dead leader.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeadLeaderMultiProcessTest {
    @TempDir
    Path home;

    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).latchCheckMillis(20)
            .build();
    static final LogConfig SMALL = LogConfig.builder().fileSize(64 * 1024).bufferSize(16 * 1024).build();

    /** Child: appends a record, names itself the group-commit leader, and waits to be killed. */
    public static final class Leader {
        public static void main(String[] args) throws Exception {
            Path home = Paths.get(args[0]);
            RegionEnvironment env = RegionEnvironment.open(home, ENV);
            SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL);
            log.append(7, 1, Lsn.NULL, "the dead leader's record".getBytes(java.nio.charset.StandardCharsets.UTF_8));
            Memory mem = env.region(SharedLog.spec(SMALL)).memory();
            int slot = env.processSlot();
            long me = (long) (slot + 1) << 40 | (env.slotGeneration(slot) & LogLayout.GEN_MASK);
            if (!mem.compareAndSetLong(LogLayout.OFF_LEADER, 0, me)) {
                throw new IllegalStateException("the leader word is taken");
            }
            System.out.println("LEADING");
            Thread.sleep(600_000);
        }
    }

    /** Child: appends a record and forces the log (SYNC). */
    public static final class Committer {
        public static void main(String[] args) throws Exception {
            Path home = Paths.get(args[0]);
            try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
                 SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
                long lsn = log.append(7, 2, Lsn.NULL, "a commit".getBytes(java.nio.charset.StandardCharsets.UTF_8));
                System.out.println("APPENDED");
                log.flush(lsn, Durability.SYNC);
                System.out.println("FORCED " + Lsn.toString(lsn));
            }
        }
    }

    @Test
    void aCommitterLeadsWhileAnotherProcessCleansUpAfterTheDeadLeader() throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            log.append(7, 0, Lsn.NULL, new byte[] {1});
            log.flush(log.endLsn(), Durability.SYNC);
            try (ChildJvm leader = ChildJvm.start(Leader.class, home.toString())) {
                leader.awaitLine("LEADING", Duration.ofSeconds(60));
                leader.kill();
                assertTrue(leader.process().waitFor(30, TimeUnit.SECONDS));
            }
            // This process's failCheck finds the dead leader and stays inside its listeners (as a
            // rollback waiting for a latch would) while holding the dead process's liveness lock.
            CountDownLatch inside = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            env.addFailCheckListener(dead -> {
                if (dead.length > 0) {
                    inside.countDown();
                    try {
                        release.await(120, TimeUnit.SECONDS);
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                    }
                }
            });
            AtomicReference<Object> result = new AtomicReference<>();
            Thread checker = new Thread(() -> {
                try {
                    result.set(env.failCheck());
                } catch (RuntimeException e) {
                    result.set(e);
                }
            }, "failCheck");
            checker.start();
            try {
                assertTrue(inside.await(30, TimeUnit.SECONDS), "failCheck did not find the dead leader");
                try (ChildJvm committer = ChildJvm.start(Committer.class, home.toString())) {
                    committer.awaitLine("APPENDED", Duration.ofSeconds(60));
                    committer.awaitLine("FORCED", Duration.ofSeconds(20)); // hung here before
                    assertTrue(committer.process().waitFor(30, TimeUnit.SECONDS));
                    assertEquals(0, committer.process().exitValue(), String.join("\n", committer.output()));
                }
            } finally {
                release.countDown();
                checker.join(30_000);
            }
            assertEquals(1, result.get(), "failCheck freed the dead leader's slot: " + result.get());
            assertFalse(env.isFailed());
            assertEquals(0L, env.region(SharedLog.spec(SMALL)).memory().getLongVolatile(LogLayout.OFF_LEADER),
                    "the dead leader's word was cleared");
        }
    }
}
