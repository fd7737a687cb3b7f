package org.libtp.core.lock;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;

import java.util.Arrays;

import static org.libtp.core.lock.LockLayout.*;

/**
 * One process's view of the lock table (region {@code lock.tables}, with the free-list heads of
 * region {@code lock}): addressing of partitions, buckets, lockers, objects and requests; the
 * objects' FIFO queues (granted holders first, then waiters) and the grant rule, pending
 * conversions first; the lockers' chains; the free lists and the partitions' one-entry caches;
 * and the wake-ups collected under a latch and posted after it. Every method that changes an
 * entry runs under the latch of the entry's partition (the package note has the latch rules).
 */
final class LockTable {
    final RegionEnvironment env;
    final LockerTable lockers;
    final Memory ctl;
    final Memory mem;
    final Layout lay;
    final Latch[] partLatches;
    final int partMask;
    final int partShift;
    final int bucketMask;
    final int maxLockers;
    private final SharedSemaphore[] waiters;
    private final ThreadLocal<Wakeups> wakeups = ThreadLocal.withInitial(Wakeups::new);
    volatile boolean closed;

    // requestLocked results (>= 0: the request index to wait on)
    static final int GRANTED = -1;
    static final int NOT_GRANTED = -2;
    static final int FULL_LOCKS = -3;
    static final int FULL_OBJECTS = -4;
    static final int NOT_HELD = -5;
    /** Or'ed into a request index: the wait is a conversion (the request stays a holder). */
    static final int CONVERSION = 1 << 30;

    LockTable(LockerTable lockers, Memory ctl, Region tables, Layout lay) {
        this.env = lockers.environment();
        this.lockers = lockers;
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
        this.waiters = new SharedSemaphore[maxLockers];
    }

    static long partBlock(int p) {
        return OFF_PART + (long) PART * p;
    }

    long locker(int slot) {
        return lay.offLockers() + (long) LOCKER * slot;
    }

    long obj(int o) {
        return lay.offObjects() + (long) OBJ * o;
    }

    long req(int r) {
        return lay.offRequests() + (long) REQ * r;
    }

    long bucket(int h) {
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

    SharedSemaphore waiter(int slot) {
        SharedSemaphore s = waiters[slot];
        if (s == null) {
            s = lockers.waiter(slot);
            waiters[slot] = s; // a benign race: every view of one slot is equal
        }
        return s;
    }

    /**
     * lock_get under partition {@code p}'s latch: a new object with one granted request (the
     * uncontended path), a re-lock or conversion of the locker's own request, or a new request
     * granted or queued. Returns a result code, or the request to wait on (with
     * {@link #CONVERSION} for a conversion, which waits among the holders).
     */
    int requestLocked(int p, int h, int fileId, long pageNo, int me, long lk, int want, int flags,
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
                // Named before the caches forget them: a death in between leaves them to the repair.
                mem.putInt(req(r) + R_PART, p);
                mem.putInt(obj(o) + O_PART, p);
                mem.putLong(pb + P_CACHES, 0);
            } else {
                o = allocObject(pb, p);
                if (o < 0) {
                    return FULL_OBJECTS;
                }
                r = allocRequest(pb, p);
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
            mem.putLong(req(r) + R_QNEXT, 0); // alone in the queue
            newRequest(r, o, me, want, ST_GRANTED);
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
            if ((flags & LockManager.NOWAIT) != 0) {
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
        if (!grant && (flags & LockManager.NOWAIT) != 0) {
            return NOT_GRANTED;
        }
        r = allocRequest(pb, p);
        if (r < 0) {
            return FULL_LOCKS;
        }
        newRequest(r, o, me, want, grant ? ST_GRANTED : ST_WAITING);
        enqueue(pb, oa, r);
        chainPush(lk, r);
        if (grant) {
            return GRANTED;
        }
        mem.putInt(lk + L_WAITING, r + 1);
        mem.putLong(pb + P_WAITS, mem.getLong(pb + P_WAITS) + 1);
        return r;
    }

    int findObject(long bucket, int fileId, long pageNo) {
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
    int findRequest(long oa, int locker) {
        int q = mem.getInt(oa + O_HEAD);
        for (int n = 0; q != 0; n++) {
            checkWalk(oa, n);
            long qa = req(q - 1);
            if (mem.getInt(qa + R_LOCKER) == locker) {
                return q - 1;
            }
            q = mem.getInt(qa + R_QNEXT);
        }
        return -1;
    }

    /** Modes granted to holders other than {@code except}, as a bit mask of ordinals. */
    int holderMask(long oa, int except) {
        int mask = 0;
        int q = mem.getInt(oa + O_HEAD);
        for (int n = 0; q != 0; n++) {
            checkWalk(oa, n);
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
    boolean grantableNow(long oa, int want) {
        int mask = 0;
        int q = mem.getInt(oa + O_HEAD);
        for (int n = 0; q != 0; n++) {
            checkWalk(oa, n);
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
    int grantWaiters(long oa) {
        int posts = 0;
        boolean pending = false;
        int q = mem.getInt(oa + O_HEAD);
        int n = 0;
        while (q != 0) {
            checkWalk(oa, n++);
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
            checkWalk(oa, n++);
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

    /**
     * A walk of one object's queue that has taken more steps than the table has requests has
     * met a cycle: the queue is damaged. Fails the environment (recovery rebuilds the lock
     * table) instead of looping forever under the partition latch.
     */
    void checkWalk(long oa, int steps) {
        if (steps > lay.maxLocks()) {
            throw env.fail("lock table: the queue of lock object (file " + mem.getInt(oa + O_FILE) + ", page "
                    + mem.getLong(oa + O_PAGE) + ") has a cycle (damaged shared memory); the environment must be "
                    + "reopened, and its recovery rebuilds the lock table");
        }
    }

    /** Two adjacent 4-byte fields as one long: {@code low} at the lower offset (little-endian). */
    static long pair(int low, int high) {
        return ((long) high << 32) | (low & 0xFFFF_FFFFL);
    }

    /**
     * Fills a request allocated by {@link #allocRequest} (which named its partition). The status
     * goes last: a request whose status is not free is whole (the partition repair relies on it).
     */
    void newRequest(int r, int o, int locker, int mode, int status) {
        long ra = req(r);
        mem.putLong(ra + R_OBJ, pair(o + 1, locker));
        mem.putLong(ra + R_REFS, pair(1, 0)); // refs, pending
        mem.putLong(ra + R_MODE, pair(mode, status)); // plain stores are seen in program order (x86-TSO, one C2 memory slice)
    }

    /** Appends to the object's queue (a holder is appended only when nobody waits). */
    void enqueue(long pb, long oa, int r) {
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

    void dequeue(long pb, long oa, int r) {
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
    void chainPush(long lk, int r) {
        int head = mem.getInt(lk + L_CHAIN);
        mem.putLong(req(r) + R_LNEXT, pair(head, 0));
        if (head != 0) {
            mem.putInt(req(head - 1) + R_LPREV, r + 1);
        }
        mem.putInt(lk + L_CHAIN, r + 1);
    }

    void chainRemove(long lk, int r) {
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
    int chainLength(long lk) {
        int n = 0;
        for (int c = mem.getInt(lk + L_CHAIN); c != 0 && n <= lay.maxLocks(); c = mem.getInt(req(c - 1) + R_LNEXT)) {
            n++;
        }
        return n;
    }

    /** Unlinks an object whose queue is empty from its bucket and frees it. */
    void removeObject(long pb, int o) {
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

    /**
     * A free request for partition {@code p} (under its latch), named after it at once: from the
     * partition's cache (named before the cache forgets it) or the shared stack.
     */
    int allocRequest(long pb, int p) {
        int c = mem.getInt(pb + P_REQ_CACHE);
        if (c != 0) {
            mem.putInt(req(c - 1) + R_PART, p);
            mem.putInt(pb + P_REQ_CACHE, 0);
            return c - 1;
        }
        int r = pop(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT);
        if (r >= 0) {
            mem.putInt(req(r) + R_PART, p);
        }
        return r;
    }

    /**
     * Frees request {@code r} (under its partition's latch): its status first, then into the
     * cache before its partition is forgotten (a death in between leaves it named by the
     * partition and the cache: the repair sorts that out); to the shared stack only unnamed.
     */
    void freeRequest(long pb, int r) {
        long ra = req(r);
        mem.putLong(ra + R_MODE, pair(0, ST_FREE));
        if (mem.getInt(pb + P_REQ_CACHE) == 0) {
            mem.putInt(pb + P_REQ_CACHE, r + 1);
            mem.putInt(ra + R_PART, NO_PART);
        } else {
            mem.putInt(ra + R_PART, NO_PART);
            push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, r);
        }
    }

    /** A free object for partition {@code p}, named after it at once (as {@link #allocRequest}). */
    int allocObject(long pb, int p) {
        int c = mem.getInt(pb + P_OBJ_CACHE);
        if (c != 0) {
            mem.putInt(obj(c - 1) + O_PART, p);
            mem.putInt(pb + P_OBJ_CACHE, 0);
            return c - 1;
        }
        int o = pop(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT);
        if (o >= 0) {
            mem.putInt(obj(o) + O_PART, p);
        }
        return o;
    }

    void freeObject(long pb, int o) {
        long oa = obj(o);
        if (mem.getInt(pb + P_OBJ_CACHE) == 0) {
            mem.putInt(pb + P_OBJ_CACHE, o + 1);
            mem.putInt(oa + O_PART, NO_PART);
        } else {
            mem.putInt(oa + O_PART, NO_PART);
            push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, o);
        }
    }

    /**
     * Treiber stack pop. The head word carries a tag bumped by every change, so a head that
     * was popped and pushed back between our read and our CAS (ABA) fails the CAS.
     */
    int pop(long head, long base, int stride, int link) {
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

    void push(long head, long base, int stride, int link, int i) {
        while (true) {
            long h = ctl.getLongVolatile(head);
            mem.putIntVolatile(base + (long) stride * i + link, (int) h);
            if (ctl.compareAndSetLong(head, h, (((h >>> 32) + 1) << 32) | (i + 1))) {
                return;
            }
        }
    }

    /** Moves every partition's cached free entries to the shared free lists (before "table full"). */
    void drainCaches() {
        for (int p = 0; p < lay.partitions(); p++) {
            long pb = partBlock(p);
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long caches = mem.getLong(pb + P_CACHES);
                mem.putLong(pb + P_CACHES, 0); // forgotten before pushed: never in a cache and a stack at once
                if ((int) caches != 0) {
                    push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, (int) caches - 1);
                }
                if ((int) (caches >>> 32) != 0) {
                    push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, (int) (caches >>> 32) - 1);
                }
            } finally {
                latch.release();
            }
        }
    }

    void wake(int slot) {
        Wakeups w = wakeups.get();
        if (w.n == w.slots.length) {
            w.slots = Arrays.copyOf(w.slots, w.n * 2);
        }
        w.slots[w.n++] = slot;
    }

    /** Posts the semaphores collected under a latch, after its release (no system call under a latch). */
    void flushWakeups() {
        Wakeups w = wakeups.get();
        try {
            for (int i = 0; i < w.n; i++) {
                waiter(w.slots[i]).post();
            }
        } finally {
            w.n = 0;
        }
    }

    /** Under the latch: withdraws a waiting request (timeout); returns the grants it caused. */
    int cancel(int p, long lk, int r, boolean conversion) {
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

    /** Under partition {@code p}'s latch: takes request {@code r} out of its queue and chain. */
    int releaseRequest(int p, long lk, int r) {
        long pb = partBlock(p);
        long ra = req(r);
        if (mem.getInt(lk + L_WAITING) == r + 1) {
            mem.putInt(lk + L_WAITING, 0); // a dead waiter's: never name a freed request
        }
        int status = mem.getInt(ra + R_STATUS);
        if (status == ST_FREE || mem.getInt(ra + R_PART) != p) {
            // Releasing it would unlink and free an entry that is free or in use elsewhere.
            throw new IllegalStateException("lock request " + r + " is " + (status == ST_FREE ? "free" : "of partition "
                    + mem.getInt(ra + R_PART) + ", not " + p) + " but in a locker's chain (lock table damaged)");
        }
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

    /** Slots whose waiters were granted (or refused) under a latch, posted after its release. */
    private static final class Wakeups {
        int[] slots = new int[8];
        int n;
    }

    boolean environmentGone() {
        try {
            env.checkValid();
            return false;
        } catch (RuntimeException e) {
            return true;
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("lock manager of " + env.home() + " is closed");
        }
    }
}
