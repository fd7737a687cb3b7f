package org.libtp.core.log;

/**
 * Log sequence numbers: {@code (fileNumber << 32) | offset} in a long — the log file and the byte
 * offset of a record in it. Totally ordered by plain {@code long} comparison and the same in every
 * process. {@link #NULL} (0) is "no record": file numbers start at 1.
 */
public final class Lsn {
    public static final long NULL = 0L;

    private Lsn() {
    }

    public static long of(int file, long offset) {
        if (file <= 0 || offset < 0 || offset > 0xFFFF_FFFFL) {
            throw new IllegalArgumentException("no LSN for file " + file + " offset " + offset);
        }
        return ((long) file << 32) | offset;
    }

    public static int file(long lsn) {
        return (int) (lsn >>> 32);
    }

    public static long offset(long lsn) {
        return lsn & 0xFFFF_FFFFL;
    }

    public static String toString(long lsn) {
        return lsn == NULL ? "(null)" : "(" + file(lsn) + "," + offset(lsn) + ")";
    }
}
