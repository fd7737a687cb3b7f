package org.libtp.core.buffer;

import org.libtp.core.memory.Memory;

import java.util.zip.CRC32C;

/**
 * The header every page of a data file starts with, owned by the buffer manager (the access
 * method owns the type byte, the reserved bytes and everything after {@link #SIZE}).
 * Little-endian on disk as in memory (the pool is native order; x86_64 and aarch64 are both
 * little-endian, checked at open).
 *
 * <pre>
 *  offset size field
 *  ------ ---- -----------------------------------------------------------------
 *       0    4 checksum  CRC32C of bytes [4, pageSize), written when the page is
 *                        written to its file, checked when it is read back
 *       4    2 magic     0x5054 ("TP")
 *       6    1 version   page format version ({@link #VERSION})
 *       7    1 type      the access method's page type (0 = not formatted)
 *       8    8 lsn       LSN of the last logged change applied to the page; redo
 *                        skips a record whose LSN is not newer (paper 3.2.2)
 *      16    8 pageNo    the page's own number: a page written to the wrong place
 *                        is caught on read
 *      24    8 reserved  the access method's (level, flags...)
 *      32      data
 * </pre>
 *
 * A page that is all zeros is a page that was never written (a file extended past it, or a page
 * allocated but not yet flushed): it reads as a fresh page, as in Berkeley DB and PostgreSQL.
 */
public final class PageHeader {
    public static final int OFF_CHECKSUM = 0;
    public static final int OFF_MAGIC = 4;
    public static final int OFF_VERSION = 6;
    public static final int OFF_TYPE = 7;
    public static final int OFF_LSN = 8;
    public static final int OFF_PAGE_NO = 16;
    public static final int OFF_RESERVED = 24;
    public static final int SIZE = 32;
    public static final short MAGIC = 0x5054;
    public static final byte VERSION = 1;

    private PageHeader() {
    }

    /** CRC32C of {@code page[4, length)}. */
    static int checksum(byte[] page, int length) {
        CRC32C crc = new CRC32C();
        crc.update(page, OFF_CHECKSUM + 4, length - 4);
        return (int) crc.getValue();
    }

    /** Stamps magic, version, page number and checksum into an image about to be written. */
    static void seal(byte[] page, int length, long pageNo) {
        putShort(page, OFF_MAGIC, MAGIC);
        page[OFF_VERSION] = VERSION;
        putLong(page, OFF_PAGE_NO, pageNo);
        putInt(page, OFF_CHECKSUM, checksum(page, length));
    }

    /**
     * Checks an image read from a file. Returns null if it is good (or all zeros), else what is
     * wrong with it.
     */
    static String check(byte[] page, int length, long pageNo) {
        if (isZero(page, length)) {
            return null;
        }
        int stored = getInt(page, OFF_CHECKSUM);
        int actual = checksum(page, length);
        if (stored != actual) {
            return String.format("checksum mismatch (stored %08x, computed %08x)", stored, actual);
        }
        if (getShort(page, OFF_MAGIC) != MAGIC) {
            return String.format("bad page magic %04x", getShort(page, OFF_MAGIC) & 0xFFFF);
        }
        if (page[OFF_VERSION] != VERSION) {
            return "page format version " + page[OFF_VERSION] + ", this LibTP reads version " + VERSION;
        }
        long self = getLong(page, OFF_PAGE_NO);
        if (self != pageNo) {
            return "page claims to be page " + self + " (a misplaced write)";
        }
        return null;
    }

    static boolean isZero(byte[] page, int length) {
        for (int i = 0; i < length; i++) {
            if (page[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** The page LSN of the page at {@code base} of {@code mem}. */
    static long lsn(Memory mem, long base) {
        return mem.getLong(base + OFF_LSN);
    }

    static int getInt(byte[] b, int off) {
        return (b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8 | (b[off + 2] & 0xFF) << 16 | (b[off + 3] & 0xFF) << 24;
    }

    static short getShort(byte[] b, int off) {
        return (short) ((b[off] & 0xFF) | (b[off + 1] & 0xFF) << 8);
    }

    static long getLong(byte[] b, int off) {
        return (getInt(b, off) & 0xFFFF_FFFFL) | (long) getInt(b, off + 4) << 32;
    }

    static void putInt(byte[] b, int off, int v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
        b[off + 2] = (byte) (v >>> 16);
        b[off + 3] = (byte) (v >>> 24);
    }

    static void putShort(byte[] b, int off, short v) {
        b[off] = (byte) v;
        b[off + 1] = (byte) (v >>> 8);
    }

    static void putLong(byte[] b, int off, long v) {
        putInt(b, off, (int) v);
        putInt(b, off + 4, (int) (v >>> 32));
    }
}
