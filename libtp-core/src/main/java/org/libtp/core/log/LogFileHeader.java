package org.libtp.core.log;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The header of a log file {@code log.NNNNNNNNNN}: {@link #SIZE} bytes, little-endian; the first
 * record starts right after it.
 *
 * <pre>
 *  offset size field
 *  ------ ---- -------------------------------------------------------------
 *       0    8 magic       the ASCII bytes "LIBTPLOG"
 *       8    4 version     log format version ({@link #VERSION})
 *      12    4 headerSize  {@link #SIZE}
 *      16    4 fileNumber  the N of the file name, again (a renamed file is detected)
 *      20    4 reserved    0
 *      24    8 fileSize    the configured log file size when it was created
 *      32    8 logId       random id of the log, equal in all its files
 *      40   20 reserved    0
 *      60    4 crc         CRC32C of bytes [0, 60)
 * </pre>
 */
public final class LogFileHeader {
    public static final String MAGIC = "LIBTPLOG";
    /** 2: checkpoint records carry the dirty-page table; 3: every file but the last ends with a file-end record. */
    public static final int VERSION = 3;
    public static final int OFF_MAGIC = 0;
    public static final int OFF_VERSION = 8;
    public static final int OFF_HEADER_SIZE = 12;
    public static final int OFF_FILE_NUMBER = 16;
    public static final int OFF_FILE_SIZE = 24;
    public static final int OFF_LOG_ID = 32;
    public static final int OFF_CRC = 60;
    public static final int SIZE = 64;

    private LogFileHeader() {
    }

    static ByteBuffer encode(int fileNumber, long fileSize, long logId) {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(OFF_VERSION, VERSION);
        b.putInt(OFF_HEADER_SIZE, SIZE);
        b.putInt(OFF_FILE_NUMBER, fileNumber);
        b.putLong(OFF_FILE_SIZE, fileSize);
        b.putLong(OFF_LOG_ID, logId);
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, OFF_CRC);
        b.putInt(OFF_CRC, (int) c.getValue());
        b.position(0);
        return b;
    }

    /** Validates a header read from {@code name}; returns its log id. */
    static long validate(String name, ByteBuffer b, int expectedFileNumber) {
        b.order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(0, magic);
        String m = new String(magic, StandardCharsets.US_ASCII);
        if (!m.equals(MAGIC)) {
            throw new VersionMismatchException("log file " + name + " has magic '" + printable(m)
                    + "', expected '" + MAGIC + "': not a LibTP log file");
        }
        CRC32C c = new CRC32C();
        c.update(b.array(), 0, OFF_CRC);
        if ((int) c.getValue() != b.getInt(OFF_CRC)) {
            throw new CorruptionException("log file " + name + " has a damaged header (checksum mismatch)");
        }
        if (b.getInt(OFF_VERSION) != VERSION) {
            throw new VersionMismatchException("log file " + name + " has log format version "
                    + b.getInt(OFF_VERSION) + ", this LibTP reads version " + VERSION + ": open the environment "
                    + "once with the LibTP that wrote it and close it cleanly (every change is then in the data "
                    + "files), then start a new log with org.libtp.db.Environment.resetLog (libtp repair --reset-log); or "
                    + "dump and load");
        }
        if (b.getInt(OFF_HEADER_SIZE) != SIZE || b.getInt(OFF_FILE_NUMBER) != expectedFileNumber) {
            throw new CorruptionException("log file " + name + " says it is file number "
                    + b.getInt(OFF_FILE_NUMBER) + " with a " + b.getInt(OFF_HEADER_SIZE)
                    + "-byte header; expected file " + expectedFileNumber + ", " + SIZE + " bytes");
        }
        return b.getLong(OFF_LOG_ID);
    }

    private static String printable(String s) {
        StringBuilder o = new StringBuilder();
        for (char ch : s.toCharArray()) {
            o.append(ch >= 32 && ch < 127 ? ch : '?');
        }
        return o.toString();
    }

    /**
     * The size the newest log file in {@code storage}'s directory was created with (the log goes
     * on in it with that size), or 0 if there is none or its header cannot be read.
     */
    public static long lastFileSize(org.libtp.core.storage.Storage storage) {
        try {
            int last = storage.list("log.").stream().mapToInt(LogFileHeader::fileNumber).max().orElse(-1);
            if (last <= 0) {
                return 0;
            }
            try (org.libtp.core.storage.StorageFile f = storage.open(fileName(last), false)) {
                ByteBuffer b = ByteBuffer.allocate(SIZE);
                f.readFully(b, 0);
                validate(fileName(last), b, last);
                return b.getLong(OFF_FILE_SIZE);
            }
        } catch (java.io.IOException | RuntimeException unreadable) {
            return 0; // the open reports it, naming the file
        }
    }

    /** The file name of log file {@code n}. */
    public static String fileName(int n) {
        return String.format("log.%010d", n);
    }

    /** The number of a log file name, or -1 if it is not one. */
    public static int fileNumber(String name) {
        if (!name.matches("log\\.\\d{10}")) {
            return -1;
        }
        long n = Long.parseLong(name.substring(4));
        return n > 0 && n <= Integer.MAX_VALUE ? (int) n : -1;
    }
}
