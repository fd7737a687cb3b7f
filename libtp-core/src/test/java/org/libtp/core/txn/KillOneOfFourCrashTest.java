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
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four worker JVMs transfer among accounts under page locks with durable commits; one at a time
 * is killed with SIGKILL at a random instant and a new one started in its place. The survivors
 * must go on: a victim that held no latch costs them nothing, one that died inside a latch whose
 * structure can be repaired in place (a buffer frame, the log latches, the checkpoint latch), or
 * with pages pinned, costs them a repair. Only a death inside a latch without a repair (a lock
 * table or buffer hash partition, the transaction table) still fails the environment; then every
 * worker stops, the environment is recovered and four start again. Counted and printed; after the
 * campaign every acknowledged commit (each worker's own counter, raised in every transfer) is
 * there and the total is unchanged. 12 kills in {@code mvn verify}, 1,000 with {@code -Pstress}.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.MINUTES)
class KillOneOfFourCrashTest {
    static final int ACCOUNTS = 24;
    static final long INITIAL = 1000;
    static final int WORKERS = 4;
    /** Latches whose holder's death is repaired in place: never a reason for a failed environment. */
    static final List<String> REPAIRABLE = List.of("buffer frame", "buffer hash partition", "log latch",
            "log write latch", "log alloc latch", "checkpoint latch", "lock partition", "transaction table latch");

    @TempDir
    Path dir;

    /** Child: transfers forever; each commit also raises this worker's counter and prints "ACK value". */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            Random rnd = new Random(Long.parseLong(args[1]));
            int id = Integer.parseInt(args[2]);
            boolean elr = Boolean.parseBoolean(args[3]);
            try (PageFixture f = new PageFixture(home, 16, 100, TxnConfig.builder().earlyLockRelease(elr).build(),
                    new org.libtp.core.storage.FileStorage(home))) {
                LockManager lm = f.tp.locks();
                System.out.println("READY");
                for (long n = 1; ; n++) {
                    if (n % 25 == 0) {
                        audit(f, lm);
                    }
                    Txn t = f.tm.begin(Durability.SYNC);
                    try {
                        int a = rnd.nextInt(ACCOUNTS);
                        int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                        long amount = 1 + rnd.nextInt(50);
                        lm.lock(t, new LockObject(f.file, a), LockMode.WRITE, 0);
                        f.add(t, a, 0, -amount);
                        lm.lock(t, new LockObject(f.file, b), LockMode.WRITE, 0);
                        f.add(t, b, 0, amount);
                        lm.lock(t, new LockObject(f.file, ACCOUNTS + id), LockMode.WRITE, 0);
                        long c = f.add(t, ACCOUNTS + id, 0, 1);
                        // Names the transfer, for the diagnosis of a wrong audit (with the log kept then).
                        System.out.println("TX " + t.id() + " " + a + " " + b + " " + amount);
                        f.tm.commit(t);
                        System.out.println("ACK " + c);
                    } catch (DeadlockException e) {
                        f.tm.abort(t);
                    }
                }
            }
        }
    }

    /** A read-only transaction over every account (page READ locks): under 2PL it sees the exact total. */
    static void audit(PageFixture f, LockManager lm) {
        Txn t = f.tm.begin();
        try {
            long sum = 0;
            long[] values = new long[ACCOUNTS];
            long[] lsns = new long[ACCOUNTS];
            for (int a = 0; a < ACCOUNTS; a++) {
                lm.lock(t, new LockObject(f.file, a), LockMode.READ, 0);
                org.libtp.core.buffer.Page p = f.bp.get(f.file, a, org.libtp.core.buffer.BufferManager.CREATE);
                try {
                    values[a] = p.getLong(PageFixture.offset(0));
                    lsns[a] = p.lsn();
                } finally {
                    f.bp.unpin(p, false);
                }
                sum += values[a];
            }
            if (sum != ACCOUNTS * INITIAL) {
                // Keep what the diagnosis needs: the values and page LSNs seen, and the log as it is now.
                StringBuilder sb = new StringBuilder("AUDIT-DETAIL txn " + t.id() + ":");
                for (int a = 0; a < ACCOUNTS; a++) {
                    sb.append(' ').append(a).append('=').append(values[a]).append('@')
                            .append(org.libtp.core.log.Lsn.toString(lsns[a]));
                }
                System.out.println(sb);
                keepEnvironment(f, t.id());
            }
            f.tm.commit(t);
            System.out.println("AUDIT " + sum);
        } catch (DeadlockException e) {
            f.tm.abort(t);
        }
    }

    /** Copies the environment's files (log flushed first) to target/, for a diagnosis with printlog. */
    static void keepEnvironment(PageFixture f, long txnId) {
        try {
            f.tp.log().flush(f.tp.log().endLsn(), Durability.SYNC);
            Path home = f.tp.env().home();
            Path keep = Path.of("target", "kill-one-of-four-env-" + ProcessHandle.current().pid() + "-" + txnId);
            Files.createDirectories(keep);
            try (var files = Files.list(home)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    if (Files.isRegularFile(p)) {
                        Files.copy(p, keep.resolve(p.getFileName()));
                    }
                }
            }
            System.out.println("AUDIT-KEPT " + keep.toAbsolutePath());
        } catch (Exception e) {
            System.out.println("AUDIT-KEPT failed: " + e);
        }
    }

    private static void checkAudits(ChildJvm c, String ctx) {
        for (String l : c.linesStartingWith("AUDIT ")) {
            if (Long.parseLong(l.substring(6).trim()) != ACCOUNTS * INITIAL) {
                // The whole output of the JVM that saw it, for the diagnosis (the tail rarely names the transfer).
                Path keep = Path.of("target", "kill-one-of-four-audit-" + c.pid() + ".log");
                try {
                    Files.createDirectories(keep.getParent());
                    Files.writeString(keep, c.outputText());
                } catch (java.io.IOException e) {
                    keep = null;
                }
                throw new AssertionError(ctx + ": an audit transaction saw " + l + " (expected " + ACCOUNTS * INITIAL
                        + "; the JVM's whole output: " + keep + "):\n" + tail(c));
            }
        }
    }

    private ChildJvm start(Path home, Random rnd, int id) {
        return ChildJvm.start(Worker.class, home.toString(), Long.toString(rnd.nextLong()), Integer.toString(id),
                Boolean.toString(id % 2 == 0));
    }

    private static long lastAck(ChildJvm c) {
        List<String> acks = c.linesStartingWith("ACK ");
        return acks.isEmpty() ? 0 : Long.parseLong(acks.get(acks.size() - 1).substring(4).trim());
    }

    private static String deathReason(ChildJvm c) {
        // The reason the environment failed (not the log lines of latches repaired in place).
        Matcher m = Pattern.compile("has failed: [^\\n]*? died holding latch (?:'([^']*)'|#\\d+ at offset (\\d+) of region (\\S+))")
                .matcher(c.outputText());
        if (m.find()) {
            return m.group(1) != null ? m.group(1).replaceAll(" \\d+$", "")
                    : "latch at offset " + m.group(2) + " of region " + m.group(3).replaceAll("\\.$", "");
        }
        return null;
    }

    /** Recovers the environment; checks the total and every acknowledged counter. */
    private static void check(Path home, long[] acked, String ctx) {
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            long sum = 0;
            for (int a = 0; a < ACCOUNTS; a++) {
                sum += f.get(a, 0);
            }
            assertEquals(ACCOUNTS * INITIAL, sum, ctx + ": the total changed");
            for (int id = 0; id < WORKERS; id++) {
                assertTrue(f.get(ACCOUNTS + id, 0) >= acked[id], ctx + ": worker " + id + " had " + acked[id]
                        + " commits acknowledged, " + f.get(ACCOUNTS + id, 0) + " are there");
            }
            assertEquals(0, f.tm.activeCount(), ctx);
        }
    }

    @Test
    void survivorsGoOnWhenOneOfFourIsKilled() throws Exception {
        long seed = Seeds.seed("KillOneOfFourCrashTest");
        Random rnd = new Random(seed);
        int kills = Integer.getInteger("libtp.kills", Seeds.stress() ? 1_000 : 12);
        Path home = Files.createDirectory(dir.resolve("env"));
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            Txn t = f.tm.begin();
            for (int a = 0; a < ACCOUNTS; a++) {
                f.add(t, a, 0, INITIAL);
            }
            f.tm.commit(t);
        }
        long[] acked = new long[WORKERS];
        List<ChildJvm> workers = new ArrayList<>();
        // Attached throughout, so that the lock table outlives the workers: at the end every entry
        // must be in use or on a free list again (entries lost by the dead would fill it over time).
        PageFixture[] holder = {new PageFixture(home, 16, 250)};
        for (int id = 0; id < WORKERS; id++) {
            workers.add(start(home, rnd, id));
        }
        int inPlace = 0;
        int failed = 0;
        Map<String, Integer> failedBy = new TreeMap<>();
        long t0 = System.nanoTime();
        try {
            for (ChildJvm c : workers) {
                c.awaitLine("READY", Duration.ofSeconds(60));
            }
            for (int k = 0; k < kills; k++) {
                String ctx = "kill " + k + " (seed " + seed + ")";
                Thread.sleep(100 + rnd.nextInt(400));
                int v = rnd.nextInt(WORKERS);
                ChildJvm victim = workers.get(v);
                victim.signalKill();
                victim.kill();
                acked[v] = Math.max(acked[v], lastAck(victim));
                String reason = null;
                for (int id = 0; id < WORKERS && reason == null; id++) {
                    ChildJvm c = workers.get(id);
                    if (c == victim) {
                        continue;
                    }
                    int before = c.linesStartingWith("ACK ").size();
                    long deadline = System.nanoTime() + 10_000_000_000L;
                    while (c.linesStartingWith("ACK ").size() < before + 10 && c.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                    if (c.linesStartingWith("ACK ").size() >= before + 10) {
                        checkAudits(c, ctx);
                        continue;
                    }
                    if (c.isAlive()) {
                        // Every live worker's threads: a stall is usually a wait for another process.
                        StringBuilder all = new StringBuilder();
                        for (ChildJvm o : workers) {
                            if (o != victim && o.isAlive()) {
                                all.append("--- worker ").append(workers.indexOf(o)).append(" (pid ").append(o.pid())
                                        .append(")\n").append(threadDump(o)).append('\n');
                            }
                        }
                        String stacks = all.toString();
                        try {
                            c.waitFor(Duration.ofSeconds(5));
                        } catch (AssertionError stuck) {
                            throw new AssertionError(ctx + ": survivor " + id + " made no progress for 10 s:\n" + tail(c)
                                    + "\nits threads:\n" + stacks, stuck);
                        }
                    }
                    reason = deathReason(c);
                    if (reason == null) {
                        throw new AssertionError(ctx + ": survivor " + id + " is stuck or died (alive " + c.isAlive()
                                + "):\n" + tail(c));
                    }
                    assertFalse(REPAIRABLE.contains(reason) || c.outputText().contains("could not be repaired"),
                            ctx + ": the environment failed on a repairable latch:\n" + tail(c));
                }
                if (reason == null) {
                    inPlace++;
                    victim.close();
                    workers.set(v, start(home, rnd, v));
                    workers.get(v).awaitLine("READY", Duration.ofSeconds(60));
                } else {
                    failed++;
                    failedBy.merge(reason, 1, Integer::sum);
                    for (int id = 0; id < WORKERS; id++) {
                        ChildJvm c = workers.get(id);
                        c.kill();
                        acked[id] = Math.max(acked[id], lastAck(c));
                        c.close();
                    }
                    holder[0].close();
                    check(home, acked, ctx); // recovery, as every process had closed or died
                    holder[0] = new PageFixture(home, 16, 250);
                    for (int id = 0; id < WORKERS; id++) {
                        workers.set(id, start(home, rnd, id));
                    }
                    for (ChildJvm c : workers) {
                        c.awaitLine("READY", Duration.ofSeconds(60));
                    }
                }
            }
            for (int id = 0; id < WORKERS; id++) {
                ChildJvm c = workers.get(id);
                c.kill();
                acked[id] = Math.max(acked[id], lastAck(c));
            }
            org.libtp.core.lock.SharedLockManager lm = (org.libtp.core.lock.SharedLockManager) holder[0].tp.locks();
            long until = System.nanoTime() + 20_000_000_000L;
            int[] free = lm.freeEntries();
            org.libtp.core.lock.LockStats ls = lm.stats();
            while ((ls.locksInUse() != 0 || ls.objectsInUse() != 0) && System.nanoTime() < until) {
                Thread.sleep(100); // failCheck of the last victims
                free = lm.freeEntries();
                ls = lm.stats();
            }
            System.out.printf("KillOneOfFourCrashTest: lock table at the end: %d requests in use + %d free of %d; "
                    + "%d objects in use + %d free of %d%n", ls.locksInUse(), free[0], free[2], ls.objectsInUse(), free[1],
                    free[3]);
            if (ls.locksInUse() != 0) {
                System.out.println("KillOneOfFourCrashTest: locks left after every worker died: " + lm.snapshot()
                        + "; active transactions " + holder[0].tm.activeTransactions());
                for (Map.Entry<Thread, StackTraceElement[]> e : Thread.getAllStackTraces().entrySet()) {
                    if (e.getKey().getName().startsWith("libtp")) {
                        System.out.println("  thread " + e.getKey().getName() + " " + e.getKey().getState());
                        for (StackTraceElement el : e.getValue()) {
                            System.out.println("    at " + el);
                        }
                    }
                }
            }
            assertEquals(0, ls.locksInUse(), "locks left by the dead after " + kills + " kills (seed " + seed + ")");
            assertEquals(0, ls.objectsInUse(), "lock objects left by the dead after " + kills + " kills (seed " + seed + ")");
            assertEquals(free[2], ls.locksInUse() + free[0], "lock requests lost after " + kills + " kills (seed " + seed + ")");
            assertEquals(free[3], ls.objectsInUse() + free[1], "lock objects lost after " + kills + " kills (seed " + seed + ")");
            assertEquals(0, free[4], "free lock entries that still look in use after " + kills + " kills (seed " + seed + ")");
        } finally {
            ChildJvm.closeAll(workers);
            holder[0].close();
        }
        check(home, acked, "after " + kills + " kills (seed " + seed + ")");
        System.out.printf("KillOneOfFourCrashTest: %d kills of one of %d workers in %d s: the survivors went on in %d "
                + "(%.1f %%), the environment failed in %d %s; acknowledged commits %s all present%n", kills, WORKERS,
                (System.nanoTime() - t0) / 1_000_000_000L, inPlace, 100.0 * inPlace / kills, failed, failedBy,
                java.util.Arrays.toString(acked));
    }

    /** The threads of a stuck child, for the failure message. */
    static String threadDump(ChildJvm c) {
        try {
            Path jstack = ChildJvm.javaBinary().resolveSibling("jstack");
            Process p = new ProcessBuilder(jstack.toString(), Long.toString(c.pid())).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            p.waitFor(30, java.util.concurrent.TimeUnit.SECONDS);
            return out;
        } catch (Exception e) {
            return "(no thread dump: " + e + ")";
        }
    }

    private static String tail(ChildJvm c) {
        List<String> out = c.output().stream().filter(l -> !l.startsWith("ACK ") && !l.startsWith("AUDIT ")).toList();
        return String.join("\n", out.subList(Math.max(0, out.size() - 60), out.size()));
    }
}
