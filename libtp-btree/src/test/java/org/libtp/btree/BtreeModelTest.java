package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.Seeds;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The B-tree alone (unprotected: no locks, no log) against a TreeMap model. */
class BtreeModelTest {
    @TempDir
    Path home;

    static final class Fixture implements AutoCloseable {
        final RegionEnvironment env;
        final SharedBufferPool bp;
        final Btree tree;

        Fixture(Path home, int frames) {
            env = RegionEnvironment.open(home, RegionEnvironmentConfig.builder().failCheckMillis(0).build());
            bp = SharedBufferPool.open(env, new FileStorage(home), null,
                    BufferConfig.builder().poolBytes(4096L * frames).partitions(16).build());
            tree = new Btree(bp, bp.open("t.db"), Btree.defaultComparator());
            tree.create(BtreeLog.NONE);
        }

        @Override
        public void close() {
            bp.sync();
            bp.close();
            env.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void randomOperationsMatchATreeMapAcrossReopen() {
        long seed = Seeds.seed("BtreeModelTest");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Fixture f = new Fixture(home, 64)) {
            for (int i = 0; i < 20_000; i++) {
                byte[] key = bytes("k" + rnd.nextInt(5000));
                int op = rnd.nextInt(10);
                if (op < 6) {
                    byte[] data = new byte[rnd.nextInt(120)];
                    rnd.nextBytes(data);
                    byte[] old = f.tree.put(key, data, false, Protection.NONE, BtreeLog.NONE);
                    assertArrayEquals(model.put(key, data), old, "put " + new String(key) + " seed " + seed);
                } else if (op < 8) {
                    assertArrayEquals(model.remove(key), f.tree.delete(key, Protection.NONE, BtreeLog.NONE),
                            "delete seed " + seed);
                } else {
                    assertArrayEquals(model.get(key), f.tree.get(key, Protection.NONE), "get seed " + seed);
                }
            }
            check(f, model, seed);
        }
        try (Fixture f = new Fixture(home, 64)) {
            check(f, model, seed);
        }
    }

    private static void check(Fixture f, TreeMap<byte[], byte[]> model, long seed) {
        assertEquals(List.of(), f.tree.verify(), "seed " + seed);
        List<byte[]> keys = new ArrayList<>();
        f.tree.scan(null, Protection.NONE, (k, d) -> {
            keys.add(k);
            assertArrayEquals(model.get(k), d);
            return true;
        });
        assertEquals(model.size(), keys.size(), "seed " + seed);
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getKey(), keys.get(i++));
        }
        Btree.Stats s = f.tree.stats();
        assertEquals(model.size(), s.entries());
        assertTrue(s.levels() >= 2, s.toString());
    }

    @Test
    void positionedReadsMatchTheModel() {
        long seed = Seeds.seed("BtreeModelTest.positioned");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Fixture f = new Fixture(home, 64)) {
            assertNull(f.tree.ceiling(null, true, Protection.NONE));
            assertNull(f.tree.floorBelow(null, Protection.NONE));
            for (int i = 0; i < 6000; i++) {
                byte[] key = bytes("k" + rnd.nextInt(20000));
                byte[] data = bytes("d" + i);
                f.tree.put(key, data, false, Protection.NONE, BtreeLog.NONE);
                model.put(key, data);
            }
            for (int i = 0; i < 3000; i++) {
                byte[] probe = bytes("k" + rnd.nextInt(21000));
                Map.Entry<byte[], byte[]> c = model.ceilingEntry(probe);
                Map.Entry<byte[], byte[]> h = model.higherEntry(probe);
                Map.Entry<byte[], byte[]> l = model.lowerEntry(probe);
                assertEntry(c, f.tree.ceiling(probe, true, Protection.NONE), "ceiling", seed);
                assertEntry(h, f.tree.ceiling(probe, false, Protection.NONE), "higher", seed);
                assertEntry(l, f.tree.floorBelow(probe, Protection.NONE), "lower", seed);
            }
            assertEntry(model.firstEntry(), f.tree.ceiling(null, true, Protection.NONE), "first", seed);
            assertEntry(model.lastEntry(), f.tree.floorBelow(null, Protection.NONE), "last", seed);
        }
    }

    private static void assertEntry(Map.Entry<byte[], byte[]> want, byte[][] got, String what, long seed) {
        if (want == null) {
            assertNull(got, what + " seed " + seed);
        } else {
            assertArrayEquals(want.getKey(), got[0], what + " seed " + seed);
            assertArrayEquals(want.getValue(), got[1], what + " seed " + seed);
        }
    }

    @Test
    void sortedInsertsFillPagesToNinetyPercent() {
        try (Fixture f = new Fixture(home, 64)) {
            for (int i = 0; i < 50_000; i++) {
                f.tree.put(bytes(String.format("key%08d", i)), bytes("value" + i), false, Protection.NONE, BtreeLog.NONE);
            }
            Btree.Stats s = f.tree.stats();
            assertTrue(s.leafFill() >= 90, s.toString());
            assertEquals(50_000, s.entries());
            assertEquals(List.of(), f.tree.verify());
            assertArrayEquals(bytes("value12345"), f.tree.get(bytes("key00012345"), Protection.NONE));
            assertNull(f.tree.get(bytes("key00050000"), Protection.NONE));
        }
    }

    @Test
    void largeEntriesAndBadKeys() {
        try (Fixture f = new Fixture(home, 32)) {
            Random rnd = new Random(1);
            TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            for (int i = 0; i < 2000; i++) {
                byte[] key = new byte[1 + rnd.nextInt(f.tree.maxKey)];
                rnd.nextBytes(key);
                byte[] data = new byte[rnd.nextInt(3) == 0 ? rnd.nextInt(20_000) : rnd.nextInt(f.tree.maxEntry - BtreePage.LEAF_CELL_HEADER - key.length)];
                f.tree.put(key, data, false, Protection.NONE, BtreeLog.NONE);
                model.put(key, data);
            }
            check(f, model, 1);
            assertThrows(IllegalArgumentException.class,
                    () -> f.tree.put(new byte[0], new byte[1], false, Protection.NONE, BtreeLog.NONE));
            assertThrows(IllegalArgumentException.class,
                    () -> f.tree.put(new byte[f.tree.maxKey + 1], new byte[1], false, Protection.NONE, BtreeLog.NONE));
            byte[] big = new byte[50_000]; // overflow pages
            rnd.nextBytes(big);
            f.tree.put(new byte[] {7}, big, false, Protection.NONE, BtreeLog.NONE);
            assertArrayEquals(big, f.tree.get(new byte[] {7}, Protection.NONE));
            assertArrayEquals(big, f.tree.delete(new byte[] {7}, Protection.NONE, BtreeLog.NONE));
        }
    }

    @Test
    void entriesOfTheLargestInlineSizeWithTheLongestKeysSplitAnywhere() {
        long seed = Seeds.seed("BtreeModelTest.largestInline");
        Random rnd = new Random(seed);
        try (Fixture f = new Fixture(home, 64)) {
            assertEquals(1772, Btree.maxInlineCell(4096), "about half a 4 KiB page stays inline");
            assertEquals(28652, Btree.maxInlineCell(65536));
            TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
            for (int i = 0; i < 3000; i++) {
                // Worst cases for a split: the longest keys (the high keys both halves get) with
                // the largest cells kept inline, among small ones, in random order.
                byte[] key = new byte[rnd.nextBoolean() ? f.tree.maxKey : 1 + rnd.nextInt(40)];
                rnd.nextBytes(key);
                int largest = f.tree.maxEntry - BtreePage.LEAF_CELL_HEADER - key.length - 1; // 1: the inline tag
                byte[] data = new byte[rnd.nextInt(4) == 0 ? rnd.nextInt(50) : largest - rnd.nextInt(3)];
                rnd.nextBytes(data);
                assertEquals(model.put(key, data) == null, f.tree.put(key, data, false, Protection.NONE, BtreeLog.NONE) == null,
                        "seed " + seed);
                if (i % 500 == 499) {
                    check(f, model, seed);
                }
            }
            for (byte[] k : new ArrayList<>(model.keySet())) {
                if (rnd.nextBoolean()) {
                    assertArrayEquals(model.remove(k), f.tree.delete(k, Protection.NONE, BtreeLog.NONE), "seed " + seed);
                }
            }
            check(f, model, seed);
            Btree.Stats st = f.tree.stats();
            System.out.println("BtreeModelTest.largestInline (seed " + seed + "): " + st);
        }
    }

    @Test
    void aRootLeafSplitPlacesTheNewEntryWhateverTheSizes() {
        long seed = Seeds.seed("BtreeModelTest.rootSplits");
        Random rnd = new Random(seed);
        try (Fixture f = new Fixture(home, 64)) {
            int roots = 0;
            for (int t = 0; t < 200; t++) { // the file registry holds 256
                Btree tree = new Btree(f.bp, f.bp.open("root" + t + ".db"), Btree.defaultComparator());
                tree.create(BtreeLog.NONE);
                TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
                // A few entries of mixed sizes up to the largest inline cell, keys up to the
                // longest: the root leaf fills with two to a dozen and splits (halving by bytes),
                // and the half the new entry goes to may have to split again.
                while (tree.stats().levels() < 2) {
                    byte[] key = new byte[rnd.nextInt(3) == 0 ? tree.maxKey - rnd.nextInt(5) : 1 + rnd.nextInt(30)];
                    rnd.nextBytes(key);
                    int largest = tree.maxEntry - BtreePage.LEAF_CELL_HEADER - key.length - 1;
                    byte[] data = new byte[rnd.nextBoolean() ? largest - rnd.nextInt(20) : rnd.nextInt(Math.max(1, largest))];
                    tree.put(key, data, false, Protection.NONE, BtreeLog.NONE);
                    model.put(key, data);
                }
                roots++;
                assertEquals(List.of(), tree.verify(), "tree " + t + ", seed " + seed);
                for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                    assertArrayEquals(e.getValue(), tree.get(e.getKey(), Protection.NONE), "tree " + t + ", seed " + seed);
                }
            }
            assertEquals(200, roots);
        }
    }
}
