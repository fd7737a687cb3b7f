package org.libtp.bench.tpcb;

import org.libtp.bench.engine.LmdbEngine;
import org.lmdbjava.Cursor;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.LmdbException;
import org.lmdbjava.PutFlags;
import org.lmdbjava.Txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * TPC-B on LMDB (lmdbjava 0.9.3, the native liblmdb it bundles): an environment in the
 * directory ({@code data.mdb}, {@code lock.mdb}), named databases {@code accounts}, {@code
 * tellers}, {@code branches} keyed by the 4-byte big-endian id and {@code history} keyed by an
 * 8-byte big-endian sequence number. LMDB is a copy-on-write B+tree in one memory-mapped file.
 *
 * <p>Concurrency: one write transaction at a time per environment, across threads and
 * processes (LMDB's writer mutex in the shared lock file); readers never wait and never block
 * the writer (MVCC). So a transfer never aborts: its write transaction waits for the writer
 * mutex, reads the account, teller and branch, puts their changed copies, appends the history
 * record (key = last key + 1, read in the same write transaction, which makes the sequence
 * correct across processes) and commits.
 *
 * <p>What a commit does: writes the transaction's new pages to the data file with write(2)
 * (this is not MDB_WRITEMAP), then
 * <ul>
 * <li>{@code sync} (no flags): fdatasync of the data file, then the new meta page is written
 *     and fdatasync'd again: two forces per commit, no group commit (one writer at a time).
 * <li>{@code nosync} ({@code MDB_NOSYNC}): the pages and the meta page are written, never
 *     forced: survives a crash of the process, not of the OS (LMDB may lose the last
 *     transactions then, but stays consistent unless the file system reorders writes).
 * </ul>
 *
 * <p>Several processes may open the environment at once. Within one process it must be opened
 * only once (LMDB's POSIX locks are per process: closing a second handle would release the
 * first's), which this class enforces. The map size is 8 GiB (or twice the data file plus 1 GiB
 * if larger); the file is not preallocated. {@code cacheBytes} does not apply: LMDB's cache is
 * the OS page cache.
 */
final class LmdbTpcb implements TpcbStore {
    private static final long MIN_MAP_BYTES = 8L << 30;
    /** Directories with an open Env in this process. */
    private static final Set<Path> OPEN = new HashSet<>();

    private final EngineOptions options;
    private final Path dir;
    private final Env<ByteBuffer> env;
    private final Dbi<ByteBuffer> accounts;
    private final Dbi<ByteBuffer> tellers;
    private final Dbi<ByteBuffer> branches;
    private final Dbi<ByteBuffer> history;

    LmdbTpcb(EngineOptions o) {
        this.options = o;
        try {
            Files.createDirectories(o.dir());
            this.dir = o.dir().toRealPath();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + o.dir(), e);
        }
        synchronized (OPEN) {
            if (!OPEN.add(dir)) {
                throw new IllegalStateException("LMDB environment " + dir + " is already open in this process");
            }
        }
        try {
            Path data = dir.resolve("data.mdb");
            long fileBytes = Files.exists(data) ? Files.size(data) : 0;
            long mapBytes = Math.max(MIN_MAP_BYTES, 2 * fileBytes + (1L << 30));
            // reader slots for the workers of every process: see LmdbEngine
            env = LmdbEngine.open(dir, mapBytes, Math.max(1024, 8 * o.mpl()), o.sync());
        } catch (IOException | RuntimeException e) {
            forget();
            throw new IllegalStateException("LMDB: cannot open the environment " + dir + ": " + e.getMessage(), e);
        }
        try {
            env.readerCheck(); // reader slots of dead processes
            accounts = env.openDbi("accounts", DbiFlags.MDB_CREATE);
            tellers = env.openDbi("tellers", DbiFlags.MDB_CREATE);
            branches = env.openDbi("branches", DbiFlags.MDB_CREATE);
            history = env.openDbi("history", DbiFlags.MDB_CREATE);
        } catch (RuntimeException e) {
            env.close();
            forget();
            throw new IllegalStateException("LMDB: cannot open the databases of " + dir + ": " + e.getMessage(), e);
        }
    }

    private void forget() {
        synchronized (OPEN) {
            OPEN.remove(dir);
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
    public boolean multiProcess() {
        return true;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        try (Txn<ByteBuffer> t = env.txnRead()) {
            return lastKey(branches, t) == shape.branches() - 1 && lastKey(tellers, t) == shape.tellers() - 1
                    && lastKey(accounts, t) == shape.accounts() - 1;
        }
    }

    /** The last key as a number (4 or 8 bytes), -1 if empty (history keys start at 1). */
    private static long lastKey(Dbi<ByteBuffer> db, Txn<ByteBuffer> t) {
        try (Cursor<ByteBuffer> c = db.openCursor(t)) {
            if (!c.last()) {
                return -1;
            }
            ByteBuffer k = c.key();
            return k.remaining() == 8 ? k.getLong(k.position()) : k.getInt(k.position());
        }
    }

    /** Appends in write transactions of 10,000 records; then forced (also under MDB_NOSYNC). */
    @Override
    public void load(TpcbShape shape) {
        try {
            try (Txn<ByteBuffer> t = env.txnWrite()) {
                history.drop(t);
                t.commit();
            }
            fill(branches, shape.branches());
            fill(tellers, shape.tellers());
            fill(accounts, shape.accounts());
            env.sync(true);
        } catch (LmdbException e) {
            throw new IllegalStateException("LMDB: cannot load " + dir + ": " + e.getMessage(), e);
        }
    }

    private void fill(Dbi<ByteBuffer> db, int n) {
        ByteBuffer k = ByteBuffer.allocateDirect(4);
        ByteBuffer v = ByteBuffer.allocateDirect(TpcbRecords.RECORD_BYTES);
        final int batch = 10_000;
        for (int from = 0; from < n; from += batch) {
            try (Txn<ByteBuffer> t = env.txnWrite()) {
                if (from == 0) {
                    db.drop(t);
                }
                for (int id = from; id < Math.min(n, from + batch); id++) {
                    k.clear();
                    k.putInt(0, id);
                    v.clear();
                    v.put(TpcbRecords.record(id, 0)).flip();
                    db.put(t, k, v, PutFlags.MDB_APPEND);
                }
                t.commit();
            }
        }
    }

    @Override
    public Sums sums() {
        try (Txn<ByteBuffer> t = env.txnRead()) {
            long a = sum(accounts, t);
            long te = sum(tellers, t);
            long b = sum(branches, t);
            long h = 0;
            long rows = 0;
            try (Cursor<ByteBuffer> c = history.openCursor(t)) {
                for (boolean ok = c.first(); ok; ok = c.next()) {
                    ByteBuffer v = c.val();
                    h += v.getLong(v.position() + TpcbRecords.OFF_H_DELTA);
                    rows++;
                }
            }
            return new Sums(a, te, b, h, rows);
        }
    }

    private static long sum(Dbi<ByteBuffer> db, Txn<ByteBuffer> t) {
        long s = 0;
        try (Cursor<ByteBuffer> c = db.openCursor(t)) {
            for (boolean ok = c.first(); ok; ok = c.next()) {
                s += TpcbRecords.balance(c.val());
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
        try {
            env.close();
        } finally {
            forget();
        }
    }

    private final class Session implements TpcbSession {
        private final ByteBuffer key = ByteBuffer.allocateDirect(4);
        private final ByteBuffer val = ByteBuffer.allocateDirect(TpcbRecords.RECORD_BYTES);
        private final ByteBuffer hKey = ByteBuffer.allocateDirect(8);
        private final ByteBuffer hVal = ByteBuffer.allocateDirect(TpcbRecords.HISTORY_BYTES);

        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            byte[] h = TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis());
            try (Txn<ByteBuffer> t = env.txnWrite()) {
                update(accounts, t, aid, delta);
                update(tellers, t, tid, delta);
                update(branches, t, bid, delta);
                long last = lastKey(history, t);
                hKey.clear();
                hKey.putLong(0, last < 0 ? 1 : last + 1);
                hVal.clear();
                hVal.put(h).flip();
                history.put(t, hKey, hVal, PutFlags.MDB_APPEND);
                t.commit();
                return true;
            } catch (LmdbException e) {
                throw new IllegalStateException("LMDB: transfer failed on " + dir + ": " + e.getMessage(), e);
            }
        }

        private ByteBuffer key(int id) {
            key.clear();
            key.putInt(0, id);
            return key;
        }

        private void update(Dbi<ByteBuffer> db, Txn<ByteBuffer> t, int id, long delta) {
            ByteBuffer r = db.get(t, key(id));
            if (r == null) {
                throw new IllegalStateException("TPC-B record " + id + " missing from LMDB " + dir);
            }
            val.clear();
            val.put(r).flip();
            val.putLong(TpcbRecords.OFF_BALANCE, val.getLong(TpcbRecords.OFF_BALANCE) + delta);
            db.put(t, key(id), val);
        }

        private long read(Dbi<ByteBuffer> db, Txn<ByteBuffer> t, int id) {
            ByteBuffer r = db.get(t, key(id));
            if (r == null) {
                throw new IllegalStateException("TPC-B record " + id + " missing from LMDB " + dir);
            }
            return TpcbRecords.balance(r);
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            try (Txn<ByteBuffer> t = env.txnRead()) {
                return read(accounts, t, aid) + read(tellers, t, tid) + read(branches, t, bid);
            } catch (LmdbException e) {
                throw new IllegalStateException("LMDB: read-only transaction failed on " + dir + ": " + e.getMessage(), e);
            }
        }

        @Override
        public void close() {
        }
    }
}
