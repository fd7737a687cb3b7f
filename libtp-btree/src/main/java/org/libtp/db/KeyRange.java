package org.libtp.db;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A range of keys for a {@link Cursor} ({@link Database#openCursor(Transaction, KeyRange)}) or an
 * iteration ({@link Database#entries(Transaction, KeyRange)}): a lower end ({@code from}) and an
 * upper end ({@code to}), each inclusive, exclusive or absent (unbounded), compared in the
 * database's key order; and a direction. Immutable (the bounds are copied).
 *
 * <p>The bounds are always given lowest first, in the database's key order, whatever the
 * direction: {@code closed(a, b).reversed()} visits b down to a. (lmdbjava's backward ranges take
 * their bounds in visiting order instead: its {@code closedBackward(b, a)} is
 * {@code closed(a, b).reversed()} here, its {@code atLeastBackward(b)} is
 * {@code atMost(b).reversed()}.) A range whose {@code from} is after its {@code to} is refused
 * when a cursor is opened on it; one that holds no key (such as {@code closedOpen(a, a)}) is
 * simply empty.
 *
 * <p>For RECNO databases the bounds are record numbers as 8 big-endian bytes, like their keys.
 *
 * <pre>{@code
 * try (CursorIterable entries = db.entries(txn, KeyRange.closedOpen(b("k100"), b("k200")))) {
 *     for (Entry e : entries) {
 *         ...
 *     }
 * }
 * }</pre>
 */
public final class KeyRange {
    private static final KeyRange ALL = new KeyRange(null, false, null, false, false);
    private static final KeyRange ALL_BACKWARD = new KeyRange(null, false, null, false, true);

    private final byte[] from;
    private final boolean fromInclusive;
    private final byte[] to;
    private final boolean toInclusive;
    private final boolean reverse;

    private KeyRange(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive, boolean reverse) {
        this.from = from;
        this.fromInclusive = from != null && fromInclusive;
        this.to = to;
        this.toInclusive = to != null && toInclusive;
        this.reverse = reverse;
    }

    private static byte[] bound(byte[] key, String name) {
        if (key == null || key.length == 0) {
            throw new IllegalArgumentException("key range bound '" + name + "' must be a key of 1 or more bytes"
                    + " (leave the end out for an unbounded one: atLeast, atMost, all)");
        }
        return key.clone();
    }

    /**
     * A range. {@code from} / {@code to} null: unbounded at that end (the inclusive flag is then
     * ignored).
     */
    public static KeyRange of(byte[] from, boolean fromInclusive, byte[] to, boolean toInclusive) {
        return new KeyRange(from == null ? null : bound(from, "from"), fromInclusive,
                to == null ? null : bound(to, "to"), toInclusive, false);
    }

    /** Every key, lowest first. */
    public static KeyRange all() {
        return ALL;
    }

    /** Every key, highest first. */
    public static KeyRange allBackward() {
        return ALL_BACKWARD;
    }

    /** Keys &gt;= {@code from}. */
    public static KeyRange atLeast(byte[] from) {
        return new KeyRange(bound(from, "from"), true, null, false, false);
    }

    /** Keys &gt; {@code from}. */
    public static KeyRange greaterThan(byte[] from) {
        return new KeyRange(bound(from, "from"), false, null, false, false);
    }

    /** Keys &lt;= {@code to}. */
    public static KeyRange atMost(byte[] to) {
        return new KeyRange(null, false, bound(to, "to"), true, false);
    }

    /** Keys &lt; {@code to}. */
    public static KeyRange lessThan(byte[] to) {
        return new KeyRange(null, false, bound(to, "to"), false, false);
    }

    /** Keys in [{@code from}, {@code to}]. */
    public static KeyRange closed(byte[] from, byte[] to) {
        return new KeyRange(bound(from, "from"), true, bound(to, "to"), true, false);
    }

    /** Keys in ({@code from}, {@code to}). */
    public static KeyRange open(byte[] from, byte[] to) {
        return new KeyRange(bound(from, "from"), false, bound(to, "to"), false, false);
    }

    /** Keys in [{@code from}, {@code to}). */
    public static KeyRange closedOpen(byte[] from, byte[] to) {
        return new KeyRange(bound(from, "from"), true, bound(to, "to"), false, false);
    }

    /** Keys in ({@code from}, {@code to}]. */
    public static KeyRange openClosed(byte[] from, byte[] to) {
        return new KeyRange(bound(from, "from"), false, bound(to, "to"), true, false);
    }

    /**
     * Keys that start with {@code prefix}, for databases in the default key order (unsigned
     * bytes): [prefix, the next prefix of the same length), or [prefix, unbounded) when the
     * prefix is all 0xFF bytes. In another key order the keys with a prefix need not be
     * together; build the range from that order's bounds instead.
     */
    public static KeyRange prefix(byte[] prefix) {
        byte[] from = bound(prefix, "prefix");
        byte[] next = from.clone();
        for (int i = next.length - 1; i >= 0; i--) {
            if (next[i] != (byte) 0xFF) {
                next[i]++;
                return new KeyRange(from, true, Arrays.copyOf(next, i + 1), false, false);
            }
        }
        return new KeyRange(from, true, null, false, false);
    }

    /** The same keys in the other direction. */
    public KeyRange reversed() {
        return new KeyRange(from, fromInclusive, to, toInclusive, !reverse);
    }

    /** True if the range is visited from its upper end down. */
    public boolean isReverse() {
        return reverse;
    }

    /** The lower end (a copy), or null if unbounded below. */
    public byte[] from() {
        return from == null ? null : from.clone();
    }

    public boolean fromInclusive() {
        return fromInclusive;
    }

    /** The upper end (a copy), or null if unbounded above. */
    public byte[] to() {
        return to == null ? null : to.clone();
    }

    public boolean toInclusive() {
        return toInclusive;
    }

    // Package-private views without copies, for the cursor.

    byte[] fromBound() {
        return from;
    }

    byte[] toBound() {
        return to;
    }

    /** {@code key} is not below the lower end in order {@code cmp}. */
    boolean aboveStart(byte[] key, java.util.Comparator<byte[]> cmp) {
        if (from == null) {
            return true;
        }
        int c = cmp.compare(key, from);
        return c > 0 || (c == 0 && fromInclusive);
    }

    /** {@code key} is not above the upper end in order {@code cmp}. */
    boolean belowEnd(byte[] key, java.util.Comparator<byte[]> cmp) {
        if (to == null) {
            return true;
        }
        int c = cmp.compare(key, to);
        return c < 0 || (c == 0 && toInclusive);
    }

    boolean contains(byte[] key, java.util.Comparator<byte[]> cmp) {
        return aboveStart(key, cmp) && belowEnd(key, cmp);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyRange r && fromInclusive == r.fromInclusive && toInclusive == r.toInclusive
                && reverse == r.reverse && Arrays.equals(from, r.from) && Arrays.equals(to, r.to);
    }

    @Override
    public int hashCode() {
        return ((Arrays.hashCode(from) * 31 + Arrays.hashCode(to)) * 31 + (fromInclusive ? 4 : 0) + (toInclusive ? 2 : 0))
                + (reverse ? 1 : 0);
    }

    /** For example {@code KeyRange[6b31, 6b39)} or {@code KeyRange(-inf, 6b39] reversed}, keys in hex. */
    @Override
    public String toString() {
        return "KeyRange" + (from == null ? "(-inf" : (fromInclusive ? "[" : "(") + HexFormat.of().formatHex(from)) + ", "
                + (to == null ? "+inf)" : HexFormat.of().formatHex(to) + (toInclusive ? "]" : ")"))
                + (reverse ? " reversed" : "");
    }
}
