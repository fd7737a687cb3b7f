package org.libtp.core.lock;

import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.locks.LockSupport;

import static org.libtp.core.lock.LockLayout.*;

/**
 * Releasing a locker's whole chain (lock_unlock_all) and cleaning up after lockers that ended
 * where this lock manager did not hear of it, or whose releaser died: a releaser first claims the
 * locker entry by CAS of its id word to this process's claim word, so two never work on one
 * chain and a release is idempotent; a claim whose process is gone is taken over. Runs on a
 * locker's end, on failCheck, and after each periodic detection pass.
 */
final class LockerRelease {
    /** The facade's logger: the lock manager logs under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);
    private final LockTable t;
    private final RegionEnvironment env;
    private final Memory mem;
    private final Latch[] partLatches;
    private final int maxLockers;
    private final long claimWord;
    private final LockPartitionRepair repair;

    LockerRelease(LockTable t, LockPartitionRepair repair) {
        this.t = t;
        this.repair = repair;
        this.env = t.env;
        this.mem = t.mem;
        this.partLatches = t.partLatches;
        this.maxLockers = t.maxLockers;
        int slot = env.processSlot();
        this.claimWord = Long.MIN_VALUE | ((long) (slot + 1) << 40) | (env.slotGeneration(slot) & GEN_MASK_40);
    }

    /**
     * Makes the locker entry of {@code slot} transaction {@code id}'s. A different id there is
     * a previous transaction in the slot: it has ended (the slot is ours now), so whatever it
     * left is released first (normally nothing: its end released it).
     */
    void adopt(int slot, long id) {
        long lk = t.locker(slot);
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
    boolean release(int slot, long txnId) {
        long lk = t.locker(slot);
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
    void releaseClaimed(int slot, long previousWord) {
        long lk = t.locker(slot);
        try {
            releaseChain(slot);
        } catch (RunRecoveryException e) {
            throw e;
        } catch (RuntimeException e) {
            // The claim stays (this process is alive, so nobody takes it over) and the chain is
            // half released: the slot would be stuck for every later transaction. The table is
            // damaged; the environment fails, and its recovery makes the table again.
            throw env.fail("lock table: releasing the locks of transaction slot " + slot + " failed (" + e
                    + "); the lock table is damaged: the environment must be reopened, and its recovery rebuilds it");
        }
        resetLocker(lk);
        mem.putLongVolatile(lk + L_TXN, 0);
    }

    void resetLocker(long lk) {
        mem.putIntVolatile(lk + L_CHAIN, 0);
        mem.putIntVolatile(lk + L_WAITING, 0);
        mem.putIntVolatile(lk + L_VICTIM, 0);
        mem.putIntVolatile(lk + L_SUSPECT, 0);
    }

    /** True unless the process that claimed a locker (claim word {@code w}) is gone. */
    boolean claimerAlive(long w) {
        int slot = (int) ((w >>> 40) & 0x7FFFFF) - 1;
        return (env.slotGeneration(slot) & GEN_MASK_40) == (w & GEN_MASK_40);
    }

    /**
     * Releases every request of a claimed locker's chain, each under its partition's latch. A
     * chain a partition repair marked suspect, or one that turns out not to hold together (a
     * request naming another locker, no partition, or free: a holder of a partition latch died
     * changing it), is first made again from the requests that name the locker.
     */
    void releaseChain(int slot) {
        long lk = t.locker(slot);
        if (mem.getIntVolatile(lk + L_SUSPECT) != 0) {
            int n = repair.rebuildChain(slot);
            LOG.info("transaction slot {}: lock chain rebuilt after a partition repair ({} requests)", slot, n);
        }
        int c;
        int rebuilt = 0;
        while ((c = mem.getIntVolatile(lk + L_CHAIN)) != 0) {
            int r = c - 1;
            int p = c > t.lay.maxLocks() ? NO_PART : mem.getIntVolatile(t.req(r) + R_PART);
            if (p < 0 || p >= partLatches.length || (int) (mem.getLong(t.req(r) + R_OBJ) >>> 32) != slot
                    || (int) (mem.getLong(t.req(r) + R_MODE) >>> 32) == ST_FREE) {
                if (rebuilt++ > 0) {
                    throw new IllegalStateException("transaction slot " + slot + ": lock chain request " + r
                            + " does not belong to it even after the chain was rebuilt (lock table damaged)");
                }
                int n = repair.rebuildChain(slot);
                LOG.warn("transaction slot {}: lock chain broken at request {}; rebuilt from the table ({} requests)",
                        slot, r, n);
                continue;
            }
            int posts;
            Latch latch = partLatches[p];
            latch.acquire();
            try {
                posts = t.releaseRequest(p, lk, r);
            } finally {
                latch.release();
            }
            if (posts > 0) {
                t.flushWakeups();
            }
        }
        mem.putIntVolatile(lk + L_WAITING, 0);
    }

    /**
     * failCheck listener: best effort (the detector retries), so it never fails the
     * environment itself, which an exception from a listener would.
     */
    void onFailCheck() {
        try {
            releaseStaleLockers();
        } catch (RunRecoveryException e) {
            throw e;
        } catch (RuntimeException e) {
            if (!t.closed && !t.environmentGone()) {
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
        if (t.closed) {
            return 0;
        }
        int released = 0;
        for (int s = 0; s < maxLockers; s++) {
            long lk = t.locker(s);
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
            if (t.lockers.lockerIdAt(s) == w) {
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
}
