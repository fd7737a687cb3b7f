package org.libtp.db;

import org.libtp.btree.AccessMethods;
import org.libtp.btree.Recno;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.txn.Txn;

import java.util.List;
import java.util.function.Function;

/**
 * A database (paper 3.2.6, the record manager): byte-array keys and data in a B-tree
 * ({@link DatabaseType#BTREE}), or fixed-length records by number ({@link DatabaseType#RECNO}).
 * Thread-safe. Open it with {@link Environment#openDatabase}.
 *
 * <p><b>Transactions.</b> Each method takes a {@link Transaction}. In TP mode null means the
 * operation runs in a transaction of its own (auto-commit: committed before the method returns,
 * run again if it is chosen as a deadlock victim); in the other modes it must be null.
 *
 * <p><b>Sizes.</b>
 * <ul>
 * <li>Keys: 1 to {@link #maxKeyLength()} bytes, which is (pageSize - 48) / 8 - 8 so that five
 *     keys fit an internal page: 498 bytes with the default 4 KiB pages, 8178 with 64 KiB ones.</li>
 * <li>Data: 0 bytes up to what a Java array holds (about 2 GiB); there is no other limit. An
 *     entry whose key and data do not fit about half a page (1,772 bytes with 4 KiB pages: what
 *     a split can always place beside the longest high keys) keeps its data on a chain of
 *     overflow pages, the leaf holding a 13-byte reference: a
 *     20 MiB value works. A large value is in memory whole when it is written and read, and in TP
 *     mode its overflow pages are logged as page images, so writing it adds about its size to
 *     the log; replacing it by a value of the same length writes over its pages in place and
 *     logs only the bytes that changed (before and after).</li>
 * <li>RECNO records: exactly the record length fixed when the database was created
 *     ({@link DatabaseConfig#recordLength()}, 1 to pageSize - 33 bytes).</li>
 * </ul>
 *
 * <p><b>Exceptions</b> (see the package documentation for what to do about each). Every
 * operation may throw, besides the ones its documentation names:
 * {@link org.libtp.core.DeadlockException} and {@link org.libtp.core.LockTimeoutException} in TP
 * mode with a transaction (abort it and retry, or use {@link Environment#runInTransaction});
 * {@link org.libtp.core.CapacityExceededException} when the lock table is full;
 * {@link org.libtp.core.CorruptionException} when a page read is damaged;
 * {@link org.libtp.core.RunRecoveryException} once the environment has failed;
 * {@link IllegalStateException} on a closed handle, a finished transaction, or a write through a
 * read-only transaction, database handle or environment; {@link IllegalArgumentException} on a
 * bad key or null data.
 */
public final class Database implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Database.class);
    private final Environment env;
    private final String name;
    /* Bound to the managers of environment incarnation boundIncarnation: rebound after a reopen. */
    volatile AccessMethods.Tree tree;
    volatile Recno recno;
    private volatile long boundIncarnation;
    private final DatabaseConfig config;
    private volatile boolean closed;
    private volatile int fileId;
    private final String fileName;
    /** The file's generation when this handle last found its name in the catalog. */
    private volatile long generation;
    /** Cursors open on this handle: closing it closes them. */
    private final java.util.Set<Cursor> cursors = java.util.concurrent.ConcurrentHashMap.newKeySet();

    Database(Environment env, String name, AccessMethods.Tree tree, Recno recno, DatabaseConfig config,
             int fileId, String fileName, long generation) {
        this.env = env;
        this.name = name;
        this.tree = tree;
        this.recno = recno;
        // What is stored wins over what the caller passed: the record length and key order
        // are fixed at creation, and the caller may have left them at their defaults.
        this.config = recno != null
                ? new DatabaseConfig(config.type(), config.allowCreate(), config.readOnly(), null, recno.recordLength())
                : new DatabaseConfig(config.type(), config.allowCreate(), config.readOnly(), tree.keyOrder(),
                        config.recordLength());
        this.fileId = fileId;
        this.fileName = fileName;
        this.generation = generation;
        this.boundIncarnation = env.incarnation;
    }

    /**
     * Binds this handle to the managers of the environment's current incarnation if a reopen
     * replaced them; called inside the environment's gate. The file keeps its name and id (the
     * file registry is on disk); its generation is read again from the catalog.
     */
    void bind() {
        long inc = env.incarnation;
        if (boundIncarnation == inc) {
            return;
        }
        synchronized (this) {
            if (boundIncarnation == inc) {
                return;
            }
            int file = env.tp.buffers().open(fileName);
            if (recno != null) {
                Recno r = env.am.recno(file);
                r.open();
                recno = r;
            } else {
                tree = env.am.tree(file);
            }
            fileId = file;
            generation = -1; // unknown: the next check reads the catalog
            boundIncarnation = inc;
        }
    }

    /**
     * Throws if the database was removed or renamed since this handle last checked: one shared
     * read when nothing changed; otherwise the catalog is read in {@code t} (waiting for the
     * catalog lock of a removal or rename still in progress; it sees its own).
     */
    void checkCurrent(Txn t) {
        long g = env.tp.buffers().generation(fileId);
        if (g == generation) {
            return;
        }
        if (!fileName.equals(env.catalog.fileOf(t, name))) {
            throw new DatabaseNotFoundException("database " + name + " was removed or renamed after this "
                    + "handle was opened (in " + env.home() + "); open it again by its current name");
        }
        generation = g;
    }

    public String name() {
        return name;
    }

    /**
     * This handle's configuration: the type, allowCreate and readOnly it was opened with, and
     * the key order (BTREE) or record length (RECNO) the database was created with.
     */
    public DatabaseConfig config() {
        return config;
    }

    /**
     * BTREE: the longest key, in bytes: (pageSize - 48) / 8 - 8 (498 for 4 KiB pages). Data has
     * no such limit (see the class documentation).
     */
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

    /**
     * RECNO: record {@code n} (from 1), or null if deleted, never written or past the end.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalArgumentException if {@code n} &lt; 1
     */
    public byte[] get(Transaction txn, long n) {
        recnoType();
        return run(txn, false, t -> recno.get(t, n));
    }

    /**
     * RECNO: stores record {@code n} (at most one past the end, which appends).
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalArgumentException if {@code n} &lt; 1 or more than one past the end, or
     *         {@code data} is not {@link DatabaseConfig#recordLength()} bytes
     */
    public void put(Transaction txn, long n, byte[] data) {
        recnoType();
        run(txn, true, t -> {
            recno.put(t, n, data);
            return null;
        });
    }

    /**
     * RECNO: appends a record and returns its number. Appends of concurrent transactions do not
     * wait for each other; a number once handed out is not handed out again: if the appending
     * transaction aborts, that record stays absent ({@link #get} returns null) and
     * {@link #count} still counts it, as Berkeley DB's queue and SQL sequences do.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalArgumentException if {@code data} is not {@link DatabaseConfig#recordLength()} bytes
     */
    public long append(Transaction txn, byte[] data) {
        recnoType();
        return run(txn, true, t -> recno.append(t, data));
    }

    /**
     * RECNO: deletes record {@code n}; true if it was present.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     */
    public boolean delete(Transaction txn, long n) {
        recnoType();
        return run(txn, true, t -> recno.delete(t, n));
    }

    /**
     * RECNO: the highest record number stored or handed out by {@link #append} (records below
     * it may be absent: deleted, or appended by a transaction that aborted).
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     */
    public long count(Transaction txn) {
        recnoType();
        return run(txn, false, t -> recno.count(t));
    }

    /**
     * The data stored under {@code key}, or null.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws org.libtp.core.CorruptionException if a page read is damaged (names file and page)
     * @throws IllegalArgumentException if {@code key} is null, empty or longer than {@link #maxKeyLength()}
     * @throws IllegalStateException if this handle, the environment or {@code txn} is closed or finished
     */
    public byte[] get(Transaction txn, byte[] key) {
        checkKey(key);
        if (directMode(txn)) {
            long inc = env.enter();
            org.libtp.core.RunRecoveryException failed;
            try {
                checkDirect(txn);
                return tree.get(txn == null ? null : txn.txn, key);
            } catch (org.libtp.core.RunRecoveryException e) {
                failed = e;
            } finally {
                env.exit();
            }
            env.afterFailure(failed, inc, txn != null, false); // returns if it may run again
        }
        return run(txn, false, t -> tree.get(t, key));
    }

    /**
     * What {@link #run} does for a read that needs no auto-commit or SHARED lock (a TP read in
     * {@code txn}, or any UNPROTECTED read), without its two lambdas: the hot read path
     * allocates nothing. True after the checks, if the caller may call the tree itself.
     */
    private boolean directMode(Transaction txn) {
        OpenMode mode = env.config.mode();
        return txn == null ? mode == OpenMode.UNPROTECTED : mode == OpenMode.TP;
    }

    /** The checks of a direct read, inside the gate. */
    private void checkDirect(Transaction txn) {
        check(txn, false);
        bind();
        checkCurrent(txn == null ? null : txn.txn);
    }

    /**
     * The data stored under {@code key}, or null, write-locking its page for the update that
     * follows (Berkeley DB's {@code DB_RMW}, SQL's {@code SELECT ... FOR UPDATE}): two
     * transactions that read and then change the same page would otherwise both hold it shared
     * and deadlock on the upgrade. A write: not allowed in a read-only transaction. In the other
     * modes it is {@link #get(Transaction, byte[])}.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalStateException in a read-only transaction, database handle or environment
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
     * The new data may have any length (see Sizes above), as for {@link #put}. An exception
     * {@code change} throws reaches the caller and changes nothing.
     *
     * <p>Locking (TP mode): with the default key order this locks only the key's record (under
     * an intention lock on its page), so transactions updating different keys of one page do not
     * wait for each other, while readers, inserts and deletes on that page do wait for them. A
     * new value of another length (or a value in an overflow chain) locks the page as
     * {@link #put} does. Under a registered key order the page is locked.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalArgumentException if {@code change} returns null, or the key is bad
     * @throws IllegalStateException in a read-only transaction, database handle or environment
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
     * under {@code key} and returns what it returns (null, without calling it, if the key is
     * absent). The view is of a per-thread copy of the data, read without pinning or latching its
     * page (an optimistic read, validated before the reader is called; nothing is allocated for
     * the view), or else of the page itself while it is pinned and latched (a page just read
     * from disk or being changed), or of a copy of data kept in overflow pages. The reader must be quick, must not call into the
     * database (that throws {@link IllegalStateException}) and must not keep the view: the next
     * read of this thread reuses it.
     */
    public <T> T get(Transaction txn, byte[] key, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
        checkKey(key);
        if (reader == null) {
            throw new IllegalArgumentException("reader must not be null");
        }
        if (directMode(txn)) {
            long inc = env.enter();
            org.libtp.core.RunRecoveryException failed;
            try {
                checkDirect(txn);
                return tree.read(txn == null ? null : txn.txn, key, reader);
            } catch (org.libtp.core.RunRecoveryException e) {
                failed = e;
            } finally {
                env.exit();
            }
            env.afterFailure(failed, inc, txn != null, false); // returns if it may run again
        }
        return run(txn, false, t -> tree.read(t, key, reader));
    }

    /**
     * Stores {@code data} under {@code key}, replacing what was there.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws org.libtp.core.CapacityExceededException if the lock table is full
     *         ({@link EnvironmentConfig#maxLocks()}, {@link EnvironmentConfig#maxLockObjects()})
     * @throws IllegalArgumentException if {@code key} is null, empty or longer than
     *         {@link #maxKeyLength()}, or {@code data} is null
     * @throws IllegalStateException in a read-only transaction, database handle or environment, or
     *         if this handle, the environment or {@code txn} is closed or finished
     */
    public void put(Transaction txn, byte[] key, byte[] data) {
        checkKey(key);
        checkData(data);
        run(txn, true, t -> tree.put(t, key, data, false));
    }

    /**
     * Stores {@code data} under {@code key} unless the key exists; true if stored.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalStateException in a read-only transaction, database handle or environment
     */
    public boolean putIfAbsent(Transaction txn, byte[] key, byte[] data) {
        checkKey(key);
        checkData(data);
        return run(txn, true, t -> tree.put(t, key, data, true)) == null;
    }

    /**
     * Removes {@code key}; true if it was there.
     *
     * @throws org.libtp.core.DeadlockException TP mode with a transaction: chosen as a deadlock
     *         victim; abort {@code txn} and retry (with null the operation is retried by itself)
     * @throws org.libtp.core.LockTimeoutException TP mode: a lock was not granted within
     *         {@link EnvironmentConfig#lockTimeoutMillis()}; abort and retry
     * @throws IllegalStateException in a read-only transaction, database handle or environment
     */
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
        return env.guarded(null, () -> {
            bind();
            return statNow();
        });
    }

    private DatabaseStats statNow() {
        if (recno != null) { // a meta page, then data pages of fixed-length records
            long n = env.config.mode() == OpenMode.TP ? env.autoCommit(t -> recno.count(t)) : recno.count(null);
            long pages = env.tp.buffers().pageCount(fileId);
            long dataPages = Math.max(0, pages - 1);
            double fill = dataPages == 0 ? 0 : 100.0 * n * recno.recordLength() / (dataPages * (double) env.tp.buffers().pageSize());
            return new DatabaseStats(1, pages, n, dataPages, fill, 0);
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
     * are read) and returns what is wrong, empty if nothing; for a RECNO database, the record
     * count against the file, each data page's checksum, type and presence bytes. Run it when no
     * one writes.
     */
    public List<String> verify() {
        checkOpen();
        return env.guarded(null, () -> {
            bind();
            return recno != null ? recno.verify() : tree.verify();
        });
    }

    // ------------------------------------------------------------------ mode dispatch

    <T> T run(Transaction txn, boolean write, Function<Txn, T> unchecked) {
        return env.guarded(txn, () -> dispatch(txn, write, unchecked));
    }

    /** {@link #run} inside the environment's gate. */
    private <T> T dispatch(Transaction txn, boolean write, Function<Txn, T> unchecked) {
        check(txn, write);
        bind();
        Function<Txn, T> op = t -> {
            checkCurrent(t);
            return unchecked.apply(t);
        };
        switch (env.config.mode()) {
            case TP:
                return txn != null ? op.apply(txn.txn) : env.autoCommit(op);
            case SHARED: {
                // One lock on the whole database per operation: readers share, a writer is alone.
                Txn t = env.tp.txn().begin();
                try {
                    env.tp.locks().lock(t, new LockObject(fileId, LockObject.WHOLE_FILE),
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
