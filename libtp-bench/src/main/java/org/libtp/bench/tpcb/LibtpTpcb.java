package org.libtp.bench.tpcb;

import org.libtp.bench.engine.LibtpEngine;
import org.libtp.bench.engine.LibtpEngine.Variant;
import org.libtp.core.DeadlockException;
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
import java.util.concurrent.locks.ReentrantLock;

/**
 * TPC-B on LibTP's access methods: accounts, tellers and branches are B-trees keyed by the id,
 * history a fixed-length recno database. One class for the paper's four configurations, which
 * differ only in protection:
 * <ul>
 * <li>{@code TP} ("libtp"): OpenMode.TP, page locks, write-ahead log; durability SYNC (log
 *     forced at commit, group commit) or WRITE_NO_SYNC (written to the OS at commit).
 * <li>{@code NOTP}: OpenMode.UNPROTECTED: no locks, no log. Worker threads of one process take
 *     turns on a process-local mutex (the cheapest concurrency control there is; without any,
 *     concurrent writers would corrupt the pages). One process only.
 * <li>{@code FLOCK}: NOTP plus an exclusive {@link FileChannel#lock} of a lock file around each
 *     transaction (fcntl, the flock(2) of the paper), so several processes take turns.
 * <li>{@code FSYNC}: NOTP plus, at commit, every changed page written and the data files forced
 *     ({@link Environment#sync()}): durable, but not atomic. One process only.
 * </ul>
 */
final class LibtpTpcb implements TpcbStore {
    private final Variant variant;
    private final EngineOptions options;
    private final LibtpEngine engine;
    private final Environment env;
    private final Durability durability;
    private final Database accounts;
    private final Database tellers;
    private final Database branches;
    private final Database history;
    /** NOTP, FLOCK, FSYNC: one transaction at a time in this process. */
    private final ReentrantLock serial = new ReentrantLock();
    private final FileChannel lockFile;

    LibtpTpcb(Variant variant, EngineOptions o) {
        this.variant = variant;
        this.options = o;
        this.engine = LibtpEngine.open(variant, o.dir(), o.sync(), o.cacheBytes(), o.earlyLockRelease(), o.pageSize());
        this.env = engine.env();
        this.durability = engine.durability();
        this.lockFile = engine.lockFile();
        try {
            DatabaseConfig bt = DatabaseConfig.builder().type(DatabaseType.BTREE).allowCreate(true).build();
            accounts = env.openDatabase(null, "accounts", bt);
            tellers = env.openDatabase(null, "tellers", bt);
            branches = env.openDatabase(null, "branches", bt);
            history = env.openDatabase(null, "history", DatabaseConfig.builder().type(DatabaseType.RECNO)
                    .recordLength(TpcbRecords.HISTORY_BYTES).allowCreate(true).build());
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
    public long logForces() {
        return variant == Variant.TP ? env.stats().log().forcesAll() : -1;
    }

    @Override
    public long lockWaits() {
        return variant == Variant.TP ? env.stats().locks().waits() : -1;
    }

    @Override
    public boolean multiProcess() {
        return variant == Variant.TP || variant == Variant.FLOCK;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        return lastId(branches) == shape.branches() - 1 && lastId(tellers) == shape.tellers() - 1
                && lastId(accounts) == shape.accounts() - 1;
    }

    private int lastId(Database db) {
        Transaction t = variant == Variant.TP ? env.beginTransaction(Durability.NO_SYNC, true) : null;
        try (Cursor c = db.openCursor(t)) {
            return c.last() ? TpcbRecords.keyId(c.key()) : -1;
        } finally {
            if (t != null) {
                t.commit();
            }
        }
    }

    @Override
    public void load(TpcbShape shape) {
        if (lastId(branches) >= 0 || lastId(tellers) >= 0 || lastId(accounts) >= 0) {
            throw new IllegalStateException(options.dir() + " holds a TPC-B database of another shape; "
                    + "run with --fresh (or another --dir)");
        }
        fill(branches, shape.branches());
        fill(tellers, shape.tellers());
        fill(accounts, shape.accounts());
        env.sync();
        if (variant == Variant.TP) {
            env.checkpoint();
        }
    }

    /** Ids 0..n-1 in order, in transactions of 5,000 records (TP) or none. */
    private void fill(Database db, int n) {
        final int batch = 5_000;
        for (int from = 0; from < n; from += batch) {
            Transaction t = variant == Variant.TP ? env.beginTransaction(Durability.NO_SYNC, false) : null;
            for (int id = from; id < Math.min(n, from + batch); id++) {
                db.put(t, TpcbRecords.key(id), TpcbRecords.record(id, 0));
            }
            if (t != null) {
                t.commit();
            }
        }
    }

    @Override
    public TpcbSession session() {
        return variant == Variant.TP ? new TpSession() : new SerialSession();
    }

    /**
     * Scans in read-only transactions of {@value #SCAN_CHUNK} records each: one transaction over
     * a million accounts would lock every leaf and overflow the lock table. Nothing else runs
     * while the harness checks, so the chunks see one state.
     */
    @Override
    public Sums sums() {
        long a = sum(accounts);
        long te = sum(tellers);
        long b = sum(branches);
        long delta = 0;
        long rows = 0;
        long n = inTxn(t -> history.count(t));
        for (long from = 1; from <= n; from += SCAN_CHUNK) {
            long start = from;
            long[] part = inTxn(t -> {
                long d = 0;
                long r = 0;
                for (long rec = start; rec <= Math.min(n, start + SCAN_CHUNK - 1); rec++) {
                    byte[] h = history.get(t, rec);
                    if (h != null) {
                        d += TpcbRecords.historyDelta(h);
                        r++;
                    }
                }
                return new long[] {d, r};
            });
            delta += part[0];
            rows += part[1];
        }
        return new Sums(a, te, b, delta, rows);
    }

    private static final int SCAN_CHUNK = 10_000;

    private long sum(Database db) {
        long total = 0;
        int next = 0;
        while (next >= 0) {
            int from = next;
            long[] part = inTxn(t -> {
                long s = 0;
                int count = 0;
                int last = -1;
                try (Cursor c = db.openCursor(t)) {
                    for (boolean ok = c.seekRange(TpcbRecords.key(from)); ok && count < SCAN_CHUNK; ok = c.next()) {
                        s += TpcbRecords.balance(c.data());
                        last = TpcbRecords.keyId(c.key());
                        count++;
                    }
                }
                return new long[] {s, count < SCAN_CHUNK ? -1 : last + 1};
            });
            total += part[0];
            next = (int) part[1];
        }
        return total;
    }

    private <T> T inTxn(java.util.function.Function<Transaction, T> f) {
        Transaction t = variant == Variant.TP ? env.beginTransaction(Durability.NO_SYNC, true) : null;
        try {
            return f.apply(t);
        } finally {
            if (t != null) {
                t.commit();
            }
        }
    }

    @Override
    public void close() {
        engine.close();
    }

    /** OpenMode.TP: page locks and the log; a deadlock victim is aborted and reported. */
    private final class TpSession implements TpcbSession {
        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            Transaction t = env.beginTransaction(durability, false);
            try {
                update(accounts, t, aid, delta);
                update(tellers, t, tid, delta);
                update(branches, t, bid, delta);
                history.append(t, TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis()));
                t.commit();
                return true;
            } catch (DeadlockException e) {
                t.abort();
                return false;
            } finally {
                if (t.isActive()) {
                    t.abort();
                }
            }
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            Transaction t = env.beginTransaction(durability, true);
            try {
                long s = read(accounts, t, aid) + read(tellers, t, tid) + read(branches, t, bid);
                t.commit();
                return s;
            } catch (DeadlockException e) {
                t.abort();
                return Long.MIN_VALUE;
            } finally {
                if (t.isActive()) {
                    t.abort();
                }
            }
        }

        @Override
        public void close() {
        }
    }

    /** NOTP, FLOCK, FSYNC: one transaction at a time, no log. */
    private final class SerialSession implements TpcbSession {
        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            serial.lock();
            try {
                FileLock fl = lockFile == null ? null : lockFile.lock();
                try {
                    update(accounts, null, aid, delta);
                    update(tellers, null, tid, delta);
                    update(branches, null, bid, delta);
                    history.append(null, TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis()));
                    if (variant == Variant.FSYNC) {
                        env.sync();
                    }
                } finally {
                    if (fl != null) {
                        fl.release();
                    }
                }
                return true;
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                serial.unlock();
            }
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            serial.lock();
            try {
                FileLock fl = lockFile == null ? null : lockFile.lock(0, Long.MAX_VALUE, false);
                try {
                    return read(accounts, null, aid) + read(tellers, null, tid) + read(branches, null, bid);
                } finally {
                    if (fl != null) {
                        fl.release();
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            } finally {
                serial.unlock();
            }
        }

        @Override
        public void close() {
        }
    }

    private static void update(Database db, Transaction t, int id, long delta) {
        // One descent for the read-modify-write, the leaf write-locked from the start (no
        // upgrade deadlock): Database.update.
        if (db.update(t, TpcbRecords.key(id), r -> TpcbRecords.add(r, delta)) == null) {
            throw new IllegalStateException("TPC-B record " + id + " missing from " + db.name());
        }
    }

    private static long read(Database db, Transaction t, int id) {
        Long b = db.get(t, TpcbRecords.key(id), TpcbRecords::balance);
        if (b == null) {
            throw new IllegalStateException("TPC-B record " + id + " missing from " + db.name());
        }
        return b;
    }
}
