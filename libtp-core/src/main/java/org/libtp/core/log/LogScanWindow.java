package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.OFF_WRITTEN_LSN;

import org.libtp.core.CorruptionException;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * A forward scan's window on one log file: records are cut out of large sequential reads (64 KiB
 * at first, doubling to 1 MiB, so a scan that stops after a few records reads little) instead of
 * two {@code pread}s each, which made recovery after a crash take seconds of system
 * calls for a checkpoint interval of log. Only a fast path: a record it cannot return whole and
 * checked (not yet written to its file, longer than the window, past the file's end, a zero or
 * impossible length, a bad checksum) is read the ordinary way, which reports it as before.
 */
final class LogScanWindow {
    static final int SIZE = 1 << 20;
    private static final int FIRST = 64 * 1024;

    private final LogFiles files;
    private final Memory mem;
    private byte[] buf = new byte[0];
    private int file = -1;
    private String name;
    private long base;
    private int len;

    LogScanWindow(LogFiles files, Memory mem) {
        this.files = files;
        this.mem = mem;
    }

    /** The record at {@code lsn}, or null: read it the ordinary way. */
    LogEntry read(long lsn) {
        try {
            long written = mem.getLongVolatile(OFF_WRITTEN_LSN);
            if (lsn + LogRecordCodec.HEADER_SIZE > written) {
                return null; // still (partly) in the shared buffer only
            }
            int n = Lsn.file(lsn);
            long off = Lsn.offset(lsn);
            if (n != file || off < base || off + LogRecordCodec.HEADER_SIZE > base + len) {
                if (!fill(n, off)) {
                    return null;
                }
            }
            int length = intAt((int) (off - base) + LogRecordCodec.OFF_LENGTH);
            if (length < LogRecordCodec.HEADER_SIZE || lsn + length > written) {
                return null;
            }
            if (off + length > base + len && (!fill(n, off) || length > len)) {
                return null;
            }
            int at = (int) (off - base);
            return LogRecordCodec.decode(name, lsn, Arrays.copyOfRange(buf, at, at + length));
        } catch (IOException | CorruptionException e) {
            return null; // the ordinary read says what is wrong
        }
    }

    private boolean fill(int n, long off) throws IOException {
        StorageFile f = files.file(n);
        long size = files.sizeOf(n);
        if (buf.length < SIZE) {
            buf = new byte[buf.length == 0 ? FIRST : 2 * buf.length];
        }
        int want = (int) Math.min(buf.length, size - off);
        if (want < LogRecordCodec.HEADER_SIZE) {
            return false;
        }
        f.readFully(ByteBuffer.wrap(buf, 0, want), off);
        file = n;
        name = f.name();
        base = off;
        len = want;
        return true;
    }

    private int intAt(int i) { // little-endian, as the record header is
        return buf[i] & 0xFF | (buf[i + 1] & 0xFF) << 8 | (buf[i + 2] & 0xFF) << 16 | (buf[i + 3] & 0xFF) << 24;
    }
}
