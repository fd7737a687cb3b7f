package org.libtp.bench.oo1;

import com.sleepycat.db.CheckpointConfig;
import com.sleepycat.db.Cursor;
import com.sleepycat.db.Database;
import com.sleepycat.db.DatabaseConfig;
import com.sleepycat.db.DatabaseEntry;
import com.sleepycat.db.DatabaseException;
import com.sleepycat.db.DatabaseType;
import com.sleepycat.db.Environment;
import com.sleepycat.db.LockMode;
import com.sleepycat.db.OperationStatus;
import com.sleepycat.db.Transaction;
import com.sleepycat.db.TransactionConfig;
import org.libtp.bench.bdb.BdbEnvironment;

import java.io.FileNotFoundException;
import java.nio.ByteBuffer;

/**
 * OO1 on Berkeley DB C 5.3 (Debian's {@code libdb5.3-java}, JNI API {@code com.sleepycat.db}),
 * LIBTP's direct descendant, with the layout of the paper and of {@link LibtpOo1}: {@code parts}
 * a B-tree keyed by the 4-byte id; {@code connections} a RECNO database of fixed-length
 * 22-byte records appended to ({@code DB_APPEND}: the record number is Berkeley DB's own);
 * {@code conn_from} and {@code conn_to} B-trees whose keys are the part id followed by the
 * connection's record number (empty data), as {@link LibtpOo1} and {@link JeOo1} have them.
 * Built only with {@code -Pbdb}; {@link Oo1Engines} loads it by name.
 *
 * <p>A transactional environment ({@link BdbEnvironment}: cache of {@code --cache-mb}, page
 * locks, write-ahead log; recovery at open); every test is one transaction (lookups and
 * traversals too: Berkeley DB has no read-only transactions outside snapshot isolation, so they
 * take read locks and their commit writes nothing). Durability of the insert test's commit:
 * {@code sync} is the default commit with the log fsync'd ({@code DB_TXN_SYNC}); {@code nosync}
 * is {@code DB_TXN_WRITE_NOSYNC} (the log written to the OS at commit, not forced: survives the
 * process, not the OS). Loading commits {@code DB_TXN_NOSYNC} and ends with a log flush and a
 * checkpoint. One process (the OO1 harness has no others).
 *
 * <p>Cold runs: {@link Oo1Command} closes the store, drops the OS page cache and reopens it. At
 * that open this process is the only one in the environment, so {@link BdbEnvironment} runs
 * recovery and then removes the regions and creates them anew: Berkeley DB's cache starts empty
 * (checked with its cache statistics: 0 pages at open; without the removal, recovery had left
 * the pages its log records touched in the cache, and the region files keep cached pages from
 * one open to the next), like every other engine's.
 */
final class BdbOo1 implements Oo1Store {
    private final StoreOptions options;
    private final BdbEnvironment shared;
    private final Environment env;
    private final Database parts;
    private final Database connections;
    private final Database fromIndex;
    private final Database toIndex;
    private final TransactionConfig writeTxn = new TransactionConfig();
    private final TransactionConfig bulkTxn = new TransactionConfig();

    BdbOo1(StoreOptions o) {
        this.options = o;
        if (o.sync()) {
            writeTxn.setSync(true);
        } else {
            writeTxn.setWriteNoSync(true);
        }
        bulkTxn.setNoSync(true);
        shared = BdbEnvironment.open(o.dir(), BdbEnvironment.config(o.cacheBytes()));
        env = shared.environment();
        Database[] dbs = new Database[4];
        try {
            DatabaseConfig bt = new DatabaseConfig();
            bt.setType(DatabaseType.BTREE);
            bt.setAllowCreate(true);
            bt.setTransactional(true);
            DatabaseConfig rn = new DatabaseConfig();
            rn.setType(DatabaseType.RECNO);
            rn.setRecordLength(Oo1Records.CONNECTION_BYTES);
            rn.setAllowCreate(true);
            rn.setTransactional(true);
            dbs[0] = env.openDatabase(null, "parts.db", null, bt);
            dbs[1] = env.openDatabase(null, "connections.db", null, rn);
            dbs[2] = env.openDatabase(null, "conn_from.db", null, bt);
            dbs[3] = env.openDatabase(null, "conn_to.db", null, bt);
        } catch (DatabaseException | FileNotFoundException e) {
            for (Database d : dbs) {
                closeQuietly(d);
            }
            shared.close();
            throw new IllegalStateException("Berkeley DB: cannot open the OO1 databases in " + o.dir() + ": " + e, e);
        }
        parts = dbs[0];
        connections = dbs[1];
        fromIndex = dbs[2];
        toIndex = dbs[3];
    }

    private static void closeQuietly(Database d) {
        if (d != null) {
            try {
                d.close();
            } catch (DatabaseException ignored) {
                // the open failed; that error is the one reported
            }
        }
    }

    private static IllegalStateException failure(String what, DatabaseException e) {
        return new IllegalStateException("Berkeley DB: " + what + " failed: " + e, e);
    }

    @Override
    public String engine() {
        return "bdb";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public <T> T read(ReadTask<T> task) {
        return run(null, task::run);
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        return run(writeTxn, task::run);
    }

    @Override
    public void bulk(WriteTask<?> task) {
        run(bulkTxn, task::run);
    }

    /** Runs {@code body} in one transaction begun with {@code tc} (null: the defaults) and commits. */
    private <T> T run(TransactionConfig tc, java.util.function.Function<Ops, T> body) {
        Transaction t;
        try {
            t = env.beginTransaction(null, tc);
        } catch (DatabaseException e) {
            throw failure("begin", e);
        }
        boolean done = false;
        try {
            T r = body.apply(new Ops(t));
            t.commit();
            done = true;
            return r;
        } catch (DatabaseException e) {
            done = true; // a failed commit ends the transaction
            throw failure("commit", e);
        } finally {
            if (!done) {
                try {
                    t.abort();
                } catch (DatabaseException ignored) {
                    // the task's own exception is the one reported
                }
            }
        }
    }

    @Override
    public void flush() {
        try {
            env.logFlush(null);
            CheckpointConfig cc = new CheckpointConfig();
            cc.setForce(true);
            env.checkpoint(cc);
        } catch (DatabaseException e) {
            throw failure("flush", e);
        }
    }

    @Override
    public Counts counts() {
        return read(r -> {
            Transaction t = ((Ops) r).txn;
            return new Counts(scan(parts, t), scan(connections, t), scan(fromIndex, t), scan(toIndex, t));
        });
    }

    private static long scan(Database db, Transaction t) {
        try {
            Cursor c = db.openCursor(t, null);
            try {
                DatabaseEntry k = new DatabaseEntry();
                DatabaseEntry d = new DatabaseEntry();
                d.setPartial(0, 0, true);
                long n = 0;
                while (c.getNext(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                    n++;
                }
                return n;
            } finally {
                c.close();
            }
        } catch (DatabaseException e) {
            throw failure("scan", e);
        }
    }

    @Override
    public void close() {
        try {
            toIndex.close();
            fromIndex.close();
            connections.close();
            parts.close();
        } catch (DatabaseException e) {
            throw failure("close", e);
        } finally {
            shared.close();
        }
    }

    /** The 4-byte big-endian int at {@code off} of a returned entry. */
    private static int intAt(DatabaseEntry e, int off) {
        return ByteBuffer.wrap(e.getData(), e.getOffset(), e.getSize()).getInt(e.getOffset() + off);
    }

    /** The databases within one transaction. */
    private final class Ops implements Writer {
        final Transaction txn;
        final DatabaseEntry key = new DatabaseEntry();
        final DatabaseEntry data = new DatabaseEntry();
        final DatabaseEntry recno = new DatabaseEntry();
        final DatabaseEntry empty = new DatabaseEntry(Oo1Records.EMPTY);

        Ops(Transaction txn) {
            this.txn = txn;
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            key.setData(Oo1Records.partKey(id));
            try {
                if (parts.get(txn, key, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                    return false;
                }
            } catch (DatabaseException e) {
                throw failure("part lookup", e);
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

        /** Index entries of part {@code id}, then each connection record (by record number) for the other end. */
        private void follow(Database index, int id, IntList out, boolean forward) {
            DatabaseEntry k = new DatabaseEntry(Oo1Records.indexKey(id, 0));
            DatabaseEntry d = new DatabaseEntry();
            d.setPartial(0, 0, true);
            try {
                Cursor c = index.openCursor(txn, null);
                try {
                    for (OperationStatus s = c.getSearchKeyRange(k, d, LockMode.DEFAULT); s == OperationStatus.SUCCESS;
                         s = c.getNext(k, d, LockMode.DEFAULT)) {
                        ByteBuffer kb = ByteBuffer.wrap(k.getData(), k.getOffset(), k.getSize()).slice();
                        if (kb.getInt(0) != id) {
                            break;
                        }
                        long n = kb.getLong(4);
                        recno.setRecordNumber((int) n);
                        if (connections.get(txn, recno, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                            throw new IllegalStateException("OO1: an index of Berkeley DB " + options.dir()
                                    + " names connection " + n + ", which is missing");
                        }
                        out.add(intAt(data, forward ? Oo1Records.OFF_C_TO : Oo1Records.OFF_C_FROM));
                    }
                } finally {
                    c.close();
                }
            } catch (DatabaseException e) {
                throw failure("index scan", e);
            }
        }

        @Override
        public int maxPartId() {
            try {
                Cursor c = parts.openCursor(txn, null);
                try {
                    DatabaseEntry k = new DatabaseEntry();
                    DatabaseEntry d = new DatabaseEntry();
                    d.setPartial(0, 0, true);
                    return c.getLast(k, d, LockMode.DEFAULT) == OperationStatus.SUCCESS ? intAt(k, 0) : 0;
                } finally {
                    c.close();
                }
            } catch (DatabaseException e) {
                throw failure("last part", e);
            }
        }

        @Override
        public void putPart(Part p) {
            try {
                parts.put(txn, new DatabaseEntry(Oo1Records.partKey(p.id())), new DatabaseEntry(Oo1Records.part(p)));
            } catch (DatabaseException e) {
                throw failure("part insert", e);
            }
        }

        @Override
        public long addConnection(Connection c) {
            try {
                DatabaseEntry k = new DatabaseEntry();
                connections.append(txn, k, new DatabaseEntry(Oo1Records.connection(c)));
                long n = k.getRecordNumber() & 0xFFFF_FFFFL;
                fromIndex.put(txn, new DatabaseEntry(Oo1Records.indexKey(c.from(), n)), empty);
                toIndex.put(txn, new DatabaseEntry(Oo1Records.indexKey(c.to(), n)), empty);
                return n;
            } catch (DatabaseException e) {
                throw failure("connection insert", e);
            }
        }
    }
}
