package org.libtp.bench.tpcb;

import org.libtp.bench.engine.JeEngine;
import com.sleepycat.je.Cursor;
import com.sleepycat.je.CursorConfig;
import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseEntry;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.LockConflictException;
import com.sleepycat.je.LockMode;
import com.sleepycat.je.OperationStatus;
import com.sleepycat.je.Transaction;
import com.sleepycat.je.TransactionConfig;

import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TPC-B on Berkeley DB Java Edition (JE 18.3): a transactional JE environment in the directory
 * (a log-structured store: every change is appended to the {@code .jdb} log files, the B-tree
 * lives in the same log), databases {@code accounts}, {@code tellers}, {@code branches} keyed by
 * the 4-byte big-endian id and {@code history} keyed by an 8-byte big-endian sequence number
 * (an in-process counter started from the last key at open).
 *
 * <p>Concurrency: record locks, REPEATABLE_READ. A transfer reads each of the account, teller
 * and branch with {@link LockMode#RMW} (write lock taken at the read, so no read-to-write
 * upgrade deadlocks), puts the changed record, puts the history record and commits. A {@link
 * LockConflictException} (deadlock or the 500 ms lock timeout) aborts the transaction and is
 * counted as an abort.
 *
 * <p>What a commit does: JE writes a commit record to its log buffer; then
 * <ul>
 * <li>{@code sync} = {@link Durability#COMMIT_SYNC}: the log is written and fsync'd before
 *     commit returns (JE's FSyncManager groups concurrent committers into one fsync).
 * <li>{@code nosync} = {@link Durability#COMMIT_WRITE_NO_SYNC}: the log buffer is written to the
 *     log file with write(2) before commit returns, not forced: survives a crash of the
 *     process, not of the OS.
 * </ul>
 *
 * <p>One process only (JE allows one writing process per environment). {@code cacheBytes} is
 * JE's cache, which lives on the Java heap: it is capped at 60 % of the heap.
 */
final class JeTpcb implements TpcbStore {
    private final EngineOptions options;
    private final Path dir;
    private final Environment env;
    private final Database accounts;
    private final Database tellers;
    private final Database branches;
    private final Database history;
    private final AtomicLong nextHistory;
    private final TransactionConfig txnConfig;

    JeTpcb(EngineOptions o) {
        this.options = o;
        this.dir = o.dir();
        // lock timeout 500 ms, JE's logging as JE sets it: see JeEngine
        env = JeEngine.open(dir, o.cacheBytes(), o.sync(), 500, false);
        txnConfig = new TransactionConfig();
        try {
            DatabaseConfig dc = JeEngine.databaseConfig();
            accounts = env.openDatabase(null, "accounts", dc);
            tellers = env.openDatabase(null, "tellers", dc);
            branches = env.openDatabase(null, "branches", dc);
            history = env.openDatabase(null, "history", dc);
            nextHistory = new AtomicLong(lastKey(history) + 1);
        } catch (RuntimeException e) {
            env.close();
            throw new IllegalStateException("JE: cannot open the databases of " + dir + ": " + e.getMessage(), e);
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
    public boolean multiProcess() {
        return false;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        return lastKey(branches) == shape.branches() - 1 && lastKey(tellers) == shape.tellers() - 1
                && lastKey(accounts) == shape.accounts() - 1;
    }

    /** The last key as a number (4 or 8 bytes), -1 if empty (history keys start at 1). */
    private static long lastKey(Database db) {
        DatabaseEntry k = new DatabaseEntry();
        DatabaseEntry v = new DatabaseEntry();
        v.setPartial(0, 0, true);
        try (Cursor c = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            if (c.getLast(k, v, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                return -1;
            }
            ByteBuffer b = ByteBuffer.wrap(k.getData(), k.getOffset(), k.getSize());
            return k.getSize() == 8 ? b.getLong() : b.getInt();
        }
    }

    /** Transactions of 5,000 records without sync; then {@link Environment#sync} (checkpoint, forced). */
    @Override
    public void load(TpcbShape shape) {
        truncate(history);
        truncate(branches);
        truncate(tellers);
        truncate(accounts);
        fill(branches, shape.branches());
        fill(tellers, shape.tellers());
        fill(accounts, shape.accounts());
        nextHistory.set(1);
        env.sync();
    }

    /** Deletes every record, in transactions of 5,000 (a reload over an earlier, other shape). */
    private void truncate(Database db) {
        TransactionConfig noSync = new TransactionConfig().setDurability(Durability.COMMIT_NO_SYNC);
        DatabaseEntry k = new DatabaseEntry();
        DatabaseEntry v = new DatabaseEntry();
        v.setPartial(0, 0, true);
        boolean more = true;
        while (more) {
            Transaction t = env.beginTransaction(null, noSync);
            try (Cursor c = db.openCursor(t, null)) {
                int n = 0;
                while ((more = c.getNext(k, v, LockMode.RMW) == OperationStatus.SUCCESS) && n < 5_000) {
                    c.delete();
                    n++;
                }
            } catch (RuntimeException e) {
                t.abort();
                throw new IllegalStateException("JE: cannot empty " + db.getDatabaseName() + " in " + dir + ": "
                        + e.getMessage(), e);
            }
            t.commit();
        }
    }

    private void fill(Database db, int n) {
        final int batch = 5_000;
        TransactionConfig noSync = new TransactionConfig().setDurability(Durability.COMMIT_NO_SYNC);
        for (int from = 0; from < n; from += batch) {
            Transaction t = env.beginTransaction(null, noSync);
            try {
                for (int id = from; id < Math.min(n, from + batch); id++) {
                    db.put(t, new DatabaseEntry(TpcbRecords.key(id)), new DatabaseEntry(TpcbRecords.record(id, 0)));
                }
            } catch (RuntimeException e) {
                t.abort();
                throw new IllegalStateException("JE: cannot load " + dir + ": " + e.getMessage(), e);
            }
            t.commit();
        }
    }

    @Override
    public Sums sums() {
        long a = sum(accounts);
        long t = sum(tellers);
        long b = sum(branches);
        long h = 0;
        long rows = 0;
        try (Cursor c = history.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry k = new DatabaseEntry();
            DatabaseEntry v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                h += TpcbRecords.historyDelta(v.getData());
                rows++;
            }
        }
        return new Sums(a, t, b, h, rows);
    }

    private static long sum(Database db) {
        long s = 0;
        try (Cursor c = db.openCursor(null, CursorConfig.READ_COMMITTED)) {
            DatabaseEntry k = new DatabaseEntry();
            DatabaseEntry v = new DatabaseEntry();
            while (c.getNext(k, v, LockMode.DEFAULT) == OperationStatus.SUCCESS) {
                s += TpcbRecords.balance(v.getData());
            }
        }
        return s;
    }

    @Override
    public TpcbSession session() {
        return new Session();
    }

    @Override
    public void close() {
        JeEngine.close(env, accounts, tellers, branches, history);
    }

    private final class Session implements TpcbSession {
        private final DatabaseEntry key = new DatabaseEntry();
        private final DatabaseEntry data = new DatabaseEntry();
        private final byte[] historyKey = new byte[8];

        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            Transaction t = env.beginTransaction(null, txnConfig);
            try {
                update(accounts, t, aid, delta);
                update(tellers, t, tid, delta);
                update(branches, t, bid, delta);
                ByteBuffer.wrap(historyKey).putLong(0, nextHistory.getAndIncrement());
                history.put(t, new DatabaseEntry(historyKey),
                        new DatabaseEntry(TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis())));
                t.commit();
                return true;
            } catch (LockConflictException e) {
                abort(t);
                return false;
            } catch (RuntimeException e) {
                abort(t);
                throw e;
            }
        }

        private void update(Database db, Transaction t, int id, long delta) {
            key.setData(TpcbRecords.key(id));
            if (db.get(t, key, data, LockMode.RMW) != OperationStatus.SUCCESS) {
                throw new IllegalStateException("TPC-B record " + id + " missing from JE " + db.getDatabaseName()
                        + " in " + dir);
            }
            data.setData(TpcbRecords.add(data.getData(), delta));
            db.put(t, key, data);
        }

        private long read(Database db, Transaction t, int id) {
            key.setData(TpcbRecords.key(id));
            if (db.get(t, key, data, LockMode.DEFAULT) != OperationStatus.SUCCESS) {
                throw new IllegalStateException("TPC-B record " + id + " missing from JE " + db.getDatabaseName()
                        + " in " + dir);
            }
            return TpcbRecords.balance(data.getData());
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            Transaction t = env.beginTransaction(null, txnConfig);
            try {
                long s = read(accounts, t, aid) + read(tellers, t, tid) + read(branches, t, bid);
                t.commit();
                return s;
            } catch (LockConflictException e) {
                abort(t);
                return Long.MIN_VALUE;
            } catch (RuntimeException e) {
                abort(t);
                throw e;
            }
        }

        @Override
        public void close() {
        }
    }

    /** Aborts {@code t} unless it already ended (a failed commit may have ended it). */
    private static void abort(Transaction t) {
        Transaction.State st = t.getState();
        if (st == Transaction.State.OPEN || st == Transaction.State.MUST_ABORT) {
            t.abort();
        }
    }
}
