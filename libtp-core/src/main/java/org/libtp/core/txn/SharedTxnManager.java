package org.libtp.core.txn;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.env.RegionEnvironment;
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
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

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
    private final Latch[] txnViews;
    private final Latch ckpLatch;
    private final Latch[] ckpViews;
    private final int max;
    private final Map<RecordType, ResourceManager> managers = new EnumMap<>(RecordType.class);
    private final List<ResourceManager> managerList;
    private final FailCheckListener listener = this::cleanUpDead;
    private final LogRetention retention;
    private final Checkpointer checkpointer;
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
        this.ckpViews = new Latch[] {ckpLatch};
        this.txnViews = new Latch[] {txnLatch};
        this.max = config.maxTransactions();
        this.managerList = List.copyOf(rms);
        this.retention = new LogRetention(env, log, mem, ckpLatch, max);
        this.checkpointer = new Checkpointer(env, log, config, mem, txnLatch, ckpLatch, managerList, retention);
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
                new LatchArray(OFF_TXN_LATCH, 64, 1, true), new LatchArray(OFF_CKP_LATCH, 64, 1, true));
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
        boolean changed = false;
        tm.txnLatch.acquire();
        try {
            if (tm.mem.getIntVolatile(OFF_STATE) == 0) {
                tm.mem.putInt(OFF_MAX, config.maxTransactions());
                changed = new Recovery(tm, env, log, tm.mem, tm.managerList).run(catastrophic);
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
            tm.checkOpen();
            env.checkValid();
            tm.checkpointer.checkpointAfterRecovery(changed);
        }
        // A checkpointer killed inside the checkpoint latch leaves nothing half-done that needs
        // it: each word it publishes is valid for the checkpoint before or for its own (written
        // and forced first), log files are removed one by one, a dead backup's pin is ignored.
        env.repairLatches(region, tm.ckpViews, (k, dead) -> null);
        env.repairLatches(region, tm.txnViews, (k, dead) -> tm.repairTxnLatch(dead));
        env.addFailCheckListener(tm.listener);
        return tm;
    }

    // ------------------------------------------------------------------ begin / log / end

    private static long entry(int i) {
        return TxnLayout.entry(i);
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
                    mem.putLongVolatile(e + E_CLAIM, 0L);
                    mem.putIntVolatile(e + E_STATE, RUNNING);
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
        checkpointer.maybeCheckpoint();
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
        log.activeTransactions(-1);
    }

    /**
     * log_unroll: undoes the records of transaction {@code txnId} from {@code lastLsn} backwards,
     * logging a compensation record per undone change, chained after the transaction's last
     * record. Returns the new last LSN of the chain. {@code entryOffset} (or -1) is the table
     * entry whose lastLsn to keep current.
     */
    long undo(long txnId, long lastLsn, long entryOffset) {
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

    /**
     * Single-page recovery ({@link org.libtp.core.buffer.SharedBufferPool.PageRebuilder}): {@code page}
     * (latched, read again from its data file after the process holding its frame latch died)
     * gets every logged change it lacks, from its LSN on. Every change a page's file lacks was
     * logged at or after the last checkpoint's redo LSN (the checkpoint wrote the page, or named
     * it dirty with its oldest change), so the scan starts at the later of the two; the log files
     * from there on are kept. A newer checkpoint may remove them during the scan (its dirty-page
     * pass cannot write this page meanwhile: its latch is held): the scan then starts again from
     * the newer redo LSN.
     */
    public void rebuildPage(org.libtp.core.buffer.Page page) {
        checkOpen();
        long redo = mem.getLongVolatile(OFF_LAST_CKP_REDO);
        for (int attempt = 0; ; attempt++) {
            long from = Math.max(page.lsn(), redo);
            try {
                log.scan(from, e -> {
                    RecordType type = RecordType.of(e.type(), e.lsn());
                    if (type.isResourceRecord()) {
                        ResourceManager m = manager(type, e);
                        if (m.redoes(type)) {
                            m.redoOn(e, LogRecords.decode(e), page);
                        }
                    }
                    return true;
                });
                return;
            } catch (RuntimeException ex) {
                long newer = mem.getLongVolatile(OFF_LAST_CKP_REDO);
                if (newer == redo || attempt >= 3 || env.isFailed()) {
                    throw ex;
                }
                redo = newer;
            }
        }
    }

    ResourceManager manager(RecordType type, LogEntry e) {
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

    @Override
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

    /** The region's memory, for tests of the latch repair. */
    Memory regionMemory() {
        return mem;
    }

    /** Entries of the table in use (counted, not kept: a count a dead process could leave wrong). */
    @Override
    public int activeCount() {
        int n = 0;
        for (int i = 0; i < max; i++) {
            if (mem.getIntVolatile(entry(i) + E_STATE) != FREE) {
                n++;
            }
        }
        return n;
    }

    /**
     * The transaction latch's repair: what it guards is made consistent at every step. A dead
     * {@code begin} left its entry free (a half-filled free entry is overwritten by the next) or
     * running under the dead owner's name, which failCheck rolls back like any of its
     * transactions; the next id may have been taken without a transaction (ids need only grow).
     * Only the group-commit hint (transactions active) may have missed its increment: it is
     * counted again. A death during recovery (the state still 0) cannot be repaired here.
     */
    String repairTxnLatch(String deadOwner) {
        if (mem.getIntVolatile(OFF_STATE) == 0) {
            return "the process running recovery died; every process must close and reopen the environment";
        }
        log.resetActiveTransactions(activeCount());
        return null;
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
            long ownerGen = mem.getLong(e + E_OWNER_GEN);
            boolean gone = dead.contains(owner) || env.slotGeneration(owner) != ownerGen;
            if (!gone) {
                continue;
            }
            long id = mem.getLong(e + E_ID);
            if (!claim(e, id, owner, ownerGen, dead)) {
                continue; // another live process is rolling it back
            }
            // The dead transaction may have appended records after the last it published as
            // lastLsn (it publishes each after its append returns): a change it logged and then
            // died applying, which the repair of its frame latch re-applied from the log, or its
            // commit or abort record. All are found by reading on from lastLsn (from the first-LSN
            // bound it published before its first append if it published no lastLsn). An abort
            // record means its undo is complete and its locks may be gone already: undoing it
            // again would write its before images over changes committed since.
            long[] found = lastRecordOf(id, mem.getLongVolatile(e + E_LAST), mem.getLongVolatile(e + E_FIRST));
            long lastLsn = found[0];
            boolean committed = found[1] == ENDED_COMMITTED;
            boolean aborted = found[1] == ENDED_ABORTED;
            if (!committed && !aborted && lastLsn != Lsn.NULL) {
                mem.putIntVolatile(e + E_STATE, ABORTING);
                long end = undo(id, lastLsn, e);
                log.append(RecordType.TXN_ABORT.id(), id, end, LogRecords.encode(new LogRecord.TxnAbort()));
            }
            LOG.info("failCheck: transaction {} of dead process slot {} {}", id, owner,
                    committed ? "had committed" : aborted ? "had aborted" : "rolled back");
            for (TxnEndListener l : endListeners) {
                l.ended(i, id, committed); // its locks go only now, after its undo
            }
            mem.putIntVolatile(e + E_STATE, FREE);
            log.activeTransactions(-1);
        }
    }

    /**
     * Claims table entry {@code e} (transaction {@code id} of dead owner {@code owner}) for this
     * process's failCheck, so that two processes never roll one transaction back twice: every
     * process's failCheck sees a transaction whose owner's slot was freed (by a process without a
     * transaction manager) as gone. A claim by a process that died since is taken over. After the
     * compare-and-set the entry is checked again: a transaction that ended and was replaced by a
     * live one in between is given back.
     */
    private boolean claim(long e, long id, int owner, long ownerGen, Set<Integer> dead) {
        int me = env.processSlot();
        long mine = ((long) (me + 1) << 40) | (env.slotGeneration(me) & ((1L << 40) - 1));
        long cur = mem.getLongVolatile(e + E_CLAIM);
        if (cur != 0 && cur != mine) {
            int cs = (int) (cur >>> 40) - 1;
            long cg = cur & ((1L << 40) - 1);
            boolean claimerGone = dead.contains(cs) || (env.slotGeneration(cs) & ((1L << 40) - 1)) != cg
                    || !env.isProcessAlive(cs);
            if (!claimerGone) {
                return false;
            }
        }
        if (cur != mine && !mem.compareAndSetLong(e + E_CLAIM, cur, mine)) {
            return false;
        }
        if (mem.getIntVolatile(e + E_STATE) == FREE || mem.getLong(e + E_ID) != id || mem.getInt(e + E_OWNER) != owner
                || mem.getLong(e + E_OWNER_GEN) != ownerGen) {
            mem.compareAndSetLong(e + E_CLAIM, mine, 0L);
            return false;
        }
        return true;
    }

    /** {@link #lastRecordOf}: the transaction's commit, or its abort, record follows. */
    static final long ENDED_COMMITTED = 1;
    static final long ENDED_ABORTED = 2;

    /**
     * {newest record of transaction {@code txnId} at or after {@code lastLsn}, or {@code lastLsn};
     * {@link #ENDED_COMMITTED} or {@link #ENDED_ABORTED} if a commit or abort record of it
     * follows, else 0}, reading the log on from {@code lastLsn} (or from {@code firstBound} when
     * it has none; nothing to read if it has neither).
     */
    private long[] lastRecordOf(long txnId, long lastLsn, long firstBound) {
        long[] out = {lastLsn, 0};
        long from = lastLsn != Lsn.NULL ? lastLsn : firstBound;
        if (from == Lsn.NULL) {
            return out;
        }
        log.scan(from, e -> {
            if (e.txnId() == txnId) {
                if (e.type() == RecordType.TXN_COMMIT.id()) {
                    out[1] = ENDED_COMMITTED;
                    return false;
                }
                if (e.type() == RecordType.TXN_ABORT.id()) {
                    out[1] = ENDED_ABORTED;
                    return false;
                }
                if (RecordType.of(e.type(), e.lsn()).isResourceRecord()) {
                    out[0] = e.lsn();
                }
            }
            return true;
        });
        return out;
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
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        env.removeFailCheckListener(listener);
        env.forgetRepairs(region, ckpViews);
        env.forgetRepairs(region, txnViews);
        checkpointer.close();
    }

    // ------------------------------------------------------------------ checkpoints and log files

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
        return checkpointer.checkpoint(full);
    }

    /**
     * Log files that recovery no longer needs: every record in them is before the last
     * checkpoint's redo point and before the first record of every active transaction, and no
     * running hot backup still has to copy them. Like {@code db_archive}; the caller may copy
     * them elsewhere, then {@link #removeLogFiles}.
     */
    public int[] archivableLogFiles() {
        return retention.archivableLogFiles();
    }

    /**
     * Deletes the log files {@link #archivableLogFiles()} names; returns how many. Under the
     * checkpoint latch, which a hot backup takes to pin its files.
     */
    public int removeLogFiles() {
        checkOpen();
        return retention.removeLogFiles();
    }

    /**
     * Starts a hot backup in this process: from now until {@link #endBackup()} no process removes
     * a log file the backup may still copy. Returns the first LSN it must copy: where recovery
     * would start reading now, or {@code atMost} if that is older (an incremental backup continues
     * where the previous one ended). One backup at a time per environment.
     *
     * @throws IllegalStateException if a backup is running in a live process
     */
    public long beginBackup(long atMost) {
        checkOpen();
        env.checkValid();
        return retention.beginBackup(atMost);
    }

    /** Ends this process's hot backup: log files it pinned may be removed again. */
    public void endBackup() {
        if (!closed) {
            retention.endBackup();
        }
    }
}
