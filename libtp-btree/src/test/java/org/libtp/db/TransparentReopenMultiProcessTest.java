package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.EnvironmentReopenedException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Three worker JVMs transfer money between accounts with {@link Environment#runInTransaction}
 * while the environment fails three times under them (as when a process dies where its work
 * cannot be repaired in place; this JVM marks it failed). Every process detaches, the first to
 * open again recovers, and all go on without a new handle: the workers never see an exception,
 * their acknowledged transfers are all there, the total is exact, the tree verifies, and the
 * time from each failure to this JVM's next commit is reported.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class TransparentReopenMultiProcessTest {
    static final int ACCOUNTS = 20;
    static final long INITIAL = 1000;
    static final int WORKERS = 3;
    static final int FAILURES = 3;

    @TempDir
    Path dir;

    static byte[] key(int i) {
        return ByteBuffer.allocate(4).putInt(i).array();
    }

    static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    static long value(byte[] b) {
        return ByteBuffer.wrap(b).getLong();
    }

    /**
     * Child: args dir, worker id, seed. Transfers until the file STOP exists, each transfer also
     * appending (worker, n) to a log database; prints ACK n after each commit, then DONE with
     * its handle's reopen count. Any exception out of runInTransaction is a failure.
     */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int worker = Integer.parseInt(args[1]);
            Random rnd = new Random(Long.parseLong(args[2]));
            try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
                 Database accounts = env.openDatabase(null, "accounts", DatabaseConfig.defaults());
                 Database log = env.openDatabase(null, "log", DatabaseConfig.defaults())) {
                System.out.println("READY");
                for (int n = 1; !java.nio.file.Files.exists(home.resolve("STOP")); n++) {
                    int a = rnd.nextInt(ACCOUNTS);
                    int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                    long amount = 1 + rnd.nextInt(50);
                    int seq = n;
                    try {
                        env.runInTransaction(t -> {
                            accounts.update(t, key(a), v -> bytes(value(v) - amount));
                            accounts.update(t, key(b), v -> bytes(value(v) + amount));
                            log.put(t, key(worker * 1_000_000 + seq), bytes(amount));
                        });
                    } catch (EnvironmentReopenedException e) {
                        if (!e.commitInDoubt()) {
                            throw e;
                        }
                        // The commit itself met the failure: find out whether it happened.
                        if (log.get(null, key(worker * 1_000_000 + seq)) == null) {
                            n--;
                            continue;
                        }
                        System.out.println("INDOUBT-COMMITTED " + seq);
                    }
                    System.out.println("ACK " + seq);
                }
                System.out.println("DONE " + env.reopenCount());
            } catch (Throwable e) {
                System.out.println("FAILED " + e);
                e.printStackTrace(System.out);
                System.out.flush();
                Runtime.getRuntime().halt(2);
            }
        }
    }

    @Test
    void everyProcessGoesOnAfterTheEnvironmentFailsUnderIt() throws Exception {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database accounts = env.openDatabase(null, "accounts", DatabaseConfig.builder().allowCreate(true).build());
             Database log = env.openDatabase(null, "log", DatabaseConfig.builder().allowCreate(true).build())) {
            env.runInTransaction(t -> {
                for (int i = 0; i < ACCOUNTS; i++) {
                    accounts.put(t, key(i), bytes(INITIAL));
                }
            });
            List<ChildJvm> workers = new ArrayList<>();
            try {
                for (int w = 0; w < WORKERS; w++) {
                    ChildJvm c = ChildJvm.start(Worker.class, dir.toString(), Integer.toString(w), Long.toString(w * 7919L + 1));
                    c.awaitLine("READY", Duration.ofSeconds(60));
                    workers.add(c);
                }
                List<Long> reopenMillis = new ArrayList<>();
                for (int f = 0; f < FAILURES; f++) {
                    awaitAcks(workers, 20);
                    long t0 = System.nanoTime();
                    env.tp.env().fail("test: a process died where its work cannot be repaired in place (" + (f + 1) + ")");
                    env.runInTransaction(t -> accounts.update(t, key(0), v -> v)); // this JVM's next commit
                    reopenMillis.add((System.nanoTime() - t0) / 1_000_000);
                    assertEquals(f + 1, env.reopenCount());
                }
                awaitAcks(workers, 20);
                java.nio.file.Files.createFile(dir.resolve("STOP"));
                long acked = 0;
                for (ChildJvm c : workers) {
                    String done = c.awaitLine("DONE ", Duration.ofSeconds(120));
                    assertEquals(0, c.waitFor(Duration.ofSeconds(60)), c.outputText());
                    assertTrue(Long.parseLong(done.substring(5)) >= 1, "each worker reopened:\n" + c.outputText());
                    for (String l : c.linesStartingWith("ACK ")) {
                        acked++;
                    }
                }
                System.out.println("TransparentReopenMultiProcessTest: " + FAILURES + " failures under " + WORKERS
                        + " workers, " + acked + " acknowledged transfers; failure to this JVM's next commit (ms): "
                        + reopenMillis);
                // Every acknowledged transfer is in the log database; the balances add up.
                for (int w = 0; w < WORKERS; w++) {
                    for (String l : workers.get(w).linesStartingWith("ACK ")) {
                        int seq = Integer.parseInt(l.substring(4));
                        assertTrue(log.get(null, key(w * 1_000_000 + seq)) != null, "worker " + w + " ack " + seq + " lost");
                    }
                }
                long total = env.inTransaction(Durability.SYNC, true, t -> {
                    long s = 0;
                    for (int i = 0; i < ACCOUNTS; i++) {
                        s += value(accounts.get(t, key(i)));
                    }
                    return s;
                });
                assertEquals(ACCOUNTS * INITIAL, total);
                assertEquals(List.of(), accounts.verify());
                assertEquals(List.of(), log.verify());
            } finally {
                ChildJvm.closeAll(workers);
            }
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database accounts = env.openDatabase(null, "accounts", DatabaseConfig.defaults())) {
            long s = 0;
            for (int i = 0; i < ACCOUNTS; i++) {
                s += value(accounts.get(null, key(i)));
            }
            assertEquals(ACCOUNTS * INITIAL, s);
            assertArrayEquals(bytes(s), bytes(ACCOUNTS * INITIAL));
        }
    }

    /** Waits until every worker has acknowledged {@code more} transfers beyond what it had. */
    static void awaitAcks(List<ChildJvm> workers, int more) throws InterruptedException {
        int[] from = new int[workers.size()];
        for (int w = 0; w < workers.size(); w++) {
            from[w] = workers.get(w).linesStartingWith("ACK ").size();
        }
        long deadline = System.nanoTime() + 60_000_000_000L;
        for (int w = 0; w < workers.size(); w++) {
            while (workers.get(w).linesStartingWith("ACK ").size() < from[w] + more) {
                ChildJvm c = workers.get(w);
                assertTrue(c.isAlive() && System.nanoTime() < deadline, "worker " + w + " stalled or died:\n" + c.outputText());
                Thread.sleep(20);
            }
        }
    }
}
