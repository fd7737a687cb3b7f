package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.txn.PageUpdates;
import org.libtp.core.lock.LockManager;
import org.libtp.core.lock.LockMode;
import org.libtp.core.txn.Txn;

import static org.libtp.btree.RecnoPage.*;

/**
 * Fixed-length records addressed by number from 1 (paper 3.2.6's recno), on buffer-pool pages
 * of one file. The page of record n is computed, not searched: {@code 1 + (n - 1) / perPage}.
 * Changes are locked (page locks, held to the end of the transaction) and logged per page as
 * physical before/after images through the buffer manager ({@link PageUpdates}), in TP mode; the
 * other modes change pages unlogged.
 *
 * <p>Appends run side by side: an append locks the meta page and its record's data page in
 * IWRITE only, takes the next number under the meta page's latch and writes its own record's
 * bytes (undo restores only those). No other transaction can name a record past the count it
 * saw: {@link #count}, {@link #get}, {@link #put} and {@link #delete} lock the meta page READ or
 * WRITE first, which waits for every appender. The count only grows, also on abort (logged
 * redo-only, {@link PageUpdates#redoOnly}): an aborted append leaves its number absent, as Berkeley
 * DB's queue and SQL sequences do, because a later appender may already hold the next number.
 * The page formats are in {@link RecnoPage}.
 */
public final class Recno {
    private final BufferManager bm;
    private final PageUpdates pages;
    private final LockManager locks;
    private final int file;
    private int length;
    private int perPage;

    public Recno(BufferManager bm, PageUpdates pages, LockManager locks, int file) {
        this.bm = bm;
        this.pages = pages;
        this.locks = locks;
        this.file = file;
    }

    /** Formats a new file for records of {@code recordLength} bytes (logged in txn if not null). */
    public void create(Txn txn, int recordLength) {
        if (recordLength < 1 || recordLength > bm.pageSize() - OFF_RECORDS - 1) {
            throw new IllegalArgumentException("record length " + recordLength + " not in [1, "
                    + (bm.pageSize() - OFF_RECORDS - 1) + "] for " + bm.pageSize() + "-byte pages");
        }
        try (PinnedPage h = PinnedPage.pin(bm, file, META, BufferManager.CREATE).dirty().latch()) {
            Page m = h.page();
            if (java.util.Arrays.equals(m.getBytes(OFF_MAGIC, 8), MAGIC)) {
                return; // formatted before (perhaps by a creator that then aborted)
            }
            byte[] header = new byte[24]; // magic, version, length, count 0
            System.arraycopy(MAGIC, 0, header, 0, 8);
            putInt(header, 8, VERSION);
            putInt(header, 12, recordLength);
            m.setType(META_TYPE);
            m.putBytes(OFF_MAGIC, header);
            if (txn != null) {
                pages.image(txn, m); // redo-only, like a B-tree's creation
            }
        }
    }

    /** Reads the meta page: the record length. Throws if the file is not a recno database. */
    public int open() {
        try (PinnedPage h = PinnedPage.pin(bm, file, META)) {
            Page m = h.page();
            byte[] magic = m.getBytes(OFF_MAGIC, 8);
            if (!java.util.Arrays.equals(magic, MAGIC) || m.getInt(OFF_VERSION) != VERSION) {
                throw new CorruptionException(bm.describe(file) + " is not a version 1 recno database");
            }
            length = m.getInt(OFF_LENGTH);
            perPage = (bm.pageSize() - OFF_RECORDS) / (1 + length);
            if (length < 1 || perPage < 1) {
                throw new CorruptionException("recno meta page of " + bm.describe(file) + " has record length " + length);
            }
            return length;
        }
    }

    public int recordLength() {
        return length;
    }

    private void lock(Txn txn, long pageNo, LockMode mode) {
        if (txn != null && locks != null) {
            locks.lockPage(txn, file, pageNo, mode, 0);
        }
    }

    /** The highest record number stored. */
    public long count(Txn txn) {
        lock(txn, META, LockMode.READ);
        try (PinnedPage h = PinnedPage.pin(bm, file, META).latch()) {
            return h.page().getLong(OFF_COUNT);
        }
    }

    private static void checkRecno(long n) {
        if (n < 1) {
            throw new IllegalArgumentException("record number " + n + ": record numbers start at 1");
        }
    }

    /** Record {@code n}, or null if it was deleted, never written, or is past the end. */
    public byte[] get(Txn txn, long n) {
        checkRecno(n);
        if (n > count(txn)) {
            return null;
        }
        long pageNo = 1 + (n - 1) / perPage;
        int at = OFF_RECORDS + (int) ((n - 1) % perPage) * (1 + length);
        lock(txn, pageNo, LockMode.READ);
        if (pageNo >= bm.pageCount(file)) {
            return null;
        }
        try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).latch()) {
            Page p = h.page();
            return p.getByte(at) == 1 ? p.getBytes(at + 1, length) : null;
        }
    }

    /** Stores record {@code n} (at most one past the end: that appends). */
    public void put(Txn txn, long n, byte[] data) {
        checkRecno(n);
        checkData(data);
        lock(txn, META, LockMode.WRITE);
        long count = count(txn);
        if (n > count + 1) {
            throw new IllegalArgumentException("record number " + n + " is past the end (" + count
                    + " records); put at most count + 1, or append");
        }
        write(txn, n, (byte) 1, data, LockMode.WRITE);
        if (n == count + 1) {
            try (PinnedPage h = PinnedPage.pin(bm, file, META).dirty().latch()) {
                setCount(txn, h.page(), n);
            }
        }
    }

    /**
     * Checks the file (without locks, as a tree's verify): the meta page's count against the
     * pages it needs, and every data page - read through the pool, so its checksum is checked -
     * for its type and its presence bytes (0 or 1, and 0 past the count). Returns the problems
     * found, each naming the page; empty if none.
     */
    public java.util.List<String> verify() {
        java.util.List<String> problems = new java.util.ArrayList<>();
        long count;
        try (PinnedPage h = PinnedPage.pin(bm, file, META).latch()) {
            count = h.page().getLong(OFF_COUNT);
        }
        long pages = bm.pageCount(file);
        long needed = count <= 0 ? 1 : 2 + (count - 1) / perPage;
        if (count < 0) {
            problems.add("meta page: record count " + count + " < 0");
        } else if (pages < needed) {
            problems.add("meta page: " + count + " records need " + needed + " pages; the file has " + pages);
        }
        for (long pageNo = 1; pageNo < pages; pageNo++) {
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).latch()) {
                Page p = h.page();
                if (p.type() == 0) {
                    continue; // allocated, never written: every record on it absent
                }
                if (p.type() != DATA_TYPE) {
                    problems.add("page " + pageNo + ": type " + p.type() + ", not a recno data page (" + DATA_TYPE + ")");
                    continue;
                }
                for (int k = 0; k < perPage; k++) {
                    long n = (pageNo - 1) * perPage + k + 1;
                    byte flag = p.getByte(OFF_RECORDS + k * (1 + length));
                    if (flag != 0 && (flag != 1 || n > count)) {
                        problems.add("page " + pageNo + ": record " + n + " has presence byte " + flag
                                + (flag == 1 ? " past the count " + count : " (0 or 1 expected)"));
                        break;
                    }
                }
            } catch (CorruptionException e) {
                problems.add("page " + pageNo + ": " + e.getMessage());
            }
        }
        return problems;
    }

    /** Appends a record; returns its number (see the class comment for concurrent appends). */
    public long append(Txn txn, byte[] data) {
        checkData(data);
        lock(txn, META, LockMode.IWRITE); // beside other appenders; count readers wait
        long n;
        try (PinnedPage h = PinnedPage.pin(bm, file, META).dirty().latch()) {
            n = h.page().getLong(OFF_COUNT) + 1;
            setCount(txn, h.page(), n);
        }
        write(txn, n, (byte) 1, data, LockMode.IWRITE);
        return n;
    }

    /** Sets the latched meta page's count to {@code n}: redo-only, it never goes back (class comment). */
    private void setCount(Txn txn, Page meta, long n) {
        if (txn != null) {
            pages.redoOnly(txn, meta, OFF_COUNT, longBytes(n));
        } else {
            meta.putBytes(OFF_COUNT, longBytes(n));
        }
    }

    private static byte[] longBytes(long n) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (n >>> (8 * i));
        }
        return b;
    }

    /** Deletes record {@code n}; true if it was present. */
    public boolean delete(Txn txn, long n) {
        checkRecno(n);
        if (get(txn, n) == null) {
            return false;
        }
        write(txn, n, (byte) 0, new byte[length], LockMode.WRITE);
        return true;
    }

    private void checkData(byte[] data) {
        if (data == null || data.length != length) {
            throw new IllegalArgumentException("records of this database are exactly " + length + " bytes, not "
                    + (data == null ? "null" : data.length));
        }
    }

    /** Writes record {@code n}'s slot, its page locked in {@code mode} (WRITE, or IWRITE for an append's new record). */
    private void write(Txn txn, long n, byte flag, byte[] data, LockMode mode) {
        long pageNo = 1 + (n - 1) / perPage;
        int at = OFF_RECORDS + (int) ((n - 1) % perPage) * (1 + length);
        lock(txn, pageNo, mode);
        try (PinnedPage h = PinnedPage.pin(bm, file, pageNo, BufferManager.CREATE).dirty().latch()) {
            Page p = h.page();
            if (p.type() != DATA_TYPE) {
                if (txn != null) {
                    txn.ensureLogSpace(2L * p.size()); // the image is logged after the change
                }
                p.setType(DATA_TYPE); // a new page; its records are zero = absent, redo sets the type with the image
                if (txn != null) {
                    pages.image(txn, p);
                }
            }
            byte[] rec = new byte[1 + length];
            rec[0] = flag;
            System.arraycopy(data, 0, rec, 1, length);
            write(txn, p, at, rec);
        }
    }

    /** A logged (TP) or plain change of a latched page. */
    private void write(Txn txn, Page p, int at, byte[] bytes) {
        if (txn != null) {
            pages.update(txn, p, at, bytes);
        } else {
            p.putBytes(at, bytes);
        }
    }

    private static void putInt(byte[] b, int off, int v) {
        for (int i = 0; i < 4; i++) {
            b[off + i] = (byte) (v >>> (8 * i));
        }
    }
}
