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
}
