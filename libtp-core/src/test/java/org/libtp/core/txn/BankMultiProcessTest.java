package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.buffer.PageFixture;
import org.libtp.core.lock.LockManager;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * All the managers together, across JVMs: accounts on pages (one per page) through a pool smaller
 * than the database; transfers lock both pages WRITE in random order (so deadlocks happen and
 * victims abort and retry); auditors READ-lock every page and check the total, which strict
 * two-phase locking keeps constant in every committed view.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class BankMultiProcessTest {
    static final int ACCOUNTS = 24;
    static final long INITIAL = 1000;

    @TempDir
    Path dir;

    /** Child: {@code threads} threads doing {@code count} transfers each, every tenth an audit. */
    public static final class Teller {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int threads = Integer.parseInt(args[1]);
            int count = Integer.parseInt(args[2]);
            long seed = Long.parseLong(args[3]);
            int[] stats = new int[3]; // commits, deadlocks, audits
            try (PageFixture f = new PageFixture(home, 16, 250)) {
                System.out.println("READY");
                List<Thread> ts = new ArrayList<>();
                for (int k = 0; k < threads; k++) {
                    Random rnd = new Random(seed + k);
                    Thread th = new Thread(() -> run(f, count, rnd, stats));
                    ts.add(th);
                    th.start();
                }
                for (Thread th : ts) {
                    th.join();
                }
            }
            System.out.println("STATS " + stats[0] + " " + stats[1] + " " + stats[2]);
        }

        static void run(PageFixture f, int count, Random rnd, int[] stats) {
            LockManager lm = f.tp.locks();
            for (int i = 0; i < count; ) {
                boolean audit = i % 10 == 9;
                Txn t = f.tm.begin(Durability.NO_SYNC);
                try {
                    if (audit) {
                        long sum = 0;
                        for (int a = 0; a < ACCOUNTS; a++) {
                            lm.lock(t, new LockObject(f.file, a), LockMode.READ, 0);
                            sum += f.get(a, 0);
                        }
                        if (sum != ACCOUNTS * INITIAL) {
                            System.out.println("AUDIT FAILED " + sum);
                        }
                    } else {
                        int a = rnd.nextInt(ACCOUNTS);
                        int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + rnd.nextInt(50);
                        lm.lock(t, new LockObject(f.file, a), LockMode.WRITE, 0);
                        f.add(t, a, 0, -amount);
                        Thread.yield(); // widen the window for a cycle
                        lm.lock(t, new LockObject(f.file, b), LockMode.WRITE, 0);
                        f.add(t, b, 0, amount);
                    }
                    f.tm.commit(t);
                    synchronized (stats) {
                        stats[audit ? 2 : 0]++;
                    }
                    i++;
                } catch (DeadlockException e) {
                    f.tm.abort(t);
                    synchronized (stats) {
                        stats[1]++;
                    }
                }
            }
        }
    }

    @Test
    void transfersAcrossThreeJvmsKeepTheTotalAndDeadlocksAreBroken() throws Exception {
        long seed = Seeds.seed("BankMultiProcessTest");
        Path home = Files.createDirectory(dir.resolve("env"));
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            for (int a = 0; a < ACCOUNTS; a++) {
                f.add(t, a, 0, INITIAL);
            }
            f.tm.commit(t);
        }
        List<ChildJvm> cs = ChildJvm.startAll(3, Teller.class,
                i -> new String[] {home.toString(), "2", "400", Long.toString(seed + 100 * i)});
        int commits = 0;
        int deadlocks = 0;
        int audits = 0;
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(3));
                assertTrue(c.linesStartingWith("AUDIT FAILED").isEmpty(), c.linesStartingWith("AUDIT FAILED").toString());
                String[] s = c.linesStartingWith("STATS ").get(0).split(" ");
                commits += Integer.parseInt(s[1]);
                deadlocks += Integer.parseInt(s[2]);
                audits += Integer.parseInt(s[3]);
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        System.out.println("BankMultiProcessTest: " + commits + " transfers, " + audits + " audits, " + deadlocks
                + " deadlock victims (seed " + seed + ")");
        assertEquals(3 * 2 * 400, commits + audits);
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            long sum = 0;
            for (int a = 0; a < ACCOUNTS; a++) {
                sum += f.get(a, 0);
            }
            assertEquals(ACCOUNTS * INITIAL, sum, "seed " + seed);
            assertEquals(0, f.tm.activeCount());
            assertEquals(0, f.tp.locks().stats().locksInUse(), "every lock released");
        }
    }
}
