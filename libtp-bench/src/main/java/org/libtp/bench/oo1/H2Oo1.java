package org.libtp.bench.oo1;

import org.libtp.bench.engine.H2Engine;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionMap;
import org.h2.mvstore.tx.TransactionStore;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.IntegerDataType;
import org.h2.mvstore.type.LongDataType;

import java.nio.ByteBuffer;
import java.util.Iterator;

/**
 * OO1 on H2's MVStore with its TransactionStore (no SQL): map {@code parts} (id to the part
 * record), map {@code connections} (record number to the connection record; numbers handed out
 * by this store, after the highest at open), and two index maps whose long keys are
 * {@code partId << 32 | recordNumber} with empty values, the from- and to-index of LibTP in
 * MVStore's own key type.
 *
 * <p>Durability: a TransactionStore commit only marks the transaction committed in memory; the
 * MVStore writes its changes to the file in a background thread (every second by default) and
 * never forces the file by itself. {@code sync}: after the insert's commit this store calls
 * {@link MVStore#commit()} (writes a new chunk) and {@link MVStore#sync()} (forces the file).
 * {@code nosync}: the commit alone; the change reaches the file within about a second and is
 * never forced: a process crash can lose the last second of commits.
 * The page cache is {@code --cache-mb} ({@link MVStore.Builder#cacheSize}).
 */
final class H2Oo1 implements Oo1Store {
    private final StoreOptions options;
    private final String file;
    private final H2Engine engine;
    private final MVStore store;
    private final TransactionStore txns;
    private final TransactionMap<Integer, byte[]> parts;
    private final TransactionMap<Long, byte[]> connections;
    private final TransactionMap<Long, byte[]> fromIndex;
    private final TransactionMap<Long, byte[]> toIndex;
    private long nextRecno;

    H2Oo1(StoreOptions o) {
        this.options = o;
        this.file = o.dir().resolve("oo1.mv.db").toString();
        this.engine = H2Engine.open(o.dir().resolve("oo1.mv.db"), o.cacheBytes());
        this.store = engine.store();
        this.txns = engine.txStore();
        try {
            Transaction t = txns.begin();
            parts = t.openMap("parts", IntegerDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            connections = t.openMap("connections", LongDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            fromIndex = t.openMap("conn_from", LongDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            toIndex = t.openMap("conn_to", LongDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            Long last = connections.lastKey();
            nextRecno = last == null ? 1 : last + 1;
            t.commit();
        } catch (RuntimeException e) {
            engine.closeImmediately();
            throw new IllegalStateException("cannot open the OO1 maps of H2 MVStore " + file + ": " + e.getMessage(), e);
        }
    }

    @Override
    public String engine() {
        return "h2";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public <T> T read(ReadTask<T> task) {
        Transaction t = txns.begin();
        try {
            T r = task.run(new Ops(t));
            t.commit();
            return r;
        } finally {
            if (t.getStatus() != Transaction.STATUS_CLOSED) {
                t.rollback();
            }
        }
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        T r = run(task);
        if (options.sync()) {
            forceStore();
        }
        return r;
    }

    @Override
    public void bulk(WriteTask<?> task) {
        run(task);
    }

    private <T> T run(WriteTask<T> task) {
        Transaction t = txns.begin();
        try {
            T r = task.run(new Ops(t));
            t.commit();
            return r;
        } finally {
            if (t.getStatus() != Transaction.STATUS_CLOSED) {
                t.rollback();
            }
        }
    }

    /** Writes the store's pending changes and forces the file. */
    private void forceStore() {
        engine.force();
    }

    @Override
    public void flush() {
        forceStore();
    }

    @Override
    public Counts counts() {
        return read(r -> {
            Ops o = (Ops) r;
            return new Counts(o.parts.sizeAsLong(), o.connections.sizeAsLong(), o.fromIndex.sizeAsLong(),
                    o.toIndex.sizeAsLong());
        });
    }

    @Override
    public void close() {
        try {
            engine.close();
        } catch (RuntimeException e) {
            throw new IllegalStateException("cannot close H2 MVStore " + file + ": " + e.getMessage(), e);
        }
    }

    /** The maps as seen by one transaction. */
    private final class Ops implements Writer {
        final TransactionMap<Integer, byte[]> parts;
        final TransactionMap<Long, byte[]> connections;
        final TransactionMap<Long, byte[]> fromIndex;
        final TransactionMap<Long, byte[]> toIndex;

        Ops(Transaction t) {
            parts = H2Oo1.this.parts.getInstance(t);
            connections = H2Oo1.this.connections.getInstance(t);
            fromIndex = H2Oo1.this.fromIndex.getInstance(t);
            toIndex = H2Oo1.this.toIndex.getInstance(t);
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            byte[] p = parts.get(id);
            if (p == null) {
                return false;
            }
            ByteBuffer b = ByteBuffer.wrap(p);
            v.visit(Oo1Records.partX(b), Oo1Records.partY(b));
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

        private void follow(TransactionMap<Long, byte[]> index, int id, IntList out, boolean forward) {
            long lo = (long) id << 32;
            Iterator<Long> it = index.keyIterator(lo, lo | 0xFFFF_FFFFL);
            while (it.hasNext()) {
                long k = it.next();
                if (k >>> 32 != id) {
                    break;
                }
                long recno = k & 0xFFFF_FFFFL;
                byte[] c = connections.get(recno);
                if (c == null) {
                    throw new IllegalStateException("OO1: an index of " + file + " names connection " + recno
                            + ", which is missing");
                }
                out.add(forward ? Oo1Records.connectionTo(c) : Oo1Records.connectionFrom(c));
            }
        }

        @Override
        public int maxPartId() {
            Integer k = parts.lastKey();
            return k == null ? 0 : k;
        }

        @Override
        public void putPart(Part p) {
            parts.put(p.id(), Oo1Records.part(p));
        }

        @Override
        public long addConnection(Connection c) {
            long recno = nextRecno++;
            if (recno > 0xFFFF_FFFFL) {
                throw new IllegalStateException("OO1 on H2: more than 2^32 connections in " + file);
            }
            connections.put(recno, Oo1Records.connection(c));
            fromIndex.put((long) c.from() << 32 | recno, Oo1Records.EMPTY);
            toIndex.put((long) c.to() << 32 | recno, Oo1Records.EMPTY);
            return recno;
        }
    }
}
