package org.libtp.db;

import java.util.Arrays;
import java.util.HexFormat;

/**
 * A key and its data, as an iteration over a cursor yields them ({@link Cursor#iterator()},
 * {@link Cursor#stream()}, {@link Database#entries(Transaction, KeyRange)}). Immutable: the
 * arrays are copied in, and the accessors return copies. Equal when keys and data are equal
 * byte for byte.
 *
 * @param key  the key (RECNO: the record number as 8 big-endian bytes)
 * @param data the data
 */
public record Entry(byte[] key, byte[] data) {
    public Entry {
        if (key == null || data == null) {
            throw new IllegalArgumentException("key and data must not be null");
        }
        key = key.clone();
        data = data.clone();
    }

    /** The key (a copy). */
    @Override
    public byte[] key() {
        return key.clone();
    }

    /** The data (a copy). */
    @Override
    public byte[] data() {
        return data.clone();
    }

    /** The key's length, without a copy. */
    public int keyLength() {
        return key.length;
    }

    /** The data's length, without a copy. */
    public int dataLength() {
        return data.length;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Entry e && Arrays.equals(key, e.key) && Arrays.equals(data, e.data);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key) * 31 + Arrays.hashCode(data);
    }

    /** Key and data in hex, the data cut after 32 bytes. */
    @Override
    public String toString() {
        HexFormat hex = HexFormat.of();
        return "Entry[key=" + hex.formatHex(key) + ", data=" + (data.length <= 32 ? hex.formatHex(data)
                : hex.formatHex(data, 0, 32) + "... (" + data.length + " bytes)") + "]";
    }
}
