package org.libtp.core.lock;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;


import static org.libtp.core.lock.LockLayout.*;

/**
 * What the lock table says about itself: the statistics (the partitions' counters added up,
 * the region's totals) and the {@link LockTableSnapshot} that {@code libtp locks} prints.
 */
final class LockTableReader {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);
    private final LockTable t;
    private final WaitsForGraph graph;
    private final RegionEnvironment env;
    private final Memory ctl;
    private final Memory mem;
    private final Layout lay;
    private final Latch[] partLatches;
    private final int maxLockers;

    LockTableReader(LockTable t, WaitsForGraph graph) {
        this.t = t;
        this.graph = graph;
        this.env = t.env;
        this.ctl = t.ctl;
        this.mem = t.mem;
        this.lay = t.lay;
        this.partLatches = t.partLatches;
        this.maxLockers = t.maxLockers;
    }

    /**
     * The lock table as it is now, read under every partition latch (in index order, as a
     * detection pass takes them): what {@code libtp locks} prints.
     */
    LockTableSnapshot snapshot() {
        t.checkOpen();
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
                        long oa = t.obj(o - 1);
                        int q = mem.getInt(oa + O_HEAD);
                        for (int g = 0; q != 0 && g <= lay.maxLocks(); g++) {
                            long qa = t.req(q - 1);
                            int locker = mem.getInt(qa + R_LOCKER);
                            int status = mem.getInt(qa + R_STATUS);
                            int pending = mem.getInt(qa + R_PENDING);
                            out.add(new LockTableSnapshot.Request(mem.getInt(oa + O_FILE), mem.getLong(oa + O_PAGE),
                                    Math.max(0, mem.getLong(t.locker(locker) + L_TXN)), locker,
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
                long lk = t.locker(s);
                int w = mem.getInt(lk + L_WAITING);
                if (w <= 0 || w > lay.maxLocks() || mem.getInt(t.req(w - 1) + R_LOCKER) != s) {
                    continue;
                }
                int n = graph.waitsFor(w - 1, to, 0);
                for (int i = 0; i < n; i++) {
                    edges.add(new long[] {mem.getLong(lk + L_TXN), mem.getLong(t.locker(to[0][i]) + L_TXN)});
                }
            }
        } finally {
            for (int p = held - 1; p >= 0; p--) {
                partLatches[p].release();
            }
        }
        return new LockTableSnapshot(out, edges);
    }

    /**
     * {free requests, free objects, the table's requests, the table's objects, free entries that
     * still look in use}: the shared free stacks and every partition's cache walked under every
     * partition latch. With the in-use counts of {@link #stats()} they make the table's size
     * unless entries were lost (a leak check for tests and tools); the last must be 0.
     */
    int[] freeEntries() {
        t.checkOpen();
        env.checkValid();
        return underEveryPartitionLatch(() -> {
            int[] named = new int[1];
            int reqs = walk(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, lay.maxLocks(), true, named);
            int objs = walk(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, lay.maxObjects(), false, named);
            for (int p = 0; p < lay.partitions(); p++) {
                long caches = mem.getLong(LockTable.partBlock(p) + P_CACHES);
                if ((int) caches != 0) {
                    reqs++;
                    named[0] += notFree(t.req((int) caches - 1), true) ? 1 : 0;
                }
                if ((int) (caches >>> 32) != 0) {
                    objs++;
                    named[0] += notFree(t.obj((int) (caches >>> 32) - 1), false) ? 1 : 0;
                }
            }
            return new int[] {reqs, objs, lay.maxLocks(), lay.maxObjects(), named[0]};
        });
    }

    /** Runs {@code body} holding every partition latch, taken in index order as a detection pass takes them. */
    private <T> T underEveryPartitionLatch(java.util.function.Supplier<T> body) {
        int held = 0;
        try {
            for (; held < lay.partitions(); held++) {
                partLatches[held].acquire();
            }
            return body.get();
        } finally {
            for (int p = held - 1; p >= 0; p--) {
                partLatches[p].release();
            }
        }
    }

    /** Whether a partition was repaired since the last {@link #reclaimLost} (one volatile read). */
    boolean reclaimDue() {
        return ctl.getIntVolatile(OFF_RECLAIM) != 0;
    }

    /**
     * Gives back the free entries a holder of a partition latch lost by dying between taking one
     * off a free stack and naming it, or between unnaming one and pushing it (see
     * {@link LockLayout}): under every partition latch, in index order as a detection pass takes
     * them (entries move only under one), an entry that names no partition and is on no free
     * stack and in no cache is pushed back. Returns {requests, objects} given back.
     */
    int[] reclaimLost() {
        t.checkOpen();
        env.checkValid();
        return underEveryPartitionLatch(() -> {
            if (!ctl.compareAndSetInt(OFF_RECLAIM, 1, 0)) {
                return new int[] {0, 0}; // another process swept first
            }
            java.util.BitSet reqs = members(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, lay.maxLocks());
            java.util.BitSet objs = members(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, lay.maxObjects());
            if (reqs == null || objs == null) {
                return new int[] {0, 0}; // a free stack with a cycle: nothing safe to push
            }
            for (int p = 0; p < lay.partitions(); p++) {
                long caches = mem.getLong(LockTable.partBlock(p) + P_CACHES);
                if ((int) caches > 0 && (int) caches <= lay.maxLocks()) {
                    reqs.set((int) caches - 1);
                }
                int co = (int) (caches >>> 32);
                if (co > 0 && co <= lay.maxObjects()) {
                    objs.set(co - 1);
                }
            }
            int[] back = new int[2];
            for (int r = reqs.nextClearBit(0); r < lay.maxLocks(); r = reqs.nextClearBit(r + 1)) {
                long ra = t.req(r);
                if (mem.getIntVolatile(ra + R_PART) == NO_PART) {
                    mem.putLong(ra + R_MODE, LockTable.pair(0, ST_FREE));
                    t.push(OFF_REQ_FREE, lay.offRequests(), REQ, R_LNEXT, r);
                    back[0]++;
                }
            }
            for (int o = objs.nextClearBit(0); o < lay.maxObjects(); o = objs.nextClearBit(o + 1)) {
                if (mem.getIntVolatile(t.obj(o) + O_PART) == NO_PART) {
                    t.push(OFF_OBJ_FREE, lay.offObjects(), OBJ, O_NEXT, o);
                    back[1]++;
                }
            }
            if (back[0] + back[1] > 0) {
                LOG.warn("lock table of {}: {} lock requests and {} lock objects lost by a process that died inside a "
                        + "partition latch given back", env.home(), back[0], back[1]);
            }
            return back;
        });
    }

    /** The entries on a free stack, or null if it has a cycle. */
    private java.util.BitSet members(long head, long base, int stride, int link, int max) {
        java.util.BitSet out = new java.util.BitSet(max);
        int top = (int) ctl.getLongVolatile(head);
        int n = 0;
        while (top > 0 && top <= max) {
            if (out.get(top - 1) || ++n > max) {
                return null;
            }
            out.set(top - 1);
            top = mem.getIntVolatile(base + (long) stride * (top - 1) + link);
        }
        return out;
    }

    private int walk(long head, long base, int stride, int link, int max, boolean requests, int[] named) {
        int top = (int) ctl.getLongVolatile(head);
        int n = 0;
        while (top != 0 && n <= max) {
            n++;
            long a = base + (long) stride * (top - 1);
            named[0] += notFree(a, requests) ? 1 : 0;
            top = mem.getIntVolatile(a + link);
        }
        return n;
    }

    /** A free entry must name no partition (and a request have the free status): else a repair takes it for one in use. */
    private boolean notFree(long a, boolean request) {
        if (request) {
            return mem.getInt(a + R_PART) != NO_PART || mem.getInt(a + R_STATUS) != ST_FREE;
        }
        return mem.getInt(a + O_PART) != NO_PART;
    }

    LockStats stats() {
        t.checkOpen();
        long requests = 0;
        long waits = 0;
        int locks = 0;
        int objects = 0;
        for (int p = 0; p < lay.partitions(); p++) {
            long pb = LockTable.partBlock(p);
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
}
