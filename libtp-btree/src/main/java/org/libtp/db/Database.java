package org.libtp.db;

import org.libtp.btree.AccessMethods;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;

import java.util.List;
import java.util.function.Function;

/**
 * A database (paper 3.2.6, the record manager): byte-array keys and data in a B-tree. Thread-safe.
 * Each method takes a {@link Transaction}: in TP mode null means the operation runs in a
 * transaction of its own (auto-commit, retried after a deadlock); in the other modes it must be
 * null. Keys must be 1..{@link #maxKeyLength()} bytes; key + data must fit a quarter page.
 */
public final class Database implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Database.class);
    private final Environment env;
    private final String name;
    final AccessMethods.Tree tree;
    final org.libtp.btree.Recno recno;
    private final DatabaseConfig config;
    private volatile boolean closed;
    /** Cursors open on this handle: closing it closes them. */
    private final java.util.Set<Cursor> cursors = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Database(Environment env, String name, AccessMethods.Tree tree, org.libtp.btree.Recno recno, DatabaseConfig config) {
        this.env = env;
        this.name = name;
        this.tree = tree;
        this.recno = recno;
        this.config = config;
    }

    public String name() {
        return name;
    }

    public DatabaseConfig config() {
        return config;
    }

    public int maxKeyLength() {
        btree();
        return tree.maxKey();
    }

    private void btree() {
        if (tree == null) {
            throw new IllegalStateException("database " + name + " is a RECNO database: use the record-number methods");
        }
    }

    private void recnoType() {
        if (recno == null) {
            throw new IllegalStateException("database " + name + " is a BTREE database: use the key methods");
        }
    }

    // ------------------------------------------------------------------ recno

    /** RECNO: record {@code n} (from 1), or null if deleted, never written or past the end. */
    public byte[] get(Transaction txn, long n) {
        recnoType();
        return run(txn, false, t -> recno.get(t, n));
    }

    /** RECNO: stores record {@code n} (at most one past the end, which appends). */
    public void put(Transaction txn, long n, byte[] data) {
        recnoType();
        run(txn, true, t -> {
            recno.put(t, n, data);
            return null;
        });
    }

    /** RECNO: appends a record and returns its number. */
    public long append(Transaction txn, byte[] data) {
        recnoType();
        return run(txn, true, t -> recno.append(t, data));
    }

    /** RECNO: deletes record {@code n}; true if it was present. */
    public boolean delete(Transaction txn, long n) {
        recnoType();
        return run(txn, true, t -> recno.delete(t, n));
    }

    /** RECNO: the highest record number stored. */
    public long count(Transaction txn) {
        recnoType();
        return run(txn, false, t -> recno.count(t));
    }

    /** The data stored under {@code key}, or null. */
    public byte[] get(Transaction txn, byte[] key) {
        checkKey(key);
        return run(txn, false, t -> tree.get(t, key));
    }

    /**
     * The data stored under {@code key}, or null, write-locking its page for the update that
     * follows (Berkeley DB's {@code DB_RMW}, SQL's {@code SELECT ... FOR UPDATE}): two
     * transactions that read and then change the same page would otherwise both hold it shared
     * and deadlock on the upgrade. A write: not allowed in a read-only transaction. In the other
     * modes it is {@link #get(Transaction, byte[])}.
     */
    public byte[] getForUpdate(Transaction txn, byte[] key) {
        checkKey(key);
        return run(txn, true, t -> tree.getForUpdate(t, key));
    }

    /**
     * Read-modify-write of one record in one B-tree descent (what {@link #getForUpdate} then
     * {@link #put} do in two): {@code change} receives a copy of the data stored under {@code key}
     * and returns the new data, which replaces it in {@code txn}. Returns the new data, or null
     * (without calling {@code change}) if the key is absent. {@code change} runs while the page
     * is latched: it must be quick, must not call into the database and must not return null.
     * Key + new data must fit a quarter page, as for {@link #put}.
     */
    public byte[] update(Transaction txn, byte[] key, java.util.function.UnaryOperator<byte[]> change) {
        checkKey(key);
        if (change == null) {
            throw new IllegalArgumentException("change must not be null");
        }
        return run(txn, true, t -> tree.update(t, key, v -> {
            byte[] n = change.apply(v);
            if (n != null) {
                checkData(n);
            }
            return n;
        }));
    }

    /**
     * Zero-copy read for hot loops: calls {@code reader} with a read-only view of the data stored
     * under {@code key} while its page is pinned and latched, and returns what it returns (null,
     * without calling it, if the key is absent). The reader must be quick, must not call into
     * the database (that throws: page latches are not re-entrant) and must not keep the view.
     */
    public <T> T get(Transaction txn, byte[] key, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
        checkKey(key);
        if (reader == null) {
            throw new IllegalArgumentException("reader must not be null");
        }
        return run(txn, false, t -> tree.read(t, key, reader));
    }

    /** Stores {@code data} under {@code key}, replacing what was there. */
    public void put(Transaction txn, byte[] key, byte[] data) {
        checkKey(key);
        checkData(data);
        run(txn, true, t -> tree.put(t, key, data, false));
    }

    /** Stores {@code data} under {@code key} unless the key exists; true if stored. */
    public boolean putIfAbsent(Transaction txn, byte[] key, byte[] data) {
        checkKey(key);
        checkData(data);
        return run(txn, true, t -> tree.put(t, key, data, true)) == null;
    }

    /** Removes {@code key}; true if it was there. */
    public boolean delete(Transaction txn, byte[] key) {
        checkKey(key);
        return run(txn, true, t -> tree.delete(t, key)) != null;
    }

    /**
     * A cursor over the database in key order. In TP mode it reads within {@code txn}; null: a
     * read-only transaction of its own, committed when the cursor closes (the cursor's put and
     * delete then throw {@link IllegalStateException}).
     */
    public Cursor openCursor(Transaction txn) {
        return openCursor(txn, KeyRange.all());
    }

    /**
     * A cursor that stays in {@code range} (see {@link Cursor}); otherwise as
     * {@link #openCursor(Transaction)}.
     *
     * @throws IllegalArgumentException if the range's from is after its to in this database's
     *         key order, or (RECNO) a bound is not 8 bytes
     */
    public Cursor openCursor(Transaction txn, KeyRange range) {
        check(txn, false);
        if (range == null) {
            throw new IllegalArgumentException("range must not be null (KeyRange.all() for every key)");
        }
        Cursor c = new Cursor(this, txn, range);
        cursors.add(c);
        return c;
    }

    void cursorClosed(Cursor c) {
        cursors.remove(c);
    }

    /** Closes the cursors still open, one WARN each: {@code why} says who closes them. */
    void closeCursors(String why) {
        for (Cursor c : cursors) {
            if (c.isOpen()) {
                LOG.warn("{}: {} is still open; closing it", why, c);
                try {
                    c.close();
                } catch (RuntimeException e) {
                    LOG.warn("{}: closing {} failed: {}", why, c, e.toString());
                }
            }
        }
        cursors.clear();
    }

    /**
     * The entries of {@code range}, in its direction, through a cursor of their own: iterate once
     * (for-each or {@link CursorIterable#stream()}) and close, which closes the cursor. In TP mode
     * they are read within {@code txn} (null: a read-only transaction of their own, ended at
     * close).
     *
     * <pre>{@code
     * try (CursorIterable it = db.entries(null, KeyRange.closed(b("a"), b("m")))) {
     *     for (Entry e : it) { ... }
     * }
     * }</pre>
     */
    public CursorIterable entries(Transaction txn, KeyRange range) {
        return new CursorIterable(openCursor(txn, range));
    }

    public DatabaseStats stat() {
        checkOpen();
        if (recno != null) {
            long n = count(null);
            return new DatabaseStats(1, 0, n, 0, 0, 0);
        }
        double[] s = tree.stats();
        return new DatabaseStats((int) s[0], (long) s[1], (long) s[2], (long) s[3], s[4], (long) s[5]);
    }

    /**
     * Gives back the empty leaves a B-tree still holds: a leaf emptied by committed deletes is
     * normally unlinked right after the commit, but not when another transaction was using it
     * then, nor when the process died in between. Returns the pages moved to the free list
     * (reused before the file grows; the file does not shrink). Safe while others work; in TP
     * mode it runs in a transaction of its own (only committed emptiness is reclaimed).
     */
    public long compact() {
        btree();
        return run(null, true, t -> tree.compact(t));
    }

    /**
     * Checks the tree's structure (key order, links, high keys, levels, page checksums as pages
     * are read) and returns what is wrong, empty if nothing. Run it when no one writes.
     */
    public List<String> verify() {
        checkOpen();
        if (recno != null) {
            return List.of();
        }
        return tree.verify();
    }

    // ------------------------------------------------------------------ mode dispatch

    <T> T run(Transaction txn, boolean write, Function<org.libtp.core.txn.Transaction, T> op) {
        check(txn, write);
        switch (env.config.mode()) {
            case TP:
                return txn != null ? op.apply(txn.txn) : env.autoCommit(op);
            case SHARED: {
                // One lock on the whole database per operation: readers share, a writer is alone.
                org.libtp.core.txn.Transaction t = env.tp.txn().begin();
                try {
                    env.tp.locks().lock(t, new LockObject(tree.fileId(), LockObject.WHOLE_FILE),
                            write ? LockMode.WRITE : LockMode.READ, 0);
                    return op.apply(null);
                } finally {
                    env.tp.txn().commit(t); // logged nothing: releases the lock
                }
            }
            case UNPROTECTED:
                return op.apply(null);
            default:
                throw new IllegalStateException(String.valueOf(env.config.mode()));
        }
    }

    void check(Transaction txn, boolean write) {
        env.checkOpen();
        checkOpen();
        env.checkTxn(txn);
        if (txn != null && env.config.mode() != OpenMode.TP) {
            throw new IllegalArgumentException("transactions need OpenMode.TP; pass null in " + env.config.mode() + " mode");
        }
        if (write) {
            env.checkWritable("changing database " + name);
            if (config.readOnly()) {
                throw new IllegalStateException("database " + name + " was opened read-only");
            }
            if (txn != null) {
                txn.checkWritable();
            }
        }
    }

    private void checkKey(byte[] key) {
        btree();
        if (key == null) {
            throw new IllegalArgumentException("key must not be null");
        }
        if (key.length == 0 || key.length > tree.maxKey()) {
            throw new IllegalArgumentException("key of " + key.length + " bytes: keys of database " + name
                    + " must be 1.." + tree.maxKey() + " bytes");
        }
    }

    private static void checkData(byte[] data) {
        if (data == null) {
            throw new IllegalArgumentException("data must not be null");
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("database " + name + " is closed");
        }
    }

    Environment environment() {
        return env;
    }

    /**
     * Closes this handle (the data stays), and the cursors still open on it (one WARN log line
     * each). Idempotent.
     */
    @Override
    public void close() {
        if (!closed) {
            closeCursors("database " + name + " is closing");
            closed = true;
            env.closed(this);
        }
    }

    @Override
    public String toString() {
        return "Database[" + name + ", " + config.type() + (closed ? ", closed" : "") + "]";
    }
}
