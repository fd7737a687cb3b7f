package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transactions across JVMs, killed with SIGKILL. Each worker thread owns ten slots: nine
 * "accounts" whose sum a transaction never changes (it moves an amount between two of them) and
 * a counter it increments. Some transactions abort. After recovery, for every worker: the
 * accounts sum to zero (no partial transaction is visible) and the counter equals the number of
 * acknowledged commits, or one more (a durable commit killed before it was printed).
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class TxnCrashTest {
    static final int PER_WORKER = 10;

    @TempDir
    Path dir;

    /** Child: {@code threads} workers, ids from {@code base}, each running {@code count} transactions. */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int base = Integer.parseInt(args[1]);
            int threads = Integer.parseInt(args[2]);
            int count = Integer.parseInt(args[3]);
            long seed = Long.parseLong(args[4]);
            try (TxnFixture f = new TxnFixture(home, 250, TxnConfig.builder().checkpointBytes(128 * 1024).build())) {
                System.out.println("READY");
                List<Thread> ts = new ArrayList<>();
                for (int k = 0; k < threads; k++) {
                    int w = base + k;
                    Random rnd = new Random(seed + k);
                    Thread th = new Thread(() -> run(f, w, count, rnd));
                    ts.add(th);
                    th.start();
                }
                for (Thread th : ts) {
                    th.join();
                }
                System.out.println("DONE");
            }
        }

        static void run(TxnFixture f, int w, int count, Random rnd) {
            int first = w * PER_WORKER;
            int counter = first + PER_WORKER - 1;
            for (int i = 0; i < count; i++) {
                Txn t = f.tm.begin(Durability.SYNC);
                int a = first + rnd.nextInt(PER_WORKER - 1);
                int b = first + rnd.nextInt(PER_WORKER - 1);
                long amount = 1 + rnd.nextInt(100);
                f.store.put(t, a, f.store.get(a) - amount);
                f.store.put(t, b, f.store.get(b) + amount);
                long n = f.store.get(counter) + 1;
                f.store.put(t, counter, n);
                if (rnd.nextInt(10) == 0) {
                    f.tm.abort(t);
                } else {
                    f.tm.commit(t);
                    synchronized (System.out) {
                        System.out.println("ACK " + w + " " + n);
                    }
                }
            }
        }
    }

    private static void check(Path home, Map<Integer, Long> acked, int workers, boolean exact) {
        try (TxnFixture f = new TxnFixture(home)) {
            for (int w = 0; w < workers; w++) {
                long sum = 0;
                for (int s = 0; s < PER_WORKER - 1; s++) {
                    sum += f.store.get(w * PER_WORKER + s);
                }
                assertEquals(0, sum, "worker " + w + ": a partial transaction is visible");
                long counter = f.store.get(w * PER_WORKER + PER_WORKER - 1);
                long ack = acked.getOrDefault(w, 0L);
                if (exact) {
                    assertEquals(ack, counter, "worker " + w);
                } else {
                    assertTrue(counter == ack || counter == ack + 1, "worker " + w + ": counter " + counter
                            + " but " + ack + " commits were acknowledged");
                }
            }
            assertEquals(0, f.tm.activeCount());
        }
    }

    private static void collect(List<ChildJvm> cs, Map<Integer, Long> acked) {
        for (ChildJvm c : cs) {
            for (String l : c.linesStartingWith("ACK ")) {
                String[] p = l.split(" ");
                if (p.length == 3) {
                    acked.merge(Integer.parseInt(p[1]), Long.parseLong(p[2]), Math::max);
                }
            }
        }
    }

    @Test
    void fourJvmsCommitConcurrently() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        List<ChildJvm> cs = ChildJvm.startAll(4, Worker.class,
                i -> new String[] {home.toString(), Integer.toString(2 * i), "2", "150", Long.toString(i)});
        Map<Integer, Long> acked = new HashMap<>();
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(3));
            }
            collect(cs, acked);
        } finally {
            ChildJvm.closeAll(cs);
        }
        check(home, acked, 8, true);
    }

    @Test
    void everyAcknowledgedCommitSurvivesKillOfEveryProcess() throws Exception {
        long seed = Seeds.seed("TxnCrashTest");
        Random rnd = new Random(seed);
        int iterations = Seeds.rounds(20, 500);
        Path home = Files.createDirectory(dir.resolve("env"));
        Map<Integer, Long> acked = new HashMap<>();
        for (int it = 0; it < iterations; it++) {
            List<ChildJvm> cs = ChildJvm.startAll(4, Worker.class, i -> new String[] {home.toString(),
                    Integer.toString(2 * i), "2", "1000000", Long.toString(rnd.nextLong())});
            try {
                for (ChildJvm c : cs) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Thread.sleep(50 + rnd.nextInt(400));
                ChildJvm.killAll(cs);
            } finally {
                ChildJvm.closeAll(cs);
            }
            collect(cs, acked);
            check(home, acked, 8, false);
            // The check's own open (recovery) may have kept an unacknowledged durable commit:
            // from now on the counter is the truth.
            try (TxnFixture f = new TxnFixture(home)) {
                for (int w = 0; w < 8; w++) {
                    acked.put(w, f.store.get(w * PER_WORKER + PER_WORKER - 1));
                }
                // Archive as an operator would: recovery scans the whole remaining log, so an
                // ever-growing log would make each round slower than the last.
                f.tm.checkpoint();
                f.tm.removeLogFiles();
            }
        }
        System.out.println("TxnCrashTest: " + iterations + " kill -9 rounds; acknowledged commits all present: " + acked);
    }

    /** Child: updates slots in a transaction, then waits to be killed without committing. */
    public static final class Stall {
        public static void main(String[] args) throws Exception {
            try (TxnFixture f = new TxnFixture(Path.of(args[0]), 0, TxnConfig.defaults())) {
                Txn t = f.tm.begin();
                f.store.put(t, 500, 5);
                f.store.put(t, 501, 6);
                System.out.println("UPDATED");
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @Test
    void failCheckRollsBackTheTransactionsOfADeadProcess() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (TxnFixture f = new TxnFixture(home)) {
            Txn mine = f.tm.begin();
            f.store.put(mine, 600, 60);
            try (ChildJvm c = ChildJvm.start(Stall.class, home.toString())) {
                c.awaitLine("UPDATED", Duration.ofSeconds(60));
                assertEquals(5, f.store.get(500));
                assertEquals(2, f.tm.activeCount());
                c.kill();
            }
            long deadline = System.currentTimeMillis() + 10_000;
            while (f.tm.activeCount() > 1 && System.currentTimeMillis() < deadline) {
                f.env.failCheck();
                Thread.sleep(20);
            }
            assertEquals(1, f.tm.activeCount(), "the dead process's transaction must be rolled back");
            assertEquals(0, f.store.get(500));
            assertEquals(0, f.store.get(501));
            assertEquals(60, f.store.get(600), "the survivor's own transaction is untouched");
            f.tm.commit(mine);
        }
        try (TxnFixture f = new TxnFixture(home)) { // and recovery agrees
            assertEquals(0, f.store.get(500));
            assertEquals(60, f.store.get(600));
        }
    }
}
