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

    /**
     * Parses what {@link #toString(long)} writes: {@code (file,offset)}, parentheses optional, or
     * {@code (null)}.
     *
     * @throws IllegalArgumentException if {@code s} is not an LSN
     */
    public static long parse(String s) {
        String t = s.trim();
        if (t.equals("(null)")) {
            return NULL;
        }
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("^\\(?\\s*(\\d{1,10})\\s*,\\s*(\\d{1,10})\\s*\\)?$").matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + s + "' is not an LSN: file,offset, e.g. (3,4096)");
        }
        return of(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
    }
}
