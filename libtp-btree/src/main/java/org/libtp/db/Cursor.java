package org.libtp.db;

/**
 * A position in a database, in key order (RECNO: record-number order, skipping absent records;
 * the key is the number as 8 big-endian bytes, also given by {@link #recno()}). Moves return false
 * (and leave the cursor where it was) when there is no such entry. Use from one thread; close it.
 * In TP mode a cursor opened without a transaction reads in a read-only transaction of its own,
 * committed (releasing its read locks) when the cursor closes; its {@link #put} and
 * {@link #delete} throw {@link IllegalStateException}: pass a transaction to change data.
 */
public final class Cursor implements AutoCloseable {
    private final Database db;
    private final Transaction txn;
    private Transaction own;
    private byte[] key;
    private byte[] data;
    private Object[] position; // where the current entry was seen: next() starts from there
    private boolean closed;

    Cursor(Database db, Transaction txn) {
        this.db = db;
        this.txn = txn;
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

    private boolean move(byte[][] e) {
        if (e == null) {
            return false;
        }
        key = e[0];
        data = e[1];
        position = null;
        return true;
    }

    private boolean moveTo(Object[] p) {
        if (p == null) {
            return false;
        }
        key = (byte[]) p[0];
        data = (byte[]) p[1];
        position = p;
        return true;
    }

    public boolean first() {
        checkOpen();
        if (db.recno != null) {
            return recnoFrom(1, 1);
        }
        return moveTo(db.run(txn(), false, t -> db.tree.seek(t, null, true)));
    }

    /** RECNO: moves to the first present record from {@code n} stepping by {@code step} (+1 or -1). */
    private boolean recnoFrom(long n, int step) {
        long count = db.count(txn());
        for (long i = step < 0 ? Math.min(n, count) : n; i >= 1 && i <= count; i += step) {
            byte[] d = db.get(txn(), i);
            if (d != null) {
                key = java.nio.ByteBuffer.allocate(8).putLong(i).array();
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
        return java.nio.ByteBuffer.wrap(key).getLong();
    }

    public boolean last() {
        checkOpen();
        if (db.recno != null) {
            return recnoFrom(Long.MAX_VALUE, -1);
        }
        return move(db.run(txn(), false, t -> db.tree.lower(t, null)));
    }

    /** The next entry (the first if the cursor is not positioned). */
    public boolean next() {
        checkOpen();
        if (key == null) {
            return first();
        }
        if (db.recno != null) {
            return recnoFrom(recno() + 1, 1);
        }
        byte[] k = key;
        Object[] at = position != null ? position : new Object[] {k, data, 0L, 0};
        return moveTo(db.run(txn(), false, t -> db.tree.next(t, at)));
    }

    /** The previous entry (the last if the cursor is not positioned). */
    public boolean prev() {
        checkOpen();
        if (db.recno != null) {
            return key == null ? last() : recno() > 1 && recnoFrom(recno() - 1, -1);
        }
        byte[] k = key;
        return move(db.run(txn(), false, t -> db.tree.lower(t, k)));
    }

    /** Moves to {@code k} exactly; false (cursor unchanged) if absent. */
    public boolean seek(byte[] k) {
        checkOpen();
        checkKey(k);
        if (db.recno != null) {
            long n = recnoKey(k);
            byte[] d = db.get(txn(), n);
            if (d == null) {
                return false;
            }
            key = k.clone();
            data = d;
            return true;
        }
        byte[][] e = db.run(txn(), false, t -> db.tree.ceiling(t, k, true));
        return e != null && java.util.Arrays.equals(e[0], k) && move(e);
    }

    /** Moves to the first key &gt;= {@code k}. */
    public boolean seekRange(byte[] k) {
        checkOpen();
        checkKey(k);
        if (db.recno != null) {
            return recnoFrom(recnoKey(k), 1);
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

    private static long recnoKey(byte[] k) {
        if (k.length != 8) {
            throw new IllegalArgumentException("a RECNO key is a record number as 8 big-endian bytes, not " + k.length + " bytes");
        }
        long n = java.nio.ByteBuffer.wrap(k).getLong();
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

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (own != null && own.isActive()) {
            own.commit();
        }
    }
}
