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
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Transfers under page locks across JVMs, with kill -9: first of one process (the survivors,
 * some blocked on its locks, must go on: failCheck rolls its transaction back through the
 * buffer pool and releases its locks; a group-commit leader killed mid-force is taken over),
 * then of all (recovery). The total never changes. A victim killed inside a latch (a lock table
 * partition, a buffer frame, the log buffer) fails the environment instead, as documented: the
 * survivors then stop with RunRecoveryException, and recovery follows. Every other teller
 * commits with early lock release (its locks go before its force; a process killed between the
 * two has its commit record in the shared log buffer, so failCheck counts it committed).
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class BankCrashTest {
    static final int ACCOUNTS = 24;
    static final long INITIAL = 1000;

    @TempDir
    Path dir;

    /** Child: transfers forever (durable commits), printing a line per commit. */
    public static final class Teller {
        public static void main(String[] args) throws Exception {
            Random rnd = new Random(Long.parseLong(args[1]));
            // args[2]: early lock release in this process (children alternate, so the
            // environment runs both kinds of committers side by side).
            boolean elr = args.length > 2 && Boolean.parseBoolean(args[2]);
            try (PageFixture f = new PageFixture(Path.of(args[0]), 16, 100,
                    TxnConfig.builder().earlyLockRelease(elr).build(), new org.libtp.core.storage.FileStorage(Path.of(args[0])))) {
                LockManager lm = f.tp.locks();
                System.out.println("READY");
                long n = 0;
                while (true) {
                    Txn t = f.tm.begin(Durability.SYNC);
                    try {
                        int a = rnd.nextInt(ACCOUNTS);
                        int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + rnd.nextInt(50);
                        lm.lock(t, new LockObject(f.file, a), LockMode.WRITE, 0);
                        f.add(t, a, 0, -amount);
                        lm.lock(t, new LockObject(f.file, b), LockMode.WRITE, 0);
                        f.add(t, b, 0, amount);
                        f.tm.commit(t);
                        System.out.println("ACK " + ++n);
                    } catch (DeadlockException e) {
                        f.tm.abort(t);
                    }
                }
            }
        }
    }

    private static long total(Path home) {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            long sum = 0;
            for (int a = 0; a < ACCOUNTS; a++) {
                sum += f.get(a, 0);
            }
            assertEquals(0, f.tm.activeCount());
            f.tm.checkpoint();
            f.tm.removeLogFiles();
            return sum;
        }
    }

    @Test
    void survivorsGoOnAfterOneDiesAndTheTotalSurvivesKillOfAll() throws Exception {
        long seed = Seeds.seed("BankCrashTest");
        Random rnd = new Random(seed);
        int rounds = Seeds.rounds(4, 100);
        Path home = Files.createDirectory(dir.resolve("env"));
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            for (int a = 0; a < ACCOUNTS; a++) {
                f.add(t, a, 0, INITIAL);
            }
            f.tm.commit(t);
        }
        int latchDeaths = 0;
        // A victim dies inside a latch in up to half the rounds on a loaded machine (each such
        // round fails the environment, as documented): while no round has shown the survivors
        // going on, up to twice as many rounds are run.
        int round = 0;
        for (; round < rounds || latchDeaths == round && round < 2 * rounds; round++) {
            List<ChildJvm> cs = ChildJvm.startAll(3, Teller.class,
                    i -> new String[] {home.toString(), Long.toString(rnd.nextLong()), Boolean.toString(i % 2 == 0)});
            try {
                for (ChildJvm c : cs) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Thread.sleep(100 + rnd.nextInt(300));
                ChildJvm victim = cs.get(rnd.nextInt(3));
                victim.signalKill(); // mid-transaction, holding locks, as likely as not
                victim.kill();
                for (ChildJvm c : cs) {
                    if (c != victim) {
                        int before = c.linesStartingWith("ACK ").size();
                        long deadline = System.currentTimeMillis() + 5_000;
                        while (c.linesStartingWith("ACK ").size() < before + 20 && System.currentTimeMillis() < deadline) {
                            Thread.sleep(10);
                        }
                        if (c.linesStartingWith("ACK ").size() < before + 20 && !c.isAlive()
                                && (c.outputText().contains("died holding latch")
                                    || c.outputText().contains("buffer pages pinned"))) {
                            // The documented outcomes when the victim was inside a latch, or had a
                            // page pinned (docs/reliability.md): the environment fails for everyone.
                            latchDeaths++;
                            java.util.regex.Matcher m = java.util.regex.Pattern
                                    .compile("died (holding latch [^.]*|with \\d+ buffer pages pinned)")
                                    .matcher(c.outputText());
                            if (m.find()) {
                                System.out.println("BankCrashTest round " + round + ": victim died " + m.group(1));
                            }
                            break;
                        }
                        if (c.linesStartingWith("ACK ").size() < before + 20) {
                            List<String> out = c.output();
                            String tail = String.join("\n", out.stream().filter(l -> !l.startsWith("ACK "))
                                    .skip(Math.max(0, out.stream().filter(l -> !l.startsWith("ACK ")).count() - 40)).toList());
                            throw new AssertionError("round " + round + ": a survivor is stuck after the kill (seed "
                                    + seed + "), alive " + c.isAlive() + ":\n" + tail);
                        }
                    }
                }
                ChildJvm.killAll(cs);
            } finally {
                ChildJvm.closeAll(cs);
            }
            assertEquals(ACCOUNTS * INITIAL, total(home), "round " + round + " (seed " + seed + ")");
        }
        System.out.println("BankCrashTest: " + round + " rounds of kill -9 (one, then all); total kept; in "
                + latchDeaths + " rounds the first victim died inside a latch (environment failed, as documented),"
                + " in the others the survivors went on");
        assertTrue(latchDeaths < round, "the survivors never went on in " + round + " rounds (seed " + seed + ")");
    }
}
