package org.libtp.core.buffer;

import org.libtp.core.memory.Memory;

/**
 * A pinned page in the shared pool, as returned by {@link BufferManager#get}. Offsets are
 * relative to the page and bounds-checked against it (a bug in an access method cannot reach a
 * neighbouring frame); writes below {@link PageHeader#OFF_RESERVED} are refused (the header's
 * checksum, magic, LSN and page number belong to the buffer manager).
 *
 * <p>Content is guarded by the frame latch ({@link #latch()}): hold it to change the page, and to
 * read it when no page lock keeps writers out. A handle belongs to one thread; after
 * {@link BufferManager#unpin} every use throws {@link IllegalStateException}.
 */
public final class Page {
    private final SharedBufferPool pool;
    // Not final: an optimistic view is rebound to another frame and page by its reader
    // (BufferManager.tryOptimistic with a view to reuse); a pinned page never changes them.
    int frame;
    long base;
    private final Memory mem;
    /**
     * The frame's bytes as a buffer (Memory.slice), or null: when present every access goes
     * through it, bounds-checked by the buffer against the page, without Memory's per-call
     * offset arithmetic (the B-tree's hottest path).
     */
    private java.nio.ByteBuffer buf;
    private int fileId;
    private long pageNo;
    private final int size;
    private int validLength;
    boolean pinned = true;
    boolean latched;
    /** An optimistic view ({@link BufferManager#tryOptimistic}): not pinned, read only, validated. */
    final boolean optimistic;
    /** The frame's sequence when the optimistic view was taken (even; any int, it wraps). */
    private int seq;

    /** A pinned page. */
    Page(SharedBufferPool pool, int frame, long base, Memory mem, java.nio.ByteBuffer buf, int fileId, long pageNo,
         int size, int validLength) {
        this(pool, frame, base, mem, buf, fileId, pageNo, size, validLength, false, 0);
    }

    /** {@code optimistic}: a view taken at frame sequence {@code seq}; otherwise a pinned page. */
    Page(SharedBufferPool pool, int frame, long base, Memory mem, java.nio.ByteBuffer buf, int fileId, long pageNo,
         int size, int validLength, boolean optimistic, int seq) {
        this.optimistic = optimistic;
        this.seq = seq;
        this.pool = pool;
        this.frame = frame;
        this.base = base;
        this.mem = mem;
        this.buf = buf;
        this.fileId = fileId;
        this.pageNo = pageNo;
        this.size = size;
        this.validLength = validLength;
    }

    /** Rebinds this optimistic view to another frame, page and sequence. */
    void rebind(int frame, long base, java.nio.ByteBuffer buf, int fileId, long pageNo, int validLength, int seq) {
        if (!optimistic) {
            throw new IllegalStateException(this + " is pinned: only an optimistic view is reused");
        }
        this.frame = frame;
        this.base = base;
        this.buf = buf;
        this.fileId = fileId;
        this.pageNo = pageNo;
        this.validLength = validLength;
        this.seq = seq;
    }

    /** True if this view was taken from {@code p}'s pool (and so may be rebound by it). */
    boolean belongsTo(SharedBufferPool p) {
        return pool == p;
    }

    /** How errors name this page's file (see {@link BufferManager#describe}). */
    public String describeFile() {
        return pool.describe(fileId());
    }

    public int fileId() {
        return fileId;
    }

    public long pageNo() {
        return pageNo;
    }

    /** Page size in bytes. */
    public int size() {
        return size;
    }

    /** Bytes of this page that were read from its file when it entered the pool (0 if created). */
    public int validLength() {
        return validLength;
    }

    /** Takes the frame latch (exclusive, across processes). */
    public void latch() {
        checkPinned();
        if (optimistic) {
            throw new IllegalStateException("page " + pageNo + " of file " + fileId + " is an optimistic view: "
                    + "get the page to latch it");
        }
        if (latched) {
            throw new IllegalStateException("page " + pageNo + " of file " + fileId + " is already latched by this handle");
        }
        pool.latchFrame(frame);
        latched = true;
    }

    public void unlatch() {
        if (!latched) {
            throw new IllegalStateException("page " + pageNo + " of file " + fileId + " is not latched by this handle");
        }
        latched = false;
        pool.unlatchFrame(frame);
    }

    /**
     * True if this is a pinned page, or an optimistic view that no latch holder has changed (or
     * given to another page) since it was taken: what was read through it before this call is
     * a consistent state of the page. What an invalid view returned may be any mix of bytes
     * (always within the frame): decisions taken on it must be dropped, and exceptions it
     * caused too.
     */
    public boolean validate() {
        if (!optimistic) {
            return pinned;
        }
        java.lang.invoke.VarHandle.acquireFence(); // the reads above come before the sequence's
        return pool.frameUnchanged(frame, seq);
    }

    /** True for a view from {@link BufferManager#tryOptimistic} (never pinned, read only). */
    public boolean isOptimistic() {
        return optimistic;
    }

    public boolean isLatched() {
        return latched;
    }

    /** LSN of the last logged change applied to this page ({@code 0} if none since it was created). */
    public long lsn() {
        checkPinned();
        return mem.getLong(base + PageHeader.OFF_LSN);
    }

    /**
     * Records that the logged change at {@code lsn} (whose record ends at {@code endLsn}) was
     * applied to this page: sets the page LSN and marks the frame dirty with its write-ahead
     * bound. The caller holds the latch.
     */
    public void setLsn(long lsn, long endLsn) {
        checkLatched();
        mem.putLong(base + PageHeader.OFF_LSN, lsn);
        pool.loggedChange(frame, lsn, endLsn);
    }

    /** The access method's page type byte. */
    public int type() {
        return getByte(PageHeader.OFF_TYPE) & 0xFF;
    }

    public void setType(int type) {
        checkPinned();
        checkNotOptimistic();
        if (type < 0 || type > 255) {
            throw new IllegalArgumentException("page type " + type + " not in [0, 255]");
        }
        mem.putByte(base + PageHeader.OFF_TYPE, (byte) type);
    }

    public byte getByte(int off) {
        check(off, 1);
        return buf != null ? buf.get(off) : mem.getByte(base + off);
    }

    public int getShort(int off) {
        check(off, 2);
        if (buf != null) {
            return buf.getShort(off) & 0xFFFF; // the pool runs on little-endian platforms only
        }
        return (mem.getByte(base + off) & 0xFF) | (mem.getByte(base + off + 1) & 0xFF) << 8;
    }

    public int getInt(int off) {
        check(off, 4);
        return buf != null ? buf.getInt(off) : mem.getInt(base + off);
    }

    public long getLong(int off) {
        check(off, 8);
        return buf != null ? buf.getLong(off) : mem.getLong(base + off);
    }

    public void getBytes(int off, byte[] dst, int dstOff, int len) {
        check(off, len);
        if (dstOff < 0 || dstOff > dst.length - len) {
            throw new IndexOutOfBoundsException("destination range [" + dstOff + ", +" + len + ") outside " + dst.length);
        }
        if (buf != null) {
            buf.get(off, dst, dstOff, len);
        } else {
            mem.getBytes(base + off, dst, dstOff, len);
        }
    }

    /**
     * A read-only view of {@code [off, off + len)} of the page, without copying: valid while the
     * page is pinned and latched (or locked against writers); afterwards it shows whatever the
     * frame holds later.
     */
    public java.nio.ByteBuffer view(int off, int len) {
        check(off, len);
        return mem.view(base + off, len);
    }

    public byte[] getBytes(int off, int len) {
        byte[] b = new byte[len];
        getBytes(off, b, 0, len);
        return b;
    }

    public void putByte(int off, byte v) {
        checkWrite(off, 1);
        if (buf != null) {
            buf.put(off, v);
        } else {
            mem.putByte(base + off, v);
        }
    }

    public void putShort(int off, int v) {
        checkWrite(off, 2);
        if (buf != null) {
            buf.putShort(off, (short) v);
            return;
        }
        mem.putByte(base + off, (byte) v);
        mem.putByte(base + off + 1, (byte) (v >>> 8));
    }

    public void putInt(int off, int v) {
        checkWrite(off, 4);
        if (buf != null) {
            buf.putInt(off, v);
        } else {
            mem.putInt(base + off, v);
        }
    }

    public void putLong(int off, long v) {
        checkWrite(off, 8);
        if (buf != null) {
            buf.putLong(off, v);
        } else {
            mem.putLong(base + off, v);
        }
    }

    public void putBytes(int off, byte[] src, int srcOff, int len) {
        checkWrite(off, len);
        if (srcOff < 0 || srcOff > src.length - len) {
            throw new IndexOutOfBoundsException("source range [" + srcOff + ", +" + len + ") outside " + src.length);
        }
        if (buf != null) {
            buf.put(off, src, srcOff, len);
        } else {
            mem.putBytes(base + off, src, srcOff, len);
        }
    }

    public void putBytes(int off, byte[] src) {
        putBytes(off, src, 0, src.length);
    }

    /** Moves {@code len} bytes from {@code from} to {@code to} within the page (ranges may overlap). */
    public void move(int from, int to, int len) {
        check(from, len);
        checkWrite(to, len);
        byte[] tmp = new byte[len];
        if (buf != null) {
            buf.get(from, tmp, 0, len);
            buf.put(to, tmp, 0, len);
        } else {
            mem.getBytes(base + from, tmp, 0, len);
            mem.putBytes(base + to, tmp, 0, len);
        }
    }

    /** Fills {@code [off, off + len)} with {@code value}. */
    public void fill(int off, int len, byte value) {
        checkWrite(off, len);
        mem.fill(base + off, len, value);
    }

    /** Writes to the header area too (recovery's redo of a logged change, by the page record manager). */
    public void putBytesAnywhere(int off, byte[] src) {
        check(off, src.length);
        checkNotOptimistic();
        if (off < PageHeader.OFF_TYPE) {
            throw new IllegalArgumentException("offset " + off + " is in the buffer manager's page header");
        }
        mem.putBytes(base + off, src, 0, src.length);
    }

    private void check(int off, int len) {
        checkPinned();
        if (off < 0 || len < 0 || off > size - len) {
            throw new IndexOutOfBoundsException("range [" + off + ", +" + len + ") outside page " + pageNo
                    + " of file " + fileId + " (" + size + " bytes)");
        }
    }

    private void checkWrite(int off, int len) {
        check(off, len);
        checkNotOptimistic();
        if (off < PageHeader.OFF_RESERVED) {
            throw new IllegalArgumentException("offset " + off + " is in the buffer manager's page header (first "
                    + PageHeader.OFF_RESERVED + " bytes)");
        }
    }

    private void checkNotOptimistic() {
        if (optimistic) {
            throw new IllegalStateException("page " + pageNo + " of file " + fileId + " is an optimistic view: read only");
        }
    }

    private void checkLatched() {
        checkPinned();
        if (!latched) {
            throw new IllegalStateException("latch page " + pageNo + " of file " + fileId + " before changing it");
        }
    }

    void checkPinned() {
        if (!pinned) {
            throw new IllegalStateException("page " + pageNo + " of file " + fileId + " was unpinned; get it again");
        }
    }

    @Override
    public String toString() {
        return "Page[file " + fileId + " page " + pageNo + " frame " + frame + (pinned ? "" : ", unpinned") + "]";
    }
}
