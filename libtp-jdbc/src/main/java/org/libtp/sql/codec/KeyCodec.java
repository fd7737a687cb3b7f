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
 * Memcomparable encoding of index and primary keys: a tuple of column values becomes a byte
 * string such that {@link Arrays#compareUnsigned(byte[], byte[])} of two encodings orders them as
 * SQL orders the tuples, column by column, each column ascending or descending, NULL lowest in an
 * ascending column (H2's default, NULLS FIRST) and so highest in a descending one.
 *
 * <p>A key is the concatenation of its columns' encodings. Each column's encoding is
 * self-delimiting (no encoding of a column is a proper prefix of another), so two keys first
 * differ inside the first column whose values differ, and the order is decided there: the
 * order of the tuples is the lexicographic order of the columns. It also makes
 * {@link #encodePrefix} exact for range scans: the first n columns of every full key are the
 * bytes of its n-column prefix.
 *
 * <p>Ascending layout of one column (integers are big-endian; "flip" = sign bit inverted,
 * "inv" = every bit inverted):
 *
 * <pre>
 *  column     bytes      content
 *  ---------  ---------  ------------------------------------------------------------------
 *  any NULL   1          0x00
 *  non-NULL   1          0x01, then the value:
 *  BOOLEAN    1          0x00 false, 0x01 true
 *  SMALLINT   2          value, flip                 two's complement with the sign bit
 *  INTEGER    4          value, flip                 inverted orders as unsigned:
 *  BIGINT     8          value, flip                 MIN -> 00.., -1 -> 7F.., 0 -> 80..
 *  REAL       4          IEEE bits: sign 0 -> flip,  -0.0 is stored as 0.0; NaN is the
 *  DOUBLE     8          sign 1 -> inv               canonical NaN, above +Infinity
 *  DECIMAL    1          header: 0x80 zero,          unscaled value at the column scale;
 *                        0x80+len positive,          len = bytes of |unscaled|, 1..16,
 *                        0x80-len negative           no leading zero byte
 *             len        |unscaled| big-endian,      (38 digits &lt; 2^127)
 *                        inv if negative
 *  CHAR       n          CESU-8 of the UTF-16 chars, each 0x00 escaped as 0x00 0xFF,
 *  VARCHAR               then the terminator 0x00 0x01
 *  VARBINARY  n          the bytes, 0x00 escaped as 0x00 0xFF, then 0x00 0x01
 *  DATE       8          epoch day, flip
 *  TIME       8          nano of day, flip
 *  TIMESTAMP  8 + 4      epoch second (the LocalDateTime read as UTC), flip;
 *                        nano of second, 0..999999999
 * </pre>
 *
 * <p>Why each one orders:
 * <ul>
 *   <li>Marker: 0x00 &lt; 0x01 puts NULL before every value.</li>
 *   <li>Integers: flipping the sign bit maps two's complement order onto unsigned order.
 *       DATE, TIME and the TIMESTAMP second are integers ordered like their values (the nano
 *       field of TIMESTAMP is non-negative, so plain big-endian orders it).</li>
 *   <li>Floating point: IEEE magnitudes order like their bit patterns; setting the sign bit of
 *       non-negative numbers puts them above all negative ones, and inverting negative ones
 *       reverses their magnitude order. Normalizing -0.0 and NaN gives the order of
 *       {@link Double#compare} with -0.0 = 0.0.</li>
 *   <li>DECIMAL: every value of a column has the same scale, so numeric order is the order of
 *       the unscaled integers. The header orders by sign, then by byte length (a minimal
 *       magnitude with more bytes is larger); within a length, big-endian magnitude orders, and
 *       its inversion reverses the order of negative values, whose header already reversed
 *       length order (0x80-len).</li>
 *   <li>Strings: CESU-8 encodes each UTF-16 char on its own into 1 byte (0x00-0x7F), 2 bytes
 *       (lead 0xC2-0xDF) or 3 bytes (lead 0xE0-0xEF, surrogates included); higher chars get
 *       higher lead bytes, and sequences of one length order like their chars, so byte order is
 *       {@link String#compareTo} order (UTF-16 code units, as H2 compares by default). An
 *       unpaired surrogate is a char like any other.</li>
 *   <li>Escape and terminator: only 0x00 needs care. At the first difference between two
 *       escaped strings, 0x00 0xFF (a 0 char or byte) is below every other byte value and
 *       0x00 0x01 (the end) is below both it and every other byte, so a string sorts before
 *       every longer string it starts, and after 0x00 only 0xFF or 0x01 may follow, which
 *       makes the encoding self-delimiting.</li>
 * </ul>
 *
 * <p>Descending column: every byte of the column's encoding, marker included, is inverted. The
 * ascending encodings of a column form a prefix-free set, so two of them differ at a position
 * inside both and inversion reverses their order; the set stays prefix-free (inverted, a 0x00
 * escape reads 0xFF 0x00, the terminator 0xFF 0xFE). NULL becomes 0xFF and sorts last.
 *
 * <p>Encodings are canonical: {@link #decode} refuses anything {@link #encode} cannot produce
 * (a -0.0 or a non-canonical NaN, a decimal with a leading zero byte or too many digits, an
 * overlong or truncated CESU-8 sequence, a string longer than its column, a date outside
 * {@link LocalDate}'s range, trailing bytes...) with a {@link CorruptionException}, so a key
 * that decodes encodes back to the same bytes.
 */
public final class KeyCodec {
    private static final int NULL = 0x00;
    private static final int NOT_NULL = 0x01;
    private static final int ESCAPE = 0x00;
    private static final int ESCAPED_ZERO = 0xFF;
    private static final int TERMINATOR = 0x01;
    private static final int DECIMAL_ZERO = 0x80;
    private static final int MAX_DECIMAL_BYTES = 16;
    private static final long MIN_EPOCH_DAY = LocalDate.MIN.toEpochDay();
    private static final long MAX_EPOCH_DAY = LocalDate.MAX.toEpochDay();
    private static final long MIN_EPOCH_SECOND = LocalDateTime.MIN.toEpochSecond(ZoneOffset.UTC);
    private static final long MAX_EPOCH_SECOND = LocalDateTime.MAX.toEpochSecond(ZoneOffset.UTC);
    private static final long NANOS_PER_DAY = 86_400_000_000_000L;
    private static final int CANONICAL_FLOAT_NAN = Float.floatToIntBits(Float.NaN);
    private static final long CANONICAL_DOUBLE_NAN = Double.doubleToLongBits(Double.NaN);
    private static final BigInteger[] TEN_POW = new BigInteger[ColumnType.MAX_DECIMAL_PRECISION + 1];

    static {
        for (int i = 0; i < TEN_POW.length; i++) {
            TEN_POW[i] = BigInteger.TEN.pow(i);
        }
    }

    private KeyCodec() {
    }

    /**
     * Encodes a whole key.
     *
     * @param types      the key's column types
     * @param descending per column, true for a descending column; null for all ascending
     * @param values     one value per column (null for SQL NULL), checked and made canonical
     *                   with {@link ColumnType#check(Object)}
     * @return the key bytes
     * @throws IllegalArgumentException if the array lengths do not match {@code types} or a
     *                                  value does not fit its column
     */
    public static byte[] encode(List<ColumnType> types, boolean[] descending, Object[] values) {
        if (values.length != types.size()) {
            throw new IllegalArgumentException(values.length + " values for a key of "
                    + types.size() + " columns");
        }
        return encodePrefix(types, descending, values, types.size());
    }

    /**
     * Encodes the first {@code n} columns of a key: every full key whose first {@code n} values
     * are these begins with the returned bytes, and prefixes of tuples that differ in their first
     * {@code n} values compare as the full keys do (for range scans).
     *
     * @param types      the key's column types (all of them, or at least {@code n})
     * @param descending per column of {@code types}, true for descending; null for all ascending
     * @param values     at least {@code n} values, the first {@code n} are encoded
     * @param n          the number of leading columns to encode, 0..types.size()
     * @return the prefix bytes (empty for {@code n == 0})
     * @throws IllegalArgumentException if {@code n} or an array length is out of range or a
     *                                  value does not fit its column
     */
    public static byte[] encodePrefix(List<ColumnType> types, boolean[] descending, Object[] values,
                                      int n) {
        checkDescending(types, descending);
        if (n < 0 || n > types.size() || n > values.length) {
            throw new IllegalArgumentException("prefix of " + n + " columns with "
                    + values.length + " values for a key of " + types.size() + " columns");
        }
        Out out = new Out(16 * n + 8);
        for (int i = 0; i < n; i++) {
            ColumnType t = types.get(i);
            Object v;
            try {
                v = t.check(values[i]);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("key column " + i + ": " + e.getMessage(), e);
            }
            int start = out.len;
            encodeColumn(out, t, v);
            if (descending != null && descending[i]) {
                out.invertFrom(start);
            }
        }
        return out.toArray();
    }

    /**
     * Decodes a whole key.
     *
     * @param types      the key's column types
     * @param descending per column, true for a descending column; null for all ascending
     * @param key        bytes made by {@link #encode} with the same types and directions
     * @return the canonical values, one per column (null for SQL NULL; -0.0 comes back as 0.0)
     * @throws CorruptionException      if {@code key} is not exactly one valid encoding
     *                                  (truncated, a bad marker or escape, an impossible value,
     *                                  trailing bytes)
     * @throws IllegalArgumentException if {@code descending} does not match {@code types}
     */
    public static Object[] decode(List<ColumnType> types, boolean[] descending, byte[] key) {
        checkDescending(types, descending);
        In in = new In(key);
        Object[] values = new Object[types.size()];
        for (int i = 0; i < values.length; i++) {
            in.column = i;
            in.type = types.get(i);
            in.mask = descending != null && descending[i] ? 0xFF : 0;
            values[i] = decodeColumn(in, in.type);
        }
        if (in.pos != key.length) {
            in.column = -1;
            throw in.corrupt((key.length - in.pos) + " trailing bytes after the last column");
        }
        return values;
    }

    private static void checkDescending(List<ColumnType> types, boolean[] descending) {
        if (descending != null && descending.length != types.size()) {
            throw new IllegalArgumentException(descending.length + " sort directions for a key of "
                    + types.size() + " columns");
        }
    }

    // ---------------------------------------------------------------- encoding

    private static void encodeColumn(Out out, ColumnType t, Object v) {
        if (v == null) {
            out.put(NULL);
            return;
        }
        out.put(NOT_NULL);
        switch (t.type()) {
            case BOOLEAN -> out.put((Boolean) v ? 1 : 0);
            case SMALLINT -> out.putBigEndian(((Short) v) ^ 0x8000, 2);
            case INTEGER -> out.putBigEndian(((Integer) v) ^ Integer.MIN_VALUE, 4);
            case BIGINT -> out.putBigEndian((Long) v ^ Long.MIN_VALUE, 8);
            case REAL -> {
                float f = (Float) v;
                int bits = Float.floatToIntBits(f == 0.0f ? 0.0f : f); // -0.0 -> 0.0, one NaN
                out.putBigEndian(bits < 0 ? ~bits : bits ^ Integer.MIN_VALUE, 4);
            }
            case DOUBLE -> {
                double d = (Double) v;
                long bits = Double.doubleToLongBits(d == 0.0 ? 0.0 : d);
                out.putBigEndian(bits < 0 ? ~bits : bits ^ Long.MIN_VALUE, 8);
            }
            case DECIMAL -> encodeDecimal(out, ((BigDecimal) v).unscaledValue());
            case CHAR, VARCHAR -> encodeString(out, (String) v);
            case VARBINARY -> {
                for (byte b : (byte[]) v) {
                    out.putEscaped(b & 0xFF);
                }
                out.put(ESCAPE);
                out.put(TERMINATOR);
            }
            case DATE -> out.putBigEndian(((LocalDate) v).toEpochDay() ^ Long.MIN_VALUE, 8);
            case TIME -> out.putBigEndian(((LocalTime) v).toNanoOfDay() ^ Long.MIN_VALUE, 8);
            case TIMESTAMP -> {
                LocalDateTime ts = (LocalDateTime) v;
                out.putBigEndian(ts.toEpochSecond(ZoneOffset.UTC) ^ Long.MIN_VALUE, 8);
                out.putBigEndian(ts.getNano(), 4);
            }
        }
    }

    private static void encodeDecimal(Out out, BigInteger unscaled) {
        int signum = unscaled.signum();
        if (signum == 0) {
            out.put(DECIMAL_ZERO);
            return;
        }
        byte[] mag = unscaled.abs().toByteArray();
        int off = mag[0] == 0 ? 1 : 0; // toByteArray adds a sign byte when the top bit is set
        int len = mag.length - off;
        out.put(signum > 0 ? DECIMAL_ZERO + len : DECIMAL_ZERO - len);
        int flip = signum > 0 ? 0 : 0xFF;
        for (int i = off; i < mag.length; i++) {
            out.put((mag[i] & 0xFF) ^ flip);
        }
    }

    private static void encodeString(Out out, String s) {
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < 0x80) {
                out.putEscaped(c);
            } else if (c < 0x800) {
                out.put(0xC0 | (c >> 6));
                out.put(0x80 | (c & 0x3F));
            } else {
                out.put(0xE0 | (c >> 12));
                out.put(0x80 | ((c >> 6) & 0x3F));
                out.put(0x80 | (c & 0x3F));
            }
        }
        out.put(ESCAPE);
        out.put(TERMINATOR);
    }

    // ---------------------------------------------------------------- decoding

    private static Object decodeColumn(In in, ColumnType t) {
        int marker = in.u8();
        if (marker == NULL) {
            return null;
        }
        if (marker != NOT_NULL) {
            throw in.corrupt(String.format("bad marker 0x%02X (expected 0x00 or 0x01)", marker));
        }
        switch (t.type()) {
            case BOOLEAN -> {
                int b = in.u8();
                if (b > 1) {
                    throw in.corrupt(String.format("BOOLEAN byte 0x%02X is not 0 or 1", b));
                }
                return b == 1;
            }
            case SMALLINT -> {
                return (short) (in.bigEndian(2) ^ 0x8000);
            }
            case INTEGER -> {
                return (int) (in.bigEndian(4) ^ 0x8000_0000L);
            }
            case BIGINT -> {
                return in.bigEndian(8) ^ Long.MIN_VALUE;
            }
            case REAL -> {
                int x = (int) in.bigEndian(4);
                int bits = x < 0 ? x ^ Integer.MIN_VALUE : ~x;
                float f = Float.intBitsToFloat(bits);
                if (bits == 0x8000_0000 || (Float.isNaN(f) && bits != CANONICAL_FLOAT_NAN)) {
                    throw in.corrupt(String.format("non-canonical REAL bits 0x%08X", bits));
                }
                return f;
            }
            case DOUBLE -> {
                long x = in.bigEndian(8);
                long bits = x < 0 ? x ^ Long.MIN_VALUE : ~x;
                double d = Double.longBitsToDouble(bits);
                if (bits == Long.MIN_VALUE || (Double.isNaN(d) && bits != CANONICAL_DOUBLE_NAN)) {
                    throw in.corrupt(String.format("non-canonical DOUBLE bits 0x%016X", bits));
                }
                return d;
            }
            case DECIMAL -> {
                return decodeDecimal(in, t);
            }
            case CHAR, VARCHAR -> {
                String s = decodeString(in);
                if (t.type() == SqlType.CHAR ? s.length() != t.length() : s.length() > t.length()) {
                    throw in.corrupt("string of " + s.length() + " characters in a " + t + " column");
                }
                return s;
            }
            case VARBINARY -> {
                Out bytes = new Out(16);
                for (int b = in.unescaped(); b >= 0; b = in.unescaped()) {
                    bytes.put(b);
                }
                if (bytes.len > t.length()) {
                    throw in.corrupt("binary string of " + bytes.len + " bytes in a " + t + " column");
                }
                return bytes.toArray();
            }
            case DATE -> {
                long day = in.bigEndian(8) ^ Long.MIN_VALUE;
                if (day < MIN_EPOCH_DAY || day > MAX_EPOCH_DAY) {
                    throw in.corrupt("DATE epoch day " + day + " out of range");
                }
                return LocalDate.ofEpochDay(day);
            }
            case TIME -> {
                long nanos = in.bigEndian(8) ^ Long.MIN_VALUE;
                if (nanos < 0 || nanos >= NANOS_PER_DAY) {
                    throw in.corrupt("TIME nano of day " + nanos + " out of range");
                }
                return LocalTime.ofNanoOfDay(nanos);
            }
            case TIMESTAMP -> {
                long second = in.bigEndian(8) ^ Long.MIN_VALUE;
                long nano = in.bigEndian(4);
                if (second < MIN_EPOCH_SECOND || second > MAX_EPOCH_SECOND || nano > 999_999_999) {
                    throw in.corrupt("TIMESTAMP " + second + "s " + nano + "ns out of range");
                }
                return LocalDateTime.ofEpochSecond(second, (int) nano, ZoneOffset.UTC);
            }
            default -> throw new AssertionError(t);
        }
    }

    private static BigDecimal decodeDecimal(In in, ColumnType t) {
        int header = in.u8();
        if (header == DECIMAL_ZERO) {
            return BigDecimal.valueOf(0, t.scale());
        }
        boolean negative = header < DECIMAL_ZERO;
        int len = negative ? DECIMAL_ZERO - header : header - DECIMAL_ZERO;
        if (len > MAX_DECIMAL_BYTES) {
            throw in.corrupt(String.format("DECIMAL header 0x%02X: %d bytes is more than %d",
                    header, len, MAX_DECIMAL_BYTES));
        }
        byte[] mag = new byte[len];
        int flip = negative ? 0xFF : 0;
        for (int i = 0; i < len; i++) {
            mag[i] = (byte) (in.u8() ^ flip);
        }
        if (mag[0] == 0) {
            throw in.corrupt("DECIMAL magnitude has a leading zero byte");
        }
        BigInteger unscaled = new BigInteger(negative ? -1 : 1, mag);
        if (unscaled.abs().compareTo(TEN_POW[t.length()]) >= 0) {
            throw in.corrupt("DECIMAL unscaled value " + unscaled + " has more than "
                    + t.length() + " digits");
        }
        return new BigDecimal(unscaled, t.scale());
    }

    private static String decodeString(In in) {
        StringBuilder sb = new StringBuilder();
        for (int b = in.unescaped(); b >= 0; b = in.unescaped()) {
            if (b < 0x80) {
                sb.append((char) b);
            } else if (b >= 0xC2 && b <= 0xDF) {
                sb.append((char) (((b & 0x1F) << 6) | in.continuation(0x80)));
            } else if (b >= 0xE0 && b <= 0xEF) {
                int c1 = in.continuation(b == 0xE0 ? 0xA0 : 0x80); // 0xE0 0x80..0x9F: overlong
                int c2 = in.continuation(0x80);
                sb.append((char) (((b & 0x0F) << 12) | (c1 << 6) | c2));
            } else {
                throw in.corrupt(String.format("byte 0x%02X cannot start a CESU-8 character", b));
            }
        }
        return sb.toString();
    }

    /** A growable byte array. */
    private static final class Out {
        byte[] buf;
        int len;

        Out(int capacity) {
            buf = new byte[Math.max(capacity, 8)];
        }

        void put(int b) {
            if (len == buf.length) {
                buf = Arrays.copyOf(buf, buf.length * 2);
            }
            buf[len++] = (byte) b;
        }

        void putEscaped(int b) {
            put(b);
            if (b == ESCAPE) {
                put(ESCAPED_ZERO);
            }
        }

        void putBigEndian(long v, int bytes) {
            for (int shift = (bytes - 1) * 8; shift >= 0; shift -= 8) {
                put((int) (v >>> shift));
            }
        }

        void invertFrom(int start) {
            for (int i = start; i < len; i++) {
                buf[i] = (byte) ~buf[i];
            }
        }

        byte[] toArray() {
            return Arrays.copyOf(buf, len);
        }
    }

    /** A reader of a key that undoes a descending column's inversion and checks every step. */
    private static final class In {
        final byte[] key;
        int pos;
        int mask;
        int column;
        ColumnType type;

        In(byte[] key) {
            this.key = key;
        }

        int u8() {
            if (pos >= key.length) {
                throw corrupt("truncated");
            }
            return (key[pos++] ^ mask) & 0xFF;
        }

        long bigEndian(int bytes) {
            if (key.length - pos < bytes) {
                throw corrupt("truncated (" + bytes + " bytes needed, " + (key.length - pos) + " left)");
            }
            long v = 0;
            for (int i = 0; i < bytes; i++) {
                v = (v << 8) | u8();
            }
            return v;
        }

        /** The next byte of an escaped string, or -1 at its terminator. */
        int unescaped() {
            int b = u8();
            if (b != ESCAPE) {
                return b;
            }
            int next = u8();
            if (next == ESCAPED_ZERO) {
                return 0;
            }
            if (next == TERMINATOR) {
                return -1;
            }
            pos--;
            throw corrupt(String.format("bad escape 0x00 0x%02X in a string", next));
        }

        /** The 6 payload bits of a CESU-8 continuation byte whose value must be min..0xBF. */
        int continuation(int min) {
            int b = unescaped();
            if (b < min || b > 0xBF) {
                throw corrupt(b < 0 ? "string ends inside a CESU-8 character"
                        : String.format("bad CESU-8 continuation byte 0x%02X", b));
            }
            return b & 0x3F;
        }

        CorruptionException corrupt(String what) {
            String where = column < 0 ? "" : " in column " + column + " (" + type + ")";
            return new CorruptionException("Corrupt index or primary key entry: " + what + where
                    + " at byte " + pos + " of " + key.length);
        }
    }
}
