package org.libtp.bench.tpcb;

import com.sleepycat.db.Cursor;
import com.sleepycat.db.Database;
import com.sleepycat.db.DatabaseConfig;
import com.sleepycat.db.DatabaseEntry;
import com.sleepycat.db.DatabaseException;
import com.sleepycat.db.DatabaseType;
import com.sleepycat.db.DeadlockException;
import com.sleepycat.db.Environment;
import com.sleepycat.db.EnvironmentConfig;
import com.sleepycat.db.LockMode;
import com.sleepycat.db.OperationStatus;
import com.sleepycat.db.Transaction;
import org.libtp.bench.bdb.BdbEnvironment;

import java.io.FileNotFoundException;
import java.nio.ByteBuffer;

/**
 * TPC-B on Berkeley DB C 5.3 (Debian's {@code libdb5.3-java}: the JNI API {@code
 * com.sleepycat.db}), LIBTP's direct descendant. Built only with {@code -Pbdb} (the jar and the
 * JNI library come from the Debian packages, not from Maven Central); {@link TpcbEngines} loads
 * it by name.
 *
 * <p>A transactional environment (cache, locking, logging, transactions; see
 * {@link BdbEnvironment}); B-tree databases {@code accounts}, {@code tellers}, {@code branches}
 * keyed by the 4-byte big-endian id; {@code history} a fixed-length RECNO database appended to
 * ({@code DB_APPEND}), as in Berkeley DB's own {@code ex_tpcb}. Reads that precede writes use
 * {@link LockMode#RMW}; deadlocks are detected on every conflict ({@code DB_LOCK_DEFAULT}) and
 * the victim's transaction is aborted and counted.
 *
 * <p>Durability: {@code sync} is the default commit (the log is written and fsync'd, with group
 * commit); {@code nosync} is {@code DB_TXN_WRITE_NOSYNC} (written to the OS at commit, not
 * forced: survives a crash of the process, not of the OS). {@code cacheBytes} is the cache
 * size.
 *
 * <p>Processes: one, or several ({@code tpcb --processes N}: the parent loads and checks, its
 * child JVMs run the transactions). The environment's regions are files in {@code --dir} that
 * every process maps, so the cache, the lock table (deadlock detection included: a blocked
 * thread's detector sees every process's lockers), the log and group commit are shared. The
 * first process to open the environment runs recovery and creates the regions (cache size, lock
 * table sizes); the others join them without recovery ({@link BdbEnvironment}). Each process sets
 * the commit flag ({@code DB_TXN_WRITE_NOSYNC} or not) on its own handle. The child JVMs find
 * {@code db.jar} on the class path they inherit from the parent ({@code java -cp
 * libtp-bench.jar:/usr/share/java/db.jar}).
 */
final class BdbTpcb implements TpcbStore {
    private final EngineOptions options;
    private final BdbEnvironment shared;
    private final Environment env;
    private final Database accounts;
    private final Database tellers;
    private final Database branches;
    private final Database history;

    BdbTpcb(EngineOptions o) {
        this.options = o;
        EnvironmentConfig ec = BdbEnvironment.config(o.cacheBytes());
        if (!o.sync()) {
            ec.setTxnWriteNoSync(true);
        }
        shared = BdbEnvironment.open(o.dir(), ec);
        env = shared.environment();
        Database a = null;
        Database t = null;
        Database b = null;
        try {
            DatabaseConfig bt = new DatabaseConfig();
            bt.setType(DatabaseType.BTREE);
            bt.setAllowCreate(true);
            bt.setTransactional(true);
            a = env.openDatabase(null, "accounts.db", null, bt);
            t = env.openDatabase(null, "tellers.db", null, bt);
            b = env.openDatabase(null, "branches.db", null, bt);
            DatabaseConfig rn = new DatabaseConfig();
            rn.setType(DatabaseType.RECNO);
            rn.setRecordLength(TpcbRecords.HISTORY_BYTES);
            rn.setAllowCreate(true);
            rn.setTransactional(true);
            history = env.openDatabase(null, "history.db", null, rn);
        } catch (DatabaseException | FileNotFoundException e) {
            for (Database d : new Database[] {b, t, a}) {
                closeQuietly(d);
            }
            shared.close();
            throw new IllegalStateException("Berkeley DB: cannot open the TPC-B databases in " + o.dir() + ": " + e, e);
        }
        accounts = a;
        tellers = t;
        branches = b;
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

    @Override
    public String engine() {
        return "bdb";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public boolean multiProcess() {
        return true;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        return lastId(branches) == shape.branches() - 1 && lastId(tellers) == shape.tellers() - 1
                && lastId(accounts) == shape.accounts() - 1;
    }

    private static int lastId(Database db) {
        try {
            Cursor c = db.openCursor(null, null);
            try {
                DatabaseEntry k = new DatabaseEntry();
                DatabaseEntry v = new DatabaseEntry();
                return c.getLast(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS ? TpcbRecords.keyId(k.getData()) : -1;
            } finally {
                c.close();
            }
        } catch (DatabaseException e) {
            throw new IllegalStateException("Berkeley DB: " + e, e);
        }
    }

    @Override
    public void load(TpcbShape shape) {
        if (lastId(branches) >= 0 || lastId(tellers) >= 0 || lastId(accounts) >= 0) {
            throw new IllegalStateException(options.dir() + " holds a TPC-B database of another shape; run with --fresh");
        }
        try {
            fill(branches, shape.branches());
            fill(tellers, shape.tellers());
            fill(accounts, shape.accounts());
            env.checkpoint(null);
        } catch (DatabaseException e) {
            throw new IllegalStateException("Berkeley DB: load failed: " + e, e);
        }
    }

    private void fill(Database db, int n) throws DatabaseException {
        for (int from = 0; from < n; from += 5_000) {
            Transaction t = env.beginTransaction(null, null);
            for (int id = from; id < Math.min(n, from + 5_000); id++) {
                db.put(t, new DatabaseEntry(TpcbRecords.key(id)), new DatabaseEntry(TpcbRecords.record(id, 0)));
            }
            t.commit();
        }
    }

    @Override
    public TpcbSession session() {
        return new TpcbSession() {
            @Override
            public boolean transfer(int aid, int tid, int bid, long delta) {
                Transaction t = null;
                try {
                    t = env.beginTransaction(null, null);
                    update(accounts, t, aid, delta);
                    update(tellers, t, tid, delta);
                    update(branches, t, bid, delta);
                    history.append(t, new DatabaseEntry(), new DatabaseEntry(
                            TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis())));
                    t.commit();
                    return true;
                } catch (DeadlockException e) {
                    abort(t);
                    return false;
                } catch (DatabaseException e) {
                    abort(t);
                    throw new IllegalStateException("Berkeley DB: transfer failed: " + e, e);
                }
            }

            @Override
            public long readOnly(int aid, int tid, int bid) {
                Transaction t = null;
                try {
                    t = env.beginTransaction(null, null);
                    long s = read(accounts, t, aid, LockMode.DEFAULT) + read(tellers, t, tid, LockMode.DEFAULT)
                            + read(branches, t, bid, LockMode.DEFAULT);
                    t.commit();
                    return s;
                } catch (DeadlockException e) {
                    abort(t);
                    return Long.MIN_VALUE;
                } catch (DatabaseException e) {
                    abort(t);
                    throw new IllegalStateException("Berkeley DB: read failed: " + e, e);
                }
            }

            @Override
            public void close() {
            }
        };
    }

    private static void abort(Transaction t) {
        if (t != null) {
            try {
                t.abort();
            } catch (DatabaseException ignored) {
                // the environment is failing; the caller reports the first error
            }
        }
    }

    private static void update(Database db, Transaction t, int id, long delta) throws DatabaseException {
        DatabaseEntry k = new DatabaseEntry(TpcbRecords.key(id));
        DatabaseEntry v = new DatabaseEntry();
        if (db.get(t, k, v, LockMode.RMW) != OperationStatus.SUCCESS) {
            throw new IllegalStateException("TPC-B record " + id + " missing from Berkeley DB " + db);
        }
        db.put(t, k, new DatabaseEntry(TpcbRecords.add(v.getData(), delta)));
    }

    private static long read(Database db, Transaction t, int id, LockMode mode) throws DatabaseException {
        DatabaseEntry v = new DatabaseEntry();
        if (db.get(t, new DatabaseEntry(TpcbRecords.key(id)), v, mode) != OperationStatus.SUCCESS) {
            throw new IllegalStateException("TPC-B record " + id + " missing from Berkeley DB " + db);
        }
        return TpcbRecords.balance(v.getData());
    }

    @Override
    public Sums sums() {
        try {
            long h = 0;
            long rows = 0;
            Cursor c = history.openCursor(null, null);
            try {
                DatabaseEntry k = new DatabaseEntry();
                DatabaseEntry v = new DatabaseEntry();
                while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                    h += TpcbRecords.historyDelta(v.getData());
                    rows++;
                }
            } finally {
                c.close();
            }
            return new Sums(sum(accounts), sum(tellers), sum(branches), h, rows);
        } catch (DatabaseException e) {
            throw new IllegalStateException("Berkeley DB: scan failed: " + e, e);
        }
    }

    private static long sum(Database db) throws DatabaseException {
        long s = 0;
        Cursor c = db.openCursor(null, null);
        try {
            DatabaseEntry k = new DatabaseEntry();
            DatabaseEntry v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                s += ByteBuffer.wrap(v.getData()).getLong(TpcbRecords.OFF_BALANCE);
            }
        } finally {
            c.close();
        }
        return s;
    }

    @Override
    public void close() {
        try {
            history.close();
            branches.close();
            tellers.close();
            accounts.close();
        } catch (DatabaseException e) {
            throw new IllegalStateException("Berkeley DB: close failed: " + e, e);
        } finally {
            shared.close();
        }
    }
}
