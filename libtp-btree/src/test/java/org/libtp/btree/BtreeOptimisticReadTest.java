package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.buffer.BufferStats;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Point gets read internal pages and leaves optimistically (no pin, no latch; the frame's
 * sequence validates the read): they must agree with a model, fall back for values in overflow
 * chains, and never miss a key while other threads split pages around them in a pool small enough
 * to evict. The same across JVMs: {@link BtreeMultiProcessTest}'s readers.
 */
class BtreeOptimisticReadTest {
    @TempDir
    Path home;

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void getsAgreeWithTheModelAndUseOptimisticViews() {
        long seed = Seeds.seed("BtreeOptimisticReadTest.model");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            Txn t = f.tp.txn().begin(Durability.NO_SYNC);
            for (int i = 0; i < 3000; i++) {
                byte[] key = b(String.format("key%06d", rnd.nextInt(20_000)));
                // One in ten values lives in an overflow chain: those gets fall back to the latch.
                byte[] data = new byte[rnd.nextInt(10) == 0 ? 2000 + rnd.nextInt(3000) : rnd.nextInt(120)];
                rnd.nextBytes(data);
                f.tree.put(key, data, false, f.prot(t), f.log(t));
                model.put(key, data);
            }
            f.commit(t);
            BufferStats before = f.tp.buffers().stats();
            Txn r = f.tp.txn().begin(Durability.NO_SYNC);
            for (byte[] key : model.keySet()) {
                assertArrayEquals(model.get(key), f.tree.get(key, f.prot(r)), "seed " + seed);
            }
            for (int i = 0; i < 500; i++) {
                byte[] key = b(String.format("key%06d", 20_000 + i));
                assertNull(f.tree.get(key, f.prot(r)), "seed " + seed);
            }
            // The zero-copy read: a view of a validated copy (inline values) or of the pinned
            // page's overflow copy; the reader may not call into the tree.
            for (byte[] key : model.keySet()) {
                byte[] seen = f.tree.read(key, f.prot(r), v -> {
                    byte[] out = new byte[v.remaining()];
                    v.get(out);
                    return out;
                });
                assertArrayEquals(model.get(key), seen, "seed " + seed);
            }
            byte[] some = model.firstKey();
            assertThrows(IllegalStateException.class,
                    () -> f.tree.read(some, f.prot(r), v -> f.tree.get(some, f.prot(r))), "no nested calls");
            assertArrayEquals(model.get(some), f.tree.read(some, f.prot(r), v -> {
                byte[] out = new byte[v.remaining()];
                v.get(out);
                return out;
            }), "the thread reads on after a refused nested call");
            f.commit(r);
            BufferStats after = f.tp.buffers().stats();
            long views = after.optimisticViews() - before.optimisticViews();
            // At least the internal page above each leaf and most leaves (the pool of 48 frames
            // holds part of the tree only: a page not in it is read the ordinary way).
            assertTrue(views > model.size(), "optimistic views " + views + " for " + model.size() + " gets: " + after);
        }
    }

    @Test
    void readersNeverMissAKeyWhileOtherThreadsSplitPages() throws Exception {
        long seed = Seeds.seed("BtreeOptimisticReadTest.splits");
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            Txn t = f.tp.txn().begin(Durability.NO_SYNC);
            for (int n = 0; n < 600; n++) {
                f.tree.put(b("stable" + n), b("value" + n), false, f.prot(t), f.log(t));
            }
            f.commit(t);
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            AtomicLong lookups = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            for (int w = 0; w < 2; w++) {
                Random rnd = new Random(seed + w);
                int writer = w;
                threads.add(new Thread(() -> {
                    try {
                        for (int i = 0; i < 400; i++) {
                            Txn x = f.tp.txn().begin(Durability.NO_SYNC);
                            try {
                                for (int k = 0; k < 10; k++) {
                                    // Keys between the stable ones: their leaves split and merge.
                                    byte[] key = b("stable" + rnd.nextInt(600) + "-w" + writer + "-" + rnd.nextInt(50));
                                    if (rnd.nextInt(3) == 0) {
                                        f.tree.delete(key, f.prot(x), f.log(x));
                                    } else {
                                        f.tree.put(key, new byte[rnd.nextInt(300)], false, f.prot(x), f.log(x));
                                    }
                                }
                                f.commit(x);
                            } catch (DeadlockException e) {
                                f.abort(x);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            for (int rdr = 0; rdr < 2; rdr++) {
                Random rnd = new Random(seed + 10 + rdr);
                threads.add(new Thread(() -> {
                    try {
                        while (!stop.get()) {
                            Txn x = f.tp.txn().begin(Durability.NO_SYNC);
                            try {
                                for (int k = 0; k < 20; k++) {
                                    int n = rnd.nextInt(600);
                                    byte[] v = f.tree.get(b("stable" + n), f.prot(x));
                                    if (v == null || !Arrays.equals(v, b("value" + n))) {
                                        throw new AssertionError("stable" + n + " read as "
                                                + (v == null ? "absent" : new String(v, StandardCharsets.UTF_8)) + " (seed " + seed + ")");
                                    }
                                    lookups.incrementAndGet();
                                }
                                f.commit(x);
                            } catch (DeadlockException e) {
                                f.abort(x);
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }));
            }
            threads.forEach(Thread::start);
            threads.get(0).join(120_000);
            threads.get(1).join(120_000);
            stop.set(true);
            for (Thread th : threads) {
                th.join(60_000);
            }
            if (failure.get() != null) {
                throw new AssertionError("seed " + seed, failure.get());
            }
            BufferStats s = f.tp.buffers().stats();
            System.out.println("BtreeOptimisticReadTest (seed " + seed + "): " + lookups.get() + " lookups; " + s);
            assertTrue(lookups.get() > 1000, "readers ran: " + lookups.get());
            assertTrue(s.optimisticViews() > 0 && s.evictions() > 0, s.toString());
            for (int n = 0; n < 600; n++) {
                Txn x = f.tp.txn().begin();
                assertArrayEquals(b("value" + n), f.tree.get(b("stable" + n), f.prot(x)));
                f.commit(x);
            }
            assertEquals(0, f.tp.buffers().stats().pinnedFrames());
        }
    }
}
