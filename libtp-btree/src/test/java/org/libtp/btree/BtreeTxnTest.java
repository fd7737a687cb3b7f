package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

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
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The B-tree in TP mode (page locks, logging): random transactions with aborts, then recovery. */
class BtreeTxnTest {
    @TempDir
    Path home;

    static final class Tp implements AutoCloseable {
        final TxnEnvironment tp;
        final Btree tree;
        final EndActions endActions = new EndActions();

        Tp(Path home) {
            this(home, false);
        }

        /** {@code earlyLockRelease}: this process's commits release their locks before the force. */
        Tp(Path home, boolean earlyLockRelease) {
            tp = TxnEnvironment.open(home, RegionEnvironmentConfig.builder().failCheckMillis(0).build(),
                    LogConfig.builder().fileSize(1 << 20).bufferSize(256 * 1024).build(),
                    TxnConfig.builder().checkpointBytes(512 * 1024).earlyLockRelease(earlyLockRelease).build(),
                    BufferConfig.builder().poolBytes(4096L * 48).partitions(16).build(), LockConfig.defaults(),
                    new FileStorage(home), parts -> List.of(new BtreeRecords(parts.buffers(), name -> null)));
            int file = tp.buffers().open("tree.db");
            tree = new Btree(tp.buffers(), file, Btree.defaultComparator(), null, new Btree.Epochs() {
                @Override
                public long nextId() {
                    return tp.txn().nextId();
                }

                @Override
                public long oldestActive() {
                    return tp.txn().oldestActiveId();
                }
            });
            if (tp.buffers().pageCount(file) <= Btree.ROOT) {
                Txn t = tp.txn().begin();
                tree.create(new TxnBtreeLog(t, tp.pages(), new EndActions()));
                tp.txn().commit(t);
            }
        }

        Protection prot(Txn t) {
            return new TxnProtection(tp.locks(), t, tree.file);
        }

        BtreeLog log(Txn t) {
            return new TxnBtreeLog(t, tp.pages(), endActions);
        }

        /** Commits and runs the end actions (frees pages, unlinks emptied leaves), as the record API does. */
        void commit(Txn t) {
            tp.txn().commit(t);
            endActions.ended(tp, t, true);
        }

        void abort(Txn t) {
            tp.txn().abort(t);
            endActions.ended(tp, t, false);
        }

        @Override
        public void close() {
            tp.close();
        }
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Values in overflow chains (one and two pages), repeated so that updates overwrite them in place. */
    static final int[] OVERFLOW_LENGTHS = {2_500, 6_000};

    @Test
    void randomTransactionsWithAbortsMatchTheModelAfterRecovery() {
        long seed = Seeds.seed("BtreeTxnTest");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Tp f = new Tp(home)) {
            for (int i = 0; i < 400; i++) {
                Txn t = f.tp.txn().begin(Durability.NO_SYNC);
                TreeMap<byte[], byte[]> mine = new TreeMap<>(model.comparator());
                mine.putAll(model);
                for (int k = 0, n = 1 + rnd.nextInt(40); k < n; k++) {
                    byte[] key = bytes("key" + rnd.nextInt(3000));
                    if (rnd.nextInt(4) == 0) {
                        assertArrayEquals(mine.remove(key), f.tree.delete(key, f.prot(t), f.log(t)), "seed " + seed);
                    } else {
                        byte[] data = new byte[rnd.nextInt(10) == 0 ? OVERFLOW_LENGTHS[rnd.nextInt(2)] : rnd.nextInt(200)];
                        rnd.nextBytes(data);
                        assertArrayEquals(mine.put(key, data), f.tree.put(key, data, false, f.prot(t), f.log(t)),
                                "seed " + seed);
                    }
                }
                if (rnd.nextInt(3) == 0) {
                    f.abort(t);
                } else {
                    f.commit(t);
                    model = mine;
                }
                if (i % 50 == 0) {
                    assertEquals(List.of(), f.tree.verify(), "seed " + seed + " after " + i);
                }
            }
            check(f, model, seed);
            f.tp.log().flush(f.tp.log().endLsn(), Durability.SYNC);
        }
        try (Tp f = new Tp(home)) {
            check(f, model, seed);
        }
    }

    static void check(Tp f, TreeMap<byte[], byte[]> model, long seed) {
        assertEquals(List.of(), f.tree.verify(), "seed " + seed);
        Txn t = f.tp.txn().begin();
        List<byte[]> keys = new ArrayList<>();
        f.tree.scan(null, f.prot(t), (k, d) -> {
            keys.add(k);
            assertArrayEquals(model.get(k), d, "seed " + seed);
            return true;
        });
        f.commit(t);
        assertEquals(model.size(), keys.size(), "seed " + seed);
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getKey(), keys.get(i++));
        }
    }

    /** The B-tree's records from {@code from} on, by type name. */
    private static List<String> btreeRecords(Tp f, long from) {
        List<String> types = new ArrayList<>();
        f.tp.log().scan(from, e -> {
            String name = org.libtp.core.log.record.RecordType.of(e.type(), e.lsn()).name();
            if (name.startsWith("BTREE_")) {
                types.add(name);
            }
            return true;
        });
        return types;
    }

    @Test
    void aSameLengthUpdateIsOneReplaceRecordAndAbortWritesTheInverse() {
        byte[] key = bytes("k");
        byte[] v1 = bytes("value-1");
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            f.tree.put(key, v1, false, f.prot(t), f.log(t));
            f.commit(t);
            long from = f.tp.log().endLsn();
            t = f.tp.txn().begin();
            assertArrayEquals(v1, f.tree.put(key, bytes("value-2"), false, f.prot(t), f.log(t)));
            f.abort(t);
            // one record for the update, one compensation: the inverse replace
            assertEquals(List.of("BTREE_REPLACE", "BTREE_REPLACE"), btreeRecords(f, from));
            t = f.tp.txn().begin();
            assertArrayEquals(v1, f.tree.get(key, f.prot(t)));
            f.commit(t);
            from = f.tp.log().endLsn();
            t = f.tp.txn().begin();
            f.tree.put(key, bytes("value-22"), false, f.prot(t), f.log(t)); // another length: a delete and an insert
            f.commit(t);
            assertEquals(List.of("BTREE_DELETE", "BTREE_INSERT"), btreeRecords(f, from));
            byte[] big = new byte[300];
            t = f.tp.txn().begin();
            f.tree.put(key, big, false, f.prot(t), f.log(t));
            f.commit(t);
            big[150] = 1;
            from = f.tp.log().endLsn();
            t = f.tp.txn().begin();
            f.tree.put(key, big, false, f.prot(t), f.log(t));
            f.commit(t);
            // the replace carries the one byte that changed, not the 300 twice
            long logged = f.tp.log().endLsn() - from;
            assertTrue(logged < 200, logged + " bytes logged for a one-byte change");
            t = f.tp.txn().begin();
            f.tree.put(key, bytes("value-22"), false, f.prot(t), f.log(t));
            f.commit(t);
        }
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            assertArrayEquals(bytes("value-22"), f.tree.get(key, f.prot(t)));
            f.commit(t);
        }
    }

    /** Record types written from {@code from} on, by name. */
    private static List<String> records(Tp f, long from) {
        List<String> types = new ArrayList<>();
        f.tp.log().scan(from, e -> {
            types.add(org.libtp.core.log.record.RecordType.of(e.type(), e.lsn()).name());
            return true;
        });
        return types;
    }

    @Test
    void anOverflowValueOfTheSameLengthIsOverwrittenInPlaceAndAbortRestoresIt() {
        byte[] key = bytes("big");
        byte[] v1 = new byte[9_000]; // three overflow pages of a 4 KiB page
        Arrays.fill(v1, (byte) 1);
        byte[] last = new byte[v1.length + 1];
        Arrays.fill(last, (byte) 5);
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            f.tree.put(key, v1, false, f.prot(t), f.log(t));
            f.commit(t);
            long pages = f.tp.buffers().pageCount(f.tree.file);

            byte[] v2 = v1.clone();
            v2[5_000] = 2; // on the second page
            long from = f.tp.log().endLsn();
            t = f.tp.txn().begin();
            assertArrayEquals(v1, f.tree.put(key, v2, false, f.prot(t), f.log(t)));
            assertArrayEquals(v2, f.tree.get(key, f.prot(t)));
            f.commit(t);
            // one physical update of the byte that changed; no new chain, no page image, nothing freed
            assertEquals(List.of("PAGE_UPDATE", "TXN_COMMIT"), records(f, from));
            assertTrue(f.tp.log().endLsn() - from < 200, (f.tp.log().endLsn() - from) + " bytes logged");
            assertEquals(pages, f.tp.buffers().pageCount(f.tree.file));

            byte[] v3 = new byte[v1.length];
            Arrays.fill(v3, (byte) 3);
            t = f.tp.txn().begin();
            f.tree.put(key, v3, false, f.prot(t), f.log(t)); // every page, twice in one transaction
            f.tree.update(key, v -> {
                byte[] w = v.clone();
                w[0] = 4;
                return w;
            }, f.prot(t), f.log(t));
            f.abort(t);
            t = f.tp.txn().begin();
            assertArrayEquals(v2, f.tree.get(key, f.prot(t)));
            f.commit(t);

            byte[] longer = Arrays.copyOf(v1, v1.length + 1); // another length: a new chain, the old one freed
            t = f.tp.txn().begin();
            f.tree.put(key, longer, false, f.prot(t), f.log(t));
            byte[] v4 = longer.clone();
            v4[100] = 9; // then in place over the chain this transaction wrote
            assertArrayEquals(longer, f.tree.put(key, v4, false, f.prot(t), f.log(t)));
            f.abort(t); // both undone, the new chain freed
            t = f.tp.txn().begin();
            assertArrayEquals(v2, f.tree.get(key, f.prot(t)));
            f.tree.put(key, v4, false, f.prot(t), f.log(t));
            f.tree.put(key, last, false, f.prot(t), f.log(t));
            f.commit(t);
            assertEquals(List.of(), f.tree.verify());
            f.tp.log().flush(f.tp.log().endLsn(), Durability.SYNC);
        }
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            assertArrayEquals(last, f.tree.get(key, f.prot(t)));
            f.commit(t);
            assertEquals(List.of(), f.tree.verify());
        }
    }

    @Test
    void abortAfterARootSplitFindsKeysMovedDownFromTheRoot() {
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            for (int i = 0; i < 400; i++) { // the root (a leaf) fills and splits, several times
                f.tree.put(bytes(String.format("k%05d", i)), new byte[60], false, f.prot(t), f.log(t));
            }
            Txn d = t;
            f.commit(d);
            Txn t2 = f.tp.txn().begin();
            for (int i = 0; i < 400; i += 3) {
                f.tree.delete(bytes(String.format("k%05d", i)), f.prot(t2), f.log(t2));
            }
            for (int i = 400; i < 800; i++) {
                f.tree.put(bytes(String.format("k%05d", i)), new byte[60], false, f.prot(t2), f.log(t2));
            }
            f.abort(t2);
            assertEquals(List.of(), f.tree.verify());
            assertEquals(400, f.tree.stats().entries());
        }
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            for (int i = 0; i < 300; i++) { // a fresh tree: keys logged on the root while it is a leaf
                f.tree.put(bytes(String.format("z%05d", i)), new byte[80], false, f.prot(t), f.log(t));
            }
            f.abort(t);
            assertEquals(400, f.tree.stats().entries());
            assertEquals(List.of(), f.tree.verify());
        }
    }
    @Test
    void theRootLeafsSplitKeepsTheSplittersLocksOnBothHalves() {
        try (Tp f = new Tp(home)) {
            Txn t = f.tp.txn().begin();
            int i = 0;
            while (f.tp.buffers().pageCount(f.tree.file) <= Btree.ROOT + 1) { // until the root leaf splits
                f.tree.put(bytes(String.format("k%05d", i++)), new byte[60], false, f.prot(t), f.log(t));
            }
            long pages = f.tp.buffers().pageCount(f.tree.file);
            Txn u = f.tp.txn().begin();
            for (long p = Btree.ROOT + 1; p < pages; p++) { // the two halves hold t's uncommitted records
                assertFalse(f.prot(u).tryLock(p, org.libtp.core.lock.LockMode.READ),
                        "page " + p + " of " + pages + " is not locked by the transaction that split the root");
            }
            f.abort(u);
            f.abort(t);
            assertEquals(List.of(), f.tree.verify());
            assertEquals(0, f.tree.stats().entries());
        }
    }
}
