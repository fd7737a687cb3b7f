package org.libtp.core.txn;

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
 * The test record manager's log record ({@link RecordType#SLOT_UPDATE}, id 100): slot
 * {@code slot} of file {@code fileId} changed from {@code before} to {@code after}. Its id is
 * frozen in the core's registry; its codec lives here, with {@link SlotStore}, and is registered
 * when this class is loaded ({@link #register()}), before a test logs, recovers or prints one.
 *
 * <pre>
 * payload (little-endian)
 *  u32 fileId | u32 slot | u32 n | before[n] | u32 m | after[m]
 * </pre>
 */
public record SlotUpdate(int fileId, int slot, byte[] before, byte[] after) implements LogRecord.Registered {

    /** The codec, registered with the core's record registry when this class is loaded. */
    static final RecordCodec<SlotUpdate> CODEC = new Codec();

    static {
        LogRecords.register(CODEC);
    }

    /** Makes sure the codec is registered (it is once this class is loaded). */
    public static void register() {
        // the static initializer did it
    }

    @Override
    public RecordType type() {
        return RecordType.SLOT_UPDATE;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof SlotUpdate)) {
            return false;
        }
        SlotUpdate u = (SlotUpdate) o;
        return u.fileId == fileId && u.slot == slot && Arrays.equals(u.before, before) && Arrays.equals(u.after, after);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * fileId + slot) + Arrays.hashCode(after);
    }

    @Override
    public String toString() {
        return "SlotUpdate[file " + fileId + " slot " + slot + ", " + before.length + " -> " + after.length + " bytes]";
    }

    private static final class Codec implements RecordCodec<SlotUpdate> {
        @Override
        public Set<RecordType> types() {
            return Set.of(RecordType.SLOT_UPDATE);
        }

        @Override
        public byte[] encode(SlotUpdate u) {
            return ByteBuffer.allocate(16 + u.before.length + u.after.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(u.fileId).putInt(u.slot).putInt(u.before.length).put(u.before)
                    .putInt(u.after.length).put(u.after).array();
        }

        @Override
        public SlotUpdate decode(RecordType type, ByteBuffer b) {
            return new SlotUpdate(b.getInt(), b.getInt(), RecordCodec.bytes(b), RecordCodec.bytes(b));
        }

        @Override
        public String print(SlotUpdate u) {
            return "file " + u.fileId + " slot " + u.slot + " before " + HexFormat.of().formatHex(u.before)
                    + " after " + HexFormat.of().formatHex(u.after);
        }
    }
}
