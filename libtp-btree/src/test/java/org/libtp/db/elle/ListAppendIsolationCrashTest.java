package org.libtp.db.elle;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.EnvironmentFailureException;
import org.libtp.core.OperationFailureException;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.Transaction;
import org.libtp.db.elle.ListAppendChecker.Op;
import org.libtp.db.elle.ListAppendChecker.Result;
import org.libtp.db.elle.ListAppendChecker.Status;
import org.libtp.db.elle.ListAppendChecker.Txn;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * Isolation checked, not assumed: four JVMs of two threads run list-append transactions (1 to 4
 * reads or appends over a window of 12 keys, durable commits, every tenth aborted on purpose)
 * against one environment while one JVM at a time is killed with SIGKILL and a new one started in
 * its place. Each transaction prints its operations and what its reads returned before it commits
 * and an acknowledgement after, so a killed JVM's last transactions have an unknown outcome. After
 * the campaign the environment is recovered, every list read once more, and the whole history
 * given to {@link ListAppendChecker}: no cycle (G0, G1c, G-single, G2), no aborted or intermediate
 * read, no incompatible orders, every acknowledged append present and no aborted one. A death
 * inside a latch without an in-place repair fails the environment, which every worker reopens
 * transparently (the transactions in flight are rolled back, or in doubt if committing); if that
 * does not succeed (RunRecoveryException) all stop, it is recovered and four start again, which
 * counts but must not break isolation. 12
 * kills in {@code mvn verify}, 500 with {@code -Pstress}, any number with {@code -Dlibtp.kills=N}.
 * On an anomaly the history is kept in {@code target/elle-history-<seed>.txt}.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 120, unit = java.util.concurrent.TimeUnit.MINUTES)
class ListAppendIsolationCrashTest {
    static final int JVMS = 4;
    static final int THREADS = 2;
    static final int WINDOW = 12;
    /** A list this long retires its key: lists stay short, so rewriting one stays cheap and lines short. */
    static final int RETIRE_AT = 32;
    static final long PER_WORKER = 1_000_000_000L;

    @TempDir
    Path dir;

    static EnvironmentConfig config() {
        return EnvironmentConfig.builder().durability(Durability.SYNC).lockTimeoutMillis(5_000).build();
    }

    static final DatabaseConfig LISTS = DatabaseConfig.builder().allowCreate(true).build();

    static byte[] key(long k) {
        return String.format("list%08d", k).getBytes(StandardCharsets.UTF_8);
    }

    static long keyOf(byte[] key) {
        return Long.parseLong(new String(key, StandardCharsets.UTF_8).substring(4));
    }

    static List<Long> decode(byte[] data) {
        List<Long> out = new ArrayList<>();
        if (data != null) {
            ByteBuffer b = ByteBuffer.wrap(data);
            while (b.hasRemaining()) {
                out.add(b.getLong());
            }
        }
        return out;
    }

    static byte[] appended(byte[] data, long v) {
        int n = data == null ? 0 : data.length;
        ByteBuffer b = ByteBuffer.allocate(n + 8);
        if (data != null) {
            b.put(data);
        }
        return b.putLong(v).array();
    }

    /**
     * Child: args home, seed, incarnation (unique per started JVM), first key of the window.
     * Prints "T id ops $" before each commit, "OK id" after it, "FAIL id ops $" for an attempt
     * rolled back (its ops as far as it got) and "WHY id exception" if it was not on purpose, "BASE k"
     * when its key window moves on.
     */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            long seed = Long.parseLong(args[1]);
            long incarnation = Long.parseLong(args[2]);
            AtomicLong base = new AtomicLong(Long.parseLong(args[3]));
            Environment env = Environment.open(home, config());
            Database db = env.openDatabase(null, "lists", LISTS);
            System.out.println("READY");
            List<Thread> threads = new ArrayList<>();
            for (int th = 0; th < THREADS; th++) {
                long worker = incarnation * THREADS + th;
                Random rnd = new Random(seed + th);
                Thread t = new Thread(() -> {
                    try {
                        run(env, db, worker, rnd, base);
                    } catch (EnvironmentFailureException e) {
                        System.out.println("ENVFAILED " + e);
                        Runtime.getRuntime().halt(3);
                    } catch (Throwable e) {
                        java.io.StringWriter s = new java.io.StringWriter();
                        e.printStackTrace(new java.io.PrintWriter(s));
                        System.out.println("ERROR " + s);
                        Runtime.getRuntime().halt(4);
                    }
                }, "worker " + worker);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
        }

        static void run(Environment env, Database db, long worker, Random rnd, AtomicLong base) {
            long next = worker * PER_WORKER;
            while (true) {
                long id = ++next;
                int n = 1 + rnd.nextInt(4);
                long from = base.get();
                List<Op> ops = new ArrayList<>();
                Transaction t = env.beginTransaction();
                boolean committing = false;
                try {
                    for (int i = 0; i < n; i++) {
                        long k = from + rnd.nextInt(WINDOW);
                        List<Long> seen;
                        if (rnd.nextBoolean()) {
                            seen = decode(db.get(t, key(k)));
                            ops.add(Op.read(k, seen));
                        } else {
                            long v = ++next;
                            ops.add(Op.append(k, v)); // before the write: a failed attempt still names it
                            byte[] cur;
                            // Three ways to read-modify-write, for their different lock paths.
                            switch (rnd.nextInt(3)) {
                                case 0 -> {
                                    cur = db.get(t, key(k)); // READ lock, upgraded by the put
                                    db.put(t, key(k), appended(cur, v));
                                }
                                case 1 -> {
                                    cur = db.getForUpdate(t, key(k));
                                    db.put(t, key(k), appended(cur, v));
                                }
                                default -> {
                                    byte[][] old = new byte[1][];
                                    byte[] now = db.update(t, key(k), d -> {
                                        old[0] = d;
                                        return appended(d, v);
                                    });
                                    if (now == null) {
                                        db.put(t, key(k), appended(null, v));
                                    }
                                    cur = old[0];
                                }
                            }
                            seen = decode(cur);
                        }
                        if (seen.size() >= RETIRE_AT && base.accumulateAndGet(k + 1, Math::max) == k + 1) {
                            System.out.println("BASE " + (k + 1));
                        }
                    }
                    if (rnd.nextInt(10) == 0) {
                        t.abort();
                        System.out.println("FAIL " + id + " " + ListAppendChecker.formatOps(ops) + " $");
                        continue;
                    }
                    System.out.println("T " + id + " " + ListAppendChecker.formatOps(ops) + " $");
                    committing = true;
                    t.commit();
                    System.out.println("OK " + id);
                } catch (OperationFailureException e) { // a deadlock victim, a lock timeout, a reopen
                    if (e instanceof org.libtp.core.EnvironmentReopenedException r && r.commitInDoubt()) {
                        // Failed in its commit, then reopened: its T line without OK is an
                        // indeterminate transaction to the checker, which the final read settles.
                        System.out.println("WHY " + id + " commit in doubt after a reopen");
                        continue;
                    }
                    if (committing && !(e instanceof org.libtp.core.EnvironmentReopenedException)) {
                        throw e;
                    }
                    t.abort();
                    System.out.println("FAIL " + id + " " + ListAppendChecker.formatOps(ops) + " $");
                    // Why, for a hang report: lock timeouts in a row mean a lock nobody releases.
                    System.out.println("WHY " + id + " " + e.getClass().getSimpleName());
                } catch (EnvironmentFailureException e) {
                    if (!committing) { // never committed: certainly not applied after recovery
                        System.out.println("FAIL " + id + " " + ListAppendChecker.formatOps(ops) + " $");
                    }
                    throw e;
                }
            }
        }
    }

    /** The history a child printed; a torn last line of a killed child is dropped (its commit never began). */
    private static void parse(ChildJvm c, int incarnation, List<Txn> history, boolean killed) {
        List<String> lines = c.output();
        Map<Long, Txn> intents = new LinkedHashMap<>();
        Set<Long> acked = new HashSet<>();
        for (int i = 0; i < lines.size(); i++) {
            String l = lines.get(i);
            String[] p = l.split(" ");
            boolean txnLine = p[0].equals("T") || p[0].equals("FAIL");
            if (!txnLine && !p[0].equals("OK")) {
                continue;
            }
            boolean whole = p[0].equals("OK") ? p.length == 2 && p[1].matches("\\d+") : p[p.length - 1].equals("$");
            if (!whole) {
                if (killed && i == lines.size() - 1) {
                    continue;
                }
                throw new AssertionError("incarnation " + incarnation + ": unreadable line " + l);
            }
            long id = Long.parseLong(p[1]);
            if (p[0].equals("OK")) {
                acked.add(id);
            } else {
                List<Op> ops = ListAppendChecker.parseOps(java.util.Arrays.copyOf(p, p.length - 1), 2);
                intents.put(id, new Txn(id, "jvm " + incarnation, p[0].equals("FAIL") ? Status.FAIL : Status.INFO,
                        ops));
            }
        }
        for (Txn t : intents.values()) {
            if (acked.remove(t.id())) {
                t = new Txn(t.id(), t.label(), Status.OK, t.ops());
            }
            history.add(t);
        }
        if (!acked.isEmpty()) {
            throw new AssertionError("incarnation " + incarnation + ": acknowledged without intent: " + acked);
        }
    }

    private static long base(List<ChildJvm> cs) {
        long b = 0;
        for (ChildJvm c : cs) {
            for (String l : c.linesStartingWith("BASE ")) {
                b = Math.max(b, Long.parseLong(l.substring(5).trim()));
            }
        }
        return b;
    }

    private static int okCount(ChildJvm c) {
        return c.linesStartingWith("OK ").size();
    }

    @Test
    void listAppendHistoryAcrossKilledJvmsIsSerializable() throws Exception {
        long seed = Seeds.seed("ListAppendIsolationCrashTest");
        Random rnd = new Random(seed);
        int kills = Integer.getInteger("libtp.kills", Seeds.stress() ? 500 : 12);
        Path home = Files.createDirectory(dir.resolve("env"));
        try (Environment env = Environment.open(home, config());
             Database db = env.openDatabase(null, "lists", LISTS);
             Cursor c = db.openCursor(null)) {
            assertFalse(c.first(), "a fresh environment");
        }
        List<ChildJvm> all = new ArrayList<>();
        Map<ChildJvm, Boolean> killed = new HashMap<>();
        List<ChildJvm> jvms = new ArrayList<>();
        long t0 = System.nanoTime();
        int envFailed = 0;
        try {
            for (int i = 0; i < JVMS; i++) {
                jvms.add(start(home, rnd, all, 0));
            }
            for (ChildJvm c : jvms) {
                c.awaitLine("READY", Duration.ofSeconds(60));
            }
            for (int k = 0; k < kills; k++) {
                String ctx = "kill " + k + " (seed " + seed + ")";
                Thread.sleep(500 + rnd.nextInt(1000));
                int v = rnd.nextInt(JVMS);
                ChildJvm victim = jvms.get(v);
                victim.kill();
                killed.put(victim, true);
                boolean failed = false;
                for (ChildJvm c : jvms) {
                    if (c == victim) {
                        continue;
                    }
                    int before = okCount(c);
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    while (okCount(c) < before + 5 && c.isAlive() && System.nanoTime() < deadline) {
                        Thread.sleep(5);
                    }
                    if (okCount(c) >= before + 5) {
                        continue;
                    }
                    if (c.isAlive()) {
                        StringBuilder b = new StringBuilder(ctx + ": a survivor (pid " + c.pid()
                                + ") committed fewer than 5 transactions in 20 s (" + (okCount(c) - before)
                                + "); the last lines of each JVM and their threads:");
                        for (ChildJvm o : jvms) {
                            List<String> out = o.output();
                            b.append("\n\n=== pid ").append(o.pid()).append(o == victim ? " (the victim)" : "")
                                    .append(o == c ? " (stuck)" : "").append(" alive ").append(o.isAlive())
                                    .append(", OK ").append(okCount(o)).append(", FAIL ")
                                    .append(o.linesStartingWith("FAIL ").size()).append(":\n  ")
                                    .append(String.join("\n  ", out.subList(Math.max(0, out.size() - 15), out.size())));
                            if (o.isAlive()) {
                                b.append("\n").append(threadDump(o));
                            }
                        }
                        b.append("\n\n=== the lock table:\n").append(lockTable(home));
                        throw new AssertionError(b.toString());
                    }
                    if (c.linesStartingWith("ENVFAILED ").isEmpty()) {
                        throw new AssertionError(ctx + ": a survivor is stuck or died (alive " + c.isAlive() + "):\n"
                                + tail(c));
                    }
                    failed = true;
                    break;
                }
                if (!failed) {
                    jvms.set(v, start(home, rnd, all, base(jvms)));
                    jvms.get(v).awaitLine("READY", Duration.ofSeconds(60));
                } else {
                    envFailed++;
                    long b = base(jvms);
                    ChildJvm.killAll(jvms);
                    for (ChildJvm c : jvms) {
                        killed.put(c, true);
                    }
                    recover(home).close(); // every process has died: recovery, then four start again
                    for (int i = 0; i < JVMS; i++) {
                        jvms.set(i, start(home, rnd, all, b));
                    }
                    for (ChildJvm c : jvms) {
                        c.awaitLine("READY", Duration.ofSeconds(60));
                    }
                }
            }
            ChildJvm.killAll(jvms); // as a crash: the last transactions of all four are in doubt
            for (ChildJvm c : jvms) {
                killed.put(c, true);
            }
        } finally {
            ChildJvm.closeAll(all);
        }
        List<Txn> history = new ArrayList<>();
        for (int i = 0; i < all.size(); i++) {
            ChildJvm c = all.get(i);
            if (!c.linesStartingWith("ERROR ").isEmpty()) {
                throw new AssertionError("jvm " + (i + 1) + " failed (seed " + seed + "):\n" + tail(c));
            }
            parse(c, i + 1, history, killed.getOrDefault(c, false));
        }
        Map<Long, List<Long>> lists = new TreeMap<>();
        try (Recovered r = recover(home)) {
            List<String> damage = r.db.verify();
            if (!damage.isEmpty()) {
                // Kept for the diagnosis: the data files and the log as recovery left them.
                Path keep = Path.of("target", "elle-env-" + seed);
                copyTree(home, keep);
                throw new AssertionError("seed " + seed + ": verify after recovery: " + damage
                        + " (the environment is kept in " + keep.toAbsolutePath() + ")");
            }
            try (Transaction t = r.env.beginTransaction(Durability.SYNC, true); Cursor cur = r.db.openCursor(t)) {
                for (boolean more = cur.first(); more; more = cur.next()) {
                    lists.put(keyOf(cur.key()), decode(cur.data()));
                }
                t.commit();
            }
        }
        List<Op> last = new ArrayList<>();
        lists.forEach((k, l) -> last.add(Op.read(k, l)));
        history.add(new Txn(0, "final read after recovery", Status.OK, last));
        Result result = ListAppendChecker.check(history);

        List<String> problems = new ArrayList<>(result.anomalies());
        Map<Long, Set<Long>> present = new HashMap<>();
        lists.forEach((k, l) -> present.put(k, new HashSet<>(l)));
        for (Txn t : history) {
            for (Op op : t.ops()) {
                boolean there = op.isAppend() && present.getOrDefault(op.key(), Set.of()).contains(op.value());
                if (op.isAppend() && t.status() == Status.OK && !there) {
                    problems.add("lost: acknowledged " + op + " is not in the final list: " + t);
                } else if (there && t.status() == Status.FAIL) {
                    problems.add("aborted " + op + " is in the final list: " + t);
                }
            }
        }
        String summary = String.format("ListAppendIsolationCrashTest: %d kills (environment failed %d times) in %d s; %s;"
                + " lost or aborted-present appends %d (seed %d)", kills, envFailed,
                (System.nanoTime() - t0) / 1_000_000_000L, result.summary(), problems.size() - result.anomalies().size(),
                seed);
        System.out.println(summary);
        if (!problems.isEmpty()) {
            Path kept = Path.of("target", "elle-history-" + seed + ".txt");
            keep(kept, history, summary, problems);
            throw new AssertionError(summary + "\nhistory kept in " + kept.toAbsolutePath() + "\n\n"
                    + String.join("\n\n", problems.subList(0, Math.min(20, problems.size()))));
        }
    }

    private static void keep(Path file, List<Txn> history, String summary, List<String> problems) throws IOException {
        Files.createDirectories(file.getParent());
        List<String> out = new ArrayList<>();
        out.add(summary);
        out.addAll(problems);
        out.add("history (id, where, status, ops):");
        for (Txn t : history) {
            out.add(t.id() + " " + t.label() + " " + t.status() + " " + ListAppendChecker.formatOps(t.ops()));
        }
        Files.write(file, out);
    }

    private static ChildJvm start(Path home, Random rnd, List<ChildJvm> all, long base) {
        ChildJvm c = ChildJvm.start(Worker.class, home.toString(), Long.toString(rnd.nextLong()),
                Integer.toString(all.size() + 1), Long.toString(base));
        all.add(c);
        return c;
    }

    private record Recovered(Environment env, Database db) implements AutoCloseable {
        @Override
        public void close() {
            db.close();
            env.close();
        }
    }

    private static Recovered recover(Path home) {
        Environment env = Environment.open(home, config());
        return new Recovered(env, env.openDatabase(null, "lists", LISTS));
    }

    /** The lock table as a process joining the running environment reads it, for a hang. */
    private static String lockTable(Path home) {
        try (Environment env = Environment.open(home, config())) {
            StringBuilder b = new StringBuilder();
            org.libtp.core.lock.LockTableSnapshot s = env.lockTable();
            for (org.libtp.core.lock.LockTableSnapshot.Request r : s.requests()) {
                b.append("  ").append(r).append('\n');
            }
            for (long[] e : s.waitsFor()) {
                b.append("  waits-for ").append(e[0]).append(" -> ").append(e[1]).append('\n');
            }
            b.append("  active transactions: ").append(env.activeTransactions()).append('\n');
            b.append("  processes: ").append(env.attachedProcesses()).append('\n');
            return b.toString();
        } catch (RuntimeException e) {
            return "(could not read the lock table: " + e + ")";
        }
    }

    private static void copyTree(Path from, Path to) throws java.io.IOException {
        try (var files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path q = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(q);
                } else {
                    Files.copy(p, q, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
                }
            }
        }
    }

    /** The child's threads (jcmd), for a hang. */
    private static String threadDump(ChildJvm c) {
        try {
            Process p = new ProcessBuilder(ChildJvm.javaBinary().resolveSibling("jcmd").toString(),
                    Long.toString(c.pid()), "Thread.print").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            p.waitFor();
            return out;
        } catch (IOException | InterruptedException e) {
            return "no thread dump: " + e;
        }
    }

    private static String tail(ChildJvm c) {
        List<String> out = c.output().stream().filter(l -> !l.startsWith("T ") && !l.startsWith("OK ")
                && !l.startsWith("FAIL ") && !l.startsWith("WHY ")).toList();
        return String.join("\n", out.subList(Math.max(0, out.size() - 60), out.size()));
    }
}
