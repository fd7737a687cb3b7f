package org.libtp.core.log;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The log's anchor, file {@code __libtp.anchor} in the environment directory: which log the
 * environment's data files belong to and how far that log is known to reach durably. Data pages
 * carry LSNs of this log; if its files were deleted or cut short, a new log starting again at
 * (1, 64) would have LSNs lower than the pages' and redo would skip every later change (the
 * loss is silent). The anchor lets the log manager refuse that at open instead.
 *
 * <pre>
 *  offset size field
 *  ------ ---- -------------------------------------------------------------
 *       0    8 magic       the ASCII bytes "LIBTPANC"
 *       8    4 version     anchor format version ({@link #VERSION})
 *      12    4 size        {@link #SIZE}
 *      16    8 envId       random id of the environment, fixed at its creation
 *      24    8 logId       id of the log (equal to every log file header's logId)
 *      32    8 minEndLsn   the log reaches at least this LSN: the end of a checkpoint
 *                          record known forced (or 0: no record was ever forced, the
 *                          environment holds no logged data)
 *      40    8 created     creation time, epoch milliseconds
 *      48    8 checkpoint  LSN of the checkpoint record that ends at minEndLsn, or 0 if
 *                          unknown: where recovery starts looking (added in version 1's
 *                          reserved bytes; an older anchor has 0 there)
 *      56    4 reserved    0
 *      60    4 crc         CRC32C of bytes [0, 60)
 * </pre>
 *
 * Replaced atomically (written aside, forced, renamed, directory forced): a crash leaves the old
 * anchor or the new one. {@code minEndLsn} only grows, and only to LSNs already forced, so a log
 * that was merely torn by a crash always reaches it.
 */
public record LogAnchor(long envId, long logId, long minEndLsn, long createdMillis, long checkpointLsn) {
    public static final String FILE = "__libtp.anchor";
    public static final String MAGIC = "LIBTPANC";
    public static final int VERSION = 1;
    public static final int OFF_MAGIC = 0;
    public static final int OFF_VERSION = 8;
    public static final int OFF_SIZE = 12;
    public static final int OFF_ENV_ID = 16;
    public static final int OFF_LOG_ID = 24;
    public static final int OFF_MIN_END = 32;
    public static final int OFF_CREATED = 40;
    public static final int OFF_CHECKPOINT = 48;
    public static final int OFF_CRC = 60;
    public static final int SIZE = 64;

    /** An anchor without a known checkpoint (a new log). */
    public LogAnchor(long envId, long logId, long minEndLsn, long createdMillis) {
        this(envId, logId, minEndLsn, createdMillis, 0);
    }

    /**
     * The same anchor with {@code minEndLsn} raised to {@code lsn}, and no checkpoint hint (a
     * copy of the log, as a backup's, may not hold the checkpoint the original anchor named).
     */
    public LogAnchor withMinEnd(long lsn) {
        return new LogAnchor(envId, logId, Math.max(minEndLsn, lsn), createdMillis, 0);
    }

    public ByteBuffer encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0, MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(OFF_VERSION, VERSION);
        b.putInt(OFF_SIZE, SIZE);
        b.putLong(OFF_ENV_ID, envId);
        b.putLong(OFF_LOG_ID, logId);
        b.putLong(OFF_MIN_END, minEndLsn);
        b.putLong(OFF_CREATED, createdMillis);
        b.putLong(OFF_CHECKPOINT, checkpointLsn);
        b.putInt(OFF_CRC, crc(b.array()));
        b.position(0);
        return b;
    }

    /** Decodes the anchor read from {@code where} (named in errors). */
    public static LogAnchor decode(String where, byte[] bytes) {
        if (bytes.length < SIZE) {
            throw new CorruptionException("log anchor " + where + " is " + bytes.length + " bytes, shorter than its "
                    + SIZE + "-byte format: it was truncated. " + RESTORE);
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        String magic = new String(bytes, 0, 8, StandardCharsets.US_ASCII);
        if (!magic.equals(MAGIC)) {
            throw new CorruptionException("log anchor " + where + " has magic '" + printable(magic) + "', expected '"
                    + MAGIC + "': it was overwritten. " + RESTORE);
        }
        if (b.getInt(OFF_CRC) != crc(bytes)) {
            throw new CorruptionException("log anchor " + where + " is damaged (checksum mismatch). " + RESTORE);
        }
        if (b.getInt(OFF_VERSION) != VERSION || b.getInt(OFF_SIZE) != SIZE) {
            throw new VersionMismatchException("log anchor " + where + " has format version " + b.getInt(OFF_VERSION)
                    + ", this LibTP reads version " + VERSION);
        }
        return new LogAnchor(b.getLong(OFF_ENV_ID), b.getLong(OFF_LOG_ID), b.getLong(OFF_MIN_END), b.getLong(OFF_CREATED),
                b.getLong(OFF_CHECKPOINT));
    }

    /** The anchor of the environment in {@code storage}'s directory, or null if it has none. */
    public static LogAnchor read(org.libtp.core.storage.Storage storage) throws java.io.IOException {
        if (!storage.exists(FILE)) {
            return null;
        }
        try (org.libtp.core.storage.StorageFile f = storage.open(FILE, false)) {
            byte[] b = new byte[(int) Math.min(f.size(), 4096)];
            ByteBuffer bb = ByteBuffer.wrap(b);
            while (bb.hasRemaining() && f.read(bb, bb.position()) > 0) {
                // until the end of the file or of the buffer
            }
            return decode(storage.directory().resolve(FILE).toString(), b);
        }
    }

    /** What to do about a damaged or missing anchor. */
    static final String RESTORE = "Restore the environment directory from a backup; or, accepting that changes of "
            + "transactions the log no longer holds may be incomplete, reset the data files' LSNs and start a new "
            + "log with org.libtp.db.Environment.resetLog (the command line: libtp repair --reset-log DIR)";

    private static int crc(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, OFF_CRC);
        return (int) c.getValue();
    }

    private static String printable(String s) {
        StringBuilder o = new StringBuilder();
        for (char ch : s.toCharArray()) {
            o.append(ch >= 32 && ch < 127 ? ch : '?');
        }
        return o.toString();
    }
}
