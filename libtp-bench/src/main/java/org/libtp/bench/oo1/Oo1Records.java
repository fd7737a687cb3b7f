package org.libtp.bench.oo1;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * The record formats the key-value engines store, so that each one moves the same bytes.
 * Integers are big-endian, so that byte order is numeric order for keys (ids and record
 * numbers are positive).
 *
 * <pre>
 * part: PART_BYTES = 30 (key: the id, 4 bytes)
 *   offset size field
 *        0    4 id
 *        4   10 type     (ASCII, e.g. "part-type3")
 *       14    4 x
 *       18    4 y
 *       22    8 build    (ms since the epoch)
 * connection: CONNECTION_BYTES = 22 (record number from 1; a B-tree key of 8 bytes where the
 * engine has no record-number access method)
 *        0    4 from
 *        4    4 to
 *        8   10 type     (ASCII, e.g. "conn-type7")
 *       18    4 length
 * index entry: INDEX_KEY_BYTES = 12, the key only (data empty)
 *        0    4 part id  (from in the from-index, to in the to-index)
 *        4    8 record number of the connection
 * </pre>
 */
public final class Oo1Records {
    public static final int PART_BYTES = 30;
    public static final int CONNECTION_BYTES = 22;
    public static final int INDEX_KEY_BYTES = 12;
    public static final int TYPE_CHARS = 10;
    public static final int OFF_P_ID = 0;
    public static final int OFF_P_TYPE = 4;
    public static final int OFF_P_X = 14;
    public static final int OFF_P_Y = 18;
    public static final int OFF_P_BUILD = 22;
    public static final int OFF_C_FROM = 0;
    public static final int OFF_C_TO = 4;
    public static final int OFF_C_TYPE = 8;
    public static final int OFF_C_LENGTH = 18;
    /** Index entries have no data; engines that need some store this. */
    public static final byte[] EMPTY = new byte[0];

    private Oo1Records() {
    }

    public static byte[] partKey(int id) {
        return new byte[] {(byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
    }

    public static int partKeyId(byte[] key) {
        check(key, 4, "part key");
        return ByteBuffer.wrap(key).getInt();
    }

    public static byte[] part(Oo1Store.Part p) {
        ByteBuffer b = ByteBuffer.allocate(PART_BYTES);
        b.putInt(OFF_P_ID, p.id());
        putType(b, OFF_P_TYPE, p.type());
        b.putInt(OFF_P_X, p.x());
        b.putInt(OFF_P_Y, p.y());
        b.putLong(OFF_P_BUILD, p.build());
        return b.array();
    }

    public static Oo1Store.Part part(byte[] r) {
        check(r, PART_BYTES, "part record");
        ByteBuffer b = ByteBuffer.wrap(r);
        return new Oo1Store.Part(b.getInt(OFF_P_ID), type(r, OFF_P_TYPE), b.getInt(OFF_P_X), b.getInt(OFF_P_Y),
                b.getLong(OFF_P_BUILD));
    }

    /** x of a part record seen through {@code b} from its position (zero-copy readers). */
    public static int partX(ByteBuffer b) {
        return b.getInt(b.position() + OFF_P_X);
    }

    public static int partY(ByteBuffer b) {
        return b.getInt(b.position() + OFF_P_Y);
    }

    public static byte[] connection(Oo1Store.Connection c) {
        ByteBuffer b = ByteBuffer.allocate(CONNECTION_BYTES);
        b.putInt(OFF_C_FROM, c.from());
        b.putInt(OFF_C_TO, c.to());
        putType(b, OFF_C_TYPE, c.type());
        b.putInt(OFF_C_LENGTH, c.length());
        return b.array();
    }

    public static Oo1Store.Connection connection(byte[] r) {
        check(r, CONNECTION_BYTES, "connection record");
        ByteBuffer b = ByteBuffer.wrap(r);
        return new Oo1Store.Connection(b.getInt(OFF_C_FROM), b.getInt(OFF_C_TO), type(r, OFF_C_TYPE),
                b.getInt(OFF_C_LENGTH));
    }

    public static int connectionFrom(byte[] r) {
        check(r, CONNECTION_BYTES, "connection record");
        return ByteBuffer.wrap(r).getInt(OFF_C_FROM);
    }

    public static int connectionTo(byte[] r) {
        check(r, CONNECTION_BYTES, "connection record");
        return ByteBuffer.wrap(r).getInt(OFF_C_TO);
    }

    /** A record number as an 8-byte key. */
    public static byte[] recnoKey(long recno) {
        return ByteBuffer.allocate(8).putLong(0, recno).array();
    }

    public static long recnoKeyValue(byte[] key) {
        check(key, 8, "record-number key");
        return ByteBuffer.wrap(key).getLong();
    }

    /** Index key: part id then record number. */
    public static byte[] indexKey(int partId, long recno) {
        return ByteBuffer.allocate(INDEX_KEY_BYTES).putInt(0, partId).putLong(4, recno).array();
    }

    public static int indexKeyPart(byte[] key) {
        check(key, INDEX_KEY_BYTES, "index key");
        return ByteBuffer.wrap(key).getInt(0);
    }

    public static long indexKeyRecno(byte[] key) {
        check(key, INDEX_KEY_BYTES, "index key");
        return ByteBuffer.wrap(key).getLong(4);
    }

    private static void putType(ByteBuffer b, int off, String type) {
        byte[] t = type.getBytes(StandardCharsets.US_ASCII);
        if (t.length != TYPE_CHARS) {
            throw new IllegalArgumentException("OO1 type '" + type + "' must be " + TYPE_CHARS + " ASCII characters");
        }
        b.put(off, t);
    }

    private static String type(byte[] r, int off) {
        return new String(r, off, TYPE_CHARS, StandardCharsets.US_ASCII);
    }

    private static void check(byte[] r, int len, String what) {
        if (r == null || r.length != len) {
            throw new IllegalStateException("OO1 " + what + " of " + (r == null ? "null" : r.length + " bytes")
                    + ", expected " + len);
        }
    }
}
