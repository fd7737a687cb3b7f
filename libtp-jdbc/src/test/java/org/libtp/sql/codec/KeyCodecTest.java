package org.libtp.sql.codec;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Randomized tests of {@link KeyCodec}: round trip, order against an independent SQL comparator,
 * prefixes, and malformed input. The seed is printed; {@code -Dlibtp.seed=N} replays a run.
 * The value generators are shared with {@link RowCodecTest}.
 */
class KeyCodecTest {
    static final long SEED = Long.getLong("libtp.seed", System.nanoTime());
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void printSeed() {
        System.out.println("KeyCodecTest seed " + SEED);
    }

    // ------------------------------------------------------------------ generators

    /** A random column type of any SqlType, lengths small enough to hit the limits. */
    static ColumnType randomType(Random r) {
        SqlType[] all = SqlType.values();
        SqlType s = all[r.nextInt(all.length)];
        return switch (s) {
            case CHAR -> ColumnType.character(1 + r.nextInt(6));
            case VARCHAR -> ColumnType.varchar(new int[] {1, 3, 8, 1000}[r.nextInt(4)]);
            case VARBINARY -> ColumnType.varbinary(new int[] {1, 3, 8, 1000}[r.nextInt(4)]);
            case DECIMAL -> {
                int p = r.nextInt(3) == 0 ? 38 : 1 + r.nextInt(38);
                int sc = r.nextInt(4) == 0 ? 0 : r.nextInt(p + 1);
                yield ColumnType.decimal(p, sc);
            }
            default -> ColumnType.of(s);
        };
    }

    /** A random value that fits {@code t} (not yet canonical), NULL with probability 15%. */
    static Object randomValue(Random r, ColumnType t) {
        if (r.nextInt(100) < 15) {
            return null;
        }
        boolean extreme = r.nextInt(3) == 0;
        return switch (t.type()) {
            case BOOLEAN -> r.nextBoolean();
            case SMALLINT -> extreme ? pick(r, Short.MIN_VALUE, Short.MAX_VALUE, (short) 0, (short) -1, (short) 1)
                    : (short) r.nextInt();
            case INTEGER -> extreme ? pick(r, Integer.MIN_VALUE, Integer.MAX_VALUE, 0, -1, 1)
                    : r.nextInt(3) == 0 ? r.nextInt(5) - 2 : r.nextInt();
            case BIGINT -> extreme ? pick(r, Long.MIN_VALUE, Long.MAX_VALUE, 0L, -1L, 1L)
                    : r.nextInt(3) == 0 ? (long) r.nextInt(5) - 2 : r.nextLong();
            case REAL -> extreme ? pick(r, 0.0f, -0.0f, Float.NaN, Float.POSITIVE_INFINITY,
                    Float.NEGATIVE_INFINITY, Float.MIN_VALUE, -Float.MIN_VALUE, Float.MAX_VALUE,
                    -Float.MAX_VALUE, Float.MIN_NORMAL, 1.0f, -1.0f)
                    : r.nextBoolean() ? Float.intBitsToFloat(r.nextInt()) : (r.nextFloat() - 0.5f) * 100;
            case DOUBLE -> extreme ? pick(r, 0.0, -0.0, Double.NaN, Double.POSITIVE_INFINITY,
                    Double.NEGATIVE_INFINITY, Double.MIN_VALUE, -Double.MIN_VALUE, Double.MAX_VALUE,
                    -Double.MAX_VALUE, Double.MIN_NORMAL, 1.0, -1.0)
                    : r.nextBoolean() ? Double.longBitsToDouble(r.nextLong()) : (r.nextDouble() - 0.5) * 100;
            case DECIMAL -> randomDecimal(r, t, extreme);
            case CHAR, VARCHAR -> randomString(r, t.length());
            case VARBINARY -> {
                int n = r.nextInt(Math.min(t.length(), 10) + 1);
                byte[] b = new byte[n];
                for (int i = 0; i < n; i++) {
                    b[i] = r.nextInt(3) == 0 ? (byte) r.nextInt() : pick(r, (byte) 0, (byte) 0xFF, (byte) 1, (byte) 0x80);
                }
                yield b;
            }
            case DATE -> extreme ? pick(r, LocalDate.of(-9999, 1, 1), LocalDate.of(9999, 12, 31),
                    LocalDate.MIN, LocalDate.MAX, LocalDate.EPOCH, LocalDate.of(1969, 12, 31))
                    : LocalDate.ofEpochDay(LocalDate.of(-9999, 1, 1).toEpochDay()
                    + (long) (r.nextDouble() * 2 * 9999 * 366));
            case TIME -> extreme ? pick(r, LocalTime.MIDNIGHT, LocalTime.MAX, LocalTime.NOON,
                    LocalTime.of(0, 0, 0, 1)) : LocalTime.ofNanoOfDay((long) (r.nextDouble() * 86_400e9));
            case TIMESTAMP -> extreme ? pick(r, LocalDateTime.MIN, LocalDateTime.MAX,
                    LocalDateTime.of(-9999, 1, 1, 0, 0), LocalDateTime.of(9999, 12, 31, 23, 59, 59, 999_999_999),
                    LocalDateTime.of(1970, 1, 1, 0, 0), LocalDateTime.of(1969, 12, 31, 23, 59, 59, 999_999_999))
                    : LocalDateTime.ofEpochSecond(
                    (long) ((r.nextDouble() - 0.5) * 2 * 9999 * 366 * 86400), r.nextInt(1_000_000_000), ZoneOffset.UTC);
        };
    }

    private static BigDecimal randomDecimal(Random r, ColumnType t, boolean extreme) {
        int p = t.length();
        int s = t.scale();
        BigInteger max = BigInteger.TEN.pow(p).subtract(BigInteger.ONE);
        if (extreme) {
            BigInteger u = pick(r, max, max.negate(), BigInteger.ZERO, BigInteger.ONE, BigInteger.ONE.negate());
            return new BigDecimal(u, s);
        }
        int digits = r.nextInt(p + 1);
        BigInteger u = digits == 0 ? BigInteger.ZERO
                : new BigInteger(digits * 4, r).mod(BigInteger.TEN.pow(digits));
        if (r.nextBoolean()) {
            u = u.negate();
        }
        if (digits < p && r.nextInt(3) == 0) { // more fraction digits than the scale: rounded
            int k = 1 + r.nextInt(3);
            BigInteger extra = BigInteger.valueOf(r.nextInt((int) Math.pow(10, k)));
            u = u.multiply(BigInteger.TEN.pow(k)).add(u.signum() < 0 ? extra.negate() : extra);
            return new BigDecimal(u, s + k);
        }
        return new BigDecimal(u, s);
    }

    private static final String[] PIECES = {"a", "b", "z", " ", "\0", "\u007f", "\u0080", "\u00e9",
        "\u07ff", "\u0800", "\uffff", "\ufffe", "\ud83d\ude00", "\ud800", "\udfff", "\udbff", "\udc00", "A"};

    private static String randomString(Random r, int max) {
        // now and then as long as the column allows, but at most 40 (truncation tests are quadratic)
        int target = r.nextInt(8) == 0 ? Math.min(max, 40) : r.nextInt(Math.min(max, 8) + 1);
        StringBuilder sb = new StringBuilder();
        while (sb.length() < target) {
            String p = PIECES[r.nextInt(PIECES.length)];
            if (sb.length() + p.length() <= target) {
                sb.append(p);
            }
        }
        return sb.toString();
    }

    @SafeVarargs
    static <T> T pick(Random r, T... options) {
        return options[r.nextInt(options.length)];
    }

    static Object[] canonical(List<ColumnType> types, Object[] values) {
        Object[] c = new Object[values.length];
        for (int i = 0; i < c.length; i++) {
            c[i] = types.get(i).check(values[i]);
        }
        return c;
    }

    // ------------------------------------------------------------------ independent reference

    /** SQL order of two canonical tuples: NULL lowest, DESC reverses; first {@code n} columns. */
    static int sqlCompare(List<ColumnType> types, boolean[] desc, Object[] a, Object[] b, int n) {
        for (int i = 0; i < n; i++) {
            int c = compareValue(types.get(i).type(), a[i], b[i]);
            if (c != 0) {
                return desc[i] ? -c : c;
            }
        }
        return 0;
    }

    static int compareValue(SqlType t, Object x, Object y) {
        if (x == null || y == null) {
            return x == null ? (y == null ? 0 : -1) : 1;
        }
        return switch (t) {
            case REAL -> Float.compare(normalize((Float) x), normalize((Float) y));
            case DOUBLE -> Double.compare(normalize((Double) x), normalize((Double) y));
            case DECIMAL -> ((BigDecimal) x).compareTo((BigDecimal) y);
            case VARBINARY -> Arrays.compareUnsigned((byte[]) x, (byte[]) y);
            case CHAR, VARCHAR -> ((String) x).compareTo((String) y);
            default -> {
                @SuppressWarnings("unchecked")
                Comparable<Object> cx = (Comparable<Object>) x;
                yield cx.compareTo(y);
            }
        };
    }

    private static float normalize(float f) {
        return f == 0.0f ? 0.0f : f;
    }

    private static double normalize(double d) {
        return d == 0.0 ? 0.0 : d;
    }

    /** Equality of a decoded value with a canonical one; -0.0 must have become 0.0. */
    static boolean sameValue(SqlType t, Object expected, Object actual) {
        if (expected == null || actual == null) {
            return expected == actual;
        }
        return switch (t) {
            case REAL -> Float.floatToRawIntBits((Float) actual) != 0x8000_0000
                    && Float.compare(normalize((Float) expected), (Float) actual) == 0;
            case DOUBLE -> Double.doubleToRawLongBits((Double) actual) != Long.MIN_VALUE
                    && Double.compare(normalize((Double) expected), (Double) actual) == 0;
            case VARBINARY -> Arrays.equals((byte[]) expected, (byte[]) actual);
            default -> expected.equals(actual); // BigDecimal.equals: scale included
        };
    }

    // ------------------------------------------------------------------ the tuple under test

    private record Key(List<ColumnType> types, boolean[] desc, Object[] values) {
        static Key random(Random r) {
            int n = 1 + r.nextInt(3);
            List<ColumnType> types = new ArrayList<>();
            boolean[] desc = new boolean[n];
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
                types.add(randomType(r));
                desc[i] = r.nextBoolean();
                values[i] = randomValue(r, types.get(i));
            }
            return new Key(List.copyOf(types), desc, canonical(types, values));
        }

        /** Another tuple of the same schema, equal to this one in a random subset of columns. */
        Key sibling(Random r) {
            Object[] v = values.clone();
            for (int i = 0; i < v.length; i++) {
                if (r.nextBoolean()) {
                    v[i] = types.get(i).check(randomValue(r, types.get(i)));
                }
            }
            return new Key(types, desc, v);
        }

        byte[] encode() {
            return KeyCodec.encode(types, desc, values);
        }

        @Override
        public String toString() {
            StringBuilder sb = new StringBuilder("(seed " + SEED + ")");
            for (int i = 0; i < values.length; i++) {
                Object v = values[i];
                String shown = v instanceof byte[] b ? HEX.formatHex(b)
                        : v instanceof String s ? s.chars().mapToObj(c -> String.format("\\u%04x", c))
                        .reduce("\"", String::concat) + "\"" : String.valueOf(v);
                sb.append(' ').append(types.get(i)).append(desc[i] ? " DESC=" : "=").append(shown);
            }
            return sb.toString();
        }
    }

    // ------------------------------------------------------------------ properties

    @Test
    void roundTrip() {
        Random r = new Random(SEED);
        for (int i = 0; i < 20_000; i++) {
            Key k = Key.random(r);
            byte[] enc = k.encode();
            Object[] dec = KeyCodec.decode(k.types, k.desc, enc);
            assertEquals(k.values.length, dec.length);
            for (int c = 0; c < dec.length; c++) {
                if (!sameValue(k.types.get(c).type(), k.values[c], dec[c])) {
                    fail("column " + c + " decoded as " + dec[c] + ": " + k);
                }
            }
            assertArrayEquals(enc, KeyCodec.encode(k.types, k.desc, dec), k::toString);
        }
    }

    @Test
    void orderMatchesSql() {
        Random r = new Random(SEED + 1);
        for (int i = 0; i < 20_000; i++) {
            Key a = Key.random(r);
            Key b = a.sibling(r);
            int expected = Integer.signum(sqlCompare(a.types, a.desc, a.values, b.values, a.values.length));
            int actual = Integer.signum(Arrays.compareUnsigned(a.encode(), b.encode()));
            if (expected != actual) {
                fail("SQL order " + expected + ", key order " + actual + "\n a " + a + "\n b " + b
                        + "\n " + HEX.formatHex(a.encode()) + "\n " + HEX.formatHex(b.encode()));
            }
        }
    }

    @Test
    void sortedSingleColumnsOfEveryType() {
        Random r = new Random(SEED + 2);
        for (SqlType s : SqlType.values()) {
            for (boolean desc : new boolean[] {false, true}) {
                ColumnType t = s.hasLength() ? (s == SqlType.DECIMAL ? ColumnType.decimal(38, 10)
                        : new ColumnType(s, 8, 0)) : ColumnType.of(s);
                List<Object[]> values = new ArrayList<>();
                for (int i = 0; i < 300; i++) {
                    values.add(new Object[] {t.check(randomValue(r, t))});
                }
                List<ColumnType> types = List.of(t);
                boolean[] d = {desc};
                values.sort((x, y) -> Arrays.compareUnsigned(KeyCodec.encode(types, d, x),
                        KeyCodec.encode(types, d, y)));
                for (int i = 1; i < values.size(); i++) {
                    assertTrue(sqlCompare(types, d, values.get(i - 1), values.get(i), 1) <= 0,
                            () -> "out of order " + t + (desc ? " DESC" : "") + " seed " + SEED);
                }
            }
        }
    }

    @Test
    void prefixes() {
        Random r = new Random(SEED + 3);
        for (int i = 0; i < 6_000; i++) {
            Key a = Key.random(r);
            Key b = a.sibling(r);
            byte[] fullA = a.encode();
            byte[] fullB = b.encode();
            for (int n = 0; n <= a.values.length; n++) {
                byte[] pa = KeyCodec.encodePrefix(a.types, a.desc, a.values, n);
                byte[] pb = KeyCodec.encodePrefix(b.types, b.desc, Arrays.copyOf(b.values, n), n);
                assertArrayEquals(pa, Arrays.copyOf(fullA, pa.length), a::toString);
                assertArrayEquals(pb, Arrays.copyOf(fullB, pb.length), b::toString);
                int sql = Integer.signum(sqlCompare(a.types, a.desc, a.values, b.values, n));
                if (sql == 0) {
                    assertArrayEquals(pa, pb, () -> a + " / " + b);
                } else {
                    String msg = "prefix " + n + " of " + a + " / " + b;
                    int full = Integer.signum(Arrays.compareUnsigned(fullA, fullB));
                    assertEquals(full, Integer.signum(Arrays.compareUnsigned(pa, pb)), msg);
                    assertEquals(full, Integer.signum(Arrays.compareUnsigned(pa, fullB)), msg);
                    assertEquals(full, Integer.signum(Arrays.compareUnsigned(fullA, pb)), msg);
                }
            }
        }
    }

    @Test
    void everyTruncationIsCorrupt() {
        Random r = new Random(SEED + 4);
        for (int i = 0; i < 1_000; i++) {
            Key k = Key.random(r);
            byte[] enc = k.encode();
            for (int len = 0; len < enc.length; len++) {
                byte[] cut = Arrays.copyOf(enc, len);
                expectCorrupt(() -> KeyCodec.decode(k.types, k.desc, cut), k + " cut to " + len);
            }
            byte[] longer = Arrays.copyOf(enc, enc.length + 1);
            expectCorrupt(() -> KeyCodec.decode(k.types, k.desc, longer), k + " + trailing byte");
        }
    }

    @Test
    void garbageIsCorruptOrCanonical() {
        Random r = new Random(SEED + 5);
        byte[] special = {0x00, 0x01, (byte) 0xFF, (byte) 0xFE, (byte) 0x80, 0x7F, (byte) 0xC0,
            (byte) 0xE0, (byte) 0xED, (byte) 0xA0, (byte) 0xBF, (byte) 0x8F, (byte) 0x90, 0x70};
        int decoded = 0;
        for (int i = 0; i < 20_000; i++) {
            Key k = Key.random(r);
            byte[] bytes = k.encode();
            switch (r.nextInt(4)) {
                case 0 -> { // pure garbage
                    bytes = new byte[r.nextInt(24)];
                    for (int j = 0; j < bytes.length; j++) {
                        bytes[j] = r.nextBoolean() ? (byte) r.nextInt() : special[r.nextInt(special.length)];
                    }
                }
                case 1 -> { // one byte changed
                    if (bytes.length > 0) {
                        bytes[r.nextInt(bytes.length)] = r.nextBoolean() ? (byte) r.nextInt()
                                : special[r.nextInt(special.length)];
                    }
                }
                case 2 -> { // one byte inserted
                    int at = r.nextInt(bytes.length + 1);
                    byte[] b = new byte[bytes.length + 1];
                    System.arraycopy(bytes, 0, b, 0, at);
                    b[at] = special[r.nextInt(special.length)];
                    System.arraycopy(bytes, at, b, at + 1, bytes.length - at);
                    bytes = b;
                }
                default -> { // one byte removed
                    if (bytes.length > 0) {
                        int at = r.nextInt(bytes.length);
                        byte[] b = new byte[bytes.length - 1];
                        System.arraycopy(bytes, 0, b, 0, at);
                        System.arraycopy(bytes, at + 1, b, at, b.length - at);
                        bytes = b;
                    }
                }
            }
            Object[] values;
            try {
                values = KeyCodec.decode(k.types, k.desc, bytes);
            } catch (CorruptionException e) {
                assertTrue(e.getMessage().contains("index or primary key entry"), e.getMessage());
                continue;
            } catch (Throwable t) {
                throw new AssertionError("not a CorruptionException for " + HEX.formatHex(bytes) + " " + k, t);
            }
            decoded++;
            byte[] again = KeyCodec.encode(k.types, k.desc, values);
            assertArrayEquals(bytes, again, "decoded a non-canonical key " + HEX.formatHex(bytes) + " " + k);
        }
        assertTrue(decoded > 0, "no mutated key decoded at all");
    }

    private static void expectCorrupt(Runnable r, String what) {
        try {
            r.run();
        } catch (CorruptionException e) {
            assertTrue(e.getMessage().contains("index or primary key entry"), e.getMessage());
            return;
        } catch (Throwable t) {
            throw new AssertionError("not a CorruptionException: " + what, t);
        }
        fail("decoded without error: " + what);
    }

    // ------------------------------------------------------------------ fixed layouts

    @Test
    void byteLayouts() {
        assertEquals("00", hex(ColumnType.of(SqlType.INTEGER), false, null));
        assertEquals("ff", hex(ColumnType.of(SqlType.INTEGER), true, null));
        assertEquals("0180000001", hex(ColumnType.of(SqlType.INTEGER), false, 1));
        assertEquals("017fffffff", hex(ColumnType.of(SqlType.INTEGER), false, -1));
        assertEquals("fe80000000", hex(ColumnType.of(SqlType.INTEGER), true, -1));
        assertEquals("018000", hex(ColumnType.of(SqlType.SMALLINT), false, (short) 0));
        assertEquals("0101", hex(ColumnType.of(SqlType.BOOLEAN), false, true));
        assertEquals("010001", hex(ColumnType.varchar(5), false, ""));
        assertEquals("fefffe", hex(ColumnType.varchar(5), true, ""));
        assertEquals("0161" + "00ff" + "620001", hex(ColumnType.varchar(5), false, "a\0b"));
        assertEquals("01eda0bd" + "edb8800001", hex(ColumnType.varchar(5), false, "\ud83d\ude00"));
        assertEquals("01" + "c3a9" + "0001", hex(ColumnType.varchar(5), false, "\u00e9"));
        assertEquals("016120200001", hex(ColumnType.character(3), false, "a"));
        assertEquals("0100ff" + "ff0001", hex(ColumnType.varbinary(5), false, new byte[] {0, -1}));
        assertEquals("0180", hex(ColumnType.decimal(5, 2), false, new BigDecimal("0")));
        assertEquals("01" + "81" + "64", hex(ColumnType.decimal(5, 2), false, new BigDecimal("1")));
        assertEquals("01" + "7f" + "9b", hex(ColumnType.decimal(5, 2), false, new BigDecimal("-1")));
        assertEquals("01" + "8000000000000000", hex(ColumnType.of(SqlType.DOUBLE), false, -0.0));
        assertEquals("01" + "fff8000000000000", hex(ColumnType.of(SqlType.DOUBLE), false, Double.NaN));
        assertEquals("01" + "000fffffffffffff", hex(ColumnType.of(SqlType.DOUBLE), false, Double.NEGATIVE_INFINITY));
        assertEquals("01" + "8000000000000000" + "00000001", hex(ColumnType.of(SqlType.TIMESTAMP), false,
                LocalDateTime.of(1970, 1, 1, 0, 0, 0, 1)));
        assertEquals("01" + "8000000000000000", hex(ColumnType.of(SqlType.DATE), false, LocalDate.EPOCH));
    }

    private static String hex(ColumnType t, boolean desc, Object v) {
        return HEX.formatHex(KeyCodec.encode(List.of(t), new boolean[] {desc}, new Object[] {v}));
    }

    @Test
    void rejectsNonCanonicalAndMalformed() {
        List<ColumnType> dbl = List.of(ColumnType.of(SqlType.DOUBLE));
        expectCorrupt(() -> KeyCodec.decode(dbl, null, HEX.parseHex("017fffffffffffffff")), "-0.0");
        expectCorrupt(() -> KeyCodec.decode(dbl, null, HEX.parseHex("01fff8000000000001")), "NaN payload");
        expectCorrupt(() -> KeyCodec.decode(dbl, null, HEX.parseHex("02")), "bad marker");
        List<ColumnType> vc = List.of(ColumnType.varchar(5));
        expectCorrupt(() -> KeyCodec.decode(vc, null, HEX.parseHex("01610002")), "bad escape");
        expectCorrupt(() -> KeyCodec.decode(vc, null, HEX.parseHex("01c0800001")), "overlong");
        expectCorrupt(() -> KeyCodec.decode(vc, null, HEX.parseHex("01e080800001")), "overlong 3");
        expectCorrupt(() -> KeyCodec.decode(vc, null, HEX.parseHex("01f09f98800001")), "4-byte UTF-8");
        expectCorrupt(() -> KeyCodec.decode(vc, null, HEX.parseHex("01616161616161610001")), "too long");
        List<ColumnType> dec = List.of(ColumnType.decimal(3, 0));
        expectCorrupt(() -> KeyCodec.decode(dec, null, HEX.parseHex("01820001")), "leading zero byte");
        expectCorrupt(() -> KeyCodec.decode(dec, null, HEX.parseHex("018203e8")), "1000 in DECIMAL(3)");
        expectCorrupt(() -> KeyCodec.decode(dec, null, HEX.parseHex("019101")), "17 bytes");
        assertEquals(new BigDecimal("999"), KeyCodec.decode(dec, null, HEX.parseHex("018203e7"))[0]);
        List<ColumnType> bool = List.of(ColumnType.of(SqlType.BOOLEAN));
        expectCorrupt(() -> KeyCodec.decode(bool, null, HEX.parseHex("0102")), "boolean 2");
        List<ColumnType> time = List.of(ColumnType.of(SqlType.TIME));
        expectCorrupt(() -> KeyCodec.decode(time, null, HEX.parseHex("01" + "80004e94914f0000")), "24:00");
        List<ColumnType> date = List.of(ColumnType.of(SqlType.DATE));
        expectCorrupt(() -> KeyCodec.decode(date, null, HEX.parseHex("01" + "ffffffffffffffff")), "far date");
        expectCorrupt(() -> KeyCodec.decode(date, new boolean[] {true}, HEX.parseHex("ff00")), "trailing");
    }

    @Test
    void argumentErrors() {
        List<ColumnType> two = List.of(ColumnType.of(SqlType.INTEGER), ColumnType.varchar(2));
        assertThrows(IllegalArgumentException.class,
                () -> KeyCodec.encode(two, null, new Object[] {1}));
        assertThrows(IllegalArgumentException.class,
                () -> KeyCodec.encode(two, new boolean[1], new Object[] {1, "a"}));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KeyCodec.encode(two, null, new Object[] {1, "abc"}));
        assertTrue(e.getMessage().contains("column 1"), e.getMessage());
        assertThrows(IllegalArgumentException.class,
                () -> KeyCodec.encode(two, null, new Object[] {1L, "a"}));
        assertThrows(IllegalArgumentException.class,
                () -> KeyCodec.encodePrefix(two, null, new Object[] {1}, 2));
        assertEquals(0, KeyCodec.encodePrefix(two, null, new Object[0], 0).length);
        assertEquals(5, KeyCodec.encodePrefix(two, null, new Object[] {1}, 1).length);
    }
}
