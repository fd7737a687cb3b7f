package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Four JVMs run random transactions on overlapping keys (values large enough for many splits);
 * each prints its committed transactions with their commit LSNs. The final tree must equal a
 * serial replay of the committed transactions in commit-LSN order (strict two-phase locking makes
 * that order a serialization order). Meanwhile a reader thread per JVM keeps looking up keys that
 * were stored before and are never changed, interleaved with the changing ones: it must never miss
 * one while pages split around it.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class BtreeMultiProcessTest {
    static final int KEYS = 3000;

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static String key(int n) {
        return String.format("k%04d", n);
    }

    static String stable(int n) {
        return String.format("k%04d.s", n);
    }

    /** Child: transactions until {@code count} committed; a reader thread checks stable keys meanwhile. */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int proc = Integer.parseInt(args[1]);
            int count = Integer.parseInt(args[2]);
            Random rnd = new Random(Long.parseLong(args[3]));
            try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
                System.out.println("READY");
                volatile_stop[0] = false;
                Thread reader = new Thread(() -> read(f));
                reader.start();
                int committed = 0;
                int deadlocks = 0;
                while (committed < count) {
                    Txn t = f.tp.txn().begin(Durability.NO_SYNC);
                    StringBuilder ops = new StringBuilder();
                    try {
                        for (int k = 0, n = 1 + rnd.nextInt(8); k < n; k++) {
                            String key = key(rnd.nextInt(KEYS));
                            if (rnd.nextInt(4) == 0) {
                                f.tree.delete(b(key), f.prot(t), f.log(t));
                                ops.append(";D ").append(key);
                            } else {
                                String v = "p" + proc + "-" + committed + "-" + k + "-" + "x".repeat(rnd.nextInt(250));
                                f.tree.put(b(key), b(v), false, f.prot(t), f.log(t));
                                ops.append(";P ").append(key).append(' ').append(v);
                            }
                        }
                        f.commit(t);
                        committed++;
                        System.out.println("TXN " + t.lastLsn() + ops);
                    } catch (DeadlockException e) {
                        f.abort(t);
                        deadlocks++;
                    }
                }
                volatile_stop[0] = true;
                reader.join();
                System.out.println("DEADLOCKS " + deadlocks);
            }
        }

        static final boolean[] volatile_stop = {false};

        static void read(BtreeTxnTest.Tp f) {
            long lookups = 0;
            while (!volatile_stop[0]) {
                for (int n = 0; n < KEYS; n += 15) {
                    Txn t = f.tp.txn().begin();
                    try {
                        byte[] v = f.tree.get(b(stable(n)), f.prot(t));
                        if (v == null || !new String(v, StandardCharsets.UTF_8).equals("stable" + n)) {
                            System.out.println("MISSING " + stable(n));
                        }
                        lookups++;
                        f.commit(t);
                    } catch (DeadlockException e) {
                        f.abort(t);
                    }
                }
            }
            System.out.println("LOOKUPS " + lookups);
        }
    }

    @Test
    void fourJvmsEqualASerialReplayAndReadersNeverMissAKey() throws Exception {
        long seed = Seeds.seed("BtreeMultiProcessTest");
        Path home = Files.createDirectory(dir.resolve("env"));
        TreeMap<String, String> model = new TreeMap<>();
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            Txn t = f.tp.txn().begin();
            for (int n = 0; n < KEYS; n += 15) {
                f.tree.put(b(stable(n)), b("stable" + n), false, f.prot(t), f.log(t));
                model.put(stable(n), "stable" + n);
            }
            f.commit(t);
        }
        List<ChildJvm> cs = ChildJvm.startAll(4, Worker.class,
                i -> new String[] {home.toString(), Integer.toString(i), "300", Long.toString(seed + i)});
        TreeMap<Long, String> committed = new TreeMap<>();
        long lookups = 0;
        int deadlocks = 0;
        int empty = 0;
        try {
            for (ChildJvm c : cs) {
                c.assertExitsCleanly(Duration.ofMinutes(4));
                assertEquals(List.of(), c.linesStartingWith("MISSING"), "a reader missed a key (seed " + seed + ")");
                for (String l : c.linesStartingWith("TXN ")) {
                    int sp = l.indexOf(';') < 0 ? l.length() : l.indexOf(';');
                    long lsn = Long.parseLong(l.substring(4, sp).trim());
                    if (lsn == 0) { // logged nothing: only deletes of absent keys, no effect anywhere
                        assertTrue(!l.contains(";P "), l);
                        empty++;
                    } else {
                        assertEquals(null, committed.put(lsn, l.substring(sp)), "commit LSNs are distinct");
                    }
                }
                lookups += Long.parseLong(c.linesStartingWith("LOOKUPS ").get(0).substring(8));
                deadlocks += Integer.parseInt(c.linesStartingWith("DEADLOCKS ").get(0).substring(10));
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        assertEquals(4 * 300, committed.size() + empty);
        for (String ops : committed.values()) { // serial replay in commit order
            for (String op : ops.split(";")) {
                if (op.startsWith("D ")) {
                    model.remove(op.substring(2));
                } else if (op.startsWith("P ")) {
                    String[] p = op.substring(2).split(" ", 2);
                    model.put(p[0], p[1]);
                }
            }
        }
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            assertEquals(List.of(), f.tree.verify());
            TreeMap<String, String> actual = new TreeMap<>();
            Txn t = f.tp.txn().begin();
            f.tree.scan(null, f.prot(t), (k, v) -> {
                actual.put(new String(k, StandardCharsets.UTF_8), new String(v, StandardCharsets.UTF_8));
                return true;
            });
            f.commit(t);
            assertEquals(model.size(), actual.size(), "seed " + seed);
            for (Map.Entry<String, String> e : model.entrySet()) {
                assertEquals(e.getValue(), actual.get(e.getKey()), e.getKey() + " (seed " + seed + ")");
            }
            Btree.Stats s = f.tree.stats();
            System.out.println("BtreeMultiProcessTest: " + committed.size() + " transactions, " + deadlocks
                    + " deadlock victims, " + lookups + " stable-key lookups, tree " + s);
            assertTrue(s.leafPages() > 20, "many splits: " + s);
        }
    }
}
