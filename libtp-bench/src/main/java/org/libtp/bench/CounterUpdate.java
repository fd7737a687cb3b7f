package org.libtp.bench;

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
 * The commit benchmark's log record ({@link RecordType#COUNTER_UPDATE}, id 101, owned by
 * libtp-bench): counter {@code counter} of {@link CounterStore} changed from {@code before} to
 * {@code after}; both images start with the 8-byte little-endian value, the after image is
 * padded with zeros to the benchmark's record size. Its id is frozen in the core's registry; its
 * codec lives here and is registered when this class is loaded, before {@link CounterStore}
 * logs or recovers one.
 *
 * <pre>
 * payload (little-endian), the layout of the test record manager's SLOT_UPDATE
 *  u32 fileId | u32 counter | u32 n | before[n] | u32 m | after[m]
 * </pre>
 */
record CounterUpdate(int fileId, int counter, byte[] before, byte[] after) implements LogRecord.Registered {

    /** Payload bytes besides the two images: fileId, counter and the two lengths. */
    static final int FIXED_BYTES = 16;

    /** The codec, registered with the core's record registry when this class is loaded. */
    static final RecordCodec<CounterUpdate> CODEC = new Codec();

    static {
        LogRecords.register(CODEC);
    }

    /** Makes sure the codec is registered (it is once this class is loaded). */
    static void register() {
        // the static initializer did it
    }

    @Override
    public RecordType type() {
        return RecordType.COUNTER_UPDATE;
    }

    @Override
    public boolean equals(Object o) {
        if (!(o instanceof CounterUpdate)) {
            return false;
        }
        CounterUpdate u = (CounterUpdate) o;
        return u.fileId == fileId && u.counter == counter && Arrays.equals(u.before, before)
                && Arrays.equals(u.after, after);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * fileId + counter) + Arrays.hashCode(after);
    }

    @Override
    public String toString() {
        return "CounterUpdate[file " + fileId + " counter " + counter + ", " + before.length + " -> " + after.length
                + " bytes]";
    }

    private static final class Codec implements RecordCodec<CounterUpdate> {
        @Override
        public Set<RecordType> types() {
            return Set.of(RecordType.COUNTER_UPDATE);
        }

        @Override
        public byte[] encode(CounterUpdate u) {
            return ByteBuffer.allocate(FIXED_BYTES + u.before.length + u.after.length).order(ByteOrder.LITTLE_ENDIAN)
                    .putInt(u.fileId).putInt(u.counter).putInt(u.before.length).put(u.before)
                    .putInt(u.after.length).put(u.after).array();
        }

        @Override
        public CounterUpdate decode(RecordType type, ByteBuffer b) {
            return new CounterUpdate(b.getInt(), b.getInt(), RecordCodec.bytes(b), RecordCodec.bytes(b));
        }

        @Override
        public String print(CounterUpdate u) {
            return "file " + u.fileId + " counter " + u.counter + " before " + HexFormat.of().formatHex(u.before)
                    + " after " + u.after.length + " bytes, value "
                    + (u.after.length >= 8 ? ByteBuffer.wrap(u.after).order(ByteOrder.LITTLE_ENDIAN).getLong(0) : "?");
        }
    }
}
