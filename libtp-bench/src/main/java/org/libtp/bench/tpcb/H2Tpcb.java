package org.libtp.bench.tpcb;

import org.libtp.bench.engine.H2Engine;
import org.h2.mvstore.DataUtils;
import org.h2.mvstore.MVStore;
import org.h2.mvstore.type.ByteArrayDataType;
import org.h2.mvstore.type.IntegerDataType;
import org.h2.mvstore.type.LongDataType;
import org.h2.mvstore.MVStoreException;
import org.h2.mvstore.tx.Transaction;
import org.h2.mvstore.tx.TransactionMap;
import org.h2.mvstore.tx.TransactionStore;

import java.nio.file.Path;
import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * TPC-B on H2's MVStore (the storage engine under the H2 database, used directly, no SQL): one
 * file {@code tpcb.mv.db} in the directory, a {@link TransactionStore} on it, maps {@code
 * accounts}, {@code tellers}, {@code branches} from Integer id to the 100-byte record of
 * {@link TpcbRecords} and {@code history} from a Long sequence number (an in-process counter
 * started from the last key at open) to the 50-byte history record.
 *
 * <p>Concurrency: MVCC, READ_COMMITTED transactions. A transfer {@link TransactionMap#lock
 * locks} each of the account, teller and branch entries (like SELECT FOR UPDATE; it returns the
 * newest committed value), puts the changed record, puts the history record and commits.
 * Writers of the same entry wait for each other up to 2 s; on a lock timeout or a detected
 * deadlock H2 throws and the transfer is rolled back and counted as an abort.
 *
 * <p>What a commit does: {@link Transaction#commit} only marks the transaction committed in
 * memory and drops its undo log; nothing is written to the file. The MVStore writes changes as
 * a new append-only chunk (the pages changed since the last chunk, plus the maps' new roots)
 * when {@link MVStore#commit} is called or when its background thread finds unsaved changes
 * (every {@code autoCommitDelay}, 1 s by default). H2 never forces the file at a commit or in
 * the background; only {@link MVStore#sync} (and close) call {@code FileChannel.force}.
 * <ul>
 * <li>{@code sync}: after the transaction commit, {@code MVStore.commit()} (writes a chunk
 *     holding this and any other committed change, unless another thread's chunk already
 *     included it) and {@code MVStore.sync()} (FileChannel.force(true)) before the transfer
 *     returns. Durable against OS crash and power loss. Concurrent committers share chunks but
 *     each calls force itself (no group commit of the forces).
 * <li>{@code nosync}: the transaction commit only; the chunk is written by the background
 *     writer (once a second, or sooner when the unsaved changes fill its write buffer) and
 *     never forced. Unlike the other peers' nosync, this does <b>not</b> survive a crash of the
 *     process: the commits not yet in a chunk, up to about the last second, are lost, as a
 *     whole (the file always holds a consistent earlier version). A one-off kill test while
 *     this class was written (not kept in the repository): a single thread committing ~170
 *     transfers/s and killed with SIGKILL lost the last ~90 acknowledged commits on reopening,
 *     where SQLite, JE and LMDB nosync lost none. It survives a clean close.
 * </ul>
 *
 * <p>The store locks its file: one process only. {@code cacheBytes} is the MVStore page cache
 * (in MiB, at least 1).
 */
final class H2Tpcb implements TpcbStore {
    private static final String FILE = "tpcb.mv.db";
    private static final int LOCK_TIMEOUT_MS = 2_000;

    private final EngineOptions options;
    private final Path file;
    private final H2Engine engine;
    private final MVStore store;
    private final TransactionStore txStore;
    private final TransactionMap<Integer, byte[]> accounts;
    private final TransactionMap<Integer, byte[]> tellers;
    private final TransactionMap<Integer, byte[]> branches;
    private final TransactionMap<Long, byte[]> history;
    private final AtomicLong nextHistory;

    H2Tpcb(EngineOptions o) {
        this.options = o;
        this.file = o.dir().resolve(FILE);
        this.engine = H2Engine.open(file, o.cacheBytes());
        this.store = engine.store();
        this.txStore = engine.txStore();
        try {
            Transaction t = txStore.begin();
            // Explicit key and value types: the default ObjectDataType caches the last key type
            // it saw in a field shared by the maps, and concurrent transfers on the Integer-keyed
            // maps and the Long-keyed history then failed with ClassCastException inside H2
            // (seen at MPL 4).
            accounts = t.openMap("accounts", IntegerDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            tellers = t.openMap("tellers", IntegerDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            branches = t.openMap("branches", IntegerDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            history = t.openMap("history", LongDataType.INSTANCE, ByteArrayDataType.INSTANCE);
            Long last = history.lastKey();
            nextHistory = new AtomicLong(last == null ? 1 : last + 1);
            t.commit();
            store.commit();
        } catch (RuntimeException e) {
            engine.closeImmediately();
            throw new IllegalStateException("H2: cannot open the TPC-B maps of " + file + ": " + e.getMessage(), e);
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
    public boolean multiProcess() {
        return false;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        Transaction t = txStore.begin();
        try {
            return lastId(branches.getInstance(t)) == shape.branches() - 1
                    && lastId(tellers.getInstance(t)) == shape.tellers() - 1
                    && lastId(accounts.getInstance(t)) == shape.accounts() - 1;
        } finally {
            t.commit();
        }
    }

    private static int lastId(TransactionMap<Integer, byte[]> m) {
        Integer k = m.lastKey();
        return k == null ? -1 : k;
    }

    /** Committed puts (no undo log) in batches of 10,000, a chunk per batch; forced at the end. */
    @Override
    public void load(TpcbShape shape) {
        Transaction t = txStore.begin();
        try {
            history.getInstance(t).clear();
            fill(accounts.getInstance(t), shape.accounts());
            fill(tellers.getInstance(t), shape.tellers());
            fill(branches.getInstance(t), shape.branches());
            t.commit();
        } catch (RuntimeException e) {
            t.rollback();
            throw new IllegalStateException("H2: cannot load " + file + ": " + e.getMessage(), e);
        }
        nextHistory.set(1);
        engine.force();
    }

    private void fill(TransactionMap<Integer, byte[]> m, int n) {
        m.clear();
        for (int id = 0; id < n; id++) {
            m.putCommitted(id, TpcbRecords.record(id, 0));
            if (id % 10_000 == 9_999) {
                store.commit();
            }
        }
    }

    @Override
    public Sums sums() {
        Transaction t = txStore.begin();
        try {
            long a = sum(accounts.getInstance(t));
            long te = sum(tellers.getInstance(t));
            long b = sum(branches.getInstance(t));
            long h = 0;
            long rows = 0;
            Iterator<Map.Entry<Long, byte[]>> it = history.getInstance(t).entryIterator(null, null);
            while (it.hasNext()) {
                h += TpcbRecords.historyDelta(it.next().getValue());
                rows++;
            }
            return new Sums(a, te, b, h, rows);
        } finally {
            t.commit();
        }
    }

    private static long sum(TransactionMap<Integer, byte[]> m) {
        long s = 0;
        Iterator<Map.Entry<Integer, byte[]>> it = m.entryIterator(null, null);
        while (it.hasNext()) {
            s += TpcbRecords.balance(it.next().getValue());
        }
        return s;
    }

    @Override
    public TpcbSession session() {
        return new Session();
    }

    @Override
    public void close() {
        engine.close();
    }

    private final class Session implements TpcbSession {
        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            Transaction t = txStore.begin();
            t.setTimeoutMillis(LOCK_TIMEOUT_MS);
            try {
                update(accounts.getInstance(t), aid, delta);
                update(tellers.getInstance(t), tid, delta);
                update(branches.getInstance(t), bid, delta);
                history.getInstance(t).put(nextHistory.getAndIncrement(),
                        TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis()));
                t.commit();
            } catch (MVStoreException e) {
                t.rollback();
                if (conflict(e)) {
                    return false;
                }
                throw new IllegalStateException("H2: transfer failed on " + file + ": " + e.getMessage(), e);
            } catch (RuntimeException e) {
                t.rollback();
                throw e;
            }
            if (options.sync()) {
                engine.force();
            }
            return true;
        }

        private void update(TransactionMap<Integer, byte[]> m, int id, long delta) {
            byte[] r = m.lock(id);
            if (r == null) {
                throw new IllegalStateException("TPC-B record " + id + " missing from H2 " + file);
            }
            // a copy: the value object may be shared with the committed version
            m.put(id, TpcbRecords.add(r.clone(), delta));
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            Transaction t = txStore.begin();
            try {
                long s = read(accounts.getInstance(t), aid) + read(tellers.getInstance(t), tid)
                        + read(branches.getInstance(t), bid);
                t.commit();
                return s;
            } catch (RuntimeException e) {
                t.rollback();
                throw e;
            }
        }

        private long read(TransactionMap<Integer, byte[]> m, int id) {
            byte[] r = m.get(id);
            if (r == null) {
                throw new IllegalStateException("TPC-B record " + id + " missing from H2 " + file);
            }
            return TpcbRecords.balance(r);
        }

        @Override
        public void close() {
        }
    }

    private static boolean conflict(MVStoreException e) {
        return e.getErrorCode() == DataUtils.ERROR_TRANSACTION_LOCKED
                || e.getErrorCode() == DataUtils.ERROR_TRANSACTIONS_DEADLOCK;
    }
}
