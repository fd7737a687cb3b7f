package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.Page;

/**
 * Values of B-tree entries, inline or in overflow chains (their own room), and the overflow page
 * format. A leaf stores a tagged value:
 * <pre>
 *  tag {@link #INLINE} (0): the value's bytes follow
 *  tag {@link #OVERFLOW} (1): u64 first overflow page, u32 value length (13 bytes in all)
 * </pre>
 * An overflow page (page type {@link BtreePage#OVERFLOW}), after the 32-byte page header:
 * <pre>
 *  offset size field
 *      32    8 next       the next page of the chain (0: the last)
 *      40    4 used       bytes of the value on this page
 *      48    -  data
 * </pre>
 */
final class BtreeOverflow {
    private final Btree tree;

    BtreeOverflow(Btree tree) {
        this.tree = tree;
    }

    /** First byte of a stored value: the value follows. */
    static final byte INLINE = 0;
    /** First byte of a stored value: u64 first overflow page, u32 length follow. */
    static final byte OVERFLOW = 1;
    /** Overflow page: u64 next page (0 = last) at 32, u32 bytes used at 40, the bytes from 48. */
    static final int OFF_OVF_NEXT = 32;
    static final int OFF_OVF_USED = 40;
    static final int OFF_OVF_DATA = 48;

    /**
     * The bytes a leaf stores for {@code value}: a tag byte and the value when the entry fits
     * what a split can always place ({@link Btree#maxInlineCell}, about half a page); else the
     * value goes to a new chain of overflow pages (written and, in TP mode, logged as redo-only
     * images first) and the leaf stores a reference. The chain is freed when the entry goes (or
     * another value replaces it) and that commits, or when the transaction that wrote it aborts;
     * a value of the same length is written over the old chain instead ({@link #overwrite}).
     */
    byte[] store(byte[] key, byte[] value, BtreeLog log) {
        if (inline(key, value.length)) {
            byte[] s = new byte[1 + value.length];
            s[0] = INLINE;
            System.arraycopy(value, 0, s, 1, value.length);
            return s;
        }
        int per = tree.bm.pageSize() - OFF_OVF_DATA;
        int pages = (value.length + per - 1) / per;
        long next = 0;
        for (int k = pages - 1; k >= 0; k--) { // last page first, so each can link to the next
            try (PinnedPage h = PinnedPage.of(tree.bm, tree.allocate(log)).dirty().latch()) {
                Page p = h.page();
                int from = k * per;
                int n = Math.min(per, value.length - from);
                p.setType(BtreePage.OVERFLOW);
                p.putLong(OFF_OVF_NEXT, next);
                p.putInt(OFF_OVF_USED, n);
                p.putBytes(OFF_OVF_DATA, value, from, n);
                log.image(p);
                next = p.pageNo();
            }
        }
        long first = next;
        log.onEnd(false, tree.file, (pr, l) -> freeChain(first, l)); // an abort leaves the chain unused
        return java.nio.ByteBuffer.allocate(13).put(OVERFLOW).putLong(next).putInt(value.length).array();
    }

    /** Whether a value of {@code length} bytes under {@code key} is stored inline in its leaf. */
    boolean inline(byte[] key, int length) {
        return BtreePage.leafCellSize(key.length, 1 + length) <= tree.maxEntry;
    }

    /** The length of the value a stored overflow reference names. */
    static int overflowLength(byte[] stored) {
        return java.nio.ByteBuffer.wrap(stored, 9, 4).getInt();
    }

    /**
     * Overwrites the value in the overflow chain {@code stored} refers to with {@code value}, of
     * the same length, page by page in place, and returns the value it held. The caller holds
     * the WRITE lock of the leaf holding the reference: the chain is that entry's alone, so no
     * other transaction reads or frees it until this one ends. Each page's change is logged as a
     * physical update (before and after image of the bytes that differ, undone by a compensating
     * update), so an abort or recovery restores the old value where a new chain would have
     * cost a page allocation, a redo-only image per page and freeing the old chain at commit.
     */
    byte[] overwrite(byte[] stored, byte[] value, BtreeLog log) {
        long pageNo = overflowPage(stored);
        int length = overflowLength(stored);
        if (pageNo == 0 || length != value.length) {
            throw new IllegalArgumentException("not an overflow reference of " + value.length + " bytes");
        }
        byte[] out = new byte[length];
        int at = 0;
        while (at < length) {
            if (pageNo == 0) {
                throw new CorruptionException("the overflow chain of a value in " + tree.bm.describe(tree.file)
                        + " ends after " + at + " of " + length + " bytes");
            }
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                Page p = h.page();
                int n = checkedUsed(p, pageNo, length - at);
                p.getBytes(OFF_OVF_DATA, out, at, n);
                int first = 0;
                while (first < n && out[at + first] == value[at + first]) {
                    first++;
                }
                if (first < n) { // some bytes differ: log and write only [first, last]
                    int last = n - 1;
                    while (out[at + last] == value[at + last]) {
                        last--;
                    }
                    h.dirty();
                    log.pageUpdate(p, OFF_OVF_DATA + first,
                            java.util.Arrays.copyOfRange(value, at + first, at + last + 1));
                }
                at += n;
                pageNo = p.getLong(OFF_OVF_NEXT);
            }
        }
        return out;
    }

    /** The bytes of the value on overflow page {@code p}, checked against what is left to read. */
    private int checkedUsed(Page p, long pageNo, int left) {
        int n = p.getInt(OFF_OVF_USED);
        if (p.type() != BtreePage.OVERFLOW || n <= 0 || n > left || n > p.size() - OFF_OVF_DATA) {
            throw new CorruptionException("overflow page " + pageNo + " of " + tree.bm.describe(tree.file)
                    + " is damaged (type " + p.type() + ", " + n + " bytes used)");
        }
        return n;
    }

    /** The value of stored bytes: inline, or read from its overflow chain. */
    byte[] load(byte[] stored) {
        if (stored.length == 0) {
            throw new CorruptionException("an empty stored value in " + tree.bm.describe(tree.file));
        }
        if (stored[0] == INLINE) {
            return java.util.Arrays.copyOfRange(stored, 1, stored.length);
        }
        if (stored[0] != OVERFLOW || stored.length != 13) {
            throw new CorruptionException("a stored value in " + tree.bm.describe(tree.file) + " has tag " + stored[0]);
        }
        long pageNo = overflowPage(stored);
        int length = overflowLength(stored);
        // the length sizes the buffer before the chain is read: one the file cannot hold is damage
        if (length < 0 || length > tree.bm.pageCount(tree.file) * tree.bm.pageSize()) {
            throw new CorruptionException("a stored value in " + tree.bm.describe(tree.file) + " claims " + length
                    + " bytes on overflow pages from page " + pageNo + ", more than the file holds: the page "
                    + "holding it is damaged; run verify, and restore from a backup");
        }
        byte[] out = new byte[length];
        int at = 0;
        while (at < length) {
            if (pageNo == 0) {
                throw new CorruptionException("the overflow chain of a value in " + tree.bm.describe(tree.file)
                        + " ends after " + at + " of " + length + " bytes");
            }
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                Page p = h.page();
                int n = checkedUsed(p, pageNo, length - at);
                p.getBytes(OFF_OVF_DATA, out, at, n);
                at += n;
                pageNo = p.getLong(OFF_OVF_NEXT);
            }
        }
        return out;
    }

    /** Frees the overflow chain starting at {@code pageNo}. */
    void freeChain(long pageNo, BtreeLog log) {
        int guard = 0;
        while (pageNo != 0) {
            long next;
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                Page p = h.page();
                if (p.type() != BtreePage.OVERFLOW) {
                    throw new CorruptionException("page " + pageNo + " of " + tree.bm.describe(tree.file)
                            + " is in an overflow chain being freed but has type " + p.type()
                            + "; run verify, and restore from a backup");
                }
                next = p.getLong(OFF_OVF_NEXT);
            }
            tree.free(pageNo, log);
            pageNo = next;
            if (++guard > tree.bm.pageCount(tree.file)) {
                throw new CorruptionException("an overflow chain of " + tree.bm.describe(tree.file) + " loops");
            }
        }
    }

    /** The first overflow page a stored value refers to, 0 if it is inline. */
    static long overflowPage(byte[] stored) {
        if (stored.length == 13 && stored[0] == OVERFLOW) {
            return java.nio.ByteBuffer.wrap(stored, 1, 8).getLong();
        }
        return 0;
    }
}
