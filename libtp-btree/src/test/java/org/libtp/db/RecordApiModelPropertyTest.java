package org.libtp.db;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Model-based tests of the access methods through the record API (jqwik: generated operation
 * sequences, shrunk to a smallest failing one): a B-tree database against a {@code TreeMap} and a
 * recno database against a map of record numbers, with transactions that commit or abort,
 * small pages (512 bytes) so that a few hundred keys split the tree several levels deep, values
 * from one byte to several pages (overflow pages), deletes that empty leaves (reclaim), cursor
 * scans both ways from generated keys, compaction and reopening. jqwik prints the seed of a
 * failing run; {@code @Property(seed = "...")} replays it.
 */
class RecordApiModelPropertyTest {
    /** One step of a sequence. */
    sealed interface Op permits Txn, Reopen, Compact {
    }

    /** A transaction's writes, then commit or abort; then every key and some scans are checked. */
    record Txn(List<Write> writes, boolean commit, int scanFrom, boolean scanForward) implements Op {
    }

    record Reopen() implements Op {
    }

    record Compact() implements Op {
    }

    /** A put of {@code length} bytes (filled from {@code fill}) or, with length -1, a delete. */
    record Write(int key, int length, byte fill) {
    }

    private static final EnvironmentConfig CONFIG = EnvironmentConfig.builder().pageSize(512).cacheBytes(64 * 512)
            .durability(Durability.NO_SYNC).build();

    @Provide
    Arbitrary<List<Op>> ops() {
        Arbitrary<Integer> lengths = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.integers().between(1, 40)),
                net.jqwik.api.Tuple.of(2, Arbitraries.integers().between(100, 700)),   // overflow at 512-byte pages
                net.jqwik.api.Tuple.of(1, Arbitraries.integers().between(1500, 5000)), // several overflow pages
                net.jqwik.api.Tuple.of(3, Arbitraries.just(-1)));                      // delete
        Arbitrary<Write> write = Combinators.combine(Arbitraries.integers().between(0, 2000), lengths,
                Arbitraries.bytes()).as(Write::new);
        Arbitrary<Op> txn = Combinators.combine(write.list().ofMinSize(5).ofMaxSize(150),
                Arbitraries.integers().between(0, 9).map(i -> i < 8), Arbitraries.integers().between(0, 2000),
                Arbitraries.of(true, false)).as(Txn::new);
        Arbitrary<Op> op = Arbitraries.frequencyOf(net.jqwik.api.Tuple.of(20, txn),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Reopen())),
                net.jqwik.api.Tuple.of(1, Arbitraries.just(new Compact())));
        return op.list().ofMinSize(3).ofMaxSize(30);
    }

    /**
     * Keys of variable length, so that separators and prefixes vary ("k7-...", "k00123-..."), and
     * long, so that few fit an internal page of 512 bytes and the tree grows three or four levels.
     */
    private static byte[] longKey(int k) {
        return ("k" + "0".repeat(k % 8) + k + "-" + "x".repeat(k % 3 == 0 ? 30 : 12))
                .getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    /** The shorter keys of the first version (the regression example was found with them). */
    private static byte[] shortKey(int k) {
        return ("k" + "0".repeat(k % 8) + k).getBytes(java.nio.charset.StandardCharsets.US_ASCII);
    }

    private static byte[] value(int length, byte fill, int key) {
        byte[] v = new byte[length];
        Arrays.fill(v, fill);
        if (length >= 4) {
            ByteBuffer.wrap(v).putInt(0, key); // a value that belongs to its key
        }
        return v;
    }

    @Property(tries = 25)
    void aBtreeDatabaseIsATreeMap(@ForAll("ops") List<Op> ops) throws IOException {
        run(ops, RecordApiModelPropertyTest::longKey);
    }

    private void run(List<Op> ops, java.util.function.IntFunction<byte[]> key) throws IOException {
        Path dir = Files.createTempDirectory("libtp-model");
        Comparator<byte[]> order = Arrays::compareUnsigned;
        TreeMap<byte[], byte[]> model = new TreeMap<>(order);
        Environment env = Environment.open(dir, CONFIG);
        Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
        try {
            for (Op op : ops) {
                if (op instanceof Reopen) {
                    db.close();
                    env.close();
                    env = Environment.open(dir, CONFIG);
                    db = env.openDatabase(null, "t", DatabaseConfig.defaults());
                } else if (op instanceof Compact) {
                    db.compact();
                } else if (op instanceof Txn t) {
                    TreeMap<byte[], byte[]> after = new TreeMap<>(model);
                    Transaction x = env.beginTransaction();
                    for (Write w : t.writes()) {
                        byte[] k = key.apply(w.key());
                        if (w.length() < 0) {
                            boolean was = db.delete(x, k);
                            assertEquals(after.remove(k) != null, was, "delete of an existing key says so");
                        } else {
                            byte[] v = value(w.length(), w.fill(), w.key());
                            db.put(x, k, v);
                            after.put(k, v);
                        }
                    }
                    // Inside the transaction it reads its own writes.
                    for (Write w : t.writes()) {
                        assertArrayEquals(after.get(key.apply(w.key())), db.get(x, key.apply(w.key())), "own write of " + w);
                    }
                    if (t.commit()) {
                        x.commit();
                        model = after;
                    } else {
                        x.abort();
                    }
                    check(db, model, key.apply(t.scanFrom()), t.scanForward());
                }
            }
            check(db, model, key.apply(0), true);
            assertEquals(List.of(), db.verify());
            assertEquals(model.size(), db.stat().entries());
            // What the sequences reached (printed by jqwik): tree depth and overflow use.
            net.jqwik.api.statistics.Statistics.label("levels").collect(db.stat().levels());
        } finally {
            db.close();
            env.close();
            delete(dir);
        }
    }

    private static Write w(int key, int length, int fill) {
        return new Write(key, length, (byte) fill);
    }

    /**
     * The sequence jqwik shrank a failure to (seed 1254780612145984910): its last backward scan
     * from k328 stopped after 19 of 27 keys — the search for the greatest key below another looked
     * only in the rightmost leaf of the subtree left of its path and stopped there when it held
     * nothing below. Kept as it was found.
     */
    @net.jqwik.api.Example
    void theBackwardScanThatStoppedEarly() throws IOException {
        run(List.of(
                new Txn(List.of(w(0, 1, 0), w(0, 1, 0), w(0, 1, 0), w(0, 1, 0), w(3, 1, 0)), true, 0, true),
                new Txn(List.of(w(5, 34, 0), w(443, -1, -30), w(37, 14, 61), w(1, 1, 26), w(0, 39, -49),
                        w(93, 35, -47), w(0, 1, -2)), true, 33, false),
                new Txn(List.of(w(1090, 6, 9), w(30, -1, -120), w(696, 27, -1), w(572, 2, 38), w(209, 4, -121),
                        w(248, 9, -101), w(1, 30, -4), w(120, 30, -23), w(16, -1, -106), w(59, 162, 26),
                        w(59, 1856, -3), w(17, 1501, -3), w(193, 39, -126)), true, 3, true),
                new Compact(),
                new Txn(List.of(w(33, 109, -28), w(417, 211, -29), w(12, -1, -41), w(2, 1, -2), w(54, 33, 118),
                        w(15, 1, 12), w(72, 237, -9), w(11, 660, 36), w(123, 36, -28), w(6, 104, 76),
                        w(195, 10, 78), w(1989, -1, -119), w(4, 30, -5)), false, 104, true),
                new Txn(List.of(w(219, 31, 95), w(807, 1514, -38), w(0, 39, -2), w(189, 9, -117), w(2000, 40, -2),
                        w(921, 13, -5), w(2, 100, -2), w(23, 36, -14), w(9, 700, 23), w(68, 25, -109),
                        w(51, 10, 42), w(7, -1, 58)), true, 287, false),
                new Reopen(),
                new Txn(List.of(w(1130, -1, -5), w(0, 1, -2), w(26, 2, -121), w(7, 39, -97), w(13, 107, 3),
                        w(2, 100, -2), w(36, -1, 7), w(16, 10, 117), w(12, 102, -10), w(911, 102, -18),
                        w(32, 4, -1), w(2, 40, -2), w(45, 21, -98), w(20, 28, -79), w(601, 39, 70), w(725, 35, 98),
                        w(70, -1, -20), w(12, -1, 94), w(1498, 39, 8), w(20, 4741, -3), w(70, -1, 19),
                        w(4, 100, 97), w(567, -1, 13), w(2000, 2, -2), w(31, 30, 127), w(1, 1, -2), w(7, -1, -33),
                        w(1061, -1, 124), w(130, 13, 55), w(60, -1, -13), w(8, -1, 45), w(540, -1, 10),
                        w(191, 2, 125), w(4, 11, -49), w(21, 40, -2), w(395, 25, -19), w(87, 9, -3), w(8, 15, 87),
                        w(23, 1521, 18), w(2, 40, -2), w(1831, 1914, 52), w(657, 1500, -6), w(1102, -1, 93),
                        w(260, -1, 8), w(133, 143, 29), w(93, -1, 4), w(9, 39, -7)), false, 328, false)), RecordApiModelPropertyTest::shortKey);
    }

    private static void check(Database db, TreeMap<byte[], byte[]> model, byte[] from, boolean forward) {
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), db.get(null, e.getKey()));
        }
        // A scan from a generated key, either way, against the model's view from there.
        Map<byte[], byte[]> view = forward ? model.tailMap(from, true) : model.headMap(from, true).descendingMap();
        List<byte[]> keys = new ArrayList<>();
        try (Cursor c = db.openCursor(null, forward ? KeyRange.atLeast(from) : KeyRange.atMost(from))) {
            boolean ok = forward ? c.first() : c.last();
            for (; ok; ok = forward ? c.next() : c.prev()) {
                keys.add(c.key());
                assertArrayEquals(model.get(c.key()), c.data());
            }
        }
        if (view.size() != keys.size()) {
            List<String> want = view.keySet().stream().map(k -> new String(k, java.nio.charset.StandardCharsets.US_ASCII)).toList();
            List<String> got = keys.stream().map(k -> new String(k, java.nio.charset.StandardCharsets.US_ASCII)).toList();
            assertEquals(want, got, "keys scanned " + (forward ? "forward" : "backward") + " from "
                    + new String(from, java.nio.charset.StandardCharsets.US_ASCII));
        }
        int i = 0;
        for (byte[] k : view.keySet()) {
            assertArrayEquals(k, keys.get(i++));
        }
    }

    private static void delete(Path dir) throws IOException {
        try (var s = Files.walk(dir)) {
            for (Path p : s.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }

    // ------------------------------------------------------------------ recno

    /** A recno step: put record n (at most one past the end), append, or delete. */
    record RecnoWrite(int kind, int n, byte fill) {
    }

    @Provide
    Arbitrary<List<List<RecnoWrite>>> recnoTxns() {
        Arbitrary<RecnoWrite> w = Combinators.combine(Arbitraries.integers().between(0, 2),
                Arbitraries.integers().between(1, 120), Arbitraries.bytes()).as(RecnoWrite::new);
        return w.list().ofMinSize(1).ofMaxSize(40).list().ofMinSize(1).ofMaxSize(25);
    }

    @Property(tries = 25)
    void aRecnoDatabaseIsAMapOfRecordNumbers(@ForAll("recnoTxns") List<List<RecnoWrite>> txns) throws IOException {
        Path dir = Files.createTempDirectory("libtp-recno-model");
        int len = 24;
        TreeMap<Long, byte[]> model = new TreeMap<>();
        long[] end = {0};
        try (Environment env = Environment.open(dir, CONFIG);
             Database db = env.openDatabase(null, "r", DatabaseConfig.builder().allowCreate(true)
                     .type(DatabaseType.RECNO).recordLength(len).build())) {
            int round = 0;
            for (List<RecnoWrite> writes : txns) {
                TreeMap<Long, byte[]> after = new TreeMap<>(model);
                long afterEnd = end[0];
                boolean commit = round++ % 5 != 4;
                Transaction x = env.beginTransaction();
                for (RecnoWrite w : writes) {
                    byte[] v = new byte[len];
                    Arrays.fill(v, w.fill());
                    switch (w.kind()) {
                        case 0 -> {
                            long n = w.n();
                            if (n > afterEnd + 1) {
                                assertThrows(IllegalArgumentException.class, () -> db.put(x, n, v));
                            } else {
                                db.put(x, n, v);
                                after.put(n, v);
                                afterEnd = Math.max(afterEnd, n);
                            }
                        }
                        case 1 -> {
                            long n = db.append(x, v);
                            assertEquals(afterEnd + 1, n, "append takes the next number");
                            after.put(n, v);
                            afterEnd = n;
                        }
                        default -> assertEquals(after.remove((long) w.n()) != null, db.delete(x, w.n()),
                                "delete of record " + w.n());
                    }
                }
                assertEquals(afterEnd, db.count(x), "count inside the transaction");
                if (commit) {
                    x.commit();
                    model = after;
                    end[0] = afterEnd;
                } else {
                    x.abort();
                    end[0] = afterEnd; // the count does not go back: the numbers taken stay absent
                }
                assertEquals(end[0], db.count(null), "count after " + (commit ? "commit" : "abort"));
                for (long n = 1; n <= end[0] + 1; n++) {
                    byte[] got = db.get(null, n);
                    if (model.containsKey(n)) {
                        assertArrayEquals(model.get(n), got, "record " + n);
                    } else {
                        assertNull(got, "record " + n + " (deleted or never written)");
                    }
                }
            }
        } finally {
            delete(dir);
        }
    }
}
