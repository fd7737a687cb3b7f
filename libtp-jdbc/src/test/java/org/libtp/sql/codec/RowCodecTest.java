package org.libtp.sql.codec;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;

import java.math.BigDecimal;
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
 * Randomized tests of {@link RowCodec} (values from {@link KeyCodecTest}'s generators). The seed
 * is printed; {@code -Dlibtp.seed=N} replays a run.
 */
class RowCodecTest {
    static final long SEED = Long.getLong("libtp.seed", System.nanoTime());
    private static final HexFormat HEX = HexFormat.of();

    @BeforeAll
    static void printSeed() {
        System.out.println("RowCodecTest seed " + SEED);
    }

    private record Row(int version, List<ColumnType> types, Object[] values) {
        static Row random(Random r) {
            int n = r.nextInt(10) == 0 ? r.nextInt(30) : r.nextInt(10);
            List<ColumnType> types = new ArrayList<>();
            Object[] values = new Object[n];
            for (int i = 0; i < n; i++) {
                types.add(KeyCodecTest.randomType(r));
                values[i] = KeyCodecTest.randomValue(r, types.get(i));
            }
            int version = KeyCodecTest.pick(r, 0, 1, 65535, r.nextInt(65536));
            return new Row(version, List.copyOf(types), KeyCodecTest.canonical(types, values));
        }

        byte[] encode() {
            return RowCodec.encode(version, types, values);
        }

        @Override
        public String toString() {
            return "(seed " + SEED + ") v" + version + " " + types;
        }
    }

    /** Decoded values equal the canonical ones, REAL and DOUBLE to the bit (rows keep -0.0). */
    private static void assertSame(Row row, Object[] decoded, int n) {
        assertEquals(n, decoded.length, row::toString);
        for (int i = 0; i < n; i++) {
            Object e = row.values[i];
            Object a = decoded[i];
            boolean same = switch (row.types.get(i).type()) {
                case REAL -> e == null ? a == null
                        : Float.floatToIntBits((Float) e) == Float.floatToIntBits((Float) a);
                case DOUBLE -> e == null ? a == null
                        : Double.doubleToLongBits((Double) e) == Double.doubleToLongBits((Double) a);
                default -> KeyCodecTest.sameValue(row.types.get(i).type(), e, a);
            };
            if (!same) {
                fail("column " + i + " " + e + " decoded as " + a + " " + row);
            }
        }
    }

    @Test
    void roundTrip() {
        Random r = new Random(SEED);
        for (int i = 0; i < 10_000; i++) {
            Row row = Row.random(r);
            byte[] b = row.encode();
            assertEquals(row.version, RowCodec.schemaVersion(b));
            Object[] decoded = RowCodec.decode(row.types, b);
            assertSame(row, decoded, row.values.length);
            assertArrayEquals(b, RowCodec.encode(row.version, row.types, decoded), row::toString);
        }
    }

    @Test
    void rowsOfFewerColumnsDecodeShorter() {
        Random r = new Random(SEED + 1);
        for (int i = 0; i < 3_000; i++) {
            Row row = Row.random(r);
            int k = r.nextInt(row.values.length + 1);
            Row old = new Row(row.version, row.types.subList(0, k), Arrays.copyOf(row.values, k));
            assertSame(old, RowCodec.decode(row.types, old.encode()), k);
            if (k < row.values.length) { // a row of more columns than the table: corrupt
                expectCorrupt(() -> RowCodec.decode(old.types, row.encode()), row + " read with " + k);
            }
        }
    }

    @Test
    void everyTruncationIsCorrupt() {
        Random r = new Random(SEED + 2);
        for (int i = 0; i < 800; i++) {
            Row row = Row.random(r);
            byte[] b = row.encode();
            for (int len = 0; len < b.length; len++) {
                byte[] cut = Arrays.copyOf(b, len);
                expectCorrupt(() -> RowCodec.decode(row.types, cut), row + " cut to " + len);
            }
            expectCorrupt(() -> RowCodec.decode(row.types, Arrays.copyOf(b, b.length + 1)),
                    row + " + trailing byte");
        }
        expectCorrupt(() -> RowCodec.schemaVersion(new byte[3]), "3-byte row");
    }

    @Test
    void garbageIsCorruptOrCanonical() {
        Random r = new Random(SEED + 3);
        byte[] special = {0, 1, 2, (byte) 0xFF, (byte) 0x80, 0x7F, (byte) 0xC0, (byte) 0xE0, (byte) 0xED,
            (byte) 0xF0, (byte) 0xF4, (byte) 0xA0, (byte) 0xB0, (byte) 0x8F, 0x10, 0x11};
        int decoded = 0;
        for (int i = 0; i < 15_000; i++) {
            Row row = Row.random(r);
            byte[] b = row.encode();
            if (r.nextInt(4) == 0) {
                b = new byte[r.nextInt(40)];
                for (int j = 0; j < b.length; j++) {
                    b[j] = r.nextBoolean() ? (byte) r.nextInt() : special[r.nextInt(special.length)];
                }
                if (b.length >= 4 && r.nextBoolean()) {
                    b[2] = (byte) r.nextInt(4); // a plausible column count
                    b[3] = 0;
                }
            } else if (b.length > 0) {
                int changes = 1 + r.nextInt(2);
                for (int c = 0; c < changes; c++) {
                    b[r.nextInt(b.length)] = r.nextBoolean() ? (byte) r.nextInt() : special[r.nextInt(special.length)];
                }
            }
            Object[] values;
            try {
                values = RowCodec.decode(row.types, b);
            } catch (CorruptionException e) {
                assertTrue(e.getMessage().startsWith("Corrupt row"), e.getMessage());
                continue;
            } catch (Throwable t) {
                throw new AssertionError("not a CorruptionException for " + HEX.formatHex(b) + " " + row, t);
            }
            decoded++;
            byte[] again = RowCodec.encode(RowCodec.schemaVersion(b), row.types.subList(0, values.length), values);
            assertArrayEquals(b, again, "decoded a non-canonical row " + HEX.formatHex(b) + " " + row);
        }
        assertTrue(decoded > 0, "no mutated row decoded at all");
    }

    @Test
    void layout() {
        List<ColumnType> types = List.of(ColumnType.of(SqlType.INTEGER), ColumnType.varchar(10),
                ColumnType.decimal(10, 2), ColumnType.of(SqlType.BOOLEAN));
        byte[] b = RowCodec.encode(258, types, new Object[] {-2, "\u00e9\ud83d\ude00\ud800", null, true});
        assertEquals("0201" + "0400" + "04" + "feffffff" + "09" + "c3a9" + "f09f9880" + "eda080" + "01",
                HEX.formatHex(b));
        assertEquals(258, RowCodec.schemaVersion(b));
        byte[] dec = RowCodec.encode(0, List.of(ColumnType.decimal(10, 2)), new Object[] {new BigDecimal("1.28")});
        assertEquals("0000" + "0100" + "00" + "02" + "0080", HEX.formatHex(dec));
        assertEquals("0000" + "0000", HEX.formatHex(RowCodec.encode(0, List.of(), new Object[0])));
    }

    @Test
    void rejectsNonCanonicalAndMalformed() {
        List<ColumnType> vc = List.of(ColumnType.varchar(10));
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("000001000200")), "bit past n");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000200" + "03")), "2 columns for 1");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("000001000080" + "00")), "overlong varint");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000100" + "00" + "ffffffff0f")), "huge varint");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000100" + "00" + "06eda0bdedb880")),
                "split surrogate pair");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000100" + "00" + "02c0a0")), "overlong 2");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000100" + "00" + "04f4908080")), "> U+10FFFF");
        expectCorrupt(() -> RowCodec.decode(vc, HEX.parseHex("00000100" + "00" + "0b" + "6161616161616161616161")),
                "too long");
        List<ColumnType> dec = List.of(ColumnType.decimal(3, 0));
        expectCorrupt(() -> RowCodec.decode(dec, HEX.parseHex("00000100" + "00" + "020001")), "non-minimal");
        expectCorrupt(() -> RowCodec.decode(dec, HEX.parseHex("00000100" + "00" + "0203e8")), "1000 in DECIMAL(3)");
        expectCorrupt(() -> RowCodec.decode(dec, HEX.parseHex("00000100" + "00" + "00")), "0 bytes");
        List<ColumnType> ts = List.of(ColumnType.of(SqlType.TIMESTAMP));
        expectCorrupt(() -> RowCodec.decode(ts, HEX.parseHex("00000100" + "00" + "0000000000000000" + "00ca9a3b")),
                "nano 10^9");
    }

    @Test
    void argumentErrors() {
        List<ColumnType> one = List.of(ColumnType.of(SqlType.INTEGER));
        assertThrows(IllegalArgumentException.class, () -> RowCodec.encode(-1, one, new Object[] {1}));
        assertThrows(IllegalArgumentException.class, () -> RowCodec.encode(65536, one, new Object[] {1}));
        assertThrows(IllegalArgumentException.class, () -> RowCodec.encode(0, one, new Object[0]));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> RowCodec.encode(0, one, new Object[] {"1"}));
        assertTrue(e.getMessage().contains("column 0"), e.getMessage());
    }

    private static void expectCorrupt(Runnable r, String what) {
        try {
            r.run();
        } catch (CorruptionException e) {
            assertTrue(e.getMessage().startsWith("Corrupt row"), e.getMessage());
            return;
        } catch (Throwable t) {
            throw new AssertionError("not a CorruptionException: " + what, t);
        }
        fail("decoded without error: " + what);
    }
}
