package org.libtp.db;

import java.nio.ByteBuffer;
import java.util.Comparator;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;

/**
 * A position in a database, in key order (RECNO: record-number order, skipping absent records;
 * the key is the number as 8 big-endian bytes, also given by {@link #recno()}). Moves return false
 * (and leave the cursor where it was) when there is no such entry. Use from one thread; close it.
 *
 * <p>A cursor opened on a {@link KeyRange} never leaves it: {@link #first()} and {@link #last()}
 * are the range's first and last entries, {@link #next()} and {@link #prev()} return false at its
 * ends, {@link #seek} of a key outside it returns false. The moves are in key order whatever the
 * range's direction; the direction is that of {@link #iterator()} and {@link #stream()}.
 *
 * <p>In TP mode a cursor opened without a transaction reads in a read-only transaction of its
 * own, committed (releasing its read locks) when the cursor closes; its {@link #put} and
 * {@link #delete} throw {@link IllegalStateException}: pass a transaction to change data.
 *
 * <p>The moves throw what {@link Database#get(Transaction, byte[])} throws: in TP mode
 * {@link org.libtp.core.DeadlockException} or {@link org.libtp.core.LockTimeoutException} (abort
 * the transaction), {@link org.libtp.core.CorruptionException} on a damaged page.
 */
public final class Cursor implements AutoCloseable, Iterable<Entry> {
    private final Database db;
    private final Transaction txn;
    private final KeyRange range;
    private final Comparator<byte[]> order;
    /** RECNO: the record numbers in the range, lo..hi (empty when lo &gt; hi). */
    private final long lo;
    private final long hi;
    private Transaction own;
    private byte[] key;
    private byte[] data;
    private Object[] position; // where the current entry was seen: next() starts from there
    private boolean closed;

    Cursor(Database db, Transaction txn, KeyRange range) {
        this.db = db;
        this.txn = txn;
        this.range = range;
        this.order = db.recno != null ? java.util.Arrays::compareUnsigned : db.tree.comparator();
        if (range.fromBound() != null && range.toBound() != null && order.compare(range.fromBound(), range.toBound()) > 0) {
            throw new IllegalArgumentException(range + ": from is after to in the key order of database " + db.name()
                    + "; give the bounds lowest first and use reversed() to visit them from the top");
        }
        if (db.recno != null) {
            long l = 1;
            long h = Long.MAX_VALUE;
            if (range.fromBound() != null) {
                long f = recnoBound(range.fromBound());
                if (f < 0 || (f == Long.MAX_VALUE && !range.fromInclusive())) {
                    h = 0; // 8-byte keys compare unsigned: a negative long is above every record number
                } else {
                    l = Math.max(1, range.fromInclusive() ? f : f + 1);
                }
            }
            if (range.toBound() != null) {
                long t = recnoBound(range.toBound());
                if (t >= 0) {
                    h = Math.min(h, range.toInclusive() ? t : t - 1);
                }
            }
            this.lo = l;
            this.hi = h;
        } else {
            this.lo = 0;
            this.hi = -1;
        }
    }

    private static long recnoBound(byte[] k) {
        if (k.length != 8) {
            throw new IllegalArgumentException("a RECNO key range bound is a record number as 8 big-endian bytes, not "
                    + k.length + " bytes");
        }
        return ByteBuffer.wrap(k).getLong();
    }

    /** The range this cursor stays in ({@link KeyRange#all()} if it was opened without one). */
    public KeyRange range() {
        return range;
    }

    private Transaction txn() {
        if (txn != null || db.environment().config.mode() != OpenMode.TP) {
            return txn;
        }
        if (own == null) {
            // Read-only: a cursor without a transaction is for reading. A writable transaction
            // of its own would hold its write locks until the cursor closes, out of the caller's
            // sight, and commit changes the caller never asked to commit.
            own = db.environment().beginTransaction(db.environment().config.durability(), true);
        }
        return own;
    }

    /** Refuses a change through a cursor that reads in a read-only transaction of its own. */
    private void checkWritable() {
        db.environment().checkWritable("changing database " + db.name());
        if (txn == null && db.environment().config.mode() == OpenMode.TP) {
            throw new IllegalStateException("cursor on " + db.name() + " was opened without a transaction and reads in a "
                    + "read-only one of its own; to change data through a cursor, pass a transaction to openCursor");
        }
    }

    /** Moves to {key, data} if it is in the range. */
    private boolean move(byte[][] e) {
        if (e == null || !range.contains(e[0], order)) {
            return false;
        }
        key = e[0];
        data = e[1];
        position = null;
        return true;
    }

    /** Moves to a {key, data, page, slot} position if it is in the range. */
    private boolean moveTo(Object[] p) {
        if (p == null || !range.contains((byte[]) p[0], order)) {
            return false;
        }
        key = (byte[]) p[0];
        data = (byte[]) p[1];
        position = p;
        return true;
    }

    /** The first entry of the range. */
    public boolean first() {
        checkOpen();
        if (db.recno != null) {
            return recnoFrom(1, 1);
        }
        byte[] from = range.fromBound();
        boolean inclusive = from == null || range.fromInclusive();
        return moveTo(db.run(txn(), false, t -> db.tree.seek(t, from, inclusive)));
    }

    /** The last entry of the range. */
    public boolean last() {
        checkOpen();
        if (db.recno != null) {
            return recnoFrom(Long.MAX_VALUE, -1);
        }
        byte[] to = range.toBound();
        return move(db.run(txn(), false, t -> {
            if (to != null && range.toInclusive()) {
                byte[] d = db.tree.get(t, to);
                if (d != null) {
                    return new byte[][] {to.clone(), d};
                }
            }
            return db.tree.lower(t, to);
        }));
    }

    /**
     * RECNO: moves to the first present record from {@code n} stepping by {@code step} (+1 or
     * -1), within the range.
     */
    private boolean recnoFrom(long n, int step) {
        Transaction t = txn();
        long count = db.count(t);
        long end = Math.min(count, hi);
        long i = step > 0 ? Math.max(n, lo) : Math.min(n, end);
        for (; i >= lo && i <= end; i += step) {
            byte[] d = db.get(t, i);
            if (d != null) {
                key = ByteBuffer.allocate(8).putLong(i).array();
                data = d;
                position = null;
                return true;
            }
        }
        return false;
    }

    /** RECNO: the current record number. */
    public long recno() {
        checkPositioned();
        if (db.recno == null) {
            throw new IllegalStateException("database " + db.name() + " is a BTREE database: it has keys, not record numbers");
        }
        return ByteBuffer.wrap(key).getLong();
    }

    /** The next entry (the first if the cursor is not positioned); false at the range's end. */
    public boolean next() {
        checkOpen();
        if (key == null) {
            return first();
        }
        if (db.recno != null) {
            long n = recno();
            return n < Long.MAX_VALUE && recnoFrom(n + 1, 1);
        }
        byte[] k = key;
        Object[] at = position != null ? position : new Object[] {k, data, 0L, 0};
        return moveTo(db.run(txn(), false, t -> db.tree.next(t, at)));
    }

    /** The previous entry (the last if the cursor is not positioned); false at the range's start. */
    public boolean prev() {
        checkOpen();
        if (key == null) {
            return last();
        }
        if (db.recno != null) {
            return recno() > 1 && recnoFrom(recno() - 1, -1);
        }
        byte[] k = key;
        return move(db.run(txn(), false, t -> db.tree.lower(t, k)));
    }

    /** Moves to {@code k} exactly; false (cursor unchanged) if absent or outside the range. */
    public boolean seek(byte[] k) {
        checkOpen();
        checkKey(k);
        if (db.recno != null) {
            long n = recnoKey(k);
            if (n < lo || n > hi) {
                return false;
            }
            byte[] d = db.get(txn(), n);
            if (d == null) {
                return false;
            }
            key = k.clone();
            data = d;
            position = null;
            return true;
        }
        if (!range.contains(k, order)) {
            return false;
        }
        byte[][] e = db.run(txn(), false, t -> db.tree.ceiling(t, k, true));
        return e != null && java.util.Arrays.equals(e[0], k) && move(e);
    }

    /** Moves to the first key &gt;= {@code k} in the range (the range's first if {@code k} is below it). */
    public boolean seekRange(byte[] k) {
        checkOpen();
        checkKey(k);
        if (db.recno != null) {
            return recnoFrom(recnoKey(k), 1);
        }
        if (!range.aboveStart(k, order)) {
            return first();
        }
        return moveTo(db.run(txn(), false, t -> db.tree.seek(t, k, true)));
    }

    /** The current key (a copy). */
    public byte[] key() {
        checkPositioned();
        return key.clone();
    }

    /** The current data (a copy). */
    public byte[] data() {
        checkPositioned();
        return data.clone();
    }

    /**
     * Replaces the current entry's data.
     *
     * @throws IllegalStateException in TP mode if the cursor was opened without a transaction
     */
    public void put(byte[] newData) {
        checkPositioned();
        checkWritable();
        if (db.recno != null) {
            db.put(txn(), recno(), newData);
            data = newData.clone();
            return;
        }
        db.put(txn(), key, newData);
        data = newData.clone();
    }

    /**
     * Deletes the current entry; next/prev continue from where it was.
     *
     * @throws IllegalStateException in TP mode if the cursor was opened without a transaction
     */
    public void delete() {
        checkPositioned();
        checkWritable();
        if (db.recno != null) {
            db.delete(txn(), recno());
            return;
        }
        db.delete(txn(), key);
    }

    /**
     * The entries of the cursor's range in the range's direction, starting again from its start
     * ({@link #first()}, or {@link #last()} for a reversed range) and moving this cursor: after
     * each {@code next()} the cursor is on the entry returned (so {@link #put} and
     * {@link #delete} apply to it). Use one iterator at a time. Closing the cursor ends it.
     */
    @Override
    public Iterator<Entry> iterator() {
        checkOpen();
        boolean backward = range.isReverse();
        return new Iterator<>() {
            private boolean started;
            private boolean ready;
            private boolean done;

            @Override
            public boolean hasNext() {
                if (done) {
                    return false;
                }
                if (!ready) {
                    boolean moved = started ? (backward ? prev() : Cursor.this.next()) : (backward ? last() : first());
                    started = true;
                    if (!moved) {
                        done = true;
                        return false;
                    }
                    ready = true;
                }
                return true;
            }

            @Override
            public Entry next() {
                if (!hasNext()) {
                    throw new NoSuchElementException("no more entries in " + range);
                }
                ready = false;
                return new Entry(key, data);
            }
        };
    }

    /**
     * {@link #iterator()} as a sequential, ordered stream; closing the stream closes this cursor
     * (use try-with-resources).
     */
    public Stream<Entry> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(iterator(),
                Spliterator.ORDERED | Spliterator.NONNULL | Spliterator.DISTINCT), false).onClose(this::close);
    }

    private static long recnoKey(byte[] k) {
        if (k.length != 8) {
            throw new IllegalArgumentException("a RECNO key is a record number as 8 big-endian bytes, not " + k.length + " bytes");
        }
        long n = ByteBuffer.wrap(k).getLong();
        if (n < 1) {
            throw new IllegalArgumentException("record number " + n + ": record numbers start at 1");
        }
        return n;
    }

    private void checkKey(byte[] k) {
        if (k == null || k.length == 0) {
            throw new IllegalArgumentException("key must be 1 or more bytes");
        }
    }

    private void checkPositioned() {
        checkOpen();
        if (key == null) {
            throw new IllegalStateException("the cursor is not positioned; call first(), seek() or next()");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("cursor on " + db.name() + " is closed");
        }
        db.checkOpen();
    }

    /** True until closed. */
    public boolean isOpen() {
        return !closed;
    }

    /**
     * Closes the cursor; in TP mode without a transaction, commits its read-only transaction.
     * Idempotent.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        db.cursorClosed(this);
        if (own != null && own.isActive()) {
            own.commit();
        }
    }

    @Override
    public String toString() {
        return "Cursor[" + db.name() + (range.equals(KeyRange.all()) ? "" : ", " + range) + (closed ? ", closed" : "") + "]";
    }
}
