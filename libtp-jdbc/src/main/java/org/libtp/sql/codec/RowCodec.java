package org.libtp.sql.codec;

import org.libtp.core.CorruptionException;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.ZoneOffset;
import java.util.Arrays;
import java.util.List;

/**
 * Compact encoding of a table row (the value stored under its primary key). Little-endian.
 *
 * <pre>
 *  offset size field
 *  ------ ---- ---------------------------------------------------------------------
 *       0    2 version   u16, the table's schema version the row was written under
 *       2    2 n         u16, the number of columns stored
 *       4    b nulls     b = ceil(n/8) bytes; bit (i % 8) of byte i / 8 set = column i is
 *                        NULL; the bits past n are 0
 *   4 + b    . values    each non-NULL column in column order:
 *
 *  column     bytes      content
 *  ---------  ---------  ------------------------------------------------------------------
 *  BOOLEAN    1          0 or 1
 *  SMALLINT   2          two's complement
 *  INTEGER    4          two's complement
 *  BIGINT     8          two's complement
 *  REAL       4          IEEE 754 bits as given (-0.0 and NaN payloads kept)
 *  DOUBLE     8          IEEE 754 bits as given
 *  DECIMAL    v + k      k = varint, then the unscaled value at the column's scale, two's
 *                        complement big-endian, minimal (BigInteger.toByteArray), 1..16 bytes
 *  CHAR       v + k      k = varint, then k bytes of UTF-8 (lone surrogates as 3-byte
 *  VARCHAR               sequences, i.e. WTF-8, so that every Java string round-trips)
 *  VARBINARY  v + k      k = varint, then the k bytes
 *  DATE       8          epoch day
 *  TIME       8          nano of day
 *  TIMESTAMP  8 + 4      epoch second (the LocalDateTime read as UTC), nano of second
 *
 *  varint: unsigned LEB128, 7 bits a byte, low group first, high bit = more follows;
 *          minimal (no 0x80-padded tail), at most 5 bytes, at most 2^31-1
 * </pre>
 *
 * <p>A row keeps the column count it was written with: a row written before {@code ALTER TABLE
 * ADD COLUMN} decodes to fewer values than the table has columns, and the caller supplies the
 * defaults of the rest. Decoding is strict: anything {@link #encode} cannot produce, including a
 * value that does not fit its column type, is a {@link CorruptionException}.
 */
public final class RowCodec {
    /** Bytes before the null bitmap. */
    public static final int HEADER_SIZE = 4;
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final long MIN_EPOCH_DAY = LocalDate.MIN.toEpochDay();
    private static final long MAX_EPOCH_DAY = LocalDate.MAX.toEpochDay();
    private static final long MIN_EPOCH_SECOND = LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_EPOCH_SECOND = LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC);
    private static final int MAX_DECIMAL_BYTES = 16;
    private static final BigInteger[] TEN_POW = new BigInteger[ColumnType.MAX_DECIMAL_PRECISION + 1];

    static {
        for (int i = 0; i < TEN_POW.length; i++) {
            TEN_POW[i] = BigInteger.TEN.pow(i);
        }
    }

    private RowCodec() {
    }

    /**
     * Encodes a row.
     *
     * @param schemaVersion the table's schema version, 0..65535
     * @param types         the table's column types (at most 65535)
     * @param values        one value per column (null for SQL NULL), checked and made canonical
     *                      with {@link ColumnType#check(Object)}
     * @return the row bytes
     * @throws IllegalArgumentException if the version or the number of values is out of range or
     *                                  a value does not fit its column
     */
    public static byte[] encode(int schemaVersion, List<ColumnType> types, Object[] values) {
        if (schemaVersion < 0 || schemaVersion > 0xFFFF) {
            throw new IllegalArgumentException("schema version " + schemaVersion + " is not in 0..65535");
        }
        int n = types.size();
        if (n > 0xFFFF) {
            throw new IllegalArgumentException(n + " columns: a row has at most 65535");
        }
        if (values.length != n) {
            throw new IllegalArgumentException(values.length + " values for a row of " + n + " columns");
        }
        int bitmap = (n + 7) / 8;
        Out out = new Out(HEADER_SIZE + bitmap + 8 * n);
        out.putLe(schemaVersion, 2);
        out.putLe(n, 2);
        out.len += bitmap;
        for (int i = 0; i < n; i++) {
            ColumnType t = types.get(i);
            Object v;
            try {
                v = t.check(values[i]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("row column " + i + ": " + e.getMessage(), e);
            }
            if (v == null) {
                out.buf[HEADER_SIZE + i / 8] |= (byte) (1 << (i % 8));
            } else {
                encodeValue(out, t, v);
            }
        }
        return out.toArray();
    }

    /**
     * The schema version a row was written under.
     *
     * @param row the row bytes
     * @return the version, 0..65535
     * @throws CorruptionException if the row is shorter than its header
     */
    public static int schemaVersion(byte[] row) {
        if (row.length < HEADER_SIZE) {
            throw new CorruptionException("Corrupt row: " + row.length + " bytes, shorter than the "
                    + HEADER_SIZE + "-byte header");
        }
        return (row[0] & 0xFF) | (row[1] & 0xFF) << 8;
    }

    /**
     * Decodes a row.
     *
     * @param types the table's current column types; the row may store fewer columns (written
     *              before columns were added), never more
     * @param row   the row bytes
     * @return the canonical values of the stored columns, an array as long as the column count
     *         stored in the row (null for SQL NULL)
     * @throws CorruptionException if the row is not exactly one valid encoding for
     *                             {@code types} (truncated, trailing bytes, more columns than
     *                             {@code types}, an impossible value)
     */
    public static Object[] decode(List<ColumnType> types, byte[] row) {
        In in = new In(row);
        schemaVersion(row);
        in.pos = 2;
        int n = (int) in.le(2);
        if (n > types.size()) {
            throw in.corrupt("row stores " + n + " columns, the table has only " + types.size());
        }
        int bitmap = (n + 7) / 8;
        if (row.length - in.pos < bitmap) {
            throw in.corrupt("truncated null bitmap of " + bitmap + " bytes");
        }
        int nullsAt = in.pos;
        in.pos += bitmap;
        if (n % 8 != 0 && (row[nullsAt + bitmap - 1] & 0xFF) >>> (n % 8) != 0) {
            throw in.corrupt("null bitmap has bits set past column " + (n - 1));
        }
        Object[] values = new Object[n];
        for (int i = 0; i < n; i++) {
            if ((row[nullsAt + i / 8] & (1 << (i % 8))) == 0) {
                in.column = i;
                in.type = types.get(i);
                values[i] = decodeValue(in, in.type);
            }
        }
        if (in.pos != row.length) {
            in.column = -1;
            throw in.corrupt((row.length - in.pos) + " trailing bytes after the last column");
        }
        return values;
    }

    // ---------------------------------------------------------------- encoding

    private static void encodeValue(Out out, ColumnType t, Object v) {
        switch (t.type()) {
            case BOOLEAN -> out.put((Boolean) v ? 1 : 0);
            case SMALLINT -> out.putLe((Short) v, 2);
            case INTEGER -> out.putLe((Integer) v, 4);
            case BIGINT -> out.putLe((Long) v, 8);
            case REAL -> out.putLe(Float.floatToRawIntBits((Float) v), 4);
            case DOUBLE -> out.putLe(Double.doubleToRawLongBits((Double) v), 8);
            case DECIMAL -> {
                byte[] b = ((BigDecimal) v).unscaledValue().toByteArray();
                out.putVarint(b.length);
                out.put(b);
            }
            case CHAR, VARCHAR -> {
                byte[] b = wtf8((String) v);
                out.putVarint(b.length);
                out.put(b);
            }
            case VARBINARY -> {
                byte[] b = (byte[]) v;
                out.putVarint(b.length);
                out.put(b);
            }
            case DATE -> out.putLe(((LocalDate) v).toEpochDay(), 8);
            case TIME -> out.putLe(((LocalTime) v).toNanoOfDay(), 8);
            case TIMESTAMP -> {
                LocalDateTime ts = (LocalDateTime) v;
                out.putLe(ts.toEpochSecond(ZoneOffset.UTC), 8);
                out.putLe(ts.getNano(), 4);
            }
        }
    }

    /** UTF-8 of {@code s}, with each unpaired surrogate encoded on its own in 3 bytes. */
    private static byte[] wtf8(String s) {
        Out out = new Out(s.length() + 8);
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.put(c);
            } else if (c < 0x800) {
                out.put(0xC0 | (c >> 6));
                out.put(0x80 | (c & 0x3F));
            } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                    && Character.isLowSurrogate(s.charAt(i + 1))) {
                int cp = Character.toCodePoint(c, s.charAt(++i));
                out.put(0xF0 | (cp >> 18));
                out.put(0x80 | ((cp >> 12) & 0x3F));
                out.put(0x80 | ((cp >> 6) & 0x3F));
                out.put(0x80 | (cp & 0x3F));
            } else {
                out.put(0xE0 | (c >> 12));
                out.put(0x80 | ((c >> 6) & 0x3F));
                out.put(0x80 | (c & 0x3F));
            }
        }
        return out.toArray();
    }

    // ---------------------------------------------------------------- decoding

    private static Object decodeValue(In in, ColumnType t) {
        switch (t.type()) {
            case BOOLEAN -> {
                int b = in.u8();
                if (b > 1) {
                    throw in.corrupt(String.format("BOOLEAN byte 0x%02X is not 0 or 1", b));
                }
                return b == 1;
            }
            case SMALLINT -> {
                return (short) in.le(2);
            }
            case INTEGER -> {
                return (int) in.le(4);
            }
            case BIGINT -> {
                return in.le(8);
            }
            case REAL -> {
                return Float.intBitsToFloat((int) in.le(4));
            }
            case DOUBLE -> {
                return Double.longBitsToDouble(in.le(8));
            }
            case DECIMAL -> {
                int len = in.varint();
                if (len < 1 || len > MAX_DECIMAL_BYTES) {
                    throw in.corrupt("DECIMAL of " + len + " bytes (1.." + MAX_DECIMAL_BYTES + ")");
                }
                byte[] b = in.bytes(len);
                BigInteger unscaled = new BigInteger(b);
                if (unscaled.bitLength() / 8 + 1 != len) {
                    throw in.corrupt("DECIMAL of " + len + " bytes is not minimal");
                }
                if (unscaled.abs().compareTo(TEN_POW[t.length()]) >= 0) {
                    throw in.corrupt("DECIMAL unscaled value " + unscaled + " has more than "
                            + t.length() + " digits");
                }
                return new BigDecimal(unscaled, t.scale());
            }
            case CHAR, VARCHAR -> {
                int len = in.varint();
                String s = in.wtf8(len);
                if (t.type() == SqlType.CHAR ? s.length() != t.length() : s.length() > t.length()) {
                    throw in.corrupt("string of " + s.length() + " characters in a " + t + " column");
                }
                return s;
            }
            case VARBINARY -> {
                int len = in.varint();
                if (len > t.length()) {
                    throw in.corrupt("binary string of " + len + " bytes in a " + t + " column");
                }
                return in.bytes(len);
            }
            case DATE -> {
                long day = in.le(8);
                if (day < MIN_EPOCH_DAY || day > MAX_EPOCH_DAY) {
                    throw in.corrupt("DATE epoch day " + day + " out of range");
                }
                return LocalDate.ofEpochDay(day);
            }
            case TIME -> {
                long nanos = in.le(8);
                if (nanos < 0 || nanos >= NANOS_PER_DAY) {
                    throw in.corrupt("TIME nano of day " + nanos + " out of range");
                }
                return LocalTime.ofNanoOfDay(nanos);
            }
            case TIMESTAMP -> {
                long second = in.le(8);
                long nano = in.le(4);
                if (second < MIN_EPOCH_SECOND || second > MAX_EPOCH_SECOND || nano > 999_999_999) {
                    throw in.corrupt("TIMESTAMP " + second + "s " + nano + "ns out of range");
                }
                return LocalDateTime.ofEpochSecond(second, (int) nano, ZoneOffset.UTC);
            }
            default -> throw new AssertionError(t);
        }
    }

    /** A growable byte array. */
    private static final class Out {
        byte[] buf;
        int len;

        Out(int capacity) {
            buf = new byte[Math.max(capacity, 8)];
        }

        void ensure(int more) {
            if (buf.length - len < more) {
                buf = Arrays.copyOf(buf, Math.max(buf.length * 2, len + more));
            }
        }

        void put(int b) {
            ensure(1);
            buf[len++] = (byte) b;
        }

        void put(byte[] b) {
            ensure(b.length);
            System.arraycopy(b, 0, buf, len, b.length);
            len += b.length;
        }

        void putLe(long v, int bytes) {
            ensure(bytes);
            for (int i = 0; i < bytes; i++) {
                buf[len++] = (byte) (v >>> (8 * i));
            }
        }

        void putVarint(int v) {
            while ((v & ~0x7F) != 0) {
                put((v & 0x7F) | 0x80);
                v >>>= 7;
            }
            put(v);
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, len);
        }
    }

    /** A bounds-checked reader of a row. */
    private static final class In {
        final byte[] row;
        int pos;
        int column = -1;
        ColumnType type;

        In(byte[] row) {
            this.row = row;
        }

        int u8() {
            if (pos >= row.length) {
                throw corrupt("truncated");
            }
            return row[pos++] & 0xFF;
        }

        long le(int bytes) {
            if (row.length - pos < bytes) {
                throw corrupt("truncated (" + bytes + " bytes needed, " + (row.length - pos) + " left)");
            }
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v |= (long) (row[pos++] & 0xFF) << (8 * i);
            }
            return v; // unsigned below 8 bytes: callers narrow with a cast
        }

        int varint() {
            int start = pos;
            long v = 0;
            for (int i = 0; i < 5; i++) {
                int b = u8();
                v |= (long) (b & 0x7F) << (7 * i);
                if ((b & 0x80) == 0) {
                    if (b == 0 && i > 0) {
                        pos = start;
                        throw corrupt("varint length is not minimal");
                    }
                    if (v > Integer.MAX_VALUE) {
                        pos = start;
                        throw corrupt("varint length " + v + " is too large");
                    }
                    return (int) v;
                }
            }
            pos = start;
            throw corrupt("varint length longer than 5 bytes");
        }

        byte[] bytes(int len) {
            if (row.length - pos < len) {
                throw corrupt("truncated (" + len + " bytes needed, " + (row.length - pos) + " left)");
            }
            byte[] b = Arrays.copyOfRange(row, pos, pos + len);
            pos += len;
            return b;
        }

        /** Strict WTF-8: UTF-8 that also admits unpaired surrogates, but not a split pair. */
        String wtf8(int len) {
            if (row.length - pos < len) {
                throw corrupt("truncated (" + len + " bytes needed, " + (row.length - pos) + " left)");
            }
            int end = pos + len;
            StringBuilder sb = new StringBuilder(len);
            boolean loneHigh = false; // the last char was a high surrogate of its own sequence
            while (pos < end) {
                int b = row[pos++] & 0xFF;
                if (b < 0x80) {
                    sb.append((char) b);
                    loneHigh = false;
                } else if (b >= 0xC2 && b <= 0xDF) {
                    sb.append((char) (((b & 0x1F) << 6) | cont(end, 0x80, 0xBF)));
                    loneHigh = false;
                } else if (b >= 0xE0 && b <= 0xEF) {
                    int c1 = cont(end, b == 0xE0 ? 0xA0 : 0x80, 0xBF);
                    char c = (char) (((b & 0x0F) << 12) | (c1 << 6) | cont(end, 0x80, 0xBF));
                    if (loneHigh && Character.isLowSurrogate(c)) {
                        pos -= 3;
                        throw corrupt("surrogate pair encoded as two 3-byte sequences");
                    }
                    sb.append(c);
                    loneHigh = Character.isHighSurrogate(c);
                } else if (b >= 0xF0 && b <= 0xF4) {
                    int c1 = cont(end, b == 0xF0 ? 0x90 : 0x80, b == 0xF4 ? 0x8F : 0xBF);
                    int cp = ((b & 0x07) << 18) | (c1 << 12) | (cont(end, 0x80, 0xBF) << 6)
                            | cont(end, 0x80, 0xBF);
                    sb.append(Character.highSurrogate(cp)).append(Character.lowSurrogate(cp));
                    loneHigh = false;
                } else {
                    pos--;
                    throw corrupt(String.format("byte 0x%02X cannot start a UTF-8 character", b));
                }
            }
            return sb.toString();
        }

        private int cont(int end, int min, int max) {
            if (pos >= end) {
                throw corrupt("string ends inside a UTF-8 character");
            }
            int b = row[pos] & 0xFF;
            if (b < min || b > max) {
                throw corrupt(String.format("bad UTF-8 continuation byte 0x%02X", b));
            }
            pos++;
            return b & 0x3F;
        }

        CorruptionException corrupt(String what) {
            String where = column < 0 ? "" : " in column " + column + " (" + type + ")";
            return new CorruptionException("Corrupt row: " + what + where + " at byte " + pos
                    + " of " + row.length);
        }
    }
}
