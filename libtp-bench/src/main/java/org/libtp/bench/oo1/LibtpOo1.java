package org.libtp.bench.oo1;

import org.libtp.bench.engine.LibtpEngine;
import org.libtp.bench.engine.LibtpEngine.Variant;
import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.DatabaseType;
import org.libtp.db.Environment;
import org.libtp.db.Transaction;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;

/**
 * OO1 on LibTP's access methods, as the paper built it (5.2.1): parts in a B-tree keyed by id,
 * connections as fixed-length records in a RECNO database, and two B-tree indexes whose keys are
 * the connection's from (resp. to) part id followed by its record number, so that a part has
 * several entries. One class for the paper's four configurations, which differ only in
 * protection:
 * <ul>
 * <li>{@code TP} ("libtp"): OpenMode.TP, page locks and the write-ahead log; every test is a
 *     transaction (lookups and traversals read-only ones); the insert commits SYNC (log forced)
 *     or, with {@code nosync}, WRITE_NO_SYNC (the log written to the OS).
 * <li>{@code NOTP}: OpenMode.UNPROTECTED: no locks, no log, no transactions; changes reach the
 *     files when pages are evicted, at sync and at close.
 * <li>{@code FLOCK}: NOTP plus an exclusive {@link FileChannel#lock} of a lock file around each
 *     test's transaction (fcntl, the paper's flock(2)).
 * <li>{@code FSYNC}: NOTP plus, at the insert's commit, every changed page written and the
 *     files forced ({@link Environment#sync()}): durable, not atomic.
 * </ul>
 */
final class LibtpOo1 implements Oo1Store {
    private final Variant variant;
    private final StoreOptions options;
    private final LibtpEngine engine;
    private final Environment env;
    private final Durability durability;
    private final Database parts;
    private final Database connections;
    private final Database fromIndex;
    private final Database toIndex;
    private final FileChannel lockFile;

    LibtpOo1(Variant variant, StoreOptions o) {
        this.variant = variant;
        this.options = o;
        this.engine = LibtpEngine.open(variant, o.dir(), o.sync(), o.cacheBytes(), false, o.pageSize());
        this.env = engine.env();
        this.durability = engine.durability();
        this.lockFile = engine.lockFile();
        try {
            DatabaseConfig bt = DatabaseConfig.builder().type(DatabaseType.BTREE).allowCreate(true).build();
            parts = env.openDatabase(null, "parts", bt);
            connections = env.openDatabase(null, "connections", DatabaseConfig.builder().type(DatabaseType.RECNO)
                    .recordLength(Oo1Records.CONNECTION_BYTES).allowCreate(true).build());
            fromIndex = env.openDatabase(null, "conn_from", bt);
            toIndex = env.openDatabase(null, "conn_to", bt);
        } catch (RuntimeException e) {
            engine.close();
            throw e;
        }
    }

    @Override
    public String engine() {
        return variant.engine();
    }

    @Override
    public String durability() {
        return variant.durability(options.sync());
    }

    @Override
    public <T> T read(ReadTask<T> task) {
        if (variant != Variant.TP) {
            return locked(() -> task.run(new Ops(null)));
        }
        Transaction t = env.beginTransaction(Durability.NO_SYNC, true);
        try {
            T r = task.run(new Ops(t));
            t.commit();
            return r;
        } finally {
            if (t.isActive()) {
                t.abort();
            }
        }
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        return write(task, durability, true);
    }

    @Override
    public void bulk(WriteTask<?> task) {
        write(task, Durability.NO_SYNC, false);
    }

    private <T> T write(WriteTask<T> task, Durability d, boolean commitForced) {
        if (variant != Variant.TP) {
            return locked(() -> {
                T r = task.run(new Ops(null));
                if (variant == Variant.FSYNC && commitForced) {
                    env.sync();
                }
                return r;
            });
        }
        Transaction t = env.beginTransaction(d, false);
        try {
            T r = task.run(new Ops(t));
            t.commit();
            return r;
        } finally {
            if (t.isActive()) {
                t.abort();
            }
        }
    }

    /** NOTP, FSYNC: runs {@code body}; FLOCK: holding the lock file's exclusive lock. */
    private <T> T locked(java.util.function.Supplier<T> body) {
        if (lockFile == null) {
            return body.get();
        }
        try {
            FileLock fl = lockFile.lock();
            try {
                return body.get();
            } finally {
                fl.release();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + options.dir().resolve(LibtpEngine.LOCK_FILE) + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void flush() {
        env.sync();
        if (variant == Variant.TP) {
            env.checkpoint();
        }
    }

    @Override
    public Counts counts() {
        return read(r -> {
            Transaction t = ((Ops) r).txn;
            return new Counts(scan(parts, t), connections.count(t), scan(fromIndex, t), scan(toIndex, t));
        });
    }

    private static long scan(Database db, Transaction t) {
        long n = 0;
        try (Cursor c = db.openCursor(t)) {
            for (boolean ok = c.first(); ok; ok = c.next()) {
                n++;
            }
        }
        return n;
    }

    @Override
    public void close() {
        engine.close();
    }

    /** The records of one transaction ({@code txn} null in the unprotected modes). */
    private final class Ops implements Writer {
        final Transaction txn;

        Ops(Transaction txn) {
            this.txn = txn;
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            return parts.get(txn, Oo1Records.partKey(id), b -> {
                v.visit(Oo1Records.partX(b), Oo1Records.partY(b));
                return Boolean.TRUE;
            }) != null;
        }

        @Override
        public void connectionsFrom(int id, IntList toIds) {
            follow(fromIndex, id, toIds, true);
        }

        @Override
        public void connectionsTo(int id, IntList fromIds) {
            follow(toIndex, id, fromIds, false);
        }

        /** Index entries of part {@code id}, then each connection record for the other end. */
        private void follow(Database index, int id, IntList out, boolean forward) {
            try (Cursor c = index.openCursor(txn)) {
                for (boolean ok = c.seekRange(Oo1Records.indexKey(id, 0)); ok; ok = c.next()) {
                    byte[] k = c.key();
                    if (Oo1Records.indexKeyPart(k) != id) {
                        break;
                    }
                    long recno = Oo1Records.indexKeyRecno(k);
                    byte[] conn = connections.get(txn, recno);
                    if (conn == null) {
                        throw new IllegalStateException("OO1: " + index.name() + " of " + options.dir()
                                + " names connection " + recno + ", which is missing");
                    }
                    out.add(forward ? Oo1Records.connectionTo(conn) : Oo1Records.connectionFrom(conn));
                }
            }
        }

        @Override
        public int maxPartId() {
            try (Cursor c = parts.openCursor(txn)) {
                return c.last() ? Oo1Records.partKeyId(c.key()) : 0;
            }
        }

        @Override
        public void putPart(Part p) {
            parts.put(txn, Oo1Records.partKey(p.id()), Oo1Records.part(p));
        }

        @Override
        public long addConnection(Connection c) {
            long recno = connections.append(txn, Oo1Records.connection(c));
            fromIndex.put(txn, Oo1Records.indexKey(c.from(), recno), Oo1Records.EMPTY);
            toIndex.put(txn, Oo1Records.indexKey(c.to(), recno), Oo1Records.EMPTY);
            return recno;
        }
    }
}
