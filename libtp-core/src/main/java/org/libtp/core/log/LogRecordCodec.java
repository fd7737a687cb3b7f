package org.libtp.core.log;

import org.libtp.core.CorruptionException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.zip.CRC32C;

/**
 * Layout of one log record: a 32-byte header and the payload. Little-endian (log files are
 * portable between machines).
 *
 * <pre>
 *  offset size field
 *  ------ ---- ---------------------------------------------------------------
 *       0    4 length    header + payload bytes; 0 marks the end of the records in a
 *                        (zero-preallocated) log file
 *       4    4 crc       CRC32C of bytes [8, length)
 *       8    4 type      record type id
 *      12    4 reserved  0
 *      16    8 txnId     transaction id, 0 for none
 *      24    8 prevLsn   previous record of the same transaction, 0 for none
 *      32    - payload
 * </pre>
 *
 * <p>Every log file but the last ends with a file-end record ({@link #FILE_END_TYPE}, no
 * transaction, payload the number of the next file), written and forced before the next file is
 * named: a file that is not the last and whose records stop without one lost a stretch of its
 * records (zeroed, damaged), which a reader reports instead of moving on to the next file. A file
 * end record in the last file (a switch cut short before the next file was named) ends the log
 * there; the next append writes over it.
 */
public final class LogRecordCodec {
    public static final int OFF_LENGTH = 0;
    public static final int OFF_CRC = 4;
    public static final int OFF_TYPE = 8;
    public static final int OFF_RESERVED = 12;
    public static final int OFF_TXN = 16;
    public static final int OFF_PREV_LSN = 24;
    public static final int HEADER_SIZE = 32;
    /** Type id of the file-end record (the log manager's own; in the frozen registry as LOG_FILE_END). */
    public static final int FILE_END_TYPE = 20;
    /** Bytes of a file-end record: header and a u32 next file number. Every file keeps room for one. */
    public static final int FILE_END_SIZE = HEADER_SIZE + 4;
    /** Largest payload a record may carry (a record never spans log files). */
    public static final int MAX_PAYLOAD = 64 * 1024 * 1024;

    private LogRecordCodec() {
    }

    /** Encodes a record into a new little-endian buffer (position 0, limit = length). */
    public static ByteBuffer encode(int type, long txnId, long prevLsn, byte[] payload) {
        ByteBuffer b = ByteBuffer.allocate(HEADER_SIZE + payload.length).order(ByteOrder.LITTLE_ENDIAN);
        b.putInt(OFF_LENGTH, HEADER_SIZE + payload.length);
        b.putInt(OFF_TYPE, type);
        b.putInt(OFF_RESERVED, 0);
        b.putLong(OFF_TXN, txnId);
        b.putLong(OFF_PREV_LSN, prevLsn);
        b.position(HEADER_SIZE);
        b.put(payload);
        b.putInt(OFF_CRC, crc(b.array(), 0, HEADER_SIZE + payload.length));
        b.position(0);
        return b;
    }

    /** The file-end record of a file followed by file {@code nextFile}. */
    static ByteBuffer fileEnd(int nextFile) {
        byte[] payload = new byte[4];
        ByteBuffer.wrap(payload).order(ByteOrder.LITTLE_ENDIAN).putInt(nextFile);
        return encode(FILE_END_TYPE, 0, 0, payload);
    }

    /** CRC32C of {@code record[off+8, off+length)}. */
    static int crc(byte[] record, int off, int length) {
        CRC32C c = new CRC32C();
        c.update(record, off + OFF_TYPE, length - OFF_TYPE);
        return (int) c.getValue();
    }

    /**
     * Decodes the record in {@code bytes[0, length)} found at {@code lsn} of {@code file}; the
     * readers check the length against the file before, and it is checked here again so that no
     * image (a salvage tool's, a cut copy) can make the decoder index out of the bytes.
     *
     * @throws CorruptionException on a length out of range or a checksum mismatch
     */
    static LogEntry decode(String file, long lsn, byte[] bytes) {
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        int length = bytes.length < HEADER_SIZE ? -1 : b.getInt(OFF_LENGTH);
        if (length < HEADER_SIZE || length > bytes.length) {
            throw new CorruptionException("log record at LSN " + Lsn.toString(lsn) + " in " + file + " is cut short or has "
                    + "a damaged length field (" + (length < 0 && bytes.length < HEADER_SIZE ? "only " + bytes.length
                    + " bytes" : "length " + length + ", " + bytes.length + " bytes there") + "); run recovery, or "
                    + "restore the log from a backup");
        }
        int stored = b.getInt(OFF_CRC);
        int actual = crc(bytes, 0, length);
        if (stored != actual) {
            throw new CorruptionException("log record at LSN " + Lsn.toString(lsn) + " in " + file
                    + " fails its checksum (stored " + Integer.toHexString(stored) + ", computed "
                    + Integer.toHexString(actual) + ")");
        }
        byte[] payload = new byte[length - HEADER_SIZE];
        System.arraycopy(bytes, HEADER_SIZE, payload, 0, payload.length);
        return new LogEntry(lsn, b.getInt(OFF_TYPE), b.getLong(OFF_TXN), b.getLong(OFF_PREV_LSN), payload);
    }
}
