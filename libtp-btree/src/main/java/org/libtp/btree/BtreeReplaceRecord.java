package org.libtp.btree;

import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordCodec;
import org.libtp.core.log.record.RecordType;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * A B-tree leaf update in place (type {@link RecordType#BTREE_REPLACE}): the stored data of
 * {@code key} at slot {@code slot} of leaf {@code pageNo}, {@code length} bytes before and after,
 * changed in the range {@code [offset, offset + n)} only: {@code before} became {@code after}
 * (the bytes that differ, from the first to the last: a balance's 8 bytes of a 100-byte record,
 * not the record twice). Redo writes {@code after} at that offset of the slot's data if the page
 * LSN is older; undo finds the key as a {@link BtreeLeafRecord} insert's undo does (the page,
 * then its right siblings) and writes {@code before} back, logging the inverse replace as its
 * compensation ({@link BtreeRecords}).
 *
 * <pre>
 * payload (little-endian)
 *  offset  size  field
 *       0     4  fileId
 *       4     8  pageNo
 *      12     4  slot
 *      16     4  key length K
 *      20     K  key
 *    20+K     4  length     of the stored data, before and after
 *    24+K     4  offset     of the changed range in the data
 *    28+K     4  n          bytes in the range
 *    32+K     n  before
 *  32+K+n     n  after
 * </pre>
 */
record BtreeReplaceRecord(int fileId, long pageNo, int slot, byte[] key, int length, int offset, byte[] before,
                          byte[] after) implements LogRecord.Registered {

    /** The codec, registered with the core's record registry when the B-tree is first used. */
    static final RecordCodec<BtreeReplaceRecord> CODEC = new Codec();

    static {
        LogRecords.register(CODEC);
    }

    BtreeReplaceRecord {
        if (before.length != after.length || offset < 0 || length < 0 || offset > length - before.length) {
            throw new IllegalArgumentException("a replace of bytes [" + offset + ", " + offset + " + " + before.length
                    + ") of " + length + " bytes (after: " + after.length + ")");
        }
    }

    /**
     * The replace of {@code before} by {@code after} (stored data of one length): only the range
     * from the first to the last byte that differ.
     */
    static BtreeReplaceRecord of(int fileId, long pageNo, int slot, byte[] key, byte[] before, byte[] after) {
        int from = Arrays.mismatch(before, after);
        if (from < 0) {
            return new BtreeReplaceRecord(fileId, pageNo, slot, key, before.length, 0, new byte[0], new byte[0]);
        }
        int to = before.length;
        while (to > from && before[to - 1] == after[to - 1]) {
            to--;
        }
        return new BtreeReplaceRecord(fileId, pageNo, slot, key, before.length, from,
                Arrays.copyOfRange(before, from, to), Arrays.copyOfRange(after, from, to));
    }

    /** Makes sure the codec is registered (it is once this class is loaded). */
    static void register() {
        // the static initializer did it
    }

    @Override
    public RecordType type() {
        return RecordType.BTREE_REPLACE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BtreeReplaceRecord b && b.fileId == fileId && b.pageNo == pageNo && b.slot == slot
                && b.length == length && b.offset == offset && Arrays.equals(b.key, key)
                && Arrays.equals(b.before, before) && Arrays.equals(b.after, after);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * fileId + Long.hashCode(pageNo)) + slot) + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "BtreeReplace[file " + fileId + " page " + pageNo + " slot " + slot + ", key " + key.length + " B, bytes "
                + offset + ".." + (offset + after.length) + " of " + length + "]";
    }

    private static final class Codec implements RecordCodec<BtreeReplaceRecord> {
        @Override
        public Set<RecordType> types() {
            return Set.of(RecordType.BTREE_REPLACE);
        }

        @Override
        public byte[] encode(BtreeReplaceRecord t) {
            return ByteBuffer.allocate(32 + t.key.length + 2 * t.after.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(t.fileId).putLong(t.pageNo).putInt(t.slot).putInt(t.key.length).put(t.key)
                    .putInt(t.length).putInt(t.offset).putInt(t.after.length).put(t.before).put(t.after).array();
        }

        @Override
        public BtreeReplaceRecord decode(RecordType type, ByteBuffer b) {
            int fileId = b.getInt();
            long pageNo = b.getLong();
            int slot = b.getInt();
            byte[] key = RecordCodec.bytes(b);
            int length = b.getInt();
            int offset = b.getInt();
            int n = b.getInt();
            if (n < 0 || n > b.remaining() / 2) {
                throw new java.nio.BufferUnderflowException();
            }
            byte[] before = new byte[n];
            byte[] after = new byte[n];
            b.get(before).get(after);
            return new BtreeReplaceRecord(fileId, pageNo, slot, key, length, offset, before, after);
        }

        @Override
        public String print(BtreeReplaceRecord b) {
            return "file " + b.fileId + " page " + b.pageNo + " slot " + b.slot + " key "
                    + HexFormat.of().formatHex(b.key) + " bytes " + b.offset + ".." + (b.offset + b.after.length)
                    + " of " + b.length;
        }
    }
}
