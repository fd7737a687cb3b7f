package org.libtp.core.lock;

import org.libtp.core.memory.Memory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.BitSet;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.libtp.core.lock.LockLayout.*;

/**
 * Rebuilds a lock-table partition whose latch holder died (the {@code LatchRepair} of the
 * partition latches), and a locker's chain from the requests that name it.
 *
 * <p>A partition's state is whatever its live requests say: every request and object names the
 * partition that allocated it, and a request's status is written last when it is made and
 * first when it goes (see {@link LockLayout}). So, whatever the dead holder was doing, the
 * requests naming partition p with a status other than free are its granted, waiting and
 * refused requests, each whole; from them the repair rebuilds the partition's objects, buckets,
 * queues, counts and caches, frees what was allocated but not used, grants what the rebuilt
 * queues allow, and marks the requests' lockers suspect (their chains, which cross partitions,
 * may be half-linked: {@link #rebuildChain} makes them again when they are released). Locks the
 * dead holder was releasing may come back granted: its lockers are released again by failCheck,
 * as every dead transaction's are, and a release is idempotent.
 */
final class LockPartitionRepair {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);
    private final LockTable t;
    private final Memory mem;
    private final Layout lay;

    LockPartitionRepair(LockTable t) {
        this.t = t;
        this.mem = t.mem;
        this.lay = t.lay;
    }

    /** Called with partition {@code p}'s latch taken over from a dead holder; null when consistent again. */
    String repair(int p, String deadOwner) {
        long pb = LockTable.partBlock(p);
        BitSet objects = new BitSet();
        for (int o = 0; o < lay.maxObjects(); o++) {
            if (mem.getIntVolatile(t.obj(o) + O_PART) == p) {
                objects.set(o);
            }
        }
        Map<Integer, List<Integer>> members = new HashMap<>();
        List<Integer> unused = new ArrayList<>();
        BitSet suspects = new BitSet();
        int queued = 0;
        for (int r = 0; r < lay.maxLocks(); r++) {
            long ra = t.req(r);
            if (mem.getIntVolatile(ra + R_PART) != p) {
                continue;
            }
            int status = (int) (mem.getLong(ra + R_MODE) >>> 32);
            long objLocker = mem.getLong(ra + R_OBJ);
            int locker = (int) (objLocker >>> 32);
            if (locker >= 0 && locker < lay.maxLockers()) {
                suspects.set(locker); // even a free request's: it may have just left a chain
            }
            if (status == ST_FREE) {
                unused.add(r);
                continue;
            }
            if (status == ST_REFUSED) {
                continue; // out of every queue, still in its chain
            }
            int o = (int) objLocker - 1;
            if ((status != ST_GRANTED && status != ST_WAITING) || o < 0 || !objects.get(o)) {
                return "lock request " + r + " of partition " + p + " (status " + status + ", object " + o
                        + ") does not fit the partition";
            }
            members.computeIfAbsent(o, k -> new ArrayList<>()).add(r);
            queued++;
        }
        // Caches: an entry still named by the partition is being handed out or back; the lists above free it.
        long caches = mem.getLong(pb + P_CACHES);
        int cr = (int) caches;
        int co = (int) (caches >>> 32);
        if (cr != 0 && (cr > lay.maxLocks() || mem.getIntVolatile(t.req(cr - 1) + R_PART) != NO_PART)) {
            cr = 0;
        }
        if (co != 0 && (co > lay.maxObjects() || mem.getIntVolatile(t.obj(co - 1) + O_PART) != NO_PART)) {
            co = 0;
        }
        mem.putLong(pb + P_CACHES, LockTable.pair(cr, co));
        for (int r : unused) {
            mem.putInt(t.req(r) + R_PART, NO_PART);
            t.push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, r);
        }
        int freedObjects = 0;
        for (int o = objects.nextSetBit(0); o >= 0; o = objects.nextSetBit(o + 1)) {
            if (!members.containsKey(o)) {
                mem.putInt(t.obj(o) + O_PART, NO_PART);
                t.push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, o);
                freedObjects++;
            }
        }
        // Buckets: made again from the objects in use.
        int bpp = lay.bucketsPerPartition();
        long firstBucket = lay.offBuckets() + 4L * p * bpp;
        for (int b = 0; b < bpp; b++) {
            mem.putInt(firstBucket + 4L * b, 0);
        }
        for (int o : members.keySet()) {
            long oa = t.obj(o);
            int h = mem.getInt(oa + O_HASH);
            if ((h & t.partMask) != p) {
                return "lock object " + o + " (hash " + h + ") is not of partition " + p;
            }
            long bucket = t.bucket(h);
            mem.putInt(oa + O_NEXT, mem.getInt(bucket));
            mem.putInt(bucket, o + 1);
            relinkQueue(oa, members.get(o));
        }
        mem.putLong(pb + P_COUNTS, LockTable.pair(queued, members.size()));
        int posts = 0;
        for (int o : members.keySet()) {
            posts += t.grantWaiters(t.obj(o));
        }
        for (int s = suspects.nextSetBit(0); s >= 0; s = suspects.nextSetBit(s + 1)) {
            mem.putIntVolatile(t.locker(s) + L_SUSPECT, 1);
        }
        if (posts > 0) {
            t.flushWakeups(); // under the latch, once: this is no common path
        }
        // The dead holder may have taken an entry off a free stack and not named it yet, or
        // unnamed one and not pushed it yet: the next sweep finds it (LockTableReader.reclaimLost).
        t.ctl.putIntVolatile(OFF_RECLAIM, 1);
        LOG.warn("lock partition {} repaired after the death of {}: {} objects, {} requests in queues, {} unused "
                + "requests and {} empty objects freed, {} lockers' chains to be rebuilt", p, deadOwner, members.size(),
                queued, unused.size(), freedObjects, suspects.cardinality());
        return null;
    }

    /**
     * Links an object's queue again: its requests in their old order as far as the links still
     * give it, then the rest; granted holders first, then waiters (the queue's invariant).
     */
    private void relinkQueue(long oa, List<Integer> reqs) {
        BitSet in = new BitSet();
        for (int r : reqs) {
            in.set(r);
        }
        List<Integer> order = new ArrayList<>(reqs.size());
        BitSet seen = new BitSet();
        int q = mem.getInt(oa + O_HEAD);
        while (q > 0 && q <= lay.maxLocks() && in.get(q - 1) && !seen.get(q - 1)) {
            seen.set(q - 1);
            order.add(q - 1);
            q = mem.getInt(t.req(q - 1) + R_QNEXT);
        }
        for (int r : reqs) {
            if (!seen.get(r)) {
                order.add(r);
            }
        }
        List<Integer> queue = new ArrayList<>(order.size());
        for (int r : order) {
            if ((int) (mem.getLong(t.req(r) + R_MODE) >>> 32) == ST_GRANTED) {
                queue.add(r);
            }
        }
        for (int r : order) {
            if ((int) (mem.getLong(t.req(r) + R_MODE) >>> 32) != ST_GRANTED) {
                queue.add(r);
            }
        }
        for (int i = 0; i < queue.size(); i++) {
            int next = i + 1 < queue.size() ? queue.get(i + 1) + 1 : 0;
            int prev = i > 0 ? queue.get(i - 1) + 1 : 0;
            mem.putLong(t.req(queue.get(i)) + R_QNEXT, LockTable.pair(next, prev));
        }
        mem.putInt(oa + O_HEAD, queue.get(0) + 1);
        mem.putInt(oa + O_TAIL, queue.get(queue.size() - 1) + 1);
    }

    /**
     * Links locker {@code slot}'s chain again from the requests naming it (granted, waiting or
     * refused; the locker is claimed or is the caller's own, so nobody adds to it meanwhile).
     * Returns the number of requests in it.
     */
    int rebuildChain(int slot) {
        long lk = t.locker(slot);
        List<Integer> chain = new ArrayList<>();
        for (int r = 0; r < lay.maxLocks(); r++) {
            long ra = t.req(r);
            int part = mem.getIntVolatile(ra + R_PART);
            if (part < 0 || part >= lay.partitions()) {
                continue;
            }
            int status = (int) (mem.getLong(ra + R_MODE) >>> 32);
            if (status != ST_FREE && (int) (mem.getLong(ra + R_OBJ) >>> 32) == slot) {
                chain.add(r);
            }
        }
        for (int i = 0; i < chain.size(); i++) {
            int next = i + 1 < chain.size() ? chain.get(i + 1) + 1 : 0;
            int prev = i > 0 ? chain.get(i - 1) + 1 : 0;
            mem.putLong(t.req(chain.get(i)) + R_LNEXT, LockTable.pair(next, prev));
        }
        mem.putIntVolatile(lk + L_CHAIN, chain.isEmpty() ? 0 : chain.get(0) + 1);
        mem.putIntVolatile(lk + L_SUSPECT, 0);
        return chain.size();
    }
}
