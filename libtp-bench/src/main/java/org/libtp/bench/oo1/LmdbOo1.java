package org.libtp.bench.oo1;

import org.libtp.bench.engine.EngineDirs;
import org.libtp.bench.engine.LmdbEngine;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.GetOp;
import org.lmdbjava.LmdbException;
import org.lmdbjava.SeekOp;
import org.lmdbjava.Txn;

import java.nio.ByteBuffer;

/**
 * OO1 on LMDB (lmdbjava): dbis {@code parts} (4-byte id keys), {@code connections} (8-byte
 * record-number keys; numbers handed out by this store after the highest at open) and
 * {@code conn_from} / {@code conn_to} opened {@code MDB_DUPSORT}: key the part id, one sorted
 * duplicate (the 8-byte record number) per connection, LMDB's natural secondary index. A
 * traversal step positions a cursor with {@code MDB_SET_KEY} and walks {@code MDB_NEXT_DUP}.
 *
 * <p>Every test is one LMDB transaction (lookups and traversals read-only ones). {@code sync}:
 * LMDB's default, the commit fsyncs the data file; {@code nosync}: the environment is opened
 * {@code MDB_NOSYNC}, a commit writes its pages to the OS without forcing them (survives the
 * process, not the OS). LMDB has no cache of its own (it reads the memory-mapped file through the
 * OS page cache), so {@code --cache-mb} does not apply: cold runs depend on dropping the OS cache.
 * The map is 16 GiB of address space; the file grows as needed. Needs
 * {@code --add-opens java.base/java.nio=ALL-UNNAMED --add-opens java.base/sun.nio.ch=ALL-UNNAMED}.
 */
final class LmdbOo1 implements Oo1Store {
    private static final long MAP_SIZE = 16L << 30;

    private final StoreOptions options;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> parts;
    private final Dbi<ByteBuffer> connections;
    private final Dbi<ByteBuffer> fromIndex;
    private final Dbi<ByteBuffer> toIndex;
    private final ByteBuffer key = ByteBuffer.allocateDirect(16);
    private final ByteBuffer key2 = ByteBuffer.allocateDirect(16);
    private final ByteBuffer val = ByteBuffer.allocateDirect(64);
    private long nextRecno;

    LmdbOo1(StoreOptions o) {
        this.options = o;
        EngineDirs.create(o.dir());
        try {
            // a fixed map, LMDB's default reader table: see LmdbEngine
            env = LmdbEngine.open(o.dir(), MAP_SIZE, 0, o.sync());
        } catch (LmdbException e) {
            throw new IllegalStateException("cannot open LMDB environment " + o.dir() + ": " + e.getMessage(), e);
        }
        try {
            parts = env.openDbi("parts", DbiFlags.MDB_CREATE);
            connections = env.openDbi("connections", DbiFlags.MDB_CREATE);
            fromIndex = env.openDbi("conn_from", DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT);
            toIndex = env.openDbi("conn_to", DbiFlags.MDB_CREATE, DbiFlags.MDB_DUPSORT);
            try (Txn<ByteBuffer> t = env.txnRead(); Cursor<ByteBuffer> c = connections.openCursor(t)) {
                nextRecno = c.last() ? c.key().getLong(c.key().position()) + 1 : 1;
            }
        } catch (LmdbException e) {
            env.close();
            throw new IllegalStateException("cannot open the OO1 dbis of LMDB environment " + o.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String engine() {
        return "lmdb";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public <T> T read(ReadTask<T> task) {
        try (Txn<ByteBuffer> t = env.txnRead()) {
            return task.run(new Ops(t));
        }
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        try (Txn<ByteBuffer> t = env.txnWrite()) {
            T r = task.run(new Ops(t));
            t.commit();
            return r;
        }
    }

    @Override
    public void bulk(WriteTask<?> task) {
        write(task);
    }

    @Override
    public void flush() {
        env.sync(true);
    }

    @Override
    public Counts counts() {
        try (Txn<ByteBuffer> t = env.txnRead()) {
            return new Counts(parts.stat(t).entries, connections.stat(t).entries, fromIndex.stat(t).entries,
                    toIndex.stat(t).entries);
        }
    }

    @Override
    public void close() {
        env.close();
    }

    private static ByteBuffer put(ByteBuffer b, byte[] bytes) {
        b.clear();
        b.put(bytes).flip();
        return b;
    }

    private static ByteBuffer putInt(ByteBuffer b, int v) {
        b.clear();
        b.putInt(v).flip();
        return b;
    }

    private static ByteBuffer putLong(ByteBuffer b, long v) {
        b.clear();
        b.putLong(v).flip();
        return b;
    }

    /** The dbis within one transaction. */
    private final class Ops implements Writer {
        final Txn<ByteBuffer> txn;

        Ops(Txn<ByteBuffer> txn) {
            this.txn = txn;
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            ByteBuffer p = parts.get(txn, putInt(key, id));
            if (p == null) {
                return false;
            }
            v.visit(Oo1Records.partX(p), Oo1Records.partY(p));
            return true;
        }

        @Override
        public void connectionsFrom(int id, IntList toIds) {
            follow(fromIndex, id, toIds, true);
        }

        @Override
        public void connectionsTo(int id, IntList fromIds) {
            follow(toIndex, id, fromIds, false);
        }

        private void follow(Dbi<ByteBuffer> index, int id, IntList out, boolean forward) {
            try (Cursor<ByteBuffer> c = index.openCursor(txn)) {
                for (boolean ok = c.get(putInt(key, id), GetOp.MDB_SET_KEY); ok; ok = c.seek(SeekOp.MDB_NEXT_DUP)) {
                    ByteBuffer d = c.val();
                    long recno = d.getLong(d.position());
                    ByteBuffer conn = connections.get(txn, putLong(key2, recno));
                    if (conn == null) {
                        throw new IllegalStateException("OO1: an index of LMDB " + options.dir() + " names connection "
                                + recno + ", which is missing");
                    }
                    int at = conn.position();
                    out.add(conn.getInt(at + (forward ? Oo1Records.OFF_C_TO : Oo1Records.OFF_C_FROM)));
                }
            }
        }

        @Override
        public int maxPartId() {
            try (Cursor<ByteBuffer> c = parts.openCursor(txn)) {
                return c.last() ? c.key().getInt(c.key().position()) : 0;
            }
        }

        @Override
        public void putPart(Part p) {
            parts.put(txn, putInt(key, p.id()), put(val, Oo1Records.part(p)));
        }

        @Override
        public long addConnection(Connection c) {
            long recno = nextRecno++;
            connections.put(txn, putLong(key, recno), put(val, Oo1Records.connection(c)));
            fromIndex.put(txn, putInt(key, c.from()), putLong(val, recno));
            toIndex.put(txn, putInt(key, c.to()), putLong(val, recno));
            return recno;
        }
    }
}
