package org.libtp.bench.oo1;

import org.libtp.bench.engine.JeEngine;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;

import java.nio.ByteBuffer;

/**
 * OO1 on Berkeley DB Java Edition, LibTP's closest relative: databases {@code parts} (id key),
 * {@code connections} (JE has no record-number access method: 8-byte record-number keys, numbers
 * handed out by this store after the highest at open), and {@code conn_from} / {@code conn_to}
 * with LibTP's composite keys (part id + record number, empty data), which is what JE makes of
 * sorted duplicates internally anyway.
 *
 * <p>A transactional environment; every test is a transaction (lookups and traversals with
 * {@code setReadOnly}). {@code sync}: the insert commits {@link Durability#COMMIT_SYNC} (log
 * fsynced); {@code nosync}: {@link Durability#COMMIT_WRITE_NO_SYNC} (log written to the OS:
 * survives the process, not the OS). Loading commits {@code COMMIT_NO_SYNC} and ends with
 * {@link Environment#sync()}. The cache is {@code --cache-mb}; JE's own log file (je.info) is off.
 */
final class JeOo1 implements Oo1Store {
    private final StoreOptions options;
    private final Environment env;
    private final Database parts;
    private final Database connections;
    private final Database fromIndex;
    private final Database toIndex;
    private final TransactionConfig readTxn = new TransactionConfig().setReadOnly(true);
    private final TransactionConfig writeTxn;
    private final TransactionConfig bulkTxn = new TransactionConfig().setDurability(Durability.COMMIT_NO_SYNC);
    private long nextRecno;

    JeOo1(StoreOptions o) {
        this.options = o;
        writeTxn = new TransactionConfig().setDurability(o.sync() ? Durability.COMMIT_SYNC : Durability.COMMIT_WRITE_NO_SYNC);
        // JE's lock timeout, its logging off: see JeEngine
        env = JeEngine.open(o.dir(), o.cacheBytes(), o.sync(), 0, true);
        try {
            DatabaseConfig dc = JeEngine.databaseConfig();
            parts = env.openDatabase(null, "parts", dc);
            connections = env.openDatabase(null, "connections", dc);
            fromIndex = env.openDatabase(null, "conn_from", dc);
            toIndex = env.openDatabase(null, "conn_to", dc);
            try (Cursor c = connections.openCursor(null, null)) {
                DatabaseEntry k = new DatabaseEntry();
                DatabaseEntry d = new DatabaseEntry();
                d.setPartial(0, 0, true);
                nextRecno = c.getLast(k, d, LockMode.READ_UNCOMMITTED) == OperationStatus.SUCCESS
                        ? Oo1Records.recnoKeyValue(k.getData()) + 1 : 1;
            }
        } catch (DatabaseException e) {
            env.close();
            throw new IllegalStateException("cannot open the OO1 databases of JE environment " + o.dir() + ": "
                    + e.getMessage(), e);
        }
    }

    @Override
    public String engine() {
        return "je";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public <T> T read(ReadTask<T> task) {
        return run(readTxn, t -> task.run(new Ops(t)));
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        return run(writeTxn, t -> task.run(new Ops(t)));
    }

    @Override
    public void bulk(WriteTask<?> task) {
        run(bulkTxn, t -> task.run(new Ops(t)));
    }

    private <T> T run(TransactionConfig tc, java.util.function.Function<Transaction, T> body) {
        Transaction t = env.beginTransaction(null, tc);
        try {
            T r = body.apply(t);
            t.commit();
            return r;
        } finally {
            if (t.isValid()) {
                t.abort();
            }
        }
    }

    @Override
    public void flush() {
        env.sync();
    }

    @Override
    public Counts counts() {
        return run(readTxn, t -> new Counts(parts.count(), connections.count(), fromIndex.count(), toIndex.count()));
    }

    @Override
    public void close() {
        JeEngine.close(env, parts, connections, fromIndex, toIndex);
    }

    /** The databases within one transaction. */
    private final class Ops implements Writer {
        final Transaction txn;
        final DatabaseEntry key = new DatabaseEntry();
        final DatabaseEntry data = new DatabaseEntry();

        Ops(Transaction txn) {
            this.txn = txn;
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            key.setData(Oo1Records.partKey(id));
            if (parts.get(txn, key, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                return false;
            }
            ByteBuffer b = ByteBuffer.wrap(data.getData(), data.getOffset(), data.getSize()).slice();
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

        private void follow(Database index, int id, IntList out, boolean forward) {
            DatabaseEntry k = new DatabaseEntry(Oo1Records.indexKey(id, 0));
            DatabaseEntry d = new DatabaseEntry();
            d.setPartial(0, 0, true);
            try (Cursor c = index.openCursor(txn, CursorConfig.DEFAULT)) {
                for (OperationStatus s = c.getSearchKeyRange(k, d, LockMode.DEFAULT); s == OperationStatus.SUCCESS;
                     s = c.getNext(k, d, LockMode.DEFAULT)) {
                    byte[] kb = k.getData();
                    if (Oo1Records.indexKeyPart(kb) != id) {
                        break;
                    }
                    long recno = Oo1Records.indexKeyRecno(kb);
                    key.setData(Oo1Records.recnoKey(recno));
                    if (connections.get(txn, key, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                        throw new IllegalStateException("OO1: " + index.getDatabaseName() + " of " + options.dir()
                                + " names connection " + recno + ", which is missing");
                    }
                    byte[] conn = data.getData();
                    out.add(forward ? Oo1Records.connectionTo(conn) : Oo1Records.connectionFrom(conn));
                }
            }
        }

        @Override
        public int maxPartId() {
            try (Cursor c = parts.openCursor(txn, CursorConfig.DEFAULT)) {
                DatabaseEntry k = new DatabaseEntry();
                DatabaseEntry d = new DatabaseEntry();
                d.setPartial(0, 0, true);
                return c.getLast(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS ? Oo1Records.partKeyId(k.getData()) : 0;
            }
        }

        @Override
        public void putPart(Part p) {
            parts.put(txn, new DatabaseEntry(Oo1Records.partKey(p.id())), new DatabaseEntry(Oo1Records.part(p)));
        }

        @Override
        public long addConnection(Connection c) {
            long recno = nextRecno++;
            connections.put(txn, new DatabaseEntry(Oo1Records.recnoKey(recno)), new DatabaseEntry(Oo1Records.connection(c)));
            DatabaseEntry empty = new DatabaseEntry(Oo1Records.EMPTY);
            fromIndex.put(txn, new DatabaseEntry(Oo1Records.indexKey(c.from(), recno)), empty);
            toIndex.put(txn, new DatabaseEntry(Oo1Records.indexKey(c.to(), recno)), empty);
            return recno;
        }
    }
}
