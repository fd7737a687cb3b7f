package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.PageHeader;

import java.util.Comparator;

/**
 * The codec of B-tree pages: a slotted page after the buffer manager's 32-byte header
 * ({@link PageHeader}: checksum, magic, version, type, page LSN, page number). All integers are
 * little-endian.
 *
 * <pre>
 *  offset size field
 *  ------ ---- ----------------------------------------------------------------------
 *       7    1 type       (PageHeader) {@link #META} / {@link #INTERNAL} / {@link #LEAF} / {@link #OVERFLOW} / {@link #FREE}
 *      24    2 level      0 = leaf; a parent is one above its children
 *      26    2 flags      reserved (0)
 *      28    4 reserved
 *      32    8 rightLink  page number of the right sibling on the same level, 0 = none
 *                         (page 0 is the meta page, never a sibling)
 *      40    2 nSlots     number of entries (the high key is not one)
 *      42    2 cellStart  lowest offset used by cells; cells grow down from the page end
 *      44    2 highKey    offset of the high-key cell; 0 = +infinity (rightmost page)
 *      46    2 garbage    bytes in cells freed by deletes (reclaimed by compaction)
 *      48  2*n slots      cell offsets, in key order
 *     ...      free space
 *   cellStart  cells:
 *                leaf       u16 keyLength | u16 dataLength | key | data
 *                internal   u16 keyLength | u32 child      | key   (slot 0's key is -infinity
 *                                                                   and stored empty)
 *                high key   u16 keyLength | key
 *  page end
 * </pre>
 *
 * Lehman and Yao's B-link invariant, with an exclusive high key: every key on a page is below
 * its high key and every key on its right sibling at or above it; a search for a key at or above
 * a page's high key moves right. An internal entry (k, child) covers keys from k up to the next
 * entry's key. All
 * offsets are checked against the page before use, so a damaged page gives
 * {@link CorruptionException}, never an out-of-bounds access or wrong data.
 */
final class BtreePage {
    // Page types: the registry is PageTypes.
    static final int META = PageTypes.BTREE_META;
    static final int INTERNAL = PageTypes.BTREE_INTERNAL;
    static final int LEAF = PageTypes.BTREE_LEAF;
    static final int OVERFLOW = PageTypes.OVERFLOW;
    /** On the tree's free list (see {@link Btree#free}); a search that reaches one starts again from the root. */
    static final int FREE = PageTypes.FREE;

    static final int OFF_LEVEL = 24;
    static final int OFF_FLAGS = 26;
    static final int OFF_RIGHT = 32;
    static final int OFF_NSLOTS = 40;
    static final int OFF_CELL_START = 42;
    static final int OFF_HIGH_KEY = 44;
    static final int OFF_GARBAGE = 46;
    static final int OFF_SLOTS = 48;
    static final int LEAF_CELL_HEADER = 4;
    static final int INTERNAL_CELL_HEADER = 6;

    final Page page;
    private final int size;

    BtreePage(Page page) {
        this.page = page;
        this.size = page.size();
    }

    /** Formats the (latched) page as an empty B-tree page. */
    void init(int type, int level) {
        page.fill(PageHeader.OFF_RESERVED, size - PageHeader.OFF_RESERVED, (byte) 0);
        page.setType(type);
        page.putShort(OFF_LEVEL, level);
        page.putShort(OFF_CELL_START, size == 65536 ? 65535 : size);
    }

    int type() {
        return page.type();
    }

    boolean isFree() {
        return page.type() == FREE;
    }

    boolean isLeaf() {
        return page.type() == LEAF;
    }

    int level() {
        return page.getShort(OFF_LEVEL);
    }

    long rightLink() {
        return page.getLong(OFF_RIGHT);
    }

    void setRightLink(long p) {
        page.putLong(OFF_RIGHT, p);
    }

    int count() {
        return page.getShort(OFF_NSLOTS);
    }

    private int cellStart() {
        return page.getShort(OFF_CELL_START);
    }

    /** Checks the header fields a reader relies on; a broken page is a corruption. */
    BtreePage check(String what) {
        int t = page.type();
        int n = count();
        int cs = cellStart();
        if (t != LEAF && t != INTERNAL || OFF_SLOTS + 2 * n > cs || cs > size) {
            throw corrupt(what + ": bad header (type " + t + ", " + n + " slots, cells from " + cs + ")");
        }
        return this;
    }

    CorruptionException corrupt(String why) {
        return new CorruptionException("B-tree page " + page.pageNo() + " of " + page.describeFile()
                + " is damaged: " + why + "; run verify, and restore from a backup");
    }

    private int slot(int i) {
        int off = page.getShort(OFF_SLOTS + 2 * i);
        if (off < cellStart() || off > size - 2) {
            throw corrupt("slot " + i + " points to " + off);
        }
        return off;
    }

    private int keyLen(int cell) {
        int n = page.getShort(cell);
        int header = isLeaf() ? LEAF_CELL_HEADER : INTERNAL_CELL_HEADER;
        if (cell + header + n > size) {
            throw corrupt("cell at " + cell + " has key length " + n);
        }
        return n;
    }

    byte[] key(int i) {
        int c = slot(i);
        int n = keyLen(c);
        return page.getBytes(c + (isLeaf() ? LEAF_CELL_HEADER : INTERNAL_CELL_HEADER), n);
    }

    /** The cell of leaf slot {@code i}, its key and data lengths checked against the page. */
    private int leafCell(int i) {
        int c = slot(i);
        int k = keyLen(c);
        int d = page.getShort(c + 2);
        if (c + LEAF_CELL_HEADER + k + d > size) {
            throw corrupt("cell at " + c + " has data length " + d);
        }
        return c;
    }

    byte[] data(int i) {
        int c = leafCell(i);
        return page.getBytes(c + LEAF_CELL_HEADER + page.getShort(c), page.getShort(c + 2));
    }

    /**
     * Copies the value of leaf slot {@code i} into {@code dst} (at least a page long) if it is
     * stored inline and returns its length, or -1 if it is in an overflow chain.
     */
    int copyInlineValue(int i, byte[] dst) {
        int c = leafCell(i);
        int at = c + LEAF_CELL_HEADER + page.getShort(c);
        int d = page.getShort(c + 2);
        if (d < 1) {
            throw corrupt("cell at " + c + " has an empty stored value");
        }
        if (page.getByte(at) != BtreeOverflow.INLINE) {
            return -1;
        }
        page.getBytes(at + 1, dst, 0, d - 1);
        return d - 1;
    }

    /** A zero-copy read-only view of the data of leaf slot {@code i}. */
    java.nio.ByteBuffer dataView(int i) {
        int c = leafCell(i);
        return page.view(c + LEAF_CELL_HEADER + page.getShort(c), page.getShort(c + 2));
    }

    long child(int i) {
        return page.getInt(slot(i) + 2) & 0xFFFF_FFFFL;
    }

    /** The high key, or null for +infinity. */
    byte[] highKey() {
        int off = page.getShort(OFF_HIGH_KEY);
        if (off == 0) {
            return null;
        }
        if (off < cellStart() || off > size - 2) {
            throw corrupt("high key at " + off);
        }
        int n = page.getShort(off);
        if (off + 2 + n > size) {
            throw corrupt("high key length " + n);
        }
        return page.getBytes(off + 2, n);
    }

    /** Size of a cell in bytes (plus its slot: add 2). */
    static int leafCellSize(int keyLen, int dataLen) {
        return LEAF_CELL_HEADER + keyLen + dataLen;
    }

    static int internalCellSize(int keyLen) {
        return INTERNAL_CELL_HEADER + keyLen;
    }

    /** Contiguous free bytes between the slot array and the cells. */
    int freeContiguous() {
        return cellStart() - (OFF_SLOTS + 2 * count());
    }

    /** Free bytes after a compaction. */
    int freeTotal() {
        return freeContiguous() + page.getShort(OFF_GARBAGE);
    }

    private static final java.lang.invoke.VarHandle BIG_ENDIAN_LONG =
            java.lang.invoke.MethodHandles.byteArrayViewVarHandle(long[].class, java.nio.ByteOrder.BIG_ENDIAN);

    /**
     * Compares the key in slot {@code i} with {@code key}: in place, without allocating, when
     * the order is the default unsigned byte order.
     */
    int compareAt(int i, byte[] key, Comparator<byte[]> cmp) {
        if (cmp != Btree.DEFAULT_ORDER) {
            return cmp.compare(key(i), key);
        }
        return compareSlot(i, key, cellStart(), isLeaf() ? LEAF_CELL_HEADER : INTERNAL_CELL_HEADER);
    }

    /**
     * {@link #compareAt} in the default order, with the header fields a search reads once
     * ({@code cellStart}, the cell header size): the slot and key length checked as
     * {@link #slot} and {@link #keyLen} check them.
     */
    private int compareSlot(int i, byte[] key, int cellStart, int cellHeader) {
        int c = page.getShort(OFF_SLOTS + 2 * i);
        if (c < cellStart || c > size - 2) {
            throw corrupt("slot " + i + " points to " + c);
        }
        int n = page.getShort(c);
        if (c + cellHeader + n > size) {
            throw corrupt("cell at " + c + " has key length " + n);
        }
        return compareInPlace(c + cellHeader, n, key);
    }

    /**
     * The unsigned byte order of the {@code n} bytes at {@code off} against {@code key}, eight
     * bytes at a time (a big-endian long compares as the bytes do), then byte by byte.
     */
    private int compareInPlace(int off, int n, byte[] key) {
        int m = Math.min(n, key.length);
        int j = 0;
        for (; j + 8 <= m; j += 8) {
            long a = Long.reverseBytes(page.getLong(off + j)); // pages are little-endian (native)
            long b = (long) BIG_ENDIAN_LONG.get(key, j);
            if (a != b) {
                return Long.compareUnsigned(a, b);
            }
        }
        for (; j < m; j++) {
            int d = (page.getByte(off + j) & 0xFF) - (key[j] & 0xFF);
            if (d != 0) {
                return d;
            }
        }
        return Integer.compare(n, key.length);
    }

    /**
     * First slot whose key is &gt;= {@code key} (count() if none): the insert position on a
     * leaf.
     */
    int lowerBound(byte[] key, Comparator<byte[]> cmp) {
        boolean leaf = isLeaf();
        int lo = leaf ? 0 : 1;
        int hi = count();
        if (cmp != Btree.DEFAULT_ORDER) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cmp.compare(key(mid), key) < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo;
        }
        int cs = cellStart();
        int header = leaf ? LEAF_CELL_HEADER : INTERNAL_CELL_HEADER;
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareSlot(mid, key, cs, header) < 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo;
    }

    /** On an internal page: the slot whose child covers {@code key} (last key &lt;= it). */
    int childSlot(byte[] key, Comparator<byte[]> cmp) {
        int lo = 1;
        int hi = count();
        if (cmp != Btree.DEFAULT_ORDER) {
            while (lo < hi) {
                int mid = (lo + hi) >>> 1;
                if (cmp.compare(key(mid), key) <= 0) {
                    lo = mid + 1;
                } else {
                    hi = mid;
                }
            }
            return lo - 1;
        }
        int cs = cellStart();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (compareSlot(mid, key, cs, INTERNAL_CELL_HEADER) <= 0) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        return lo - 1;
    }

    /**
     * True if {@code key} is at or above this page's high key, which is exclusive: the first key
     * of the right sibling when the page split. A search must move right.
     */
    boolean beyondHighKey(byte[] key, Comparator<byte[]> cmp) {
        if (cmp != Btree.DEFAULT_ORDER) {
            byte[] hk = highKey();
            return hk != null && cmp.compare(key, hk) >= 0;
        }
        int off = page.getShort(OFF_HIGH_KEY);
        if (off == 0) {
            return false;
        }
        if (off < cellStart() || off > size - 2) {
            throw corrupt("high key at " + off);
        }
        int n = page.getShort(off);
        if (off + 2 + n > size) {
            throw corrupt("high key length " + n);
        }
        return compareInPlace(off + 2, n, key) <= 0;
    }

    // ------------------------------------------------------------------ changes (latched page)

    private int allocCell(int bytes) {
        return allocCell(bytes, 2);
    }

    /** Room for a cell of {@code bytes} plus {@code slotBytes} for its slot (0 for the high key). */
    private int allocCell(int bytes, int slotBytes) {
        if (freeContiguous() < bytes + slotBytes) {
            compact();
        }
        if (freeContiguous() < bytes + slotBytes) {
            throw new IllegalStateException("no room for a " + bytes + "-byte cell on page " + page.pageNo());
        }
        int at = cellStart() - bytes;
        page.putShort(OFF_CELL_START, at);
        return at;
    }

    private void insertSlot(int i, int cell) {
        int n = count();
        if (i < n) {
            page.move(OFF_SLOTS + 2 * i, OFF_SLOTS + 2 * i + 2, 2 * (n - i));
        }
        page.putShort(OFF_SLOTS + 2 * i, cell);
        page.putShort(OFF_NSLOTS, n + 1);
    }

    void insertLeaf(int i, byte[] key, byte[] data) {
        int c = allocCell(leafCellSize(key.length, data.length));
        page.putShort(c, key.length);
        page.putShort(c + 2, data.length);
        page.putBytes(c + LEAF_CELL_HEADER, key);
        page.putBytes(c + LEAF_CELL_HEADER + key.length, data);
        insertSlot(i, c);
    }

    /**
     * Overwrites the data of leaf slot {@code i} in place if {@code data} has its length (the
     * common update: same-sized records); false otherwise. Saves the delete's garbage and the
     * compaction the insert would then need.
     */
    boolean replaceData(int i, byte[] data) {
        int c = slot(i);
        int k = keyLen(c);
        int d = page.getShort(c + 2);
        if (d != data.length || c + LEAF_CELL_HEADER + k + d > size) {
            return false;
        }
        page.putBytes(c + LEAF_CELL_HEADER + k, data);
        return true;
    }

    /**
     * Overwrites bytes {@code [offset, offset + bytes.length)} of the data of leaf slot {@code i}
     * if that data has {@code length} bytes; false otherwise (an update in place redone or undone).
     */
    boolean patchData(int i, int length, int offset, byte[] bytes) {
        int c = slot(i);
        int k = keyLen(c);
        int d = page.getShort(c + 2);
        if (d != length || offset < 0 || offset + bytes.length > d || c + LEAF_CELL_HEADER + k + d > size) {
            return false;
        }
        page.putBytes(c + LEAF_CELL_HEADER + k + offset, bytes);
        return true;
    }

    void insertInternal(int i, byte[] key, long child) {
        int c = allocCell(internalCellSize(key.length));
        page.putShort(c, key.length);
        page.putInt(c + 2, (int) child);
        page.putBytes(c + INTERNAL_CELL_HEADER, key);
        insertSlot(i, c);
    }

    void setChild(int i, long child) {
        page.putInt(slot(i) + 2, (int) child);
    }

    void delete(int i) {
        int n = count();
        int c = slot(i);
        int bytes = isLeaf() ? leafCellSize(keyLen(c), page.getShort(c + 2)) : internalCellSize(keyLen(c));
        if (i < n - 1) {
            page.move(OFF_SLOTS + 2 * i + 2, OFF_SLOTS + 2 * i, 2 * (n - 1 - i));
        }
        page.putShort(OFF_NSLOTS, n - 1);
        page.putShort(OFF_GARBAGE, page.getShort(OFF_GARBAGE) + bytes);
    }

    void setHighKey(byte[] key) {
        int old = page.getShort(OFF_HIGH_KEY);
        if (old != 0) {
            page.putShort(OFF_GARBAGE, page.getShort(OFF_GARBAGE) + 2 + page.getShort(old));
            page.putShort(OFF_HIGH_KEY, 0);
        }
        if (key != null) {
            int c = allocCell(2 + key.length, 0);
            page.putShort(c, key.length);
            page.putBytes(c + 2, key);
            page.putShort(OFF_HIGH_KEY, c);
        }
    }

    /** Rewrites the cells contiguously at the page end, dropping garbage. */
    void compact() {
        int n = count();
        byte[][] cells = new byte[n][];
        for (int i = 0; i < n; i++) {
            int c = slot(i);
            int bytes = isLeaf() ? leafCellSize(keyLen(c), page.getShort(c + 2)) : internalCellSize(keyLen(c));
            cells[i] = page.getBytes(c, bytes);
        }
        byte[] hk = highKey();
        int at = size == 65536 ? 65535 : size;
        for (int i = 0; i < n; i++) {
            at -= cells[i].length;
            page.putBytes(at, cells[i]);
            page.putShort(OFF_SLOTS + 2 * i, at);
        }
        if (hk != null) {
            at -= 2 + hk.length;
            page.putShort(at, hk.length);
            page.putBytes(at + 2, hk);
            page.putShort(OFF_HIGH_KEY, at);
        }
        page.putShort(OFF_CELL_START, at);
        page.putShort(OFF_GARBAGE, 0);
    }
}
