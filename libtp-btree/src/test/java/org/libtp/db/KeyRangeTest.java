package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.Seeds;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Iterator;
import java.util.List;
import java.util.NavigableMap;
import java.util.NoSuchElementException;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Cursors on key ranges against a TreeMap model: random keys (bytes either side of 0x80, so
 * unsigned order matters), random ranges (each end unbounded, inclusive or exclusive, either
 * direction), random cursor walks and iterations, in the default and a registered key order and
 * for RECNO. Prints its seed; replay with -Dlibtp.seed=N.
 */
class KeyRangeTest {
    static final byte[] ALPHABET = {0x00, 0x01, 'a', 'b', 0x7f, (byte) 0x80, (byte) 0xfe, (byte) 0xff};
    static final Comparator<byte[]> UNSIGNED = Arrays::compareUnsigned;
    static final Comparator<byte[]> REVERSE = (x, y) -> Arrays.compareUnsigned(y, x);

    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] randomKey(Random rnd) {
        byte[] k = new byte[1 + rnd.nextInt(3)];
        for (int i = 0; i < k.length; i++) {
            k[i] = ALPHABET[rnd.nextInt(ALPHABET.length)];
        }
        return k;
    }

    static byte[] randomData(Random rnd) {
        byte[] d = new byte[rnd.nextInt(4) == 0 ? 0 : 20 + rnd.nextInt(200)];
        rnd.nextBytes(d);
        return d;
    }

    /** A random range, bounds lowest first in {@code cmp}. */
    static KeyRange randomRange(Random rnd, Comparator<byte[]> cmp) {
        byte[] from = rnd.nextInt(4) == 0 ? null : randomKey(rnd);
        byte[] to = rnd.nextInt(4) == 0 ? null : randomKey(rnd);
        if (from != null && to != null && cmp.compare(from, to) > 0) {
            byte[] x = from;
            from = to;
            to = x;
        }
        KeyRange r = KeyRange.of(from, rnd.nextBoolean(), to, rnd.nextBoolean());
        return rnd.nextBoolean() ? r.reversed() : r;
    }

    /** The model's part of {@code r}, ascending. */
    static NavigableMap<byte[], byte[]> sub(TreeMap<byte[], byte[]> model, KeyRange r) {
        NavigableMap<byte[], byte[]> m = model;
        if (r.from() != null && r.to() != null) {
            return m.subMap(r.from(), r.fromInclusive(), r.to(), r.toInclusive());
        }
        if (r.from() != null) {
            m = m.tailMap(r.from(), r.fromInclusive());
        }
        if (r.to() != null) {
            m = m.headMap(r.to(), r.toInclusive());
        }
        return m;
    }

    static List<String> hex(Iterable<byte[]> keys) {
        List<String> out = new ArrayList<>();
        for (byte[] k : keys) {
            out.add(java.util.HexFormat.of().formatHex(k));
        }
        return out;
    }

    static List<String> expectedKeys(TreeMap<byte[], byte[]> model, KeyRange r) {
        NavigableMap<byte[], byte[]> s = sub(model, r);
        return hex(r.isReverse() ? s.descendingKeySet() : s.keySet());
    }

    @Test
    void cursorsOnRandomRangesMatchATreeMap() {
        long seed = Seeds.seed("KeyRangeTest");
        run(seed, UNSIGNED, null);
        run(seed + 1, REVERSE, "reverse");
    }

    private void run(long seed, Comparator<byte[]> cmp, String orderName) {
        Random rnd = new Random(seed);
        Path home = dir.resolve(orderName == null ? "default" : orderName);
        home.toFile().mkdirs();
        EnvironmentConfig cfg = EnvironmentConfig.builder().cacheBytes(2 << 20).durability(Durability.NO_SYNC)
                .keyOrder("reverse", REVERSE).build();
        TreeMap<byte[], byte[]> model = new TreeMap<>(cmp);
        try (Environment env = Environment.open(home, cfg);
             Database db = env.openDatabase(null, "r", DatabaseConfig.builder().allowCreate(true).keyOrder(orderName).build())) {
            for (int round = 0; round < 12; round++) {
                try (Transaction t = env.beginTransaction()) {
                    int n = round == 0 ? 400 : 60;
                    for (int i = 0; i < n; i++) {
                        byte[] k = randomKey(rnd);
                        if (round > 0 && rnd.nextInt(3) == 0) {
                            assertEquals(model.remove(k) != null, db.delete(t, k), "seed " + seed);
                        } else {
                            byte[] d = randomData(rnd);
                            db.put(t, k, d);
                            model.put(k, d);
                        }
                    }
                    t.commit();
                }
                for (int q = 0; q < 25; q++) {
                    KeyRange r = randomRange(rnd, cmp);
                    String ctx = "seed " + seed + ", order " + orderName + ", round " + round + ", " + r;
                    // Iteration, with and without a transaction.
                    List<String> got = new ArrayList<>();
                    try (CursorIterable it = db.entries(null, r)) {
                        for (Entry e : it) {
                            got.add(java.util.HexFormat.of().formatHex(e.key()));
                            assertArrayEquals(model.get(e.key()), e.data(), ctx);
                        }
                    }
                    assertEquals(expectedKeys(model, r), got, ctx);
                    try (Transaction t = env.beginTransaction(Durability.NO_SYNC, true);
                         Stream<Entry> s = db.openCursor(t, r).stream()) {
                        assertEquals(expectedKeys(model, r), hex(s.map(Entry::key).toList()), "stream, " + ctx);
                        t.commit();
                    }
                    walk(db, model, r, rnd, ctx);
                }
            }
            assertEquals(List.of(), db.verify());
        }
    }

    /** Random cursor moves inside {@code r}, each checked against the model. */
    private static void walk(Database db, TreeMap<byte[], byte[]> model, KeyRange r, Random rnd, String ctx) {
        NavigableMap<byte[], byte[]> sub = sub(model, r);
        byte[] cur = null;
        try (Cursor c = db.openCursor(null, r)) {
            for (int step = 0; step < 30; step++) {
                int op = rnd.nextInt(6);
                byte[] probe = randomKey(rnd);
                byte[] want;
                boolean moved;
                String name;
                switch (op) {
                    case 0 -> {
                        name = "first";
                        want = sub.isEmpty() ? null : sub.firstKey();
                        moved = c.first();
                    }
                    case 1 -> {
                        name = "last";
                        want = sub.isEmpty() ? null : sub.lastKey();
                        moved = c.last();
                    }
                    case 2 -> {
                        name = "next";
                        want = cur == null ? (sub.isEmpty() ? null : sub.firstKey()) : sub.higherKey(cur);
                        moved = c.next();
                    }
                    case 3 -> {
                        name = "prev";
                        want = cur == null ? (sub.isEmpty() ? null : sub.lastKey()) : sub.lowerKey(cur);
                        moved = c.prev();
                    }
                    case 4 -> {
                        name = "seek " + java.util.HexFormat.of().formatHex(probe);
                        want = sub.containsKey(probe) ? probe : null;
                        moved = c.seek(probe);
                    }
                    default -> {
                        name = "seekRange " + java.util.HexFormat.of().formatHex(probe);
                        want = sub.ceilingKey(probe);
                        moved = c.seekRange(probe);
                    }
                }
                assertEquals(want != null, moved, name + ", " + ctx);
                if (want != null) {
                    cur = want;
                }
                if (cur != null) {
                    assertArrayEquals(cur, c.key(), "after " + name + ", " + ctx);
                    assertArrayEquals(model.get(cur), c.data(), "after " + name + ", " + ctx);
                } else {
                    assertThrows(IllegalStateException.class, c::key, "not positioned, " + ctx);
                }
            }
        }
    }

    @Test
    void recnoCursorsStayInTheirRange() {
        long seed = Seeds.seed("KeyRangeTest.recno");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(UNSIGNED);
        DatabaseConfig recno = DatabaseConfig.builder().type(DatabaseType.RECNO).recordLength(8).allowCreate(true).build();
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().durability(Durability.NO_SYNC).build());
             Database db = env.openDatabase(null, "n", recno)) {
            for (long n = 1; n <= 120; n++) {
                byte[] d = ByteBuffer.allocate(8).putLong(n * 10).array();
                db.append(null, d);
                model.put(num(n), d);
            }
            for (long n = 1; n <= 120; n++) {
                if (rnd.nextInt(4) == 0) {
                    db.delete(null, n);
                    model.remove(num(n));
                }
            }
            long[] interesting = {0, 1, 2, 50, 119, 120, 121, 500, Long.MAX_VALUE, -1};
            for (int q = 0; q < 300; q++) {
                long a = rnd.nextBoolean() ? interesting[rnd.nextInt(interesting.length)] : rnd.nextInt(130);
                long z = rnd.nextBoolean() ? interesting[rnd.nextInt(interesting.length)] : rnd.nextInt(130);
                byte[] from = rnd.nextInt(5) == 0 ? null : num(a);
                byte[] to = rnd.nextInt(5) == 0 ? null : num(z);
                if (from != null && to != null && UNSIGNED.compare(from, to) > 0) {
                    byte[] x = from;
                    from = to;
                    to = x;
                }
                KeyRange r = KeyRange.of(from, rnd.nextBoolean(), to, rnd.nextBoolean());
                if (rnd.nextBoolean()) {
                    r = r.reversed();
                }
                String ctx = "seed " + seed + ", " + r;
                List<String> got = new ArrayList<>();
                try (CursorIterable it = db.entries(null, r)) {
                    for (Entry e : it) {
                        got.add(java.util.HexFormat.of().formatHex(e.key()));
                        assertArrayEquals(model.get(e.key()), e.data(), ctx);
                    }
                }
                assertEquals(expectedKeys(model, r), got, ctx);
                NavigableMap<byte[], byte[]> sub = sub(model, r);
                try (Cursor c = db.openCursor(null, r)) {
                    assertEquals(!sub.isEmpty(), c.first(), ctx);
                    if (!sub.isEmpty()) {
                        assertArrayEquals(sub.firstKey(), c.key(), ctx);
                        assertFalse(c.prev(), ctx);
                        assertTrue(c.last(), ctx);
                        assertArrayEquals(sub.lastKey(), c.key(), ctx);
                        assertFalse(c.next(), ctx);
                        assertArrayEquals(sub.lastKey(), c.key(), "unchanged at the end, " + ctx);
                        long probe = 1 + rnd.nextInt(125);
                        assertEquals(sub.containsKey(num(probe)), c.seek(num(probe)), ctx + " seek " + probe);
                        byte[] ceil = sub.ceilingKey(num(probe));
                        assertEquals(ceil != null, c.seekRange(num(probe)), ctx + " seekRange " + probe);
                        if (ceil != null) {
                            assertArrayEquals(ceil, c.key(), ctx);
                        }
                    }
                }
            }
            assertThrows(IllegalArgumentException.class, () -> db.openCursor(null, KeyRange.atLeast(b("x"))),
                    "a RECNO bound is 8 bytes");
        }
    }

    static byte[] num(long n) {
        return ByteBuffer.allocate(8).putLong(n).array();
    }

    @Test
    void factoriesAndValueSemantics() {
        byte[] a = b("a");
        byte[] c = b("c");
        assertEquals(KeyRange.of(a, true, c, true), KeyRange.closed(a, c));
        assertEquals(KeyRange.of(a, false, c, false), KeyRange.open(a, c));
        assertEquals(KeyRange.of(a, true, c, false), KeyRange.closedOpen(a, c));
        assertEquals(KeyRange.of(a, false, c, true), KeyRange.openClosed(a, c));
        assertEquals(KeyRange.of(a, true, null, false), KeyRange.atLeast(a));
        assertEquals(KeyRange.of(a, false, null, true), KeyRange.greaterThan(a));
        assertEquals(KeyRange.of(null, false, c, true), KeyRange.atMost(c));
        assertEquals(KeyRange.of(null, true, c, false), KeyRange.lessThan(c));
        assertEquals(KeyRange.of(null, true, null, true), KeyRange.all());
        assertEquals(KeyRange.all().reversed(), KeyRange.allBackward());
        assertEquals(KeyRange.closed(a, c), KeyRange.closed(a, c).reversed().reversed());
        assertNotEquals(KeyRange.closed(a, c), KeyRange.closed(a, c).reversed());
        assertTrue(KeyRange.allBackward().isReverse());
        assertEquals("KeyRange[61, 63) reversed", KeyRange.closedOpen(a, c).reversed().toString());
        assertEquals("KeyRange(-inf, +inf)", KeyRange.all().toString());
        byte[] mutable = b("m");
        KeyRange r = KeyRange.atLeast(mutable);
        mutable[0] = 'z';
        assertArrayEquals(b("m"), r.from(), "the bound was copied");
        r.from()[0] = 'q';
        assertArrayEquals(b("m"), r.from(), "from() returns a copy");
        assertThrows(IllegalArgumentException.class, () -> KeyRange.atLeast(new byte[0]));
        assertThrows(IllegalArgumentException.class, () -> KeyRange.closed(null, c));
        assertEquals(KeyRange.closedOpen(b("ab"), b("ac")), KeyRange.prefix(b("ab")));
        assertEquals(KeyRange.closedOpen(new byte[] {'a', (byte) 0xff}, b("b")), KeyRange.prefix(new byte[] {'a', (byte) 0xff}));
        assertEquals(KeyRange.atLeast(new byte[] {(byte) 0xff}), KeyRange.prefix(new byte[] {(byte) 0xff}));
        Entry e = new Entry(b("k"), b("v"));
        assertEquals(new Entry(b("k"), b("v")), e);
        assertEquals(new Entry(b("k"), b("v")).hashCode(), e.hashCode());
        e.key()[0] = 'x';
        assertArrayEquals(b("k"), e.key(), "immutable");
        assertEquals("Entry[key=6b, data=76]", e.toString());
    }

    @Test
    void prefixBackwardBoundsAndClosing() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "p", DatabaseConfig.builder().allowCreate(true).build())) {
            for (String k : new String[] {"a", "ab", "abc", "abd", "ac", "b"}) {
                db.put(null, b(k), b(k.toUpperCase()));
            }
            try (CursorIterable it = db.entries(null, KeyRange.prefix(b("ab")))) {
                List<String> keys = new ArrayList<>();
                it.forEach(e -> keys.add(new String(e.key(), StandardCharsets.UTF_8)));
                assertEquals(List.of("ab", "abc", "abd"), keys);
                assertThrows(IllegalStateException.class, it::iterator, "once only");
            }
            try (Stream<Entry> s = db.entries(null, KeyRange.closed(b("ab"), b("ac")).reversed()).stream()) {
                assertEquals(List.of("ac", "abd", "abc", "ab"),
                        s.map(e -> new String(e.key(), StandardCharsets.UTF_8)).toList());
            }
            IllegalArgumentException bad = assertThrows(IllegalArgumentException.class,
                    () -> db.openCursor(null, KeyRange.closed(b("c"), b("a"))));
            assertTrue(bad.getMessage().contains("reversed()"), bad.getMessage());
            try (Cursor c = db.openCursor(null, KeyRange.closedOpen(b("ab"), b("ab")))) {
                assertFalse(c.first(), "an empty range");
                assertFalse(c.iterator().hasNext());
            }
            // Closing the stream closes the cursor and ends its read-only transaction.
            int active = env.stats().transactions().active();
            Cursor c = db.openCursor(null, KeyRange.all());
            Stream<Entry> s = c.stream();
            Iterator<Entry> unused = s.iterator();
            assertTrue(unused.hasNext());
            assertEquals(active + 1, env.stats().transactions().active(), "the cursor's own transaction");
            s.close();
            assertFalse(c.isOpen());
            assertEquals(active, env.stats().transactions().active());
            assertThrows(IllegalStateException.class, c::first);
            // The iterator moves the cursor: delete through it with a transaction.
            try (Transaction t = env.beginTransaction(); Cursor w = db.openCursor(t, KeyRange.prefix(b("ab")))) {
                Iterator<Entry> it = w.iterator();
                while (it.hasNext()) {
                    if (it.next().key().length == 3) {
                        w.delete();
                    }
                }
                assertThrows(NoSuchElementException.class, it::next);
                t.commit();
            }
            assertNull(db.get(null, b("abc")));
            assertArrayEquals(b("AB"), db.get(null, b("ab")));
            assertArrayEquals(b("AC"), db.get(null, b("ac")));
        }
    }
}
