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
 * A B-tree leaf change, the B-tree's log record (types {@link RecordType#BTREE_INSERT} and
 * {@link RecordType#BTREE_DELETE}): (key, data) inserted ({@code insert}) into or deleted from
 * slot {@code slot} of leaf {@code pageNo}. Redo repeats it at the slot if the page LSN is older;
 * undo is logical: the key is looked for on that page and, since B-link splits move keys only to
 * the right, on its right siblings ({@link BtreeRecords}).
 *
 * <pre>
 * payload (little-endian)
 *  offset  size  field
 *       0     4  fileId
 *       4     8  pageNo
 *      12     4  slot
 *      16     4  key length K
 *      20     K  key
 *    20+K     4  data length D
 *    24+K     D  data
 * </pre>
 */
record BtreeLeafRecord(boolean insert, int fileId, long pageNo, int slot, byte[] key, byte[] data)
        implements LogRecord.Registered {

    /** The codec, registered with the core's record registry when the B-tree is first used. */
    static final RecordCodec<BtreeLeafRecord> CODEC = new Codec();

    static {
        LogRecords.register(CODEC);
    }

    /** Makes sure the codec is registered (it is once this class is loaded). */
    static void register() {
        // the static initializer did it
    }

    @Override
    public RecordType type() {
        return insert ? RecordType.BTREE_INSERT : RecordType.BTREE_DELETE;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof BtreeLeafRecord)) {
            return false;
        }
        BtreeLeafRecord b = (BtreeLeafRecord) o;
        return b.insert == insert && b.fileId == fileId && b.pageNo == pageNo && b.slot == slot
                && Arrays.equals(b.key, key) && Arrays.equals(b.data, data);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * (31 * fileId + Long.hashCode(pageNo)) + slot) + Arrays.hashCode(key);
    }

    @Override
    public String toString() {
        return "BtreeLeaf[" + (insert ? "insert" : "delete") + " file " + fileId + " page " + pageNo + " slot " + slot
                + ", key " + key.length + " B, data " + data.length + " B]";
    }

    private static final class Codec implements RecordCodec<BtreeLeafRecord> {
        @Override
        public Set<RecordType> types() {
            return Set.of(RecordType.BTREE_INSERT, RecordType.BTREE_DELETE);
        }

        @Override
        public byte[] encode(BtreeLeafRecord t) {
            return ByteBuffer.allocate(24 + t.key.length + t.data.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(t.fileId).putLong(t.pageNo).putInt(t.slot).putInt(t.key.length).put(t.key)
                    .putInt(t.data.length).put(t.data).array();
        }

        @Override
        public BtreeLeafRecord decode(RecordType type, ByteBuffer b) {
            return new BtreeLeafRecord(type == RecordType.BTREE_INSERT, b.getInt(), b.getLong(), b.getInt(),
                    RecordCodec.bytes(b), RecordCodec.bytes(b));
        }

        @Override
        public String print(BtreeLeafRecord b) {
            return "file " + b.fileId + " page " + b.pageNo + " slot " + b.slot + " key "
                    + HexFormat.of().formatHex(b.key) + " data " + b.data.length + " bytes";
        }
    }
}
