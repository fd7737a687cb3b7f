package org.libtp.core.log.record;

import java.nio.ByteBuffer;

/**
 * The codec and printer of a record type that a record manager outside the core owns (the
 * B-tree's leaf records, a test's record manager): registered with
 * {@link LogRecords#register(RecordCodec)} by that manager before it logs, redoes or prints one.
 * Its type id stays in the core's frozen registry ({@link RecordType}), so no two managers can
 * claim one id and no id is ever reused.
 *
 * @param <R> the record class
 */
public interface RecordCodec<R extends LogRecord.Registered> {

    /** The types this codec encodes and decodes (all owned by one manager). */
    java.util.Set<RecordType> types();

    /** The payload of {@code r} (little-endian, as every payload). */
    byte[] encode(R r);

    /**
     * Reads a record of {@code type} from its whole payload (little-endian); may throw
     * {@link java.nio.BufferUnderflowException}, {@link IllegalArgumentException} or
     * {@link NegativeArraySizeException} on a malformed payload, which the caller reports as
     * corruption naming the LSN.
     */
    R decode(RecordType type, ByteBuffer payload);

    /** One line for {@code libtp printlog}, after the LSN, transaction and type. */
    String print(R r);

    /** Reads a length-prefixed byte array (a 4-byte length, then the bytes). */
    static byte[] bytes(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new java.nio.BufferUnderflowException();
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }
}
