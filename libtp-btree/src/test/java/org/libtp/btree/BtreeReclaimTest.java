package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.DeadlockException;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Page reclamation: emptied leaves are unlinked and reused, overflow chains freed; the file stays bounded. */
class BtreeReclaimTest {
    @TempDir
    Path home;

    private static byte[] key(int w, long n) {
        return String.format("w%d/%010d", w, n).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void aDamagedFreeListPageIsReportedAsCorruptionWithNothingLeftPinned() {
        try (BtreeModelTest.Fixture fx = new BtreeModelTest.Fixture(home, 64)) {
            Btree tree = fx.tree;
            Page p = tree.allocate(BtreeLog.NONE);
            long pageNo = p.pageNo();
            fx.bp.unpin(p, false);
            tree.free(pageNo, BtreeLog.NONE);
            Page q = fx.bp.get(tree.file, pageNo, 0);
            q.latch();
            q.setType(BtreePage.OVERFLOW); // no longer a free page, though the list's head
            q.unlatch();
            fx.bp.unpin(q, true);
            CorruptionException e = assertThrows(CorruptionException.class, () -> tree.allocate(BtreeLog.NONE));
            assertTrue(e.getMessage().contains("is on the free list but has type " + BtreePage.OVERFLOW), e.getMessage());
            assertEquals(0, fx.bp.stats().pinnedFrames());
        }
    }

    @Test
    void slidingWindowUnprotectedStaysBoundedAndMatchesTheModel() {
        long seed = Seeds.seed("BtreeReclaimTest.unprotected");
        Random rnd = new Random(seed);
        try (BtreeModelTest.Fixture fx = new BtreeModelTest.Fixture(home, 64)) {
            SharedBufferPool bp = fx.bp;
            Btree tree = fx.tree;
            TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            int window = 2000;
            long maxPages = 0;
            for (long n = 0; n < 60_000; n++) {
                byte[] v = new byte[20 + rnd.nextInt(200)];
                rnd.nextBytes(v);
                tree.put(key(0, n), v, false, Protection.NONE, BtreeLog.NONE);
                model.put(key(0, n), v);
                if (n >= window) {
                    assertArrayEquals(model.remove(key(0, n - window)), tree.delete(key(0, n - window), Protection.NONE,
                            BtreeLog.NONE), "seed " + seed);
                }
                if (n == 10_000) {
                    maxPages = bp.pageCount(tree.file);
                }
            }
            assertEquals(List.of(), tree.verify(), "seed " + seed);
            Btree.Stats st = tree.stats();
            // Without reclamation: about 60,000 * 130 / 4096 = 1,900 leaves.
            assertTrue(st.pages() <= maxPages + 10, st + " grew past " + maxPages + " pages (seed " + seed + ")");
            List<byte[]> keys = new ArrayList<>();
            tree.scan(null, Protection.NONE, (k, d) -> {
                keys.add(k);
                assertArrayEquals(model.get(k), d);
                return true;
            });
            assertEquals(model.size(), keys.size());
        }
    }

    @Test
    void concurrentSlidingWindowsInTpModeStayBoundedAndVerify() throws Exception {
        int workers = 4;
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            List<Thread> ts = new ArrayList<>();
            List<Throwable> errors = new java.util.concurrent.CopyOnWriteArrayList<>();
            for (int w = 0; w < workers; w++) {
                int ww = w;
                Thread t = new Thread(() -> {
                    try {
                        for (long n = 1; n < 800; n++) {
                            Txn t1 = f.tp.txn().begin();
                            try {
                                for (int j = 0; j < BtreeCrashTest.keysOf(n); j++) {
                                    f.tree.put(BtreeCrashTest.key(ww, n, j), BtreeCrashTest.value(ww, n, j), false,
                                            f.prot(t1), f.log(t1));
                                }
                                if (n > 3) {
                                    for (int j = 0; j < BtreeCrashTest.keysOf(n - 3); j++) {
                                        f.tree.delete(BtreeCrashTest.key(ww, n - 3, j), f.prot(t1), f.log(t1));
                                    }
                                }
                                f.commit(t1);
                            } catch (DeadlockException e) {
                                f.abort(t1);
                                n--;
                            }
                        }
                    } catch (Throwable e) {
                        errors.add(e);
                    }
                });
                ts.add(t);
                t.start();
            }
            for (Thread t : ts) {
                t.join();
            }
            assertEquals(List.of(), errors);
            assertEquals(List.of(), f.tree.verify());
            Btree.Stats st = f.tree.stats();
            // Live: 3 transactions of up to 8 keys of up to 400 bytes per worker. Without
            // reclamation about 700 leaves.
            assertTrue(st.leafPages() <= 6 * workers, st.toString());
            assertTrue(st.pages() <= 16 * workers, st.toString());
        }
    }

    @Test
    void overflowChainsAreFreedOnCommittedDeleteAndOnAbortAndReused() {
        try (BtreeTxnTest.Tp f = new BtreeTxnTest.Tp(home)) {
            byte[] big = new byte[20_000];
            new Random(1).nextBytes(big);
            long pagesAfterFirst = 0;
            for (int round = 0; round < 30; round++) {
                Txn t = f.tp.txn().begin();
                f.tree.put("big".getBytes(StandardCharsets.UTF_8), big, false, f.prot(t), f.log(t));
                f.commit(t);
                Txn a = f.tp.txn().begin(); // an aborted replace: its new chain is freed
                f.tree.put("big".getBytes(StandardCharsets.UTF_8), new byte[9_000], false, f.prot(a), f.log(a));
                f.abort(a);
                Txn d = f.tp.txn().begin();
                assertArrayEquals(big, f.tree.delete("big".getBytes(StandardCharsets.UTF_8), f.prot(d), f.log(d)));
                f.commit(d);
                if (round == 1) {
                    pagesAfterFirst = f.tp.buffers().pageCount(f.tree.file);
                }
            }
            assertEquals(List.of(), f.tree.verify());
            long pages = f.tp.buffers().pageCount(f.tree.file);
            assertTrue(pages <= pagesAfterFirst, pages + " pages after 30 rounds, " + pagesAfterFirst + " after 2");
            assertTrue(f.tree.freePages() >= 5, "free pages " + f.tree.freePages());
        }
    }
}
