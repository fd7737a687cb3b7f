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
 * A B-tree leaf update in place (type {@link RecordType#BTREE_REPLACE}): the data of {@code key}
 * at slot {@code slot} of leaf {@code pageNo} replaced, {@code before} by {@code after}, both of
 * one length (a value of the same size, or an overflow reference). Redo overwrites the data at
 * the slot if the page LSN is older; undo finds the key as a {@link BtreeLeafRecord} insert's
 * undo does (the page, then its right siblings) and writes {@code before} back, logging the
 * inverse replace as its compensation ({@link BtreeRecords}).
 *
 * <pre>
 * payload (little-endian)
 *  offset  size  field
 *       0     4  fileId
 *       4     8  pageNo
 *      12     4  slot
 *      16     4  key length K
 *      20     K  key
 *    20+K     4  data length D (before and after)
 *    24+K     D  before
 *  24+K+D     D  after
 * </pre>
 */
record BtreeReplaceRecord(int fileId, long pageNo, int slot, byte[] key, byte[] before, byte[] after)
        implements LogRecord.Registered {

    /** The codec, registered with the core's record registry when the B-tree is first used. */
    static final RecordCodec<BtreeReplaceRecord> CODEC = new Codec();

    static {
        LogRecords.register(CODEC);
    }

    BtreeReplaceRecord {
        if (before.length != after.length) {
            throw new IllegalArgumentException("a replace in place keeps the data length: " + before.length + " != " + after.length);
        }
    }

    /** Makes sure the codec is registered (it is once this class is loaded). */
    static void register() {
        // the static initializer did it
    }

    /** The compensation of this replace: the inverse one, at the slot where undo found the key. */
    BtreeReplaceRecord inverse(long page, int at) {
        return new BtreeReplaceRecord(fileId, page, at, key, after, before);
    }

    @Override
    public RecordType type() {
        return RecordType.BTREE_REPLACE;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof BtreeReplaceRecord b && b.fileId == fileId && b.pageNo == pageNo && b.slot == slot
                && Arrays.equals(b.key, key) && Arrays.equals(b.before, before) && Arrays.equals(b.after, after);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * fileId + Long.hashCode(pageNo)) + slot) + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "BtreeReplace[file " + fileId + " page " + pageNo + " slot " + slot + ", key " + key.length + " B, data "
                + after.length + " B]";
    }

    private static final class Codec implements RecordCodec<BtreeReplaceRecord> {
        @Override
        public Set<RecordType> types() {
            return Set.of(RecordType.BTREE_REPLACE);
        }

        @Override
        public byte[] encode(BtreeReplaceRecord t) {
            return ByteBuffer.allocate(24 + t.key.length + 2 * t.after.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(t.fileId).putLong(t.pageNo).putInt(t.slot).putInt(t.key.length).put(t.key)
                    .putInt(t.after.length).put(t.before).put(t.after).array();
        }

        @Override
        public BtreeReplaceRecord decode(RecordType type, ByteBuffer b) {
            int fileId = b.getInt();
            long pageNo = b.getLong();
            int slot = b.getInt();
            byte[] key = RecordCodec.bytes(b);
            int d = b.getInt();
            if (d < 0 || d > b.remaining() / 2) {
                throw new java.nio.BufferUnderflowException();
            }
            byte[] before = new byte[d];
            byte[] after = new byte[d];
            b.get(before).get(after);
            return new BtreeReplaceRecord(fileId, pageNo, slot, key, before, after);
        }

        @Override
        public String print(BtreeReplaceRecord b) {
            return "file " + b.fileId + " page " + b.pageNo + " slot " + b.slot + " key "
                    + HexFormat.of().formatHex(b.key) + " data " + b.after.length + " bytes";
        }
    }
}
