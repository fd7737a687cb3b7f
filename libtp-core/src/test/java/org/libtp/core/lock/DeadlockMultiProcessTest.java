package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.txn.Txn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockFixture.page;

/**
 * Deadlocks across JVMs: rings of 2 to 8 processes, each cycle found and broken by exactly one
 * victim; and the periodic detector's role surviving kill -9 of the process that holds it.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class DeadlockMultiProcessTest {
    static final int COUNTERS = 6;

    @TempDir
    Path dir;

    /** Waits for {@code file} to exist (the cross-process barrier is files in the test directory). */
    static void awaitFile(Path file) throws InterruptedException {
        long deadline = System.currentTimeMillis() + 60_000;
        while (!Files.exists(file)) {
            if (System.currentTimeMillis() > deadline) {
                throw new IllegalStateException("timed out waiting for " + file);
            }
            Thread.sleep(2);
        }
    }

    /**
     * Child: ring member {@code i}. For each round N it takes part in (i &lt; N): wait for file
     * round-N, lock page 100N + i WRITE, announce it, wait until all N members have theirs, then
     * ask for page 100N + (i+1)%N: every member then waits for the next, a cycle of N. Prints
     * {@code ROUND N i VICTIM|COMMITTED txnId}.
     * Args: home, i, barrier dir, detectOnBlock, detectIntervalMillis, rounds (comma separated).
     */
    public static final class RingMember {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int i = Integer.parseInt(args[1]);
            Path barrier = Path.of(args[2]);
            LockConfig config = LockConfig.builder().detectOnBlock(Boolean.parseBoolean(args[3]))
                    .detectIntervalMillis(Long.parseLong(args[4])).build();
            try (LockFixture f = new LockFixture(home, 250, config)) {
                System.out.println("READY " + f.env.processSlot());
                for (String r : args[5].split(",")) {
                    int n = Integer.parseInt(r);
                    if (i >= n) {
                        continue;
                    }
                    awaitFile(barrier.resolve("round-" + n));
                    Txn t = f.tm.begin();
                    f.lm.lock(t, page(100L * n + i), LockMode.WRITE, 0);
                    Files.createFile(barrier.resolve("round-" + n + ".ready." + i));
                    for (int k = 0; k < n; k++) {
                        awaitFile(barrier.resolve("round-" + n + ".ready." + k));
                    }
                    String outcome;
                    try {
                        f.lm.lock(t, page(100L * n + (i + 1) % n), LockMode.WRITE, 0);
                        f.store.put(t, n * 10 + i, 1); // a logged change, so commit and abort do work
                        f.tm.commit(t);
                        outcome = "COMMITTED";
                    } catch (DeadlockException e) {
                        f.tm.abort(t);
                        outcome = "VICTIM";
                    }
                    System.out.println("ROUND " + n + " " + i + " " + outcome + " " + t.id());
                }
                awaitFile(barrier.resolve("done"));
            }
            System.out.println("DONE");
        }
    }

    /** Child: opens the lock manager with a periodic detector and idles until killed. Args: home. */
    public static final class Idler {
        public static void main(String[] args) throws Exception {
            LockConfig config = LockConfig.builder().detectOnBlock(false).detectIntervalMillis(100).build();
            try (LockFixture f = new LockFixture(Path.of(args[0]), 250, config)) {
                System.out.println("READY " + f.env.processSlot());
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    /**
     * Child: {@code threads} workers each run {@code count} transactions that lock 2 or 3 of
     * {@link #COUNTERS} pages WRITE in random order (so deadlocks are frequent) and increment the
     * slot-store counter of each; a deadlock victim aborts (its increments are undone) and
     * retries. Prints {@code INCREMENTS n} (committed increments) and {@code VICTIMS n}.
     * Args: home, seed, threads, count.
     */
    public static final class Incrementer {
        public static void main(String[] args) throws Exception {
            long seed = Long.parseLong(args[1]);
            int threads = Integer.parseInt(args[2]);
            int count = Integer.parseInt(args[3]);
            LockConfig config = LockConfig.builder().detectIntervalMillis(200).build();
            try (LockFixture f = new LockFixture(Path.of(args[0]), 250, config)) {
                System.out.println("READY " + f.env.processSlot());
                java.util.concurrent.atomic.AtomicLong increments = new java.util.concurrent.atomic.AtomicLong();
                java.util.concurrent.atomic.AtomicLong victims = new java.util.concurrent.atomic.AtomicLong();
                List<Thread> ts = new ArrayList<>();
                for (int k = 0; k < threads; k++) {
                    java.util.Random rnd = new java.util.Random(seed + k);
                    Thread th = new Thread(() -> {
                        for (int i = 0; i < count; i++) {
                            List<Integer> pages = new ArrayList<>(List.of(0, 1, 2, 3, 4, 5));
                            java.util.Collections.shuffle(pages, rnd);
                            List<Integer> mine = pages.subList(0, 2 + rnd.nextInt(2));
                            while (true) {
                                Txn t = f.tm.begin(org.libtp.core.log.Durability.NO_SYNC);
                                try {
                                    for (int pg : mine) {
                                        f.lm.lock(t, page(pg), LockMode.WRITE, 0);
                                        f.store.put(t, pg, f.store.get(pg) + 1); // read-modify-write under the lock
                                        if (rnd.nextInt(4) == 0) {
                                            Thread.yield();
                                        }
                                    }
                                    f.tm.commit(t);
                                    increments.addAndGet(mine.size());
                                    break;
                                } catch (DeadlockException e) {
                                    victims.incrementAndGet();
                                    f.tm.abort(t);
                                }
                            }
                        }
                    });
                    ts.add(th);
                    th.start();
                }
                for (Thread th : ts) {
                    th.join();
                }
                System.out.println("INCREMENTS " + increments.get());
                System.out.println("VICTIMS " + victims.get());
            }
        }
    }

    @Test
    void concurrentIncrementsAcrossJvmsLoseNoUpdate() throws Exception {
        long seed = org.libtp.core.testkit.Seeds.seed("DeadlockMultiProcessTest.increments");
        Path home = Files.createDirectory(dir.resolve("env"));
        try (LockFixture f = new LockFixture(home, 250, LockConfig.builder().detectIntervalMillis(0).build())) {
            List<ChildJvm> cs = ChildJvm.startAll(3, Incrementer.class, i -> new String[] {home.toString(),
                    Long.toString(seed + 100L * i), "2", "150"});
            long increments = 0;
            long victims = 0;
            try {
                for (ChildJvm c : cs) {
                    c.assertExitsCleanly(Duration.ofSeconds(90));
                    increments += Long.parseLong(c.awaitLine("INCREMENTS ", Duration.ofSeconds(1)).split(" ")[1]);
                    victims += Long.parseLong(c.awaitLine("VICTIMS ", Duration.ofSeconds(1)).split(" ")[1]);
                }
            } finally {
                ChildJvm.closeAll(cs);
            }
            long sum = 0;
            for (int p = 0; p < COUNTERS; p++) {
                sum += f.store.get(p);
            }
            System.out.println("DeadlockMultiProcessTest: 3 JVMs x 2 threads, " + increments + " increments, "
                    + victims + " deadlock victims, " + f.lm.stats());
            assertEquals(increments, sum, "an update was lost: two transactions held a WRITE lock at once");
            assertEquals(victims, f.lm.stats().deadlocks());
            assertEquals(0, f.lm.stats().locksInUse());
            assertEquals(0, f.lm.stats().objectsInUse());
        }
    }

    /** The outcome lines of round {@code n}, waiting until each of its members printed one. */
    private static List<String[]> outcomes(List<ChildJvm> cs, int n) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            String line = cs.get(i).awaitLine("ROUND " + n + " ", Duration.ofSeconds(30));
            out.add(line.split(" "));
        }
        return out;
    }

    private static int slotOf(ChildJvm c) {
        return Integer.parseInt(c.awaitLine("READY ", Duration.ofSeconds(60)).split(" ")[1]);
    }

    @Test
    void ringsOfTwoToEightProcessesEachCostOneVictim() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path barrier = Files.createDirectory(dir.resolve("barrier"));
        int max = 8;
        try (LockFixture f = new LockFixture(home, 250, LockConfig.builder().detectIntervalMillis(0).build())) {
            List<ChildJvm> cs = ChildJvm.startAll(max, RingMember.class, i -> new String[] {home.toString(),
                    Integer.toString(i), barrier.toString(), "true", "1000", "2,3,4,5,6,7,8"});
            try {
                for (ChildJvm c : cs) {
                    slotOf(c);
                }
                for (int n = 2; n <= max; n++) {
                    long deadlocks = f.lm.stats().deadlocks();
                    long t0 = System.nanoTime();
                    Files.createFile(barrier.resolve("round-" + n));
                    List<String[]> out = outcomes(cs, n);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    long victims = out.stream().filter(l -> l[3].equals("VICTIM")).count();
                    assertEquals(1, victims, "round " + n + ": exactly one victim");
                    assertEquals(n - 1, out.stream().filter(l -> l[3].equals("COMMITTED")).count());
                    long youngest = out.stream().mapToLong(l -> Long.parseLong(l[4])).max().getAsLong();
                    String[] victim = out.stream().filter(l -> l[3].equals("VICTIM")).findFirst().get();
                    assertEquals(youngest, Long.parseLong(victim[4]), "YOUNGEST policy");
                    assertEquals(deadlocks + 1, f.lm.stats().deadlocks());
                    for (int i = 0; i < n; i++) {
                        assertEquals(i == Integer.parseInt(victim[2]) ? 0 : 1, f.store.get(n * 10 + i),
                                "member " + i + " of round " + n);
                    }
                    System.out.println("DeadlockMultiProcessTest: ring of " + n + " processes resolved in " + ms
                            + " ms; victim member " + victim[2]);
                }
                Files.createFile(barrier.resolve("done"));
                for (ChildJvm c : cs) {
                    c.assertExitsCleanly(Duration.ofSeconds(60));
                }
            } finally {
                ChildJvm.closeAll(cs);
            }
            assertEquals(0, f.lm.stats().locksInUse());
            assertEquals(0, f.lm.stats().objectsInUse());
        }
    }

    @Test
    void detectorRoleSurvivesKillOfItsHolder() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path barrier = Files.createDirectory(dir.resolve("barrier"));
        // This process never takes the role (interval 0) and never blocks.
        try (LockFixture f = new LockFixture(home, 250, LockConfig.builder().detectIntervalMillis(0).build())) {
            try (ChildJvm holder = ChildJvm.start(Idler.class, home.toString())) {
                int holderSlot = slotOf(holder);
                long deadline = System.currentTimeMillis() + 10_000;
                while (f.lm.detectorProcessSlot() != holderSlot && System.currentTimeMillis() < deadline) {
                    Thread.sleep(10);
                }
                assertEquals(holderSlot, f.lm.detectorProcessSlot(), "the first detector thread takes the role");
                List<ChildJvm> cs = ChildJvm.startAll(2, RingMember.class, i -> new String[] {home.toString(),
                        Integer.toString(i), barrier.toString(), "false", "100", "2"});
                try {
                    List<Integer> memberSlots = List.of(slotOf(cs.get(0)), slotOf(cs.get(1)));
                    Thread.sleep(300);
                    assertEquals(holderSlot, f.lm.detectorProcessSlot(), "a live holder keeps the role");
                    holder.kill();
                    long t0 = System.nanoTime();
                    Files.createFile(barrier.resolve("round-2")); // a cycle no one checks on block
                    List<String[]> out = outcomes(cs, 2);
                    long ms = (System.nanoTime() - t0) / 1_000_000;
                    assertEquals(1, out.stream().filter(l -> l[3].equals("VICTIM")).count(), "exactly one victim");
                    assertEquals(1, out.stream().filter(l -> l[3].equals("COMMITTED")).count());
                    assertTrue(memberSlots.contains(f.lm.detectorProcessSlot()),
                            "a surviving process took over: " + f.lm.detectorProcessSlot() + " not in " + memberSlots);
                    assertEquals(1, f.lm.stats().deadlocks());
                    System.out.println("DeadlockMultiProcessTest: cycle after the detector's kill -9 resolved in "
                            + ms + " ms by process slot " + f.lm.detectorProcessSlot());
                    Files.createFile(barrier.resolve("done"));
                    for (ChildJvm c : cs) {
                        c.assertExitsCleanly(Duration.ofSeconds(60));
                    }
                } finally {
                    ChildJvm.closeAll(cs);
                }
            }
        }
    }
}
