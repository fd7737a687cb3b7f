package org.libtp.core.sync;

import org.libtp.core.memory.Memory;

import java.util.concurrent.TimeUnit;

import static org.libtp.core.sync.LatchLayout.CONTENDED;
import static org.libtp.core.sync.LatchLayout.THREAD;
import static org.libtp.core.sync.LatchLayout.WORD;

/**
 * A cross-process mutex on a {@link LatchLayout} in shared memory: the paper's section 4.3
 * design — an uncontended acquire is one CAS, a bounded spin follows, and only then a futex
 * system call. Not re-entrant (a second acquire by the owning thread throws rather than hangs).
 *
 * <p>Crash protocol: the owner id is part of the latch word, so a holder that dies is always
 * named. A waiter never sleeps longer than {@link SyncContext#checkIntervalNanos()}; each time it
 * wakes it checks the environment's failed flag and whether the owner is alive. A dead owner:
 * if the latch has a {@link LatchRepair} ({@link #onOwnerDeath}), the waiter takes the latch
 * over (a compare-and-set of the word still naming the dead owner: one thread of one process
 * wins), repairs what it guards, and goes on as its holder; otherwise, or if the repair cannot
 * make the structure consistent, the environment fails ({@link SyncContext#ownerDied}) and the
 * waiter throws — every process then gets a {@code RunRecoveryException}.
 *
 * <p>This object is a view: any number of views of the same latch, in any processes and threads,
 * may exist. It holds no state of its own but where the latch lives.
 */
public final class Latch {
    private static final int SPINS = 100;

    private final Memory memory;
    private final long offset;
    private final String name;
    private final SyncContext context;
    private final int mine;
    /** What to do when the holder dies (null: fail the environment), and this latch's index for it. */
    private volatile LatchRepair repair;
    private volatile int repairIndex;

    /**
     * @param memory  the region holding the latch
     * @param offset  8-aligned offset of a {@link LatchLayout}
     * @param name    for messages, e.g. "counter latch of region demo"
     */
    public Latch(Memory memory, long offset, String name, SyncContext context) {
        if ((offset & 7) != 0 || offset < 0 || offset > memory.size() - LatchLayout.SIZE) {
            throw new IllegalArgumentException("latch " + name + " at offset " + offset
                    + " is not an 8-aligned in-range position of " + memory.name());
        }
        this.memory = memory;
        this.offset = offset;
        this.name = name;
        this.context = context;
        this.mine = context.ownerId() << 1;
    }

    public String name() {
        return name;
    }

    /** Where the latch lives in its region. */
    public long offset() {
        return offset;
    }

    /**
     * Registers how to repair what this latch guards when its holder dies ({@code index}: the
     * latch's index in its array, passed back to the repair); null removes it (the environment
     * then fails on such a death).
     */
    public void onOwnerDeath(LatchRepair repair, int index) {
        this.repairIndex = index;
        this.repair = repair;
    }

    /** True if a repair is registered on this view. */
    public boolean repairable() {
        return repair != null;
    }

    /**
     * The calling thread's tag for the THREAD field: this process's owner id in the high bits,
     * the thread id in the low 40. Java thread ids are unique only within one JVM (identical
     * child JVMs give their threads the same ids), so the owner id keeps the re-entry check from
     * mistaking another process's thread for this one.
     */
    private long threadTag() {
        return ((long) (mine >>> 1) << 40) | (Thread.currentThread().getId() & 0xFF_FFFF_FFFFL);
    }

    /**
     * Acquires the latch, waiting as long as needed.
     *
     * @throws org.libtp.core.RunRecoveryException if the environment has failed (checked even
     *         when the latch is free: one volatile read of a read-mostly word)
     */
    public void acquire() {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return;
        }
        acquireSlow(-1L);
    }

    /** Acquires the latch only if it is free now. */
    public boolean tryAcquire() {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return true;
        }
        return false;
    }

    /** Acquires the latch, waiting at most {@code timeout}; returns false if it timed out. */
    public boolean acquire(long timeout, TimeUnit unit) {
        context.checkValid();
        if (memory.compareAndSetInt(offset + WORD, 0, mine)) {
            memory.putLong(offset + THREAD, threadTag());
            return true;
        }
        return acquireSlow(Math.max(0, unit.toNanos(timeout)));
    }

    private boolean acquireSlow(long timeoutNanos) {
        long tid = threadTag();
        long off = offset + WORD;
        int w = 0;
        for (int i = 0; i < SPINS; i++) {
            w = memory.getIntVolatile(off);
            if (w == 0 && memory.compareAndSetInt(off, 0, mine)) {
                memory.putLong(offset + THREAD, tid);
                return true;
            }
            Thread.onSpinWait();
        }
        if ((w & ~CONTENDED) == mine && memory.getLong(offset + THREAD) == tid) {
            throw new IllegalStateException("latch " + name + " is already held by this thread");
        }
        long start = System.nanoTime();
        long lastCheck = start;
        long interval = context.checkIntervalNanos();
        Futex futex = context.futex();
        while (true) {
            w = memory.getIntVolatile(off);
            if (w == 0) {
                // Take it marked contended: others may still sleep (Drepper's mutex 3).
                if (memory.compareAndSetInt(off, 0, mine | CONTENDED)) {
                    memory.putLong(offset + THREAD, tid);
                    return true;
                }
                continue;
            }
            if ((w & CONTENDED) == 0) {
                if (!memory.compareAndSetInt(off, w, w | CONTENDED)) {
                    continue;
                }
                w |= CONTENDED;
            }
            long now = System.nanoTime();
            long sleep = interval - (now - lastCheck);
            if (timeoutNanos >= 0) {
                long left = timeoutNanos - (now - start);
                if (left <= 0) {
                    return false;
                }
                sleep = Math.min(sleep, left);
            }
            if (sleep > 0) {
                futex.await(memory, off, w, sleep);
            }
            context.checkValid();
            now = System.nanoTime();
            if (now - lastCheck >= interval) {
                lastCheck = now;
                int word = memory.getIntVolatile(off);
                int owner = LatchLayout.ownerOf(word);
                if (owner != 0 && owner != context.ownerId() && !context.isAlive(owner)) {
                    AutoCloseable claim = context.claimDeadOwner(owner);
                    if (claim == null) {
                        continue; // failCheck (here or in another process) is at it: wait for it
                    }
                    try {
                        if (takeOverAndRepair(word, owner)) {
                            return true; // repaired: this thread holds the latch
                        }
                    } finally {
                        closeClaim(claim);
                    }
                    lastCheck = now - interval; // another thread took it over: look again soon
                }
            }
        }
    }

    /** Releases the latch, which this process must hold. */
    public void release() {
        long off = offset + WORD;
        int w = memory.getIntVolatile(off);
        if ((w & ~CONTENDED) != mine) {
            throw new IllegalStateException("latch " + name + " released by owner "
                    + context.ownerId() + " but held by owner " + LatchLayout.ownerOf(w));
        }
        memory.putLong(offset + THREAD, 0L);
        if ((memory.getAndSetInt(off, 0) & CONTENDED) != 0) {
            context.futex().wake(memory, off, 1);
        }
    }

    /**
     * Fails the environment if the latch is held by a dead process: for waiters that do not
     * sleep on the latch itself (e.g. group-commit followers waiting for the leader's force).
     */
    public void checkOwnerAlive() {
        repairIfOwnerDead();
    }

    /**
     * If the latch is held by a dead process: takes it over, repairs what it guards and releases
     * it (true), or fails the environment and throws if it has no repair or the repair fails.
     * False if the latch is free or its holder alive, or another thread took it over first.
     * For failCheck and for waiters that do not sleep on the latch itself.
     */
    public boolean repairIfOwnerDead() {
        int word = memory.getIntVolatile(offset + WORD);
        int owner = LatchLayout.ownerOf(word);
        if (owner == 0 || owner == context.ownerId() || context.isAlive(owner)) {
            return false;
        }
        AutoCloseable claim = context.claimDeadOwner(owner);
        if (claim == null) {
            return false; // failCheck is at it
        }
        try {
            if (!takeOverAndRepair(word, owner)) {
                return false;
            }
        } finally {
            closeClaim(claim);
        }
        release();
        return true;
    }

    private static void closeClaim(AutoCloseable claim) {
        try {
            claim.close();
        } catch (Exception e) {
            throw new IllegalStateException("could not give back the claim on a dead latch owner: " + e, e);
        }
    }

    /**
     * failCheck's repair: owner {@code deadOwner} is known dead (failCheck holds its registry
     * slot's liveness lock, so {@link SyncContext#isAlive} would answer true in this process).
     * If the latch still names it: takes it over, repairs what it guards and releases it (true);
     * fails the environment and throws if there is no repair or it fails. False if the latch no
     * longer names that owner (another thread took it over to repair it).
     */
    public boolean repairIfHeldBy(int deadOwner) {
        int word = memory.getIntVolatile(offset + WORD);
        if (LatchLayout.ownerOf(word) != deadOwner || deadOwner == context.ownerId()) {
            return false;
        }
        if (!takeOverAndRepair(word, deadOwner)) {
            return false;
        }
        release();
        return true;
    }

    /**
     * The latch word is {@code word}, naming dead owner {@code owner}: takes the latch over by a
     * compare-and-set of that word (false if it changed: another thread took it over, or its
     * repair is done) and repairs; returns true holding the latch. Without a repair, or when it
     * fails, fails the environment and throws.
     */
    private boolean takeOverAndRepair(int word, int owner) {
        LatchRepair r = repair;
        if (r == null) {
            throw context.ownerDied(name, owner);
        }
        // Marked contended: threads of live processes may sleep on the word.
        if (!memory.compareAndSetInt(offset + WORD, word, mine | CONTENDED)) {
            return false;
        }
        memory.putLong(offset + THREAD, threadTag());
        String why;
        try {
            why = r.repair(repairIndex, context.describeOwner(owner));
        } catch (RuntimeException e) {
            why = e.toString();
        }
        if (why != null) {
            throw context.ownerDied(name, owner, why);
        }
        context.repaired(name, owner);
        return true;
    }

    /** The owner id holding the latch now, 0 if free. */
    public int owner() {
        return LatchLayout.ownerOf(memory.getIntVolatile(offset + WORD));
    }

    /** True if this thread holds the latch. */
    public boolean isHeldByCurrentThread() {
        return (memory.getIntVolatile(offset + WORD) & ~CONTENDED) == mine
                && memory.getLong(offset + THREAD) == threadTag();
    }

    @Override
    public String toString() {
        return "Latch[" + name + " @" + offset + " of " + memory.name() + ", owner " + owner() + "]";
    }
}
