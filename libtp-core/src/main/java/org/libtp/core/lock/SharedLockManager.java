package org.libtp.core.lock;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.SelfDeadlockException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.libtp.core.lock.LockLayout.*;

/**
 * The lock manager on two shared regions: {@code __libtp.rgn.lock} (fixed size: the settings,
 * the detector word, the free lists) and {@code __libtp.rgn.lock.tables} (sized by the
 * settings). The split lets a process read the settings before it attaches the tables, so
 * different capacity settings are reported as such. See the package note for the protocols.
 *
 * The offsets are in {@link LockLayout}.
 */
public final class SharedLockManager implements LockManager {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);

    /** A waiter re-checks its request this often even without a post (a granter may die between
     * granting and posting). */
    static final long RECHECK_NANOS = TimeUnit.SECONDS.toNanos(1);

    // requestLocked results (>= 0: the request index to wait on)
    private static final int GRANTED = -1;
    private static final int NOT_GRANTED = -2;
    private static final int FULL_LOCKS = -3;
    private static final int FULL_OBJECTS = -4;
    private static final int NOT_HELD = -5;
    /** Or'ed into a request index: the wait is a conversion (the request stays a holder). */
    private static final int CONVERSION = 1 << 30;

    /** Slots whose waiters were granted (or refused) under a latch, posted after its release. */
    private static final class Wakeups {
        int[] slots = new int[8];
        int n;
    }

    private final RegionEnvironment env;
    private final LockerTable txns;
    private final LockConfig config;
    private final Memory ctl;
    private final Memory mem;
    private final Layout lay;
    private final Latch[] partLatches;
    private final int partMask;
    private final int partShift;
    private final int bucketMask;
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
    private final SharedSemaphore[] waiters;
    private final ThreadLocal<Wakeups> wakeups = ThreadLocal.withInitial(Wakeups::new);
    private final long detectorWord;
    private final long claimWord;
    private final LockerEndListener endListener = this::ended;
    private final FailCheckListener failCheckListener = dead -> onFailCheck();
    private final Thread detectorThread;
    private volatile boolean closed;

    private SharedLockManager(LockerTable txns, LockConfig config, Memory ctl, Region tables, Layout lay) {
        this.env = txns.environment();
        this.txns = txns;
        this.config = config;
        this.ctl = ctl;
        this.mem = tables.memory();
        this.lay = lay;
        this.partLatches = new Latch[lay.partitions()];
        for (int p = 0; p < lay.partitions(); p++) {
            partLatches[p] = env.latch(tables, partBlock(p) + P_LATCH, "lock partition " + p);
        }
        this.partMask = lay.partitions() - 1;
        this.partShift = Integer.numberOfTrailingZeros(lay.partitions());
        this.bucketMask = lay.bucketsPerPartition() - 1;
        this.maxLockers = lay.maxLockers();
        this.local = new Locker[lay.maxLockers()];
        this.fileLocks = new FileLocks[lay.maxLockers()];
        this.escalateAt = config.escalationThreshold() == 0 ? 0
                : Math.max(1, Math.min(config.escalationThreshold(), Math.min(lay.maxLocks(), lay.maxObjects()) / 4));
        this.waiters = new SharedSemaphore[maxLockers];
        int slot = env.processSlot();
        long gen = env.slotGeneration(slot);
        this.detectorWord = ((long) (slot + 1) << 48) | (gen & GEN_MASK_48);
        this.claimWord = Long.MIN_VALUE | ((long) (slot + 1) << 40) | (gen & GEN_MASK_40);
        this.detectorThread = config.detectIntervalMillis() > 0
                ? new Thread(this::detectorLoop, "libtp-lock-detector " + env.home()) : null;
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
        txn.addLockerEndListener(lm.endListener);
        env.addFailCheckListener(lm.failCheckListener);
        if (lm.detectorThread != null) {
            lm.detectorThread.setDaemon(true);
            lm.detectorThread.start();
        }
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
        }
        for (int i = 0; i < lay.maxObjects(); i++) {
            mem.putInt(lay.offObjects() + (long) OBJ * i + O_NEXT, i + 1 < lay.maxObjects() ? i + 2 : 0);
        }
        ctl.putLongVolatile(OFF_REQ_FREE, 1);
        ctl.putLongVolatile(OFF_OBJ_FREE, 1);
    }

    // ------------------------------------------------------------------ addressing

    private static long partBlock(int p) {
        return OFF_PART + (long) PART * p;
    }

    private long locker(int slot) {
        return lay.offLockers() + (long) LOCKER * slot;
    }

    private long obj(int o) {
        return lay.offObjects() + (long) OBJ * o;
    }

    private long req(int r) {
        return lay.offRequests() + (long) REQ * r;
    }

    private long bucket(int h) {
        return lay.offBuckets() + 4L * ((long) (h & partMask) * lay.bucketsPerPartition() + ((h >>> partShift) & bucketMask));
    }

    /** A 64-bit mix of (fileId, pageNo); the low bits pick the partition, the next the bucket. */
    static int hash(int fileId, long pageNo) {
        long h = pageNo * 0x9E3779B97F4A7C15L + fileId;
        h ^= h >>> 32;
        h *= 0xD6E8FEB86659FD93L;
        h ^= h >>> 32;
        return (int) h;
    }

    private SharedSemaphore waiter(int slot) {
        SharedSemaphore s = waiters[slot];
        if (s == null) {
            s = txns.waiter(slot);
            waiters[slot] = s; // a benign race: every view of one slot is equal
        }
        return s;
    }

    // ------------------------------------------------------------------ argument checks

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock manager of " + env.home() + " is closed");
        }
    }

    private void checkArgs(Locker txn, LockObject obj) {
        if (txn == null) {
            throw new IllegalArgumentException("transaction must not be null");
        }
        if (obj == null) {
            throw new IllegalArgumentException("lock object must not be null");
        }
        if (txn.slot() < 0 || txn.slot() >= maxLockers) {
            throw new IllegalArgumentException("transaction " + txn.id() + " (slot " + txn.slot()
                    + ") is not of this environment's transaction table");
        }
        checkOpen();
        txn.checkActive();
    }

    private static void checkFlags(int flags) {
        if ((flags & ~NOWAIT) != 0) {
            throw new IllegalArgumentException("unknown lock flags " + flags + "; only NOWAIT (" + NOWAIT + ")");
        }
    }

    // ------------------------------------------------------------------ lock

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
            acquire(txn, obj, mode.ordinal(), flags, true, false);
            FileLocks fl = fileLocks(txn);
            int held = fl.held(obj.fileId());
            fl.hold(obj.fileId(), held < 0 ? mode.ordinal() : LockMode.join(held, mode.ordinal()));
            return;
        }
        if (mode != LockMode.READ && mode != LockMode.WRITE) {
            throw new IllegalArgumentException("a page is locked READ or WRITE; " + mode + " is for whole files");
        }
        FileLocks fl = fileLocks(txn);
        int fileId = obj.fileId();
        int held = fl.held(fileId);
        if (held >= 0 && LockMode.covers(held, mode.ordinal())) {
            return; // the file lock covers the page
        }
        int intent = mode.intention().ordinal();
        if (held < 0 || !LockMode.covers(held, intent)) {
            acquire(txn, new LockObject(fileId, LockObject.WHOLE_FILE), intent, flags, false, false);
            fl.hold(fileId, held < 0 ? intent : LockMode.join(held, intent));
        }
        try {
            acquire(txn, obj, mode.ordinal(), flags, true, false);
        } catch (CapacityExceededException full) {
            // Last resort before failing the transaction: lock the file, waiting if need be.
            if (config.escalationThreshold() == 0 || fl.escalated(fileId)
                    || !escalate(txn, fl, fileId, mode == LockMode.WRITE, true)
                    || !LockMode.covers(fl.held(fileId), mode.ordinal())) {
                throw full;
            }
            return;
        }
        int n = fl.counted(fileId, mode == LockMode.WRITE);
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
            acquire(txn, new LockObject(fileId, LockObject.WHOLE_FILE), target, wait ? 0 : NOWAIT, false, false);
        } catch (LockNotGrantedException busy) {
            return false;
        }
        fl.hold(fileId, target);
        fl.markEscalated(fileId);
        ctl.getAndAddLong(OFF_ESCALATIONS, 1);
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
        long lk = locker(txn.slot());
        int c = mem.getIntVolatile(lk + L_CHAIN);
        while (c != 0) {
            int r = c - 1;
            long ra = req(r);
            int next = (int) mem.getLong(ra + R_LNEXT);
            int p = mem.getIntVolatile(ra + R_PART);
            int posts = 0;
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long oa = obj(mem.getInt(ra + R_OBJ) - 1);
                if (mem.getInt(oa + O_FILE) == fileId && mem.getLong(oa + O_PAGE) != LockObject.WHOLE_FILE
                        && mem.getInt(ra + R_STATUS) == ST_GRANTED && mem.getInt(ra + R_PENDING) == 0
                        && LockMode.covers(fileMode, mem.getInt(ra + R_MODE))) {
                    posts = releaseRequest(p, lk, r);
                }
            } finally {
                latch.release();
            }
            if (posts > 0) {
                flushWakeups();
            }
            c = next;
        }
    }

    /** The file locks this process knows transaction {@code txn} to hold (created at its first lock). */
    private FileLocks fileLocks(Locker txn) {
        int me = txn.slot();
        FileLocks fl = fileLocks[me];
        if (fl == null || fl.txnId != txn.id()) {
            fl = new FileLocks(txn.id());
            fileLocks[me] = fl;
        }
        return fl;
    }

    /**
     * Per transaction, in the process that runs it: the mode it holds on each file it locked
     * pages of, and how many page locks it asked for there. Only the transaction's own thread
     * uses it; a new transaction in the slot starts a new one.
     */
    static final class FileLocks {
        final long txnId;
        private int lastFile = -1;
        private long[] lastEntry;
        private final java.util.HashMap<Integer, long[]> byFile = new java.util.HashMap<>(4);

        FileLocks(long txnId) {
            this.txnId = txnId;
        }

        /** {held mode ordinal or -1, page requests, write requests, escalated 0/1} */
        private long[] entry(int fileId) {
            if (fileId == lastFile) {
                return lastEntry;
            }
            long[] e = byFile.computeIfAbsent(fileId, f -> new long[] {-1, 0, 0, 0});
            lastFile = fileId;
            lastEntry = e;
            return e;
        }

        int held(int fileId) {
            return (int) entry(fileId)[0];
        }

        void hold(int fileId, int mode) {
            entry(fileId)[0] = mode;
        }

        void forget(int fileId) {
            entry(fileId)[0] = -1;
        }

        int counted(int fileId, boolean write) {
            long[] e = entry(fileId);
            if (write) {
                e[2]++;
            }
            return (int) ++e[1];
        }

        boolean wrote(int fileId) {
            return entry(fileId)[2] > 0;
        }

        boolean escalated(int fileId) {
            return entry(fileId)[3] != 0;
        }

        void markEscalated(int fileId) {
            entry(fileId)[3] = 1;
        }
    }

    @Override
    public void upgrade(Locker txn, LockObject obj, int flags) {
        checkArgs(txn, obj);
        checkFlags(flags);
        acquire(txn, obj, LockMode.WRITE.ordinal(), flags, false, true);
    }

    /**
     * lock_get: the request under one partition latch; if it must wait, the wait on the
     * transaction's semaphore outside it.
     *
     * @param addRef   a lock() call: one more reference on success
     * @param mustHold an upgrade: the transaction must already hold the object
     */
    private void acquire(Locker txn, LockObject obj, int want, int flags, boolean addRef, boolean mustHold) {
        int me = txn.slot();
        long lk = locker(me);
        if (mem.getLong(lk + L_TXN) != txn.id()) { // plain read: only this transaction's thread sets it to its id
            if (mustHold) {
                throw notHeld(txn, obj);
            }
            adopt(me, txn.id());
        }
        txn.lockingFrom(Thread.currentThread());
        if (local[me] != txn) {
            local[me] = txn;
        }
        int fileId = obj.fileId();
        long pageNo = obj.pageNo();
        int h = hash(fileId, pageNo);
        int p = h & partMask;
        Latch latch = partLatches[p];
        int res = 0;
        for (int attempt = 0; attempt < 2; attempt++) {
            latch.acquire();
            try {
                res = requestLocked(p, h, fileId, pageNo, me, lk, want, flags, addRef, mustHold);
            } finally {
                latch.release();
            }
            if (res != FULL_LOCKS && res != FULL_OBJECTS) {
                break;
            }
            drainCaches(); // free entries may sit in other partitions' caches
        }
        switch (res) {
            case GRANTED:
                return;
            case NOT_GRANTED:
                throw new LockNotGrantedException("transaction " + txn.id() + " could not get a "
                        + LockMode.of(want) + " lock on " + obj + " without waiting (NOWAIT)");
            case FULL_LOCKS:
                throw new CapacityExceededException("lock table full (" + lay.maxLocks()
                        + " locks); raise LockConfig.maxLocks (takes effect when the environment is next created)");
            case FULL_OBJECTS:
                throw new CapacityExceededException("lock table full (" + lay.maxObjects()
                        + " locked objects); raise LockConfig.maxObjects (takes effect when the environment is next created)");
            case NOT_HELD:
                throw notHeld(txn, obj);
            default:
                await(txn, obj, p, res & ~CONVERSION, (res & CONVERSION) != 0, want, addRef);
        }
    }

    private static IllegalStateException notHeld(Locker txn, LockObject obj) {
        return new IllegalStateException("transaction " + txn.id() + " holds no lock on " + obj);
    }

    /** Under partition {@code p}'s latch. Returns a result code, or the request to wait on. */
    private int requestLocked(int p, int h, int fileId, long pageNo, int me, long lk, int want, int flags,
                              boolean addRef, boolean mustHold) {
        long pb = partBlock(p);
        mem.putLong(pb + P_REQUESTS, mem.getLong(pb + P_REQUESTS) + 1);
        long bucket = bucket(h);
        int o = findObject(bucket, fileId, pageNo);
        if (o < 0) {
            if (mustHold) {
                return NOT_HELD;
            }
            // The uncontended path: a new object with one granted request.
            int r;
            long caches = mem.getLong(pb + P_CACHES);
            if ((int) caches != 0 && (int) (caches >>> 32) != 0) {
                r = (int) caches - 1;
                o = (int) (caches >>> 32) - 1;
                mem.putLong(pb + P_CACHES, 0);
            } else {
                o = allocObject(pb);
                if (o < 0) {
                    return FULL_OBJECTS;
                }
                r = allocRequest(pb);
                if (r < 0) {
                    freeObject(pb, o);
                    return FULL_LOCKS;
                }
            }
            long oa = obj(o);
            mem.putLong(oa + O_PAGE, pageNo);
            mem.putLong(oa + O_FILE, pair(fileId, h));
            mem.putLong(oa + O_NEXT, pair(mem.getInt(bucket), r + 1)); // next, head
            mem.putInt(oa + O_TAIL, r + 1);
            mem.putInt(bucket, o + 1);
            mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) + ONE_OBJECT + ONE_LOCK);
            newRequest(r, o, me, want, ST_GRANTED, p);
            mem.putLong(req(r) + R_QNEXT, 0); // alone in the queue
            chainPush(lk, r);
            return GRANTED;
        }
        long oa = obj(o);
        int r = findRequest(oa, me);
        if (r >= 0) {
            long ra = req(r);
            int held = mem.getInt(ra + R_MODE);
            if (LockMode.covers(held, want)) {
                if (addRef) {
                    mem.putInt(ra + R_REFS, mem.getInt(ra + R_REFS) + 1);
                }
                return GRANTED;
            }
            int target = LockMode.join(held, want);
            if ((LockMode.conflictMask(target) & holderMask(oa, r)) == 0) {
                mem.putInt(ra + R_MODE, target);
                if (addRef) {
                    mem.putInt(ra + R_REFS, mem.getInt(ra + R_REFS) + 1);
                }
                return GRANTED;
            }
            if ((flags & NOWAIT) != 0) {
                return NOT_GRANTED;
            }
            mem.putInt(ra + R_PENDING, target + 1); // a conversion: waits among the holders
            mem.putInt(lk + L_WAITING, r + 1);
            mem.putLong(pb + P_WAITS, mem.getLong(pb + P_WAITS) + 1);
            return r | CONVERSION;
        }
        if (mustHold) {
            return NOT_HELD;
        }
        boolean grant = grantableNow(oa, want);
        if (!grant && (flags & NOWAIT) != 0) {
            return NOT_GRANTED;
        }
        r = allocRequest(pb);
        if (r < 0) {
            return FULL_LOCKS;
        }
        newRequest(r, o, me, want, grant ? ST_GRANTED : ST_WAITING, p);
        enqueue(pb, oa, r);
        chainPush(lk, r);
        if (grant) {
            return GRANTED;
        }
        mem.putInt(lk + L_WAITING, r + 1);
        mem.putLong(pb + P_WAITS, mem.getLong(pb + P_WAITS) + 1);
        return r;
    }

    /**
     * Sleeps on the transaction's semaphore until its request {@code r} is granted, refused by
     * the detector, or times out; every wake-up re-checks under the latch (posts may be stale).
     */
    private void await(Locker txn, LockObject obj, int p, int r, boolean conversion, int want, boolean addRef) {
        int me = txn.slot();
        long lk = locker(me);
        SharedSemaphore sem = waiter(me);
        if (config.detectOnBlock() && cycleThrough(me)) {
            detectPass(); // confirm on a consistent graph, choose and refuse victims
        }
        Locker mine = blockedBySameThread(me, txn);
        int selfPosts = -1;
        if (mine != null) {
            partLatches[p].acquire();
            try {
                long ra = req(r);
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
                    selfPosts = cancel(p, lk, r, conversion);
                }
            } finally {
                partLatches[p].release();
            }
        }
        if (mine != null) {
            if (selfPosts > 0) {
                flushWakeups();
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
                long ra = req(r);
                if (mem.getInt(lk + L_VICTIM) != 0) {
                    // The detector refused this wait: an ordinary request is already out of its
                    // queue; a conversion keeps the mode it had.
                    mem.putInt(lk + L_VICTIM, 0);
                    mem.putInt(lk + L_WAITING, 0);
                    if (!conversion) {
                        chainRemove(lk, r);
                        freeRequest(partBlock(p), r);
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
                    posts = cancel(p, lk, r, conversion);
                    outcome = 2;
                }
            } finally {
                latch.release();
            }
            if (posts > 0) {
                flushWakeups();
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
        int n = edgesOf(me, edges);
        Thread self = Thread.currentThread();
        for (int i = 0; i < n; i++) {
            int s = edges[0][i];
            Locker h = s >= 0 && s < maxLockers ? local[s] : null;
            if (h != null && h != txn && h.slot() == s && !h.isFinished() && h.lockingThread() == self
                    && mem.getLongVolatile(locker(s) + L_TXN) == h.id()) {
                return h;
            }
        }
        return null;
    }

    /** Under the latch: withdraws a waiting request (timeout); returns the grants it caused. */
    private int cancel(int p, long lk, int r, boolean conversion) {
        long pb = partBlock(p);
        long ra = req(r);
        int o = mem.getInt(ra + R_OBJ) - 1;
        long oa = obj(o);
        if (conversion) {
            mem.putInt(ra + R_PENDING, 0);
        } else {
            dequeue(pb, oa, r);
            chainRemove(lk, r);
            freeRequest(pb, r);
        }
        int posts = grantWaiters(oa);
        if (mem.getInt(oa + O_HEAD) == 0) {
            removeObject(pb, o);
        }
        return posts;
    }

    // ------------------------------------------------------------------ unlock, convert, query

    @Override
    public void unlock(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        FileLocks fl = fileLocks[txn.slot()];
        boolean known = fl != null && fl.txnId == txn.id();
        if (obj.pageNo() == LockObject.WHOLE_FILE) {
            if (known) {
                fl.forget(obj.fileId()); // asked again next time (a re-lock if still held)
            }
        } else if (known && fl.held(obj.fileId()) >= 0 && LockMode.covers(fl.held(obj.fileId()), LockMode.READ.ordinal())) {
            // Under a file lock the page may never have been locked itself: nothing to give back then.
            try {
                unlockObject(txn, obj);
            } catch (IllegalStateException notHeld) {
                // covered by the file lock
            }
            return;
        }
        unlockObject(txn, obj);
    }

    private void unlockObject(Locker txn, LockObject obj) {
        int me = txn.slot();
        long lk = locker(me);
        if (mem.getLong(lk + L_TXN) != txn.id()) {
            throw notHeld(txn, obj);
        }
        int h = hash(obj.fileId(), obj.pageNo());
        int p = h & partMask;
        long pb = partBlock(p);
        Latch latch = partLatches[p];
        int posts = 0;
        latch.acquire();
        try {
            // findObject, keeping the predecessor in the bucket chain for the removal below
            long bucket = bucket(h);
            int prevObj = 0;
            int i = mem.getInt(bucket);
            long oa = 0;
            while (i != 0) {
                oa = obj(i - 1);
                if (mem.getLong(oa + O_PAGE) == obj.pageNo() && mem.getInt(oa + O_FILE) == obj.fileId()) {
                    break;
                }
                prevObj = i;
                i = mem.getInt(oa + O_NEXT);
            }
            int r = i == 0 ? -1 : findRequest(oa, me);
            if (r < 0) {
                throw notHeld(txn, obj);
            }
            long ra = req(r);
            int refs = mem.getInt(ra + R_REFS) - 1;
            if (refs > 0) {
                mem.putInt(ra + R_REFS, refs);
                return;
            }
            chainRemove(lk, r);
            if (mem.getLong(ra + R_QNEXT) == 0) {
                // The uncontended path: the only request, so the object goes with it.
                int next = mem.getInt(oa + O_NEXT);
                if (prevObj == 0) {
                    mem.putInt(bucket, next);
                } else {
                    mem.putInt(obj(prevObj - 1) + O_NEXT, next);
                }
                mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) - ONE_OBJECT - ONE_LOCK);
                if (mem.getLong(pb + P_CACHES) == 0) {
                    mem.putLong(pb + P_CACHES, pair(r + 1, i));
                } else {
                    freeRequest(pb, r);
                    freeObject(pb, i - 1);
                }
            } else {
                dequeue(pb, oa, r);
                freeRequest(pb, r);
                posts = grantWaiters(oa);
            }
        } finally {
            latch.release();
        }
        if (posts > 0) {
            flushWakeups();
        }
    }

    @Override
    public void downgrade(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        int me = txn.slot();
        if (mem.getLong(locker(me) + L_TXN) != txn.id()) {
            throw notHeld(txn, obj);
        }
        int h = hash(obj.fileId(), obj.pageNo());
        Latch latch = partLatches[h & partMask];
        int posts = 0;
        latch.acquire();
        try {
            int o = findObject(bucket(h), obj.fileId(), obj.pageNo());
            int r = o < 0 ? -1 : findRequest(obj(o), me);
            if (r < 0) {
                throw notHeld(txn, obj);
            }
            long ra = req(r);
            if (mem.getInt(ra + R_MODE) == LockMode.WRITE.ordinal()) {
                mem.putInt(ra + R_MODE, LockMode.READ.ordinal());
                posts = grantWaiters(obj(o));
            }
        } finally {
            latch.release();
        }
        if (posts > 0) {
            flushWakeups();
        }
    }

    @Override
    public LockMode heldMode(Locker txn, LockObject obj) {
        checkArgs(txn, obj);
        int me = txn.slot();
        if (mem.getLong(locker(me) + L_TXN) != txn.id()) {
            return null;
        }
        int h = hash(obj.fileId(), obj.pageNo());
        Latch latch = partLatches[h & partMask];
        latch.acquire();
        try {
            int o = findObject(bucket(h), obj.fileId(), obj.pageNo());
            int r = o < 0 ? -1 : findRequest(obj(o), me);
            if (r < 0 || mem.getInt(req(r) + R_STATUS) != ST_GRANTED) {
                return null;
            }
            return LockMode.of(mem.getInt(req(r) + R_MODE));
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
        checkOpen();
        txn.checkActive();
        release(txn.slot(), txn.id());
    }

    /** End listener: the transaction ended in this process, or failCheck rolled back a dead one. */
    private void ended(int slot, long txnId, boolean committed) {
        try {
            release(slot, txnId);
        } catch (IllegalStateException e) {
            // The environment handle or its memory is closed: nothing shared to release.
            LOG.debug("locks of transaction {} not released: {}", txnId, e.toString());
        }
    }

    // ------------------------------------------------------------------ lockers

    /**
     * Makes the locker entry of {@code slot} transaction {@code id}'s. A different id there is
     * a previous transaction in the slot: it has ended (the slot is ours now), so whatever it
     * left is released first (normally nothing: its end released it).
     */
    private void adopt(int slot, long id) {
        long lk = locker(slot);
        while (true) {
            long w = mem.getLongVolatile(lk + L_TXN);
            if (w == id) {
                return;
            }
            if (w < 0) { // a releaser is at work on a previous chain
                if (!claimerAlive(w) && mem.compareAndSetLong(lk + L_TXN, w, claimWord)) {
                    releaseClaimed(slot, w);
                } else {
                    env.checkValid();
                    LockSupport.parkNanos(50_000);
                }
                continue;
            }
            if (!mem.compareAndSetLong(lk + L_TXN, w, claimWord)) {
                continue;
            }
            if (mem.getIntVolatile(lk + L_CHAIN) != 0) {
                LOG.info("transaction slot {}: releasing locks left by ended transaction {}", slot, w);
                releaseChain(slot);
            }
            resetLocker(lk);
            mem.putLongVolatile(lk + L_TXN, id);
            return;
        }
    }

    /**
     * Releases the chain of transaction {@code txnId} in locker {@code slot}, if it is that
     * transaction's (or an unfinished release by a dead process). Idempotent: a second call, or
     * one for an id the locker no longer has, does nothing.
     */
    /** Releases the chain of {@code txnId} in {@code slot} if it is still there; true if this call did. */
    private boolean release(int slot, long txnId) {
        long lk = locker(slot);
        while (true) {
            long w = mem.getLongVolatile(lk + L_TXN);
            if (w == txnId) {
                if (mem.compareAndSetLong(lk + L_TXN, w, claimWord)) {
                    releaseClaimed(slot, w);
                    return true;
                }
                continue;
            }
            if (w < 0 && !claimerAlive(w)) {
                if (mem.compareAndSetLong(lk + L_TXN, w, claimWord)) {
                    releaseClaimed(slot, w);
                    return true;
                }
                continue;
            }
            return false; // not this transaction's chain, or a live releaser has it
        }
    }

    /** The locker is claimed by this process: release its chain and free it. */
    private void releaseClaimed(int slot, long previousWord) {
        long lk = locker(slot);
        releaseChain(slot);
        resetLocker(lk);
        mem.putLongVolatile(lk + L_TXN, 0);
    }

    private void resetLocker(long lk) {
        mem.putIntVolatile(lk + L_CHAIN, 0);
        mem.putIntVolatile(lk + L_WAITING, 0);
        mem.putIntVolatile(lk + L_VICTIM, 0);
    }

    /** True unless the process that claimed a locker (claim word {@code w}) is gone. */
    private boolean claimerAlive(long w) {
        int slot = (int) ((w >>> 40) & 0x7FFFFF) - 1;
        return (env.slotGeneration(slot) & GEN_MASK_40) == (w & GEN_MASK_40);
    }

    /** Releases every request of a claimed locker's chain, each under its partition's latch. */
    private void releaseChain(int slot) {
        long lk = locker(slot);
        int c;
        while ((c = mem.getIntVolatile(lk + L_CHAIN)) != 0) {
            int r = c - 1;
            int p = mem.getIntVolatile(req(r) + R_PART);
            int posts;
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                posts = releaseRequest(p, lk, r);
            } finally {
                latch.release();
            }
            if (posts > 0) {
                flushWakeups();
            }
        }
        mem.putIntVolatile(lk + L_WAITING, 0);
    }

    /** Under partition {@code p}'s latch: takes request {@code r} out of its queue and chain. */
    private int releaseRequest(int p, long lk, int r) {
        long pb = partBlock(p);
        long ra = req(r);
        if (mem.getInt(lk + L_WAITING) == r + 1) {
            mem.putInt(lk + L_WAITING, 0); // a dead waiter's: never name a freed request
        }
        int status = mem.getInt(ra + R_STATUS);
        int posts = 0;
        if (status == ST_GRANTED || status == ST_WAITING) {
            int o = mem.getInt(ra + R_OBJ) - 1;
            long oa = obj(o);
            dequeue(pb, oa, r);
            chainRemove(lk, r);
            freeRequest(pb, r);
            if (mem.getInt(oa + O_HEAD) == 0) {
                removeObject(pb, o);
            } else {
                posts = grantWaiters(oa);
            }
        } else { // refused by the detector: already out of its queue
            chainRemove(lk, r);
            freeRequest(pb, r);
        }
        return posts;
    }

    /**
     * failCheck listener: best effort (the detector retries), so it never fails the
     * environment itself, which an exception from a listener would.
     */
    private void onFailCheck() {
        try {
            releaseStaleLockers();
        } catch (RunRecoveryException e) {
            throw e;
        } catch (RuntimeException e) {
            if (!closed && !environmentGone()) {
                LOG.warn("lock manager failCheck of {}: {}", env.home(), e.toString());
            }
        }
    }

    /**
     * Releases what transactions that ended without this lock manager's end listener left in
     * the table: the locker still names a transaction, but the transaction table's slot no
     * longer does (e.g. failCheck in a process without a lock manager rolled back a dead
     * process's transaction), or a releaser died half-way. Run by the detector and on failCheck.
     */
    int releaseStaleLockers() {
        if (closed) {
            return 0;
        }
        int released = 0;
        for (int s = 0; s < maxLockers; s++) {
            long lk = locker(s);
            long w = mem.getLongVolatile(lk + L_TXN);
            if (w == 0) {
                continue;
            }
            if (w < 0) {
                if (!claimerAlive(w) && mem.compareAndSetLong(lk + L_TXN, w, claimWord)) {
                    LOG.info("transaction slot {}: finishing the lock release of a dead process", s);
                    releaseClaimed(s, w);
                    released++;
                }
                continue;
            }
            if (mem.getIntVolatile(lk + L_CHAIN) == 0) {
                continue;
            }
            if (txns.lockerIdAt(s) == w) {
                continue; // still running (or not yet told to end)
            }
            // The transaction may just have ended normally (its own end listener then released the
            // chain) and another begun in the slot: release() claims only a chain still named w.
            if (release(s, w)) {
                LOG.info("transaction slot {}: released the locks of ended transaction {}", s, w);
                released++;
            }
        }
        return released;
    }

    // ------------------------------------------------------------------ table primitives (under the latch)

    private int findObject(long bucket, int fileId, long pageNo) {
        int i = mem.getInt(bucket);
        while (i != 0) {
            long oa = obj(i - 1);
            if (mem.getLong(oa + O_PAGE) == pageNo && mem.getInt(oa + O_FILE) == fileId) {
                return i - 1;
            }
            i = mem.getInt(oa + O_NEXT);
        }
        return -1;
    }

    /** The request of {@code locker} in the object's queue (granted or waiting), or -1. */
    private int findRequest(long oa, int locker) {
        int q = mem.getInt(oa + O_HEAD);
        while (q != 0) {
            long qa = req(q - 1);
            if (mem.getInt(qa + R_LOCKER) == locker) {
                return q - 1;
            }
            q = mem.getInt(qa + R_QNEXT);
        }
        return -1;
    }

    /** Modes granted to holders other than {@code except}, as a bit mask of ordinals. */
    private int holderMask(long oa, int except) {
        int mask = 0;
        int q = mem.getInt(oa + O_HEAD);
        while (q != 0) {
            long qa = req(q - 1);
            if (mem.getInt(qa + R_STATUS) != ST_GRANTED) {
                break; // holders come first
            }
            if (q - 1 != except) {
                mask |= 1 << mem.getInt(qa + R_MODE);
            }
            q = mem.getInt(qa + R_QNEXT);
        }
        return mask;
    }

    /** A new request is granted at once only if nobody waits (FIFO) and no holder conflicts. */
    private boolean grantableNow(long oa, int want) {
        int mask = 0;
        int q = mem.getInt(oa + O_HEAD);
        while (q != 0) {
            long qa = req(q - 1);
            if (mem.getInt(qa + R_STATUS) != ST_GRANTED || mem.getInt(qa + R_PENDING) != 0) {
                return false;
            }
            mask |= 1 << mem.getInt(qa + R_MODE);
            q = mem.getInt(qa + R_QNEXT);
        }
        return (LockMode.conflictMask(want) & mask) == 0;
    }

    /**
     * Grants what a change of the queue allows: first pending conversions (they wait among the
     * holders, ahead of every waiter), then waiters in FIFO order until the first that
     * conflicts. Waiters are not granted while a conversion is still pending. Returns the
     * number of transactions to post.
     */
    private int grantWaiters(long oa) {
        int posts = 0;
        boolean pending = false;
        int q = mem.getInt(oa + O_HEAD);
        while (q != 0) {
            long qa = req(q - 1);
            if (mem.getInt(qa + R_STATUS) != ST_GRANTED) {
                break;
            }
            int target = mem.getInt(qa + R_PENDING) - 1;
            if (target >= 0) {
                if ((LockMode.conflictMask(target) & holderMask(oa, q - 1)) == 0) {
                    mem.putInt(qa + R_MODE, target);
                    mem.putInt(qa + R_PENDING, 0);
                    wake(mem.getInt(qa + R_LOCKER));
                    posts++;
                } else {
                    pending = true;
                }
            }
            q = mem.getInt(qa + R_QNEXT);
        }
        if (pending) {
            return posts;
        }
        int mask = holderMask(oa, -1);
        // q is the first waiter (holders come first)
        while (q != 0) {
            long qa = req(q - 1);
            int mode = mem.getInt(qa + R_MODE);
            if ((LockMode.conflictMask(mode) & mask) != 0) {
                break;
            }
            mem.putInt(qa + R_STATUS, ST_GRANTED);
            mask |= 1 << mode;
            wake(mem.getInt(qa + R_LOCKER));
            posts++;
            q = mem.getInt(qa + R_QNEXT);
        }
        return posts;
    }

    /** Two adjacent 4-byte fields as one long: {@code low} at the lower offset (little-endian). */
    private static long pair(int low, int high) {
        return ((long) high << 32) | (low & 0xFFFF_FFFFL);
    }

    private void newRequest(int r, int o, int locker, int mode, int status, int p) {
        long ra = req(r);
        mem.putLong(ra + R_OBJ, pair(o + 1, locker));
        mem.putLong(ra + R_MODE, pair(mode, status));
        mem.putLong(ra + R_REFS, pair(1, 0)); // refs, pending
        mem.putInt(ra + R_PART, p);
    }

    /** Appends to the object's queue (a holder is appended only when nobody waits). */
    private void enqueue(long pb, long oa, int r) {
        long ra = req(r);
        int tail = mem.getInt(oa + O_TAIL);
        mem.putLong(ra + R_QNEXT, pair(0, tail));
        if (tail == 0) {
            mem.putInt(oa + O_HEAD, r + 1);
        } else {
            mem.putInt(req(tail - 1) + R_QNEXT, r + 1);
        }
        mem.putInt(oa + O_TAIL, r + 1);
        mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) + ONE_LOCK);
    }

    private void dequeue(long pb, long oa, int r) {
        long links = mem.getLong(req(r) + R_QNEXT);
        int next = (int) links;
        int prev = (int) (links >>> 32);
        if (prev == 0) {
            mem.putInt(oa + O_HEAD, next);
        } else {
            mem.putInt(req(prev - 1) + R_QNEXT, next);
        }
        if (next == 0) {
            mem.putInt(oa + O_TAIL, prev);
        } else {
            mem.putInt(req(next - 1) + R_QPREV, prev);
        }
        mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) - ONE_LOCK);
    }

    /**
     * Links {@code r} at the head of the locker's chain. The chain is only changed by its
     * transaction's thread or by the process that claimed the locker, always under the latch of
     * the request's partition, so a process dying in the middle fails the environment instead
     * of leaving a broken chain.
     */
    private void chainPush(long lk, int r) {
        int head = mem.getInt(lk + L_CHAIN);
        mem.putLong(req(r) + R_LNEXT, pair(head, 0));
        if (head != 0) {
            mem.putInt(req(head - 1) + R_LPREV, r + 1);
        }
        mem.putInt(lk + L_CHAIN, r + 1);
    }

    private void chainRemove(long lk, int r) {
        long links = mem.getLong(req(r) + R_LNEXT);
        int next = (int) links;
        int prev = (int) (links >>> 32);
        if (prev == 0) {
            mem.putInt(lk + L_CHAIN, next);
        } else {
            mem.putInt(req(prev - 1) + R_LNEXT, next);
        }
        if (next != 0) {
            mem.putInt(req(next - 1) + R_LPREV, prev);
        }
    }

    /** Requests in a locker's chain (for the FEWEST_LOCKS policy; under every latch). */
    private int chainLength(long lk) {
        int n = 0;
        for (int c = mem.getInt(lk + L_CHAIN); c != 0 && n <= lay.maxLocks(); c = mem.getInt(req(c - 1) + R_LNEXT)) {
            n++;
        }
        return n;
    }

    /** Unlinks an object whose queue is empty from its bucket and frees it. */
    private void removeObject(long pb, int o) {
        long oa = obj(o);
        long bucket = bucket(mem.getInt(oa + O_HASH));
        int i = mem.getInt(bucket);
        int prev = 0;
        while (i != 0 && i != o + 1) {
            prev = i;
            i = mem.getInt(obj(i - 1) + O_NEXT);
        }
        if (i == 0) {
            throw new IllegalStateException("lock object " + o + " is not in its bucket (lock table damaged)");
        }
        int next = mem.getInt(oa + O_NEXT);
        if (prev == 0) {
            mem.putInt(bucket, next);
        } else {
            mem.putInt(obj(prev - 1) + O_NEXT, next);
        }
        mem.putLong(pb + P_COUNTS, mem.getLong(pb + P_COUNTS) - ONE_OBJECT);
        freeObject(pb, o);
    }

    // ------------------------------------------------------------------ free lists

    private int allocRequest(long pb) {
        int c = mem.getInt(pb + P_REQ_CACHE);
        if (c != 0) {
            mem.putInt(pb + P_REQ_CACHE, 0);
            return c - 1;
        }
        return pop(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT);
    }

    private void freeRequest(long pb, int r) {
        if (mem.getInt(pb + P_REQ_CACHE) == 0) {
            mem.putInt(pb + P_REQ_CACHE, r + 1);
        } else {
            push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, r);
        }
    }

    private int allocObject(long pb) {
        int c = mem.getInt(pb + P_OBJ_CACHE);
        if (c != 0) {
            mem.putInt(pb + P_OBJ_CACHE, 0);
            return c - 1;
        }
        return pop(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT);
    }

    private void freeObject(long pb, int o) {
        if (mem.getInt(pb + P_OBJ_CACHE) == 0) {
            mem.putInt(pb + P_OBJ_CACHE, o + 1);
        } else {
            push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, o);
        }
    }

    /**
     * Treiber stack pop. The head word carries a tag bumped by every change, so a head that
     * was popped and pushed back between our read and our CAS (ABA) fails the CAS.
     */
    private int pop(long head, long base, int stride, int link) {
        while (true) {
            long h = ctl.getLongVolatile(head);
            int top = (int) h;
            if (top == 0) {
                return -1;
            }
            int next = mem.getIntVolatile(base + (long) stride * (top - 1) + link);
            if (ctl.compareAndSetLong(head, h, (((h >>> 32) + 1) << 32) | (next & 0xFFFF_FFFFL))) {
                return top - 1;
            }
        }
    }

    private void push(long head, long base, int stride, int link, int i) {
        while (true) {
            long h = ctl.getLongVolatile(head);
            mem.putIntVolatile(base + (long) stride * i + link, (int) h);
            if (ctl.compareAndSetLong(head, h, (((h >>> 32) + 1) << 32) | (i + 1))) {
                return;
            }
        }
    }

    /** Moves every partition's cached free entries to the shared free lists (before "table full"). */
    private void drainCaches() {
        for (int p = 0; p < lay.partitions(); p++) {
            long pb = partBlock(p);
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long caches = mem.getLong(pb + P_CACHES);
                if ((int) caches != 0) {
                    push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, (int) caches - 1);
                }
                if ((int) (caches >>> 32) != 0) {
                    push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, (int) (caches >>> 32) - 1);
                }
                mem.putLong(pb + P_CACHES, 0);
            } finally {
                latch.release();
            }
        }
    }

    // ------------------------------------------------------------------ wake-ups

    private void wake(int slot) {
        Wakeups w = wakeups.get();
        if (w.n == w.slots.length) {
            w.slots = Arrays.copyOf(w.slots, w.n * 2);
        }
        w.slots[w.n++] = slot;
    }

    /** Posts the semaphores collected under a latch, after its release (no system call under a latch). */
    private void flushWakeups() {
        Wakeups w = wakeups.get();
        try {
            for (int i = 0; i < w.n; i++) {
                waiter(w.slots[i]).post();
            }
        } finally {
            w.n = 0;
        }
    }

    // ------------------------------------------------------------------ deadlock detection

    /**
     * Under the latch of {@code r}'s partition: adds to {@code out} the lockers request
     * {@code r} waits for, and returns the new count; 0 if {@code r} is not waiting. A waiter
     * waits for every other holder whose mode conflicts (or that has a conversion pending, which
     * goes first) and every earlier waiter whose mode conflicts; a conversion waits for the other
     * holders whose mode conflicts with the mode it wants.
     */
    private int waitsFor(int r, int[][] out, int n) {
        long ra = req(r);
        int status = mem.getInt(ra + R_STATUS);
        int pending = mem.getInt(ra + R_PENDING);
        boolean conversion = status == ST_GRANTED && pending != 0;
        if (!conversion && status != ST_WAITING) {
            return n;
        }
        int me = mem.getInt(ra + R_LOCKER);
        int cm = LockMode.conflictMask(conversion ? pending - 1 : mem.getInt(ra + R_MODE));
        long oa = obj(mem.getInt(ra + R_OBJ) - 1);
        int q = mem.getInt(oa + O_HEAD);
        while (q != 0 && q - 1 != r) {
            long qa = req(q - 1);
            int qs = mem.getInt(qa + R_STATUS);
            int ql = mem.getInt(qa + R_LOCKER);
            if (qs != ST_GRANTED && conversion) {
                break; // a conversion waits only for holders
            }
            if (ql != me) {
                boolean edge = (cm & (1 << mem.getInt(qa + R_MODE))) != 0
                        || !conversion && qs == ST_GRANTED && mem.getInt(qa + R_PENDING) != 0;
                if (edge) {
                    if (n == out[0].length) {
                        out[0] = Arrays.copyOf(out[0], n * 2);
                    }
                    out[0][n++] = ql;
                }
            }
            q = mem.getInt(qa + R_QNEXT);
        }
        if (conversion) { // holders after r in the queue
            q = q == 0 ? 0 : mem.getInt(req(q - 1) + R_QNEXT);
            while (q != 0) {
                long qa = req(q - 1);
                if (mem.getInt(qa + R_STATUS) != ST_GRANTED) {
                    break;
                }
                int ql = mem.getInt(qa + R_LOCKER);
                if (ql != me && (cm & (1 << mem.getInt(qa + R_MODE))) != 0) {
                    if (n == out[0].length) {
                        out[0] = Arrays.copyOf(out[0], n * 2);
                    }
                    out[0][n++] = ql;
                }
                q = mem.getInt(qa + R_QNEXT);
            }
        }
        return n;
    }

    /**
     * The check on block, without stopping the world: is {@code start} reachable from itself?
     * Each visited locker's out-edges are read under the latch of its wait's partition, one
     * latch at a time. The edges of a real cycle cannot go away while its members wait, so one
     * present when this runs is found; a cycle seen through edges that changed in between may
     * be false, which is why a hit is confirmed by {@link #detectPass()} on a consistent graph.
     * Of two transactions that close a cycle at the same time, the later to enqueue sees the
     * other's edge (each enqueues under a latch before it searches).
     */
    private boolean cycleThrough(int start) {
        boolean[] seen = new boolean[maxLockers];
        int[] stack = new int[16];
        int top = 0;
        stack[top++] = start;
        seen[start] = true;
        int[][] edges = {new int[16]};
        while (top > 0) {
            int s = stack[--top];
            int n = edgesOf(s, edges);
            for (int i = 0; i < n; i++) {
                int t = edges[0][i];
                if (t == start) {
                    return true;
                }
                if (t >= 0 && t < maxLockers && !seen[t]) {
                    seen[t] = true;
                    if (top == stack.length) {
                        stack = Arrays.copyOf(stack, top * 2);
                    }
                    stack[top++] = t;
                }
            }
        }
        return false;
    }

    /** The lockers {@code s} waits for, read under one partition latch (0 if it waits for nothing). */
    private int edgesOf(int s, int[][] out) {
        long lk = locker(s);
        for (int attempt = 0; attempt < 3; attempt++) {
            int w = mem.getIntVolatile(lk + L_WAITING);
            if (w <= 0 || w > lay.maxLocks()) {
                return 0;
            }
            int r = w - 1;
            int p = mem.getIntVolatile(req(r) + R_PART);
            if (p < 0 || p >= lay.partitions()) {
                continue;
            }
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long ra = req(r);
                if (mem.getInt(lk + L_WAITING) != w || mem.getInt(ra + R_PART) != p
                        || mem.getInt(ra + R_LOCKER) != s) {
                    continue; // it moved on while we looked: read again
                }
                return waitsFor(r, out, 0);
            } finally {
                latch.release();
            }
        }
        return 0;
    }

    @Override
    public int detect() {
        checkOpen();
        return detectPass();
    }

    /**
     * One detection pass on a consistent waits-for graph: every partition latch, in index
     * order, is held while the graph is read and the victims' waits are refused.
     */
    private int detectPass() {
        env.checkValid();
        int[] victims;
        int held = 0;
        try {
            for (; held < lay.partitions(); held++) {
                partLatches[held].acquire();
            }
            ctl.putLongVolatile(OFF_LAST_DETECT, System.currentTimeMillis());
            int[] waitReq = new int[maxLockers];
            long[] ids = new long[maxLockers];
            int[] counts = new int[maxLockers];
            int[][] to = {new int[64]};
            int[] from = new int[64];
            int edges = 0;
            for (int s = 0; s < maxLockers; s++) {
                long lk = locker(s);
                int w = mem.getInt(lk + L_WAITING);
                if (w <= 0 || w > lay.maxLocks() || mem.getInt(req(w - 1) + R_LOCKER) != s) {
                    continue;
                }
                int n = waitsFor(w - 1, to, edges);
                if (n == edges) {
                    continue;
                }
                if (from.length < to[0].length) {
                    from = Arrays.copyOf(from, to[0].length);
                }
                Arrays.fill(from, edges, n, s);
                edges = n;
                waitReq[s] = w - 1;
                ids[s] = mem.getLong(lk + L_TXN);
                if (config.victimPolicy() == VictimPolicy.FEWEST_LOCKS) {
                    counts[s] = chainLength(lk);
                }
            }
            // Only waiting lockers have out-edges, so every node of a cycle has its id and count.
            victims = DeadlockDetector.victims(maxLockers, from, to[0], edges, ids, counts, config.victimPolicy());
            for (int v : victims) {
                refuse(v, waitReq[v]);
                LOG.debug("deadlock: transaction {} (slot {}) chosen as victim ({})", ids[v], v, config.victimPolicy());
            }
            if (victims.length > 0) {
                ctl.getAndAddLong(OFF_DEADLOCKS, victims.length);
            }
        } finally {
            for (int p = held - 1; p >= 0; p--) {
                partLatches[p].release();
            }
        }
        if (victims.length > 0) {
            flushWakeups();
        }
        return victims.length;
    }

    /**
     * The lock table as it is now, read under every partition latch (in index order, as a
     * detection pass takes them): what {@code libtp locks} prints.
     */
    public LockTableSnapshot snapshot() {
        checkOpen();
        env.checkValid();
        java.util.List<LockTableSnapshot.Request> out = new java.util.ArrayList<>();
        java.util.List<long[]> edges = new java.util.ArrayList<>();
        LockMode[] modes = LockMode.values();
        int held = 0;
        try {
            for (; held < lay.partitions(); held++) {
                partLatches[held].acquire();
            }
            for (int p = 0; p < lay.partitions(); p++) {
                for (int b = 0; b < lay.bucketsPerPartition(); b++) {
                    int o = mem.getInt(lay.offBuckets() + 4L * ((long) p * lay.bucketsPerPartition() + b));
                    for (int guard = 0; o != 0 && guard <= lay.maxObjects(); guard++) {
                        long oa = obj(o - 1);
                        int q = mem.getInt(oa + O_HEAD);
                        for (int g = 0; q != 0 && g <= lay.maxLocks(); g++) {
                            long qa = req(q - 1);
                            int locker = mem.getInt(qa + R_LOCKER);
                            int status = mem.getInt(qa + R_STATUS);
                            int pending = mem.getInt(qa + R_PENDING);
                            out.add(new LockTableSnapshot.Request(mem.getInt(oa + O_FILE), mem.getLong(oa + O_PAGE),
                                    Math.max(0, mem.getLong(locker(locker) + L_TXN)), locker,
                                    modes[mem.getInt(qa + R_MODE)], status == ST_WAITING,
                                    status == ST_GRANTED && pending != 0 ? modes[pending - 1] : null));
                            q = mem.getInt(qa + R_QNEXT);
                        }
                        o = mem.getInt(oa + O_NEXT);
                    }
                }
            }
            int[][] to = {new int[16]};
            for (int s = 0; s < maxLockers; s++) {
                long lk = locker(s);
                int w = mem.getInt(lk + L_WAITING);
                if (w <= 0 || w > lay.maxLocks() || mem.getInt(req(w - 1) + R_LOCKER) != s) {
                    continue;
                }
                int n = waitsFor(w - 1, to, 0);
                for (int i = 0; i < n; i++) {
                    edges.add(new long[] {mem.getLong(lk + L_TXN), mem.getLong(locker(to[0][i]) + L_TXN)});
                }
            }
        } finally {
            for (int p = held - 1; p >= 0; p--) {
                partLatches[p].release();
            }
        }
        return new LockTableSnapshot(out, edges);
    }

    /** Under every latch: refuses locker {@code s}'s wait on request {@code r} and posts it. */
    private void refuse(int s, int r) {
        long ra = req(r);
        long lk = locker(s);
        int p = mem.getInt(ra + R_PART);
        long pb = partBlock(p);
        int o = mem.getInt(ra + R_OBJ) - 1;
        long oa = obj(o);
        if (mem.getInt(ra + R_STATUS) == ST_WAITING) {
            dequeue(pb, oa, r);
            mem.putInt(ra + R_STATUS, ST_REFUSED);
            mem.putInt(ra + R_OBJ, 0);
        } else {
            mem.putInt(ra + R_PENDING, 0); // a conversion keeps its granted mode
        }
        mem.putInt(lk + L_VICTIM, 1);
        wake(s);
        if (mem.getInt(oa + O_HEAD) == 0) {
            removeObject(pb, o);
        } else {
            grantWaiters(oa);
        }
    }

    // ------------------------------------------------------------------ the detector role

    /**
     * Every process's detector thread wakes each interval; only the distinguished process runs
     * a pass. The role is a word naming (process slot, slot generation): a thread takes it (CAS)
     * when it is empty or names a process that is gone (its slot freed by failCheck, or reused).
     */
    private void detectorLoop() {
        long period = config.detectIntervalMillis();
        while (!closed) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (closed) {
                return;
            }
            try {
                if (holdsDetectorRole()) {
                    detectPass();
                    releaseStaleLockers();
                }
            } catch (RunRecoveryException e) {
                return; // every call now fails; nothing more to detect
            } catch (RuntimeException e) {
                if (closed || environmentGone()) {
                    return; // closed under us (e.g. the environment before this manager)
                }
                LOG.warn("deadlock detector of {}: {}", env.home(), e.toString());
            }
        }
    }

    private boolean environmentGone() {
        try {
            env.checkValid();
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    private boolean holdsDetectorRole() {
        long cur = ctl.getLongVolatile(OFF_DETECTOR);
        if (cur == detectorWord) {
            return true;
        }
        if (cur != 0) {
            int slot = (int) (cur >>> 48) - 1;
            if ((env.slotGeneration(slot) & GEN_MASK_48) == (cur & GEN_MASK_48)) {
                return false; // its holder is alive
            }
        }
        if (ctl.compareAndSetLong(OFF_DETECTOR, cur, detectorWord)) {
            if (cur == 0) {
                LOG.debug("process slot {} runs deadlock detection for {}", env.processSlot(), env.home());
            } else {
                LOG.info("process slot {} took over deadlock detection for {} from gone process slot {}",
                        env.processSlot(), env.home(), (int) (cur >>> 48) - 1);
            }
            return true;
        }
        return false;
    }

    /** The process slot running the periodic detector now, or -1 if none has taken the role. */
    public int detectorProcessSlot() {
        long cur = ctl.getLongVolatile(OFF_DETECTOR);
        return cur == 0 ? -1 : (int) (cur >>> 48) - 1;
    }

    // ------------------------------------------------------------------ stats, close

    @Override
    public LockStats stats() {
        checkOpen();
        long requests = 0;
        long waits = 0;
        int locks = 0;
        int objects = 0;
        for (int p = 0; p < lay.partitions(); p++) {
            long pb = partBlock(p);
            requests += mem.getLongVolatile(pb + P_REQUESTS);
            waits += mem.getLongVolatile(pb + P_WAITS);
            long counts = mem.getLongVolatile(pb + P_COUNTS);
            locks += (int) counts;
            objects += (int) (counts >>> 32);
        }
        return new LockStats(requests, waits, ctl.getLongVolatile(OFF_DEADLOCKS), ctl.getLongVolatile(OFF_TIMEOUTS),
                ctl.getLongVolatile(OFF_ESCALATIONS),
                locks, objects);
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
        if (closed) {
            return;
        }
        closed = true;
        if (detectorThread != null) {
            detectorThread.interrupt();
            try {
                detectorThread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        env.removeFailCheckListener(failCheckListener);
        try {
            ctl.compareAndSetLong(OFF_DETECTOR, detectorWord, 0);
        } catch (IllegalStateException e) {
            // memory already unmapped (environment closed first): the role dies with the process
        }
    }

    @Override
    public String toString() {
        return "SharedLockManager[" + env.home() + (closed ? ", closed" : "") + "]";
    }
}
