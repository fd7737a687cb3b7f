package org.libtp.core.txn;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import static org.libtp.core.txn.TxnLayout.*;

/**
 * The transaction manager on a shared region ({@code __libtp.rgn.txn}).
 *
 * The region's layout is {@link TxnLayout}.
 *
 * See the package note for the protocols.
 */
public final class SharedTxnManager implements TransactionManager, org.libtp.core.lock.LockerTable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedTxnManager.class);


    private final RegionEnvironment env;
    private final SharedLog log;
    private final TxnConfig config;
    private final Memory mem;
    private final Region region;
    private final Latch txnLatch;
    private final Latch ckpLatch;
    private final int max;
    private final Map<RecordType, ResourceManager> managers = new EnumMap<>(RecordType.class);
    private final List<ResourceManager> managerList;
    private final FailCheckListener listener = this::cleanUpDead;
    private final List<TxnEndListener> endListeners = new java.util.concurrent.CopyOnWriteArrayList<>();
    private volatile boolean closed;
    /** This process ran recovery when it opened the manager (it rebuilt the regions). */
    private boolean ranRecovery;
    private final java.util.concurrent.atomic.LongAdder begun = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder committed = new java.util.concurrent.atomic.LongAdder();
    private final java.util.concurrent.atomic.LongAdder aborted = new java.util.concurrent.atomic.LongAdder();

    private SharedTxnManager(RegionEnvironment env, SharedLog log, TxnConfig config, Region region,
                             List<ResourceManager> rms) {
        this.env = env;
        this.log = log;
        this.config = config;
        this.mem = region.memory();
        this.region = region;
        this.txnLatch = env.latch(region, OFF_TXN_LATCH, "transaction table latch");
        this.ckpLatch = env.latch(region, OFF_CKP_LATCH, "checkpoint latch");
        this.max = config.maxTransactions();
        this.managerList = List.copyOf(rms);
        for (ResourceManager rm : rms) {
            for (RecordType t : rm.types()) {
                if (managers.put(t, rm) != null) {
                    throw new IllegalArgumentException("two resource managers claim record type " + t);
                }
            }
        }
    }

    static RegionSpec spec(TxnConfig config) {
        return new RegionSpec("txn", OFF_TABLE + (long) ENTRY * config.maxTransactions(), LAYOUT_VERSION, FINGERPRINT,
                new LatchArray(OFF_TXN_LATCH, 64, 2));
    }

    /**
     * Opens the transaction manager with the record managers whose records it will redo and
     * undo. The first process to open it after the regions were (re)built runs recovery; the
     * others wait for it.
     */
    public static SharedTxnManager open(RegionEnvironment env, SharedLog log, TxnConfig config, List<ResourceManager> rms) {
        return open(env, log, config, rms, false);
    }

    /**
     * Opens as above; {@code catastrophic}: if this process runs recovery, it reads and redoes
     * the whole log from its first file, not from the last checkpoint (Berkeley DB's
     * {@code DB_RECOVER_FATAL}): for a hot backup, whose data files may be older than the last
     * checkpoint in its log says.
     */
    public static SharedTxnManager open(RegionEnvironment env, SharedLog log, TxnConfig config, List<ResourceManager> rms,
                                        boolean catastrophic) {
        Region region = env.region(spec(config));
        SharedTxnManager tm = new SharedTxnManager(env, log, config, region, rms);
        tm.txnLatch.acquire();
        try {
            if (tm.mem.getIntVolatile(OFF_STATE) == 0) {
                tm.mem.putInt(OFF_MAX, config.maxTransactions());
                tm.recover(catastrophic);
                tm.ranRecovery = true;
                tm.mem.putIntVolatile(OFF_STATE, 1);
            } else if (tm.mem.getInt(OFF_MAX) != config.maxTransactions()) {
                throw new IllegalArgumentException("maxTransactions " + config.maxTransactions()
                        + " differs from the running environment's " + tm.mem.getInt(OFF_MAX));
            }
        } finally {
            tm.txnLatch.release();
        }
        if (tm.mem.getIntVolatile(OFF_STATE) == 1 && tm.mem.getLong(OFF_LAST_CKP) == Lsn.NULL) {
            tm.checkpoint();
        }
        env.addFailCheckListener(tm.listener);
        return tm;
    }

    // ------------------------------------------------------------------ begin / log / end

    private long entry(int i) {
        return OFF_TABLE + (long) ENTRY * i;
    }

    @Override
    public Txn begin() {
        return begin(config.durability());
    }

    @Override
    public Txn begin(Durability durability) {
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        checkOpen();
        env.checkValid();
        txnLatch.acquire();
        try {
            for (int i = 0; i < max; i++) {
                long e = entry(i);
                if (mem.getIntVolatile(e + E_STATE) == FREE) {
                    long id = mem.getLong(OFF_NEXT_ID);
                    mem.putLong(OFF_NEXT_ID, id + 1);
                    int slot = env.processSlot();
                    mem.putInt(e + E_OWNER, slot);
                    mem.putLong(e + E_OWNER_GEN, env.slotGeneration(slot));
                    mem.putLong(e + E_ID, id);
                    mem.putLongVolatile(e + E_FIRST, Lsn.NULL);
                    mem.putLongVolatile(e + E_LAST, Lsn.NULL);
                    mem.putLong(e + E_BEGIN, System.currentTimeMillis());
                    mem.putLong(e + E_WAITER, 0L); // no permits, no sleepers
                    mem.putIntVolatile(e + E_STATE, RUNNING);
                    mem.getAndAddInt(OFF_ACTIVE, 1);
                    log.activeTransactions(1);
                    begun.increment();
                    return new Txn(this, i, id, durability);
                }
            }
        } finally {
            txnLatch.release();
        }
        throw new CapacityExceededException("the transaction table of " + env.home() + " is full ("
                + max + " active transactions); raise TxnConfig.maxTransactions (takes effect when the "
                + "environment is next created)");
    }

    long log(Txn t, LogRecord record) {
        if (record == null) {
            throw new IllegalArgumentException("record must not be null");
        }
        t.checkActive();
        if (!record.type().isResourceRecord()) {
            throw new IllegalArgumentException(record.type() + " records are written by the transaction manager itself");
        }
        long e = entry(t.slot);
        if (t.firstLsn == Lsn.NULL) {
            // A lower bound of the first LSN, published before the append: a checkpoint that
            // misses it is sure to see this transaction's records after its redo point.
            mem.putLongVolatile(e + E_FIRST, log.endLsn());
        }
        byte[] payload = LogRecords.encode(record);
        boolean made = record.type().loggedAfterChange();
        long lsn;
        try {
            // A change not made yet leaves the log's reserve alone: refused for want of space,
            // it is simply not made, and the reserve lets the transaction still abort.
            lsn = log.append(record.type().id(), t.id, t.lastLsn, payload, made);
        } catch (OutOfSpaceException x) {
            if (made) {
                throw failWith("no log space for " + record.type() + " of transaction " + t.id
                        + ", a change already made: it cannot stay unlogged (" + x.getMessage() + ")", x);
            }
            throw x;
        }
        t.lastEnd = lsn + LogRecordCodec.HEADER_SIZE + payload.length;
        if (t.firstLsn == Lsn.NULL) {
            t.firstLsn = lsn;
        }
        t.lastLsn = lsn;
        mem.putLongVolatile(e + E_LAST, lsn);
        return lsn;
    }

    /** See {@link Txn#ensureLogSpace}. */
    void ensureLogSpace(Txn t, long bytes) {
        t.checkActive();
        log.ensureSpace(bytes);
    }

    @Override
    public void commit(Txn t) {
        checkTxn(t);
        checkOpen();
        t.checkActive();
        env.checkValid();
        long e = entry(t.slot);
        if (t.lastLsn != Lsn.NULL) {
            mem.putIntVolatile(e + E_STATE, COMMITTING);
            byte[] payload = LogRecords.encode(new LogRecord.TxnCommit(System.currentTimeMillis()));
            long lsn = log.append(RecordType.TXN_COMMIT.id(), t.id, t.lastLsn, payload);
            t.lastLsn = lsn;
            mem.putLongVolatile(e + E_LAST, lsn);
            long commitEnd = lsn + LogRecordCodec.HEADER_SIZE + payload.length;
            t.finishedCommitted = true;
            if (config.earlyLockRelease() && t.durability != Durability.NO_SYNC) {
                // Early lock release: our commit record is in the shared buffer, so a writer that
                // reads our changes commits after us in the log and cannot be durable without
                // us. Readers learn of us through earlyReleaseEnd, published before the locks go.
                raiseEarlyReleaseEnd(commitEnd);
                releaseLocks(t);
                log.flush(commitEnd, t.durability);
                finish(t);
            } else {
                log.flush(commitEnd, t.durability);
                end(t);
            }
        } else {
            // Nothing logged: it may still have read changes whose locks were released early;
            // it must not report success before they are as durable as it was asked to be.
            if (t.durability != Durability.NO_SYNC) {
                long released = mem.getLongVolatile(OFF_EARLY_RELEASE_END);
                if (released != Lsn.NULL) {
                    log.flush(released, t.durability);
                }
            }
            t.finishedCommitted = true;
            end(t);
        }
        maybeCheckpoint();
    }

    private void raiseEarlyReleaseEnd(long commitEnd) {
        while (true) {
            long cur = mem.getLongVolatile(OFF_EARLY_RELEASE_END);
            if (cur >= commitEnd || mem.compareAndSetLong(OFF_EARLY_RELEASE_END, cur, commitEnd)) {
                return;
            }
        }
    }

    @Override
    public void abort(Txn t) {
        checkTxn(t);
        checkOpen();
        t.checkActive();
        env.checkValid();
        long e = entry(t.slot);
        mem.putIntVolatile(e + E_STATE, ABORTING);
        if (t.lastLsn != Lsn.NULL) {
            try {
                t.lastLsn = undo(t.id, t.lastLsn, e);
                log.append(RecordType.TXN_ABORT.id(), t.id, t.lastLsn, LogRecords.encode(new LogRecord.TxnAbort()));
            } catch (RunRecoveryException x) {
                throw x;
            } catch (RuntimeException x) {
                // Half undone, its locks still held: nothing can finish it but recovery.
                throw failWith("the abort of transaction " + t.id + " could not complete (" + x + ")", x);
            }
        }
        end(t);
    }

    /** Fails the environment for {@code reason}, with {@code cause} on the exception thrown. */
    private RunRecoveryException failWith(String reason, Throwable cause) {
        RunRecoveryException r = env.fail(reason);
        r.initCause(cause);
        return r;
    }

    /**
     * Registers a hook run when a transaction of this process ends (after its commit record is
     * durable as asked, or after its undo): the lock manager releases the transaction's locks
     * here.
     */
    public void addEndListener(TxnEndListener l) {
        endListeners.add(l);
    }

    /** The lock manager's end notification: an end listener by another name. */
    @Override
    public void addLockerEndListener(org.libtp.core.lock.LockerEndListener l) {
        addEndListener(l::ended);
    }

    private void end(Txn t) {
        releaseLocks(t);
        finish(t);
    }

    /** Runs the end listeners: the lock manager releases the transaction's locks. */
    private void releaseLocks(Txn t) {
        for (TxnEndListener l : endListeners) {
            l.ended(t.slot, t.id, t.finishedCommitted);
        }
    }

    /** Frees the transaction's table entry. */
    private void finish(Txn t) {
        t.finished = true;
        (t.finishedCommitted ? committed : aborted).increment();
        long e = entry(t.slot);
        mem.putIntVolatile(e + E_STATE, FREE);
        mem.getAndAddInt(OFF_ACTIVE, -1);
        log.activeTransactions(-1);
    }

    /**
     * log_unroll: undoes the records of transaction {@code txnId} from {@code lastLsn} backwards,
     * logging a compensation record per undone change, chained after the transaction's last
     * record. Returns the new last LSN of the chain. {@code entryOffset} (or -1) is the table
     * entry whose lastLsn to keep current.
     */
    private long undo(long txnId, long lastLsn, long entryOffset) {
        long[] chain = {lastLsn};
        ResourceManager.CompensationLog clr = rec -> {
            long lsn = log.append(rec.type().id(), txnId, chain[0], LogRecords.encode(rec));
            chain[0] = lsn;
            if (entryOffset >= 0) {
                mem.putLongVolatile(entryOffset + E_LAST, lsn);
            }
            return lsn;
        };
        log.scanBackward(lastLsn, entry -> {
            LogRecord r = LogRecords.decode(entry);
            if (r.type().isResourceRecord()) {
                manager(r.type(), entry).undo(entry, r, clr);
            }
            return true;
        });
        return chain[0];
    }

    private ResourceManager manager(RecordType type, LogEntry e) {
        ResourceManager rm = managers.get(type);
        if (rm == null) {
            if (type == RecordType.CHECKPOINT) {
                throw new CorruptionException("checkpoint record at " + Lsn.toString(e.lsn())
                        + " is in the chain of transaction " + e.txnId());
            }
            throw new IllegalStateException("no resource manager registered for " + type + " records (LSN "
                    + Lsn.toString(e.lsn()) + "); open the transaction manager with it");
        }
        return rm;
    }

    /**
     * The semaphore transaction {@code t} sleeps on while it waits for a lock; the lock manager
     * posts it when the lock is granted (or the wait is broken).
     */
    public org.libtp.core.sync.SharedSemaphore waiter(Txn t) {
        t.checkActive();
        return waiter(t.slot);
    }

    /**
     * The waiter semaphore of table slot {@code slot} (another process's transaction, for the
     * lock manager to post when it grants that transaction's request). A slot's semaphore is
     * reset when a transaction begins in it; a late post to a finished transaction can only
     * cause one spurious wake-up of the slot's next transaction, so waiters re-check their state.
     */
    @Override
    public org.libtp.core.sync.SharedSemaphore waiter(int slot) {
        if (slot < 0 || slot >= max) {
            throw new IllegalArgumentException("transaction slot " + slot + " not in [0, " + max + ")");
        }
        return env.semaphore(region, entry(slot) + E_WAITER, "waiter of transaction slot " + slot);
    }

    /** Size of the shared transaction table (slots 0..n-1). */
    public int maxTransactions() {
        return max;
    }

    /** The lockers are the transactions: one per table slot. */
    @Override
    public int maxLockers() {
        return max;
    }

    /** The id of the transaction in table slot {@code slot}, or 0 if the slot is free. */
    public long txnIdAt(int slot) {
        if (slot < 0 || slot >= max) {
            throw new IllegalArgumentException("transaction slot " + slot + " not in [0, " + max + ")");
        }
        long e = entry(slot);
        return mem.getIntVolatile(e + E_STATE) == FREE ? 0 : mem.getLong(e + E_ID);
    }

    @Override
    public long lockerIdAt(int slot) {
        return txnIdAt(slot);
    }

    /** The environment this manager belongs to. */
    @Override
    public RegionEnvironment environment() {
        return env;
    }

    /** LSN of the last checkpoint record. */
    public long lastCheckpoint() {
        return mem.getLongVolatile(OFF_LAST_CKP);
    }

    @Override
    public long nextId() {
        return mem.getLongVolatile(OFF_NEXT_ID);
    }

    @Override
    public long oldestActiveId() {
        checkOpen();
        txnLatch.acquire(); // begin publishes an id and its entry under this latch
        try {
            long oldest = mem.getLong(OFF_NEXT_ID);
            for (int i = 0; i < max; i++) {
                long e = entry(i);
                if (mem.getIntVolatile(e + E_STATE) != FREE) {
                    oldest = Math.min(oldest, mem.getLong(e + E_ID));
                }
            }
            return oldest;
        } finally {
            txnLatch.release();
        }
    }

    /**
     * A transaction in the table now.
     *
     * @param state running, committing or aborting
     */
    public record ActiveTransaction(long id, int processSlot, long beginMillis, String state) {
    }

    /** The transactions in the table now, read without its latch (a snapshot for tools). */
    public List<ActiveTransaction> activeTransactions() {
        checkOpen();
        List<ActiveTransaction> out = new ArrayList<>();
        for (int i = 0; i < max; i++) {
            long e = entry(i);
            int state = mem.getIntVolatile(e + E_STATE);
            if (state != FREE) {
                out.add(new ActiveTransaction(mem.getLong(e + E_ID), mem.getInt(e + E_OWNER), mem.getLong(e + E_BEGIN),
                        state == RUNNING ? "running" : state == COMMITTING ? "committing" : "aborting"));
            }
        }
        return out;
    }

    @Override
    public int activeCount() {
        return mem.getIntVolatile(OFF_ACTIVE);
    }

    /**
     * True if this process ran the recovery pass when it opened the manager: it was the first to
     * open the environment after its regions were (re)built. Together with
     * {@code environment().wasUnclean()} it tells whether this open recovered from a crash.
     */
    public boolean ranRecovery() {
        return ranRecovery;
    }

    /** Transactions this process began since it opened the manager. */
    public long begunCount() {
        return begun.sum();
    }

    /** Transactions of this process that committed since it opened the manager. */
    public long committedCount() {
        return committed.sum();
    }

    /** Transactions of this process that aborted since it opened the manager. */
    public long abortedCount() {
        return aborted.sum();
    }

    // ------------------------------------------------------------------ checkpoints

    /**
     * Called after every commit: asks for a checkpoint when the log has grown by
     * {@code checkpointBytes} (or {@code checkpointSeconds} passed) since the last one. The
     * checkpoint is taken by this process's checkpoint thread, not by the committer: it writes
     * and forces data pages, which would otherwise stall whichever commit crossed the line (a
     * third of a no-sync TPC-B run at MPL 1). If the log runs ahead by four times the interval
     * anyway (the thread cannot keep up), the committer takes it itself, which bounds recovery
     * time as before.
     */
    private void maybeCheckpoint() {
        if (System.nanoTime() - spaceBackoffFrom < SPACE_BACKOFF_NANOS) {
            return; // the last attempt found no space: each attempt logs page images, eating the log's reserve
        }
        long distance = logSinceCheckpoint();
        long bytes = config.checkpointBytes();
        boolean due = bytes > 0 && distance > bytes || ageDue(distance);
        if (!due || checkpointing) {
            return;
        }
        if (bytes > 0 && distance > 4 * bytes || !wakeCheckpointer()) {
            if (ckpLatch.tryAcquire()) { // someone is already at it otherwise
                ckpLatch.release();
                try {
                    checkpoint();
                } catch (RunRecoveryException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // The commit itself succeeded: a checkpoint that could not be taken (no
                    // space to write pages or its record) is retried past the next interval.
                    noteFailure(e);
                    LOG.warn("checkpoint of {} after a commit failed (retried later): {}", env.home(), e.toString());
                }
            }
        }
    }

    /**
     * Log written since the last checkpoint record (not since its redo point): what the
     * checkpoint itself logged (the page images of the pages it wrote, with torn-write
     * protection) must not make the next one due at once, or checkpoints would follow each other
     * without pause.
     */
    private long logSinceCheckpoint() {
        long end = log.endLsn();
        long redo = Math.max(mem.getLongVolatile(OFF_LAST_CKP_REDO), mem.getLongVolatile(OFF_LAST_CKP));
        return (Lsn.file(end) - (long) Lsn.file(redo)) * log.fileSize() + Lsn.offset(end) - Lsn.offset(redo);
    }

    private boolean ageDue(long distance) {
        return config.checkpointSeconds() > 0 && distance > 0
                && System.currentTimeMillis() - mem.getLongVolatile(OFF_LAST_CKP_MILLIS) > config.checkpointSeconds() * 1000;
    }

    /**
     * A checkpoint that fails for want of space is not tried again for a second: each attempt
     * logs the image of every page it tries to write (torn-write protection), and while the disk
     * stays full those images would eat the log space that aborts and structure changes need.
     */
    static final long SPACE_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    private volatile long spaceBackoffFrom = System.nanoTime() - SPACE_BACKOFF_NANOS;

    private void noteFailure(RuntimeException e) {
        if (e instanceof OutOfSpaceException) {
            spaceBackoffFrom = System.nanoTime();
        }
    }

    /** Set by the checkpoint thread while it works, so that commits do not keep waking it. */
    private volatile boolean checkpointing;
    private Thread checkpointer; // guarded by this

    /** Wakes (starting it the first time) this process's checkpoint thread; false once closed. */
    private boolean wakeCheckpointer() {
        Thread t;
        synchronized (this) {
            if (closed) {
                return false;
            }
            t = checkpointer;
            if (t == null) {
                t = new Thread(this::checkpointLoop, "libtp-checkpoint " + env.home());
                t.setDaemon(true);
                checkpointer = t;
                t.start();
            }
        }
        java.util.concurrent.locks.LockSupport.unpark(t);
        return true;
    }

    private void checkpointLoop() {
        while (!closed) {
            java.util.concurrent.locks.LockSupport.park(this);
            if (closed) {
                return;
            }
            long bytes = config.checkpointBytes();
            long distance = logSinceCheckpoint();
            if (!(bytes > 0 && distance > bytes || ageDue(distance))) {
                continue; // a stale wake-up: another thread or process took it meanwhile
            }
            checkpointing = true;
            try {
                if (ckpLatch.tryAcquire()) { // another process's checkpoint thread may be at it
                    ckpLatch.release();
                    checkpoint();
                }
            } catch (RunRecoveryException e) {
                LOG.debug("checkpoint thread of {} stops: {}", env.home(), e.toString());
                return; // every later call fails anyway
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                noteFailure(e);
                LOG.warn("background checkpoint of {} failed (the next commit past the interval retries): {}",
                        env.home(), e.toString());
            } finally {
                checkpointing = false;
            }
        }
    }

    @Override
    public long checkpoint() {
        return checkpoint(false);
    }

    /**
     * Takes a checkpoint now. {@code full}: every change logged so far is written to the data
     * files (a sharp checkpoint, as at a clean close: the next recovery redoes nothing);
     * otherwise only pages dirty since before the previous checkpoint are (fuzzy).
     */
    public long checkpoint(boolean full) {
        checkOpen();
        env.checkValid();
        ckpLatch.acquire();
        try {
            long redo = log.endLsn();
            List<LogRecord.ActiveTxn> active = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                long e = entry(i);
                if (mem.getIntVolatile(e + E_STATE) != FREE) {
                    long first = mem.getLongVolatile(e + E_FIRST);
                    if (first != Lsn.NULL) {
                        active.add(new LogRecord.ActiveTxn(mem.getLong(e + E_ID), first));
                    }
                }
            }
            long begin = redo;
            long previous = mem.getLongVolatile(OFF_LAST_CKP_BEGIN);
            log.flush(begin, Durability.SYNC); // write-ahead: the log before the data
            // The dirty-page table must fit in the log buffer with the rest of the record.
            int room = Math.max(0, (log.bufferSize() / 2 - 64 - 16 * active.size()) / 20);
            List<LogRecord.DirtyPage> dirty = new ArrayList<>();
            for (ResourceManager rm : managerList) {
                dirty.addAll(rm.checkpoint(begin, full || previous == Lsn.NULL ? begin : previous,
                        Math.max(0, room - dirty.size())));
            }
            for (LogRecord.DirtyPage d : dirty) {
                redo = Math.min(redo, d.recLsn()); // redo from the oldest change not yet written
            }
            long nextId;
            txnLatch.acquire();
            try {
                nextId = mem.getLong(OFF_NEXT_ID);
            } finally {
                txnLatch.release();
            }
            byte[] payload = LogRecords.encode(new LogRecord.Checkpoint(redo, nextId, active, dirty));
            long lsn = log.append(RecordType.CHECKPOINT.id(), 0, Lsn.NULL, payload, false);
            long end = lsn + LogRecordCodec.HEADER_SIZE + payload.length;
            log.flush(end, Durability.SYNC);
            log.anchorAt(end); // the log must reach this checkpoint at every later open
            mem.putLongVolatile(OFF_LAST_CKP, lsn);
            long from = redo;
            for (LogRecord.ActiveTxn a : active) {
                from = Math.min(from, a.firstLsn());
            }
            mem.putLongVolatile(OFF_LAST_CKP_FROM, from);
            mem.putLongVolatile(OFF_LAST_CKP_REDO, redo);
            mem.putLongVolatile(OFF_LAST_CKP_MILLIS, System.currentTimeMillis());
            mem.putLongVolatile(OFF_LAST_CKP_BEGIN, begin);
            if (log.autoRemove()) {
                removeLogFilesQuietly();
            }
            return lsn;
        } finally {
            ckpLatch.release();
        }
    }

    /**
     * Log files that recovery no longer needs: every record in them is before the last
     * checkpoint's redo point and before the first record of every active transaction, and no
     * running hot backup still has to copy them. Like {@code db_archive}; the caller may copy
     * them elsewhere, then {@link #removeLogFiles}.
     */
    public int[] archivableLogFiles() {
        long horizon = recoveryHorizon();
        long pin = backupPin();
        if (pin != Lsn.NULL) {
            horizon = Math.min(horizon, pin);
        }
        int limit = Lsn.file(horizon);
        return java.util.Arrays.stream(log.fileNumbers()).filter(n -> n < limit).toArray();
    }

    /**
     * The oldest LSN recovery would read now: the last checkpoint's redo LSN, or the first record
     * of a transaction that checkpoint lists as active (even one that has ended since), or of a
     * transaction running now.
     */
    private long recoveryHorizon() {
        long horizon = Math.min(mem.getLongVolatile(OFF_LAST_CKP_REDO), mem.getLongVolatile(OFF_LAST_CKP_FROM));
        for (int i = 0; i < max; i++) {
            long e = entry(i);
            if (mem.getIntVolatile(e + E_STATE) != FREE) {
                long first = mem.getLongVolatile(e + E_FIRST);
                if (first != Lsn.NULL && first < horizon) {
                    horizon = first;
                }
            }
        }
        return horizon;
    }

    /** The running hot backup's first LSN, or NULL if none runs (or its process died). */
    private long backupPin() {
        long pin = mem.getLongVolatile(OFF_BACKUP_FROM);
        if (pin == Lsn.NULL) {
            return Lsn.NULL;
        }
        int owner = mem.getIntVolatile(OFF_BACKUP_OWNER);
        return env.slotGeneration(owner) == mem.getLongVolatile(OFF_BACKUP_OWNER_GEN) ? pin : Lsn.NULL;
    }

    /**
     * Starts a hot backup in this process: from now until {@link #endBackup()} no process removes
     * a log file the backup may still copy. Returns the first LSN it must copy: where recovery
     * would start reading now, or {@code atMost} if that is older (an incremental backup continues
     * where the previous one ended). Under the checkpoint latch, so no checkpoint is between
     * choosing its log files to remove and removing them. One backup at a time per environment.
     *
     * @throws IllegalStateException if a backup is running in a live process
     */
    public long beginBackup(long atMost) {
        checkOpen();
        env.checkValid();
        ckpLatch.acquire();
        try {
            if (backupPin() != Lsn.NULL) {
                throw new IllegalStateException("a hot backup of " + env.home() + " is running in process slot "
                        + mem.getIntVolatile(OFF_BACKUP_OWNER) + "; wait until it ends");
            }
            long from = recoveryHorizon();
            if (atMost != Lsn.NULL) {
                from = Math.min(from, atMost);
            }
            int slot = env.processSlot();
            mem.putLongVolatile(OFF_BACKUP_FROM, Lsn.NULL);
            mem.putIntVolatile(OFF_BACKUP_OWNER, slot);
            mem.putLongVolatile(OFF_BACKUP_OWNER_GEN, env.slotGeneration(slot));
            mem.putLongVolatile(OFF_BACKUP_FROM, from);
            return from;
        } finally {
            ckpLatch.release();
        }
    }

    /** Ends this process's hot backup: log files it pinned may be removed again. */
    public void endBackup() {
        if (closed) {
            return;
        }
        ckpLatch.acquire();
        try {
            if (mem.getIntVolatile(OFF_BACKUP_OWNER) == env.processSlot()) {
                mem.putLongVolatile(OFF_BACKUP_FROM, Lsn.NULL);
            }
        } finally {
            ckpLatch.release();
        }
    }

    /**
     * After a checkpoint: removes the log files recovery no longer needs. A failure leaves them
     * for the next checkpoint (logged): they take space, nothing else.
     */
    private void removeLogFilesQuietly() {
        try {
            int n = removeLogFilesLatched();
            if (n > 0) {
                LOG.debug("removed {} log files of {} that recovery no longer needs", n, env.home());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not remove old log files of {} ({}); the next checkpoint tries again", env.home(), e.toString());
        }
    }

    /**
     * Deletes the log files {@link #archivableLogFiles()} names; returns how many. Under the
     * checkpoint latch, which a hot backup takes to pin its files.
     */
    public int removeLogFiles() {
        checkOpen();
        ckpLatch.acquire();
        try {
            return removeLogFilesLatched();
        } finally {
            ckpLatch.release();
        }
    }

    private int removeLogFilesLatched() {
        int[] files = archivableLogFiles();
        for (int n : files) {
            log.removeFile(n);
        }
        return files.length;
    }

    // ------------------------------------------------------------------ recovery

    /**
     * Under the txn latch, in the first process: the paper's log_roll, then undo of losers. The
     * analysis reads the log from the last checkpoint's redo LSN, or from the first LSN of a
     * transaction active at it if that is earlier — not the whole log — so recovery time is
     * bounded by the checkpoint interval and the longest transaction.
     */
    private void recover(boolean catastrophic) {
        long t0 = System.nanoTime();
        for (ResourceManager rm : managerList) {
            rm.beforeRecovery();
        }
        Map<Long, Long> last = new HashMap<>();
        Set<Long> ended = new HashSet<>();
        long[] maxId = {0};
        long[] ckp = {lastCheckpointInLog(), Lsn.NULL}; // checkpoint LSN, its redo LSN
        long from = Lsn.NULL;
        if (ckp[0] != Lsn.NULL) {
            LogRecord.Checkpoint c = (LogRecord.Checkpoint) LogRecords.decode(log.read(ckp[0]));
            ckp[1] = c.redoLsn();
            from = c.redoLsn();
            for (LogRecord.ActiveTxn a : c.active()) {
                from = Math.min(from, a.firstLsn());
                maxId[0] = Math.max(maxId[0], a.txnId());
            }
            maxId[0] = Math.max(maxId[0], c.nextTxnId() - 1);
        }
        if (catastrophic) {
            // Every page may be older than the checkpoint claims: redo all the log there is.
            int[] files = log.fileNumbers();
            from = files.length == 0 ? Lsn.NULL : Lsn.of(files[0], org.libtp.core.log.LogFileHeader.SIZE);
            ckp[1] = from;
            LOG.info("catastrophic recovery of {}: reading the whole log from {}", env.home(), Lsn.toString(from));
        }
        log.scan(from, e -> {
            LogRecord r = LogRecords.decode(e); // unknown types fail here, naming the LSN
            if (e.txnId() != 0) {
                last.put(e.txnId(), e.lsn());
                maxId[0] = Math.max(maxId[0], e.txnId());
            }
            if (r.type().isResourceRecord()) {
                manager(r.type(), e).analyze(e, r); // fails now, naming the LSN, if no manager handles the type
            } else if (r.type() != RecordType.CHECKPOINT) {
                ended.add(e.txnId()); // commit or abort
            }
            return true;
        });
        for (ResourceManager rm : managerList) {
            rm.beforeRedo(ckp[1]);
        }
        int[] redone = {0};
        log.scan(ckp[1], e -> {
            LogRecord r = LogRecords.decode(e);
            if (r.type().isResourceRecord()) {
                manager(r.type(), e).redo(e, r);
                redone[0]++;
            }
            return true;
        });
        List<Long> losers = new ArrayList<>();
        for (Map.Entry<Long, Long> t : last.entrySet()) {
            if (!ended.contains(t.getKey())) {
                losers.add(t.getKey());
            }
        }
        // Losers: transactions with neither a commit nor an abort record. (Aborted ones logged
        // compensations, which the redo pass repeated.) With two-phase locking no two losers
        // touched the same data, so undoing them one after another is as good as a global
        // reverse-LSN pass.
        for (long id : losers) {
            long end = undo(id, last.get(id), -1);
            log.append(RecordType.TXN_ABORT.id(), id, end, LogRecords.encode(new LogRecord.TxnAbort()));
        }
        mem.putLong(OFF_NEXT_ID, maxId[0] + 1);
        mem.putLongVolatile(OFF_LAST_CKP, ckp[0]);
        mem.putLongVolatile(OFF_LAST_CKP_REDO, ckp[1] == Lsn.NULL ? log.endLsn() : ckp[1]);
        mem.putLongVolatile(OFF_LAST_CKP_FROM, from == Lsn.NULL ? log.endLsn() : from);
        if (redone[0] > 0 || !losers.isEmpty()) {
            LOG.info("recovery of {}: redid {} records from {}, rolled back {} transactions, in {} ms",
                    env.home(), redone[0], Lsn.toString(ckp[1]), losers.size(), (System.nanoTime() - t0) / 1_000_000);
        }
        // The checkpoint that ends recovery is taken by open(), outside the txn latch.
        mem.putLongVolatile(OFF_LAST_CKP, Lsn.NULL);
    }

    /**
     * LSN of the last checkpoint record in the log (NULL if none): the files are read from the
     * newest back until one holds a checkpoint (with the default sizes, the last or the one
     * before it).
     */
    private long lastCheckpointInLog() {
        int[] files = log.fileNumbers();
        for (int i = files.length - 1; i >= 0; i--) {
            int n = files[i];
            long[] found = {Lsn.NULL};
            log.scan(Lsn.of(n, org.libtp.core.log.LogFileHeader.SIZE), e -> {
                if (Lsn.file(e.lsn()) != n) {
                    return false;
                }
                if (e.type() == RecordType.CHECKPOINT.id()) {
                    found[0] = e.lsn();
                }
                return true;
            });
            if (found[0] != Lsn.NULL) {
                return found[0];
            }
        }
        return Lsn.NULL;
    }

    // ------------------------------------------------------------------ dead processes

    /** Aborts the transactions of processes that are gone (failCheck listener). */
    private void cleanUpDead(int[] deadSlots) {
        if (closed) {
            return;
        }
        Set<Integer> dead = new HashSet<>();
        for (int s : deadSlots) {
            dead.add(s);
        }
        for (int i = 0; i < max; i++) {
            long e = entry(i);
            int state = mem.getIntVolatile(e + E_STATE);
            if (state == FREE) {
                continue;
            }
            int owner = mem.getInt(e + E_OWNER);
            boolean gone = dead.contains(owner) || env.slotGeneration(owner) != mem.getLong(e + E_OWNER_GEN);
            if (!gone) {
                continue;
            }
            long id = mem.getLong(e + E_ID);
            long lastLsn = mem.getLongVolatile(e + E_LAST);
            // A committer may have died after appending its commit record and before publishing
            // it as lastLsn: look for it after lastLsn.
            boolean committed = state == COMMITTING && committedAfter(id, lastLsn);
            if (!committed && lastLsn != Lsn.NULL) {
                mem.putIntVolatile(e + E_STATE, ABORTING);
                long end = undo(id, lastLsn, e);
                log.append(RecordType.TXN_ABORT.id(), id, end, LogRecords.encode(new LogRecord.TxnAbort()));
            }
            LOG.info("failCheck: transaction {} of dead process slot {} {}", id, owner,
                    committed ? "had committed" : "rolled back");
            for (TxnEndListener l : endListeners) {
                l.ended(i, id, committed); // its locks go only now, after its undo
            }
            mem.putIntVolatile(e + E_STATE, FREE);
            mem.getAndAddInt(OFF_ACTIVE, -1);
            log.activeTransactions(-1);
        }
    }

    private boolean committedAfter(long txnId, long from) {
        boolean[] found = {false};
        log.scan(from == Lsn.NULL ? Lsn.NULL : from, e -> {
            if (e.txnId() == txnId && e.type() == RecordType.TXN_COMMIT.id()) {
                found[0] = true;
                return false;
            }
            return true;
        });
        return found[0];
    }

    private void checkTxn(Txn t) {
        if (t == null) {
            throw new IllegalArgumentException("transaction must not be null");
        }
        if (t.manager() != this) {
            throw new IllegalArgumentException("transaction " + t.id() + " belongs to another transaction manager");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("transaction manager of " + env.home() + " is closed");
        }
    }

    @Override
    public void close() {
        Thread t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = checkpointer;
        }
        env.removeFailCheckListener(listener);
        if (t != null) {
            // Let a checkpoint in progress finish before the pool and log under it close.
            java.util.concurrent.locks.LockSupport.unpark(t);
            try {
                t.join(TimeUnit.MINUTES.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                LOG.warn("checkpoint thread of {} still running at close", env.home());
            }
        }
    }
}
