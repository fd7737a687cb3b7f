package org.libtp.core.lock;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;

import static org.libtp.core.lock.LockLayout.*;

/**
 * The waits-for graph read from the lock table, and deadlock detection on it: the search on
 * block (one partition latch at a time), the full pass under every latch in index order that
 * {@link DeadlockDetector} runs on, and the refusal of the victims' waits.
 */
final class WaitsForGraph {
    /** The facade's logger: the lock manager logs under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);
    private final LockTable t;
    private final RegionEnvironment env;
    private final Memory ctl;
    private final Memory mem;
    private final Layout lay;
    private final Latch[] partLatches;
    private final int maxLockers;
    private final LockConfig config;

    WaitsForGraph(LockTable t, LockConfig config) {
        this.t = t;
        this.env = t.env;
        this.ctl = t.ctl;
        this.mem = t.mem;
        this.lay = t.lay;
        this.partLatches = t.partLatches;
        this.maxLockers = t.maxLockers;
        this.config = config;
    }

    /**
     * Under the latch of {@code r}'s partition: adds to {@code out} the lockers request
     * {@code r} waits for, and returns the new count; 0 if {@code r} is not waiting. A waiter
     * waits for every other holder whose mode conflicts (or that has a conversion pending, which
     * goes first) and every earlier waiter whose mode conflicts; a conversion waits for the other
     * holders whose mode conflicts with the mode it wants.
     */
    int waitsFor(int r, int[][] out, int n) {
        long ra = t.req(r);
        int status = mem.getInt(ra + R_STATUS);
        int pending = mem.getInt(ra + R_PENDING);
        boolean conversion = status == ST_GRANTED && pending != 0;
        if (!conversion && status != ST_WAITING) {
            return n;
        }
        int me = mem.getInt(ra + R_LOCKER);
        int cm = LockMode.conflictMask(conversion ? pending - 1 : mem.getInt(ra + R_MODE));
        long oa = t.obj(mem.getInt(ra + R_OBJ) - 1);
        int q = mem.getInt(oa + O_HEAD);
        int steps = 0;
        while (q != 0 && q - 1 != r) {
            t.checkWalk(oa, steps++);
            long qa = t.req(q - 1);
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
            q = q == 0 ? 0 : mem.getInt(t.req(q - 1) + R_QNEXT);
            while (q != 0) {
                t.checkWalk(oa, steps++);
                long qa = t.req(q - 1);
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
    boolean cycleThrough(int start) {
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
    int edgesOf(int s, int[][] out) {
        long lk = t.locker(s);
        for (int attempt = 0; attempt < 3; attempt++) {
            int w = mem.getIntVolatile(lk + L_WAITING);
            if (w <= 0 || w > lay.maxLocks()) {
                return 0;
            }
            int r = w - 1;
            int p = mem.getIntVolatile(t.req(r) + R_PART);
            if (p < 0 || p >= lay.partitions()) {
                continue;
            }
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                long ra = t.req(r);
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

    /**
     * One detection pass on a consistent waits-for graph: every partition latch, in index
     * order, is held while the graph is read and the victims' waits are refused.
     */
    int detectPass() {
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
                long lk = t.locker(s);
                int w = mem.getInt(lk + L_WAITING);
                if (w <= 0 || w > lay.maxLocks() || mem.getInt(t.req(w - 1) + R_LOCKER) != s) {
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
                    counts[s] = t.chainLength(lk);
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
            t.flushWakeups();
        }
        return victims.length;
    }

    /** Under every latch: refuses locker {@code s}'s wait on request {@code r} and posts it. */
    void refuse(int s, int r) {
        long ra = t.req(r);
        long lk = t.locker(s);
        int p = mem.getInt(ra + R_PART);
        long pb = LockTable.partBlock(p);
        int o = mem.getInt(ra + R_OBJ) - 1;
        long oa = t.obj(o);
        if (mem.getInt(ra + R_STATUS) == ST_WAITING) {
            t.dequeue(pb, oa, r);
            mem.putInt(ra + R_STATUS, ST_REFUSED);
            mem.putInt(ra + R_OBJ, 0);
        } else {
            mem.putInt(ra + R_PENDING, 0); // a conversion keeps its granted mode
        }
        mem.putInt(lk + L_VICTIM, 1);
        t.wake(s);
        if (mem.getInt(oa + O_HEAD) == 0) {
            t.removeObject(pb, o);
        } else {
            t.grantWaiters(oa);
        }
    }
}
