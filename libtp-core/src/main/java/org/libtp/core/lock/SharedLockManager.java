package org.libtp.core.lock;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.SelfDeadlockException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.TimeUnit;

import static org.libtp.core.lock.LockLayout.*;
import static org.libtp.core.lock.LockTable.CONVERSION;
import static org.libtp.core.lock.LockTable.FULL_LOCKS;
import static org.libtp.core.lock.LockTable.FULL_OBJECTS;
import static org.libtp.core.lock.LockTable.GRANTED;
import static org.libtp.core.lock.LockTable.NOT_GRANTED;
import static org.libtp.core.lock.LockTable.NOT_HELD;

/**
 * The lock manager on two shared regions: {@code __libtp.rgn.lock} (fixed size: the settings,
 * the detector word, the free lists) and {@code __libtp.rgn.lock.tables} (sized by the
 * settings). The split lets a process read the settings before it attaches the tables, so
 * different capacity settings are reported as such. See the package note for the protocols.
 *
 * <p>This class is the facade: the calls of {@link LockManager}, intention locks and
 * escalation, and the wait. The offsets are in {@link LockLayout}; the table's structures in
 * {@link LockTable}; releases in {@link LockerRelease}; detection in {@link WaitsForGraph} and
 * {@link DetectorRole}; statistics and the snapshot in {@link LockTableReader}.
 */
public final class SharedLockManager implements LockManager {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);

    /** A waiter re-checks its request this often even without a post (a granter may die between
     * granting and posting). */
    static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    private final RegionEnvironment env;
    private final LockConfig config;
    private final LockTable t;
    private final LockerRelease release;
    private final LockPartitionRepair partitionRepair;
    private final Region tables;
    private final WaitsForGraph graph;
    private final DetectorRole role;
    private final LockTableReader reader;
    // The table's fields, read on every call.
    private final Memory ctl;
    private final Memory mem;
    private final Layout lay;
    private final Latch[] partLatches;
    private final int partMask;
    private final int maxLockers;
    /** This JVM's transactions by locker slot (the last that locked through it; may be finished). */
    private final Locker[] local;
    /** This JVM's transactions' file locks by locker slot (see {@link FileLocks}). */
    private final FileLocks[] fileLocks;
    /**
     * Page locks of one file after which a transaction tries to lock the file instead: the
     * configured threshold, but at most a quarter of the table, so one transaction's scan
     * escalates before it fills the table for everyone (0 = never).
     */
    private final int escalateAt;
    private final LockerEndListener endListener = this::ended;
    private final FailCheckListener failCheckListener;

    private SharedLockManager(LockerTable lockers, LockConfig config, Memory ctl, Region tables, Layout lay) {
        this.t = new LockTable(lockers, ctl, tables, lay);
        this.env = t.env;
        this.config = config;
        this.partitionRepair = new LockPartitionRepair(t);
        this.release = new LockerRelease(t, partitionRepair);
        this.tables = tables;
        this.graph = new WaitsForGraph(t, config);
        this.role = new DetectorRole(t, graph, release, config);
        this.reader = new LockTableReader(t, graph);
        this.failCheckListener = dead -> {
            release.onFailCheck();
            reclaimIfDue();
        };
        this.ctl = ctl;
        this.mem = t.mem;
        this.lay = lay;
        this.partLatches = t.partLatches;
        this.partMask = t.partMask;
        this.maxLockers = t.maxLockers;
        this.local = new Locker[lay.maxLockers()];
        this.fileLocks = new FileLocks[lay.maxLockers()];
        this.escalateAt = config.escalationThreshold() == 0 ? 0
                : Math.max(1, Math.min(config.escalationThreshold(), Math.min(lay.maxLocks(), lay.maxObjects()) / 4));
    }

    /**
     * Opens the lock manager of {@code txn}'s environment (the first process creates its
     * regions), registers it to release a transaction's locks when it ends, and starts this
     * process's detector thread if {@link LockConfig#detectIntervalMillis()} &gt; 0.
     *
     * @throws IllegalArgumentException a capacity setting differs from the running environment's
     */
    public static SharedLockManager open(LockerTable txn, LockConfig config) {
        if (txn == null || config == null) {
            throw new IllegalArgumentException("transaction manager and config must not be null");
        }
        RegionEnvironment env = txn.environment();
        Region control = env.region(controlSpec());
        Memory ctl = control.memory();
        Latch init = env.latch(control, OFF_INIT_LATCH, "lock manager init latch");
        Layout lay;
        Region tables;
        init.acquire();
        try {
            if (ctl.getIntVolatile(OFF_STATE) == 0) {
                lay = Layout.of(config.maxLocks(), config.maxObjects(), config.partitions(), txn.maxLockers());
                tables = env.region(lay.spec());
                initTables(ctl, tables.memory(), lay);
                ctl.putIntVolatile(OFF_STATE, 1);
            } else {
                checkSetting(ctl, OFF_MAX_LOCKS, "LockConfig.maxLocks", config.maxLocks());
                checkSetting(ctl, OFF_MAX_OBJECTS, "LockConfig.maxObjects", config.maxObjects());
                checkSetting(ctl, OFF_PARTITIONS, "LockConfig.partitions", config.partitions());
                checkSetting(ctl, OFF_MAX_LOCKERS, "TxnConfig.maxTransactions", txn.maxLockers());
                lay = Layout.of(config.maxLocks(), config.maxObjects(), config.partitions(), txn.maxLockers());
                tables = env.region(lay.spec());
            }
        } finally {
            init.release();
        }
        SharedLockManager lm = new SharedLockManager(txn, config, ctl, tables, lay);
        env.repairLatches(tables, lm.partLatches, lm.partitionRepair::repair);
        txn.addLockerEndListener(lm.endListener);
        env.addFailCheckListener(lm.failCheckListener);
        lm.role.start();
        return lm;
    }

    private static void checkSetting(Memory ctl, long off, String name, int mine) {
        int theirs = ctl.getInt(off);
        if (theirs != mine) {
            throw new IllegalArgumentException(name + " " + mine + " differs from the running environment's "
                    + theirs + " (the lock table is sized when the environment is created)");
        }
    }

    /** Under the init latch, once per incarnation: settings, and every entry on the free lists. */
    private static void initTables(Memory ctl, Memory mem, Layout lay) {
        ctl.putInt(OFF_MAX_LOCKS, lay.maxLocks());
        ctl.putInt(OFF_MAX_OBJECTS, lay.maxObjects());
        ctl.putInt(OFF_PARTITIONS, lay.partitions());
        ctl.putInt(OFF_MAX_LOCKERS, lay.maxLockers());
        ctl.putInt(OFF_BUCKETS_PER_PART, lay.bucketsPerPartition());
        for (int i = 0; i < lay.maxLocks(); i++) {
            mem.putInt(lay.offRequests() + (long) REQ * i + R_LNEXT, i + 1 < lay.maxLocks() ? i + 2 : 0);
            mem.putInt(lay.offRequests() + (long) REQ * i + R_PART, NO_PART);
        }
        for (int i = 0; i < lay.maxObjects(); i++) {
            mem.putInt(lay.offObjects() + (long) OBJ * i + O_NEXT, i + 1 < lay.maxObjects() ? i + 2 : 0);
            mem.putInt(lay.offObjects() + (long) OBJ * i + O_PART, NO_PART);
        }
        ctl.putLongVolatile(OFF_REQ_FREE, 1);
        ctl.putLongVolatile(OFF_OBJ_FREE, 1);
    }

    // ------------------------------------------------------------------ argument checks

    private void checkArgs(Locker txn, LockObject obj) {
        if (obj == null) {
            throw new IllegalArgumentException("lock object must not be null");
        }
        checkTxn(txn);
    }

    private void checkTxn(Locker txn) {
        if (txn == null) {
            throw new IllegalArgumentException("transaction must not be null");
        }
        if (txn.slot() < 0 || txn.slot() >= maxLockers) {
            throw new IllegalArgumentException("transaction " + txn.id() + " (slot " + txn.slot()
                    + ") is not of this environment's transaction table");
        }
        t.checkOpen();
        txn.checkActive();
    }

    private static void checkFlags(int flags) {
        if ((flags & ~NOWAIT) != 0) {
            throw new IllegalArgumentException("unknown lock flags " + flags + "; only NOWAIT (" + NOWAIT + ")");
        }
    }

    /**
     * Locks {@code obj}. A page is locked under an intention lock on its file (IREAD for a READ,
     * IWRITE for a WRITE: taken once per transaction and file, then remembered in this process),
     * so that a lock on the whole file can stand in for many page locks: once a transaction holds
     * {@link LockConfig#escalationThreshold()} page locks of one file it tries to lock the file
     * READ (or WRITE, if it changed pages of it; READ_IWRITE if it holds IWRITE and only reads
     * now), and a page request the file lock covers is granted without the shared table.
     */
    @Override
    public void lock(Locker txn, LockObject obj, LockMode mode, int flags) {
        if (mode == null) {
            throw new IllegalArgumentException("lock mode must not be null");
        }
        checkArgs(txn, obj);
        checkFlags(flags);
        if (obj.pageNo() == LockObject.WHOLE_FILE) {
            acquire(txn, obj.fileId(), LockObject.WHOLE_FILE, mode.ordinal(), flags, true, false);
            FileLocks fl = fileLocks(txn);
            int held = fl.held(obj.fileId());
            fl.hold(obj.fileId(), held < 0 ? mode.ordinal() : LockMode.join(held, mode.ordinal()));
            return;
        }
        lockValidPage(txn, obj.fileId(), obj.pageNo(), mode, flags);
    }

    /** {@link #lock} of a page without a {@link LockObject}: the access methods' path allocates nothing. */
    @Override
    public void lockPage(Locker txn, int fileId, long pageNo, LockMode mode, int flags) {
        if (mode == null) {
            throw new IllegalArgumentException("lock mode must not be null");
        }
        if (fileId < 0 || pageNo < 0 || pageNo >= LockObject.RECORD) {
            throw new IllegalArgumentException("page " + pageNo + " of file " + fileId + ": both must be >= 0"
                    + " (and the page below 2^62)");
        }
        if (mode == LockMode.READ_IWRITE) {
            throw new IllegalArgumentException("a page is locked READ, WRITE, IREAD or IWRITE; " + mode + " is for whole files");
        }
        checkTxn(txn);
        checkFlags(flags);
        lockValidPage(txn, fileId, pageNo, mode, flags);
    }

    /**
     * {@link LockManager#lockRecord}: the record's object {@code RECORD | recordId} under the
     * page's intention lock, through the same lock cache as pages; nothing is asked of the table
     * when the file's or the page's lock gives the mode, or the record is held already.
     */
    @Override
    public void lockRecord(Locker txn, int fileId, long pageNo, long recordId, LockMode mode, int flags) {
        if (mode != LockMode.READ && mode != LockMode.WRITE) {
            throw new IllegalArgumentException("a record is locked READ or WRITE, not " + mode);
        }
        if (fileId < 0 || pageNo < 0 || pageNo >= LockObject.RECORD || recordId < 0 || recordId > LockObject.MAX_RECORD_ID) {
            throw new IllegalArgumentException("record " + recordId + " on page " + pageNo + " of file " + fileId
                    + ": all must be >= 0 (page and record below 2^62)");
        }
        checkTxn(txn);
        checkFlags(flags);
        FileLocks fl = fileLocks(txn);
        if (LockMode.coversChildren(fl.held(fileId), mode.ordinal())) {
            return; // the file lock gives the record
        }
        long rec = LockObject.RECORD | recordId;
        if (fl.hit(fileId, rec, mode.ordinal())) {
            return; // held already: one more reference, kept in the lock cache
        }
        if (fl.hit(fileId, pageNo, mode.ordinal())) {
            return; // the page lock gives the record (a reference on the page's entry)
        }
        lockValidPage(txn, fileId, pageNo, mode.intention(), flags);
        lockValidPage(txn, fileId, rec, mode, flags);
    }

    /** A page (any mode but READ_IWRITE) or a record (READ, WRITE) below file {@code fileId}. */
    private void lockValidPage(Locker txn, int fileId, long pageNo, LockMode mode, int flags) {
        if (mode == LockMode.READ_IWRITE) {
            throw new IllegalArgumentException("a page is locked READ, WRITE, IREAD or IWRITE; " + mode + " is for whole files");
        }
        FileLocks fl = fileLocks(txn);
        int held = fl.held(fileId);
        if (LockMode.coversChildren(held, mode.ordinal())) {
            return; // the file lock covers the page (READ or WRITE on the file: every page, every record)
        }
        if (fl.hit(fileId, pageNo, mode.ordinal())) {
            return; // held already: one more reference, kept in the lock cache
        }
        int intent = mode.intention().ordinal();
        if (held < 0 || !LockMode.covers(held, intent)) {
            acquire(txn, fileId, LockObject.WHOLE_FILE, intent, flags, false, false);
            fl.hold(fileId, held < 0 ? intent : LockMode.join(held, intent));
        }
        try {
            acquire(txn, fileId, pageNo, mode.ordinal(), flags, true, false);
            fl.pageHeld(fileId, pageNo, mode.ordinal());
        } catch (CapacityExceededException full) {
            // Last resort before failing the transaction: lock the file, waiting if need be.
            if (config.escalationThreshold() == 0 || fl.escalated(fileId)
                    || !escalate(txn, fl, fileId, mode == LockMode.WRITE || mode == LockMode.IWRITE, true)
                    || !LockMode.coversChildren(fl.held(fileId), mode.ordinal())) {
                throw full;
            }
            return;
        }
        int n = fl.counted(fileId, mode == LockMode.WRITE || mode == LockMode.IWRITE);
        if (escalateAt > 0 && n % escalateAt == 0 && !fl.escalated(fileId)) {
            escalate(txn, fl, fileId, false, false);
        }
    }

    /**
     * Tries to lock file {@code fileId} as a whole for {@code txn}: WRITE if it changed pages of
     * it (or {@code write}), else READ, joined with the intention lock it holds. Without
     * {@code wait}, gives up at once if another transaction's lock is in the way. True if the
     * file lock is held now.
     */
    private boolean escalate(Locker txn, FileLocks fl, int fileId, boolean write, boolean wait) {
        int held = fl.held(fileId);
        int want = write || fl.wrote(fileId) ? LockMode.WRITE.ordinal() : LockMode.READ.ordinal();
        int target = held < 0 ? want : LockMode.join(held, want);
        try {
            acquire(txn, fileId, LockObject.WHOLE_FILE, target, wait ? 0 : NOWAIT, false, false);
        } catch (LockNotGrantedException busy) {
            return false;
        }
        fl.hold(fileId, target);
        fl.markEscalated(fileId);
        ctl.getAndAddLong(OFF_ESCALATIONS, 1);
        fl.pagesReleased(fileId);
        releaseCovered(txn, fileId, target);
        LOG.debug("transaction {} locked file {} {} instead of more page locks", txn.id(), fileId, LockMode.of(target));
        return true;
    }

    /**
     * Gives back {@code txn}'s granted page locks of file {@code fileId} that its file lock in
     * mode {@code fileMode} covers, so the table has room for others again. Only the
     * transaction's own thread changes its chain, so it is walked without a latch; each request
     * is released under its partition's.
     */
    private void releaseCovered(Locker txn, int fileId, int fileMode) {
        long lk = t.locker(txn.slot());
        int c = mem.getIntVolatile(lk + L_CHAIN);
        while (c != 0) {
            int r = c - 1;
            long ra = t.req(r);
            int next = (int) mem.getLong(ra + R_LNEXT);
            int p = mem.getIntVolatile(ra + R_PART);
            if (p < 0 || p >= partLatches.length || mem.getInt(ra + R_LOCKER) != txn.slot()) {
                // The transaction's own chain names a request that is free or another's: the
                // table is damaged (nobody else changes a live transaction's chain).
                throw env.fail("lock table: transaction " + txn.id() + " (slot " + txn.slot() + ") has request " + r
                        + " in its chain, which is free or another transaction's (the lock table is damaged); the"
                        + " environment must be reopened, and its recovery rebuilds the table");
            }
            int posts = 0;
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long oa = t.obj(mem.getInt(ra + R_OBJ) - 1);
                if (mem.getInt(oa + O_FILE) == fileId && mem.getLong(oa + O_PAGE) != LockObject.WHOLE_FILE
                        && mem.getInt(ra + R_STATUS) == ST_GRANTED && mem.getInt(ra + R_PENDING) == 0
                        && LockMode.coversChildren(fileMode, mem.getInt(ra + R_MODE))) {
                    posts = t.releaseRequest(p, lk, r);
                }
            } finally {
                latch.release();
            }
            if (posts > 0) {
                t.flushWakeups();
            }
            c = next;
        }
    }

    /**
     * The file locks this process knows transaction {@code txn} to hold (started at its first
     * lock, in the slot's cache of an earlier transaction, emptied: nothing allocated).
     */
    private FileLocks fileLocks(Locker txn) {
        int me = txn.slot();
        FileLocks fl = fileLocks[me];
        if (fl == null) {
            fl = new FileLocks(txn.id());
            fileLocks[me] = fl;
        } else if (fl.txnId != txn.id()) {
            fl.reuse(txn.id()); // the slot's earlier transaction has ended
        }
        return fl;
    }

    @Override
    public void upgrade(Locker txn, LockObject obj, int flags) {
        checkArgs(txn, obj);
        checkFlags(flags);
        acquire(txn, obj.fileId(), obj.pageNo(), LockMode.WRITE.ordinal(), flags, false, true);
    }

    /**
     * lock_get: the request under one partition latch; if it must wait, the wait on the
     * transaction's semaphore outside it.
     *
     * @param addRef   a lock() call: one more reference on success
     * @param mustHold an upgrade: the transaction must already hold the object
     */
    private void acquire(Locker txn, int fileId, long pageNo, int want, int flags, boolean addRef, boolean mustHold) {
        int me = txn.slot();
        long lk = t.locker(me);
        if (mem.getLong(lk + L_TXN) != txn.id()) { // plain read: only this transaction's thread sets it to its id
            if (mustHold) {
                throw notHeld(txn, new LockObject(fileId, pageNo));
            }
            release.adopt(me, txn.id());
        }
        txn.lockingFrom(Thread.currentThread());
        if (local[me] != txn) {
            local[me] = txn;
        }
        int h = LockTable.hash(fileId, pageNo);
        int p = h & partMask;
        Latch latch = partLatches[p];
        int res = 0;
        for (int attempt = 0; attempt < 2; attempt++) {
            latch.acquire();
            try {
                res = t.requestLocked(p, h, fileId, pageNo, me, lk, want, flags, addRef, mustHold);
            } finally {
                latch.release();
            }
            if (res != FULL_LOCKS && res != FULL_OBJECTS) {
                break;
            }
            t.drainCaches(); // free entries may sit in other partitions' caches
        }
        switch (res) {
            case GRANTED:
                return;
            case NOT_GRANTED:
                throw new LockNotGrantedException("transaction " + txn.id() + " could not get a "
                        + LockMode.of(want) + " lock on " + new LockObject(fileId, pageNo) + " without waiting (NOWAIT)");
            case FULL_LOCKS:
                throw new CapacityExceededException("lock table full (" + lay.maxLocks()
                        + " locks); raise LockConfig.maxLocks (takes effect when the environment is next created)");
            case FULL_OBJECTS:
                throw new CapacityExceededException("lock table full (" + lay.maxObjects()
                        + " locked objects); raise LockConfig.maxObjects (takes effect when the environment is next created)");
            case NOT_HELD:
                throw notHeld(txn, new LockObject(fileId, pageNo));
            default:
                await(txn, new LockObject(fileId, pageNo), p, res & ~CONVERSION, (res & CONVERSION) != 0, want, addRef);
        }
    }

    private static IllegalStateException notHeld(Locker txn, LockObject obj) {
        return new IllegalStateException("transaction " + txn.id() + " holds no lock on " + obj);
    }

    /**
     * Sleeps on the transaction's semaphore until its request {@code r} is granted, refused by
     * the detector, or times out; every wake-up re-checks under the latch (posts may be stale).
     */
    private void await(Locker txn, LockObject obj, int p, int r, boolean conversion, int want, boolean addRef) {
        int me = txn.slot();
        long lk = t.locker(me);
        SharedSemaphore sem = t.waiter(me);
        if (config.detectOnBlock() && graph.cycleThrough(me)) {
            graph.detectPass(); // confirm on a consistent graph, choose and refuse victims
        }
        Locker mine = blockedBySameThread(me, txn);
        int selfPosts = -1;
        if (mine != null) {
            partLatches[p].acquire();
            try {
                long ra = t.req(r);
                if (mem.getInt(lk + L_VICTIM) != 0) {
                    mine = null; // refused as a deadlock victim meanwhile: the loop below reports that
                } else if (conversion ? mem.getInt(ra + R_PENDING) == 0 : mem.getInt(ra + R_STATUS) == ST_GRANTED) {
                    mem.putInt(lk + L_WAITING, 0); // granted meanwhile after all
                    if (conversion && addRef) {
                        mem.putInt(ra + R_REFS, mem.getInt(ra + R_REFS) + 1);
                    }
                    return;
                } else {
                    mem.putInt(lk + L_WAITING, 0);
                    selfPosts = t.cancel(p, lk, r, conversion);
                }
            } finally {
                partLatches[p].release();
            }
        }
        if (mine != null) {
            if (selfPosts > 0) {
                t.flushWakeups();
            }
            throw new SelfDeadlockException("transaction " + txn.id() + " needs a " + LockMode.of(want) + " lock on "
                    + obj + " that transaction " + mine.id() + " of the same thread holds: it could only be granted "
                    + "after that transaction ends, which this thread cannot do while it waits. Do this in transaction "
                    + mine.id() + " (pass it instead of null), or commit or abort it first");
        }
        long timeout = TimeUnit.MILLISECONDS.toNanos(config.lockTimeoutMillis());
        long start = System.nanoTime();
        Latch latch = partLatches[p];
        while (true) {
            long sleep = RECHECK_NANOS;
            if (timeout > 0) {
                sleep = Math.min(sleep, timeout - (System.nanoTime() - start));
            }
            if (sleep > 0) {
                sem.tryAcquire(sleep, TimeUnit.NANOSECONDS);
            }
            boolean expired = timeout > 0 && System.nanoTime() - start >= timeout;
            int outcome;
            int posts;
            latch.acquire();
            try {
                long ra = t.req(r);
                if (mem.getInt(lk + L_VICTIM) != 0) {
                    // The detector refused this wait: an ordinary request is already out of its
                    // queue; a conversion keeps the mode it had.
                    mem.putInt(lk + L_VICTIM, 0);
                    mem.putInt(lk + L_WAITING, 0);
                    if (!conversion) {
                        t.chainRemove(lk, r);
                        t.freeRequest(LockTable.partBlock(p), r);
                    }
                    outcome = 1;
                    posts = 0;
                } else if (conversion ? mem.getInt(ra + R_PENDING) == 0 : mem.getInt(ra + R_STATUS) == ST_GRANTED) {
                    mem.putInt(lk + L_WAITING, 0);
                    if (conversion && addRef) {
                        mem.putInt(ra + R_REFS, mem.getInt(ra + R_REFS) + 1);
                    }
                    return;
                } else if (!expired) {
                    continue;
                } else {
                    mem.putInt(lk + L_WAITING, 0);
                    posts = t.cancel(p, lk, r, conversion);
                    outcome = 2;
                }
            } finally {
                latch.release();
            }
            if (posts > 0) {
                t.flushWakeups();
            }
            if (outcome == 1) {
                LOG.debug("transaction {} refused {} on {}: deadlock victim", txn.id(), LockMode.of(want), obj);
                throw new DeadlockException("transaction " + txn.id() + " was chosen as a deadlock victim while waiting for a "
                        + LockMode.of(want) + " lock on " + obj + "; abort and retry it");
            }
            ctl.getAndAddLong(OFF_TIMEOUTS, 1);
            throw new LockTimeoutException("transaction " + txn.id() + " waited " + config.lockTimeoutMillis()
                    + " ms for a " + LockMode.of(want) + " lock on " + obj
                    + " (LockConfig.lockTimeoutMillis); abort and retry it");
        }
    }

    /**
     * A transaction of this JVM, last used for a lock by the calling thread, that the waiting
     * request of locker {@code me} waits for directly; null if none.
     */
    private Locker blockedBySameThread(int me, Locker txn) {
        int[][] edges = {new int[16]};
        int n = graph.edgesOf(me, edges);
        Thread self = Thread.currentThread();
        for (int i = 0; i < n; i++) {
            int s = edges[0][i];
            Locker h = s >= 0 && s < maxLockers ? local[s] : null;
            if (h != null && h != txn && h.slot() == s && !h.isFinished() && h.lockingThread() == self
                    && mem.getLongVolatile(t.locker(s) + L_TXN) == h.id()) {
                return h;
            }
        }
        return null;
    }

    @Override
    public void unlock(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        FileLocks fl = fileLocks[txn.slot()];
        boolean known = fl != null && fl.txnId == txn.id();
        if (known && obj.pageNo() != LockObject.WHOLE_FILE && fl.unlockCached(obj.fileId(), obj.pageNo())) {
            return; // a reference the lock cache kept
        }
        if (obj.pageNo() == LockObject.WHOLE_FILE) {
            if (known) {
                fl.forget(obj.fileId()); // asked again next time (a re-lock if still held)
            }
        } else if (known && fl.held(obj.fileId()) >= 0 && LockMode.covers(fl.held(obj.fileId()), LockMode.READ.ordinal())) {
            // Under a file lock the page may never have been locked itself: nothing to give back
            // then (not an exception: after an escalation every unlock of a covered page is one).
            unlockObject(txn, obj, false);
            return;
        }
        unlockObject(txn, obj, true);
    }

    /**
     * Gives back one reference to {@code txn}'s lock on {@code obj}; false if it holds none (an
     * {@link IllegalStateException} instead if {@code mustHold}).
     */
    private boolean unlockObject(Locker txn, LockObject obj, boolean mustHold) {
        int me = txn.slot();
        long lk = t.locker(me);
        if (mem.getLong(lk + L_TXN) != txn.id()) {
            if (mustHold) {
                throw notHeld(txn, obj);
            }
            return false;
        }
        int h = LockTable.hash(obj.fileId(), obj.pageNo());
        int p = h & partMask;
        long pb = LockTable.partBlock(p);
        Latch latch = partLatches[p];
        int posts = 0;
        latch.acquire();
        try {
            // findObject, keeping the predecessor in the bucket chain for the removal below
            long bucket = t.bucket(h);
            int prevObj = 0;
            int i = mem.getInt(bucket);
            long oa = 0;
            while (i != 0) {
                oa = t.obj(i - 1);
                if (mem.getLong(oa + O_PAGE) == obj.pageNo() && mem.getInt(oa + O_FILE) == obj.fileId()) {
                    break;
                }
                prevObj = i;
                i = mem.getInt(oa + O_NEXT);
            }
            int r = i == 0 ? -1 : t.findRequest(oa, me);
            if (r < 0) {
                if (mustHold) {
                    throw notHeld(txn, obj);
                }
                return false;
            }
            long ra = t.req(r);
            int refs = mem.getInt(ra + R_REFS) - 1;
            if (refs > 0) {
                mem.putInt(ra + R_REFS, refs);
                return true;
            }
            t.chainRemove(lk, r);
            if (mem.getLong(ra + R_QNEXT) == 0) {
                // The uncontended path: the only request, so the object goes with it.
                int next = mem.getInt(oa + O_NEXT);
                if (prevObj == 0) {
                    mem.putInt(bucket, next);
                } else {
                    mem.putInt(t.obj(prevObj - 1) + O_NEXT, next);
                }
                mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) - ONE_OBJECT - ONE_LOCK);
                if (mem.getLong(pb + P_CACHES) == 0) {
                    // Free in the cache as on the stacks (as freeRequest and freeObject leave
                    // them): status first, then the cache, then the partition forgotten. A repair
                    // or a chain made again from the table must not take them for a lock held.
                    mem.putLong(ra + R_MODE, LockTable.pair(0, ST_FREE));
                    mem.putLong(pb + P_CACHES, LockTable.pair(r + 1, i));
                    mem.putInt(ra + R_PART, NO_PART);
                    mem.putInt(oa + O_PART, NO_PART);
                } else {
                    t.freeRequest(pb, r);
                    t.freeObject(pb, i - 1);
                }
            } else {
                t.dequeue(pb, oa, r);
                t.freeRequest(pb, r);
                posts = t.grantWaiters(oa);
            }
        } finally {
            latch.release();
        }
        if (posts > 0) {
            t.flushWakeups();
        }
        return true;
    }

    @Override
    public void downgrade(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        int me = txn.slot();
        if (mem.getLong(t.locker(me) + L_TXN) != txn.id()) {
            throw notHeld(txn, obj);
        }
        int h = LockTable.hash(obj.fileId(), obj.pageNo());
        Latch latch = partLatches[h & partMask];
        int posts = 0;
        latch.acquire();
        try {
            int o = t.findObject(t.bucket(h), obj.fileId(), obj.pageNo());
            int r = o < 0 ? -1 : t.findRequest(t.obj(o), me);
            if (r < 0) {
                throw notHeld(txn, obj);
            }
            long ra = t.req(r);
            if (mem.getInt(ra + R_MODE) == LockMode.WRITE.ordinal()) {
                FileLocks fl = fileLocks[me];
                if (fl != null && fl.txnId == txn.id()) {
                    fl.pageDowngraded(obj.fileId(), obj.pageNo(), LockMode.READ.ordinal());
                }
                mem.putInt(ra + R_MODE, LockMode.READ.ordinal());
                posts = t.grantWaiters(t.obj(o));
            }
        } finally {
            latch.release();
        }
        if (posts > 0) {
            t.flushWakeups();
        }
    }

    @Override
    public LockMode heldMode(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        int me = txn.slot();
        if (mem.getLong(t.locker(me) + L_TXN) != txn.id()) {
            return null;
        }
        int h = LockTable.hash(obj.fileId(), obj.pageNo());
        Latch latch = partLatches[h & partMask];
        latch.acquire();
        try {
            int o = t.findObject(t.bucket(h), obj.fileId(), obj.pageNo());
            int r = o < 0 ? -1 : t.findRequest(t.obj(o), me);
            if (r < 0 || mem.getInt(t.req(r) + R_STATUS) != ST_GRANTED) {
                return null;
            }
            return LockMode.of(mem.getInt(t.req(r) + R_MODE));
        } finally {
            latch.release();
        }
    }

    @Override
    public void unlockAll(Locker txn) {
        if (txn == null) {
            throw new IllegalArgumentException("transaction must not be null");
        }
        if (txn.slot() < 0 || txn.slot() >= maxLockers) {
            throw new IllegalArgumentException("transaction " + txn.id() + " (slot " + txn.slot()
                    + ") is not of this environment's transaction table");
        }
        t.checkOpen();
        txn.checkActive();
        FileLocks fl = fileLocks[txn.slot()];
        if (fl != null && fl.txnId == txn.id()) {
            fl.reuse(FileLocks.NONE); // its file, intention and page locks are gone
        }
        release.release(txn.slot(), txn.id());
        reclaimIfDue();
    }

    /** End listener: the transaction ended in this process, or failCheck rolled back a dead one. */
    private void ended(int slot, long txnId, boolean committed) {
        try {
            release.release(slot, txnId);
            reclaimIfDue();
        } catch (IllegalStateException e) {
            // The environment handle or its memory is closed: nothing shared to release.
            LOG.debug("locks of transaction {} not released: {}", txnId, e.toString());
        }
    }

    /**
     * After a partition repair (in any process), the sweep that gives back the free entries its
     * dead holder may have left on no list; one volatile read otherwise. Called where this thread
     * holds no partition latch: at transaction ends and in failCheck.
     */
    private void reclaimIfDue() {
        if (reader.reclaimDue()) {
            reader.reclaimLost();
        }
    }

    // ------------------------------------------------------------------ table primitives (under the latch)

    // ------------------------------------------------------------------ wake-ups

    @Override
    public int detect() {
        t.checkOpen();
        return graph.detectPass();
    }

    // ------------------------------------------------------------------ stats, close

    /**
     * The lock table as it is now, read under every partition latch (in index order, as a
     * detection pass takes them): what {@code libtp locks} prints.
     */
    public LockTableSnapshot snapshot() {
        return reader.snapshot();
    }

    @Override
    public LockStats stats() {
        return reader.stats();
    }

    /**
     * {free lock requests, free lock objects, the table's requests, the table's objects, free
     * entries that still name a partition or a status other than free}, counted on the free
     * lists under every partition latch: with {@link LockStats#locksInUse()} and
     * {@link LockStats#objectsInUse()} the first two add up to the table's size unless entries
     * were lost; the last is 0 unless the table is damaged.
     */
    public int[] freeEntries() {
        return reader.freeEntries();
    }

    /** The process slot running the periodic detector now, or -1 if none has taken the role. */
    public int detectorProcessSlot() {
        return role.detectorProcessSlot();
    }

    /** The table, for tests of its repair. */
    LockTable table() {
        return t;
    }

    /** The configuration this process opened with. */
    public LockConfig config() {
        return config;
    }

    /**
     * Stops the detector thread (giving up the detector role) and the failCheck listener. The
     * end listener stays: transactions still running end after this, and their locks must go.
     */
    @Override
    public void close() {
        if (t.closed) {
            return;
        }
        t.closed = true;
        env.forgetRepairs(tables, partLatches);
        role.stop();
        env.removeFailCheckListener(failCheckListener);
        role.giveUp();
    }

    @Override
    public String toString() {
        return "SharedLockManager[" + env.home() + (t.closed ? ", closed" : "") + "]";
    }
}
