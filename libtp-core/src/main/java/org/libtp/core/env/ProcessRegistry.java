package org.libtp.core.env;

import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.LibTpException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.memory.Memory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.channels.FileLock;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import static org.libtp.core.env.EnvLayout.*;

/**
 * The process registry (paper 3.2.4, the process manager's part): the slots of the environment
 * region, one per attached process, whose liveness is its record lock on the lock file; failCheck,
 * which finds processes that died without closing and hands their slots to the listeners (the
 * transaction manager rolls back their transactions, the lock manager frees their locks) before
 * freeing them; and the background thread that runs it every {@code failCheckMillis}.
 *
 * <p>failCheck runs synchronized on the {@link SharedEnvironment}, as every change of the
 * registry and of the region directory does (it may attach regions to look for latches).
 */
final class ProcessRegistry {
    private static final Logger LOG = LoggerFactory.getLogger(ProcessRegistry.class);

    private final SharedEnvironment owner;
    private final Path home;
    private final LockFile lockFile;
    private final Memory mem;
    private final int maxProcesses;
    private final int maxRegions;
    private final int slot;
    private final List<FailCheckListener> listeners = new CopyOnWriteArrayList<>();
    /** Kinds of this process's listeners, by listener. */
    private final java.util.Map<FailCheckListener, Integer> kinds = new java.util.concurrent.ConcurrentHashMap<>();
    private Thread monitor;
    private volatile boolean stopped;

    ProcessRegistry(SharedEnvironment owner, Path home, LockFile lockFile, Memory mem, int maxProcesses, int maxRegions,
                    int slot) {
        this.owner = owner;
        this.home = home;
        this.lockFile = lockFile;
        this.mem = mem;
        this.maxProcesses = maxProcesses;
        this.maxRegions = maxRegions;
        this.slot = slot;
    }

    void addListener(FailCheckListener l, int kind) {
        listeners.add(l);
        kinds.put(l, kind);
        while (true) { // the environment has seen a listener of this kind
            int k = mem.getIntVolatile(OFF_LISTENER_KINDS);
            if ((k | kind) == k || mem.compareAndSetInt(OFF_LISTENER_KINDS, k, k | kind)) {
                return;
            }
        }
    }

    void removeListener(FailCheckListener l) {
        listeners.remove(l);
        kinds.remove(l);
    }

    private int localKinds() {
        int k = 0;
        for (int v : kinds.values()) {
            k |= v;
        }
        return k;
    }

    /** True unless the slot of latch owner {@code ownerId} (slot + 1) is free of its process's lock. */
    /** Dead owners whose liveness lock this thread holds for a latch repair ({@link #claimDeadOwner}). */
    private final ThreadLocal<java.util.Set<Integer>> claimedHere = ThreadLocal.withInitial(java.util.HashSet::new);
    /** The thread running failCheck now, if any. */
    private volatile Thread failCheckThread;

    /** Slots of dead processes whose liveness locks this process's failCheck holds right now. */
    private final java.util.Set<Integer> heldDead = java.util.concurrent.ConcurrentHashMap.newKeySet();

    boolean isAlive(int ownerId) {
        int s = ownerId - 1;
        if (s == slot) {
            return true;
        }
        if (s < 0 || s >= maxProcesses) {
            return false; // no such slot: the latch word is garbage, treat as a dead owner
        }
        if (heldDead.contains(s) || claimedHere.get().contains(s) || declaredDead(s)) {
            // Its liveness lock is held by our own failCheck, which found it dead, or by this
            // thread's repair of one of its latches, or by another process that found it dead
            // and said so in its slot: a thread waiting for what it held (the group-commit
            // leader word, a latch a repair needs) must see it dead, or the cleanup waits for
            // that thread and that thread for the cleanup.
            return false;
        }
        try {
            return lockFile.slotHeld(s);
        } catch (IOException e) {
            LOG.warn("cannot check liveness of slot {} of {}: {}", s, home, e.toString());
            return true; // unknown: keep waiting rather than fail a healthy environment
        }
    }

    /** Whether slot {@code s}'s process was found dead by a holder of its liveness lock (its dead generation is its generation). */
    private boolean declaredDead(int s) {
        long at = slotOffset(maxRegions, s);
        return mem.getIntVolatile(at + SLOT_STATE) == SLOT_BUSY
                && mem.getLongVolatile(at + SLOT_DEAD_GENERATION) == mem.getLongVolatile(at + SLOT_GENERATION);
    }

    /**
     * Says in slot {@code s} that its process is dead. Only a holder of the slot's liveness lock
     * may, and only while the slot is in use: the generation written is then that of a dead
     * process, and a process claiming the slot later gets the next one.
     */
    private void declareDead(int s) {
        long at = slotOffset(maxRegions, s);
        if (mem.getIntVolatile(at + SLOT_STATE) == SLOT_BUSY) {
            mem.putLongVolatile(at + SLOT_DEAD_GENERATION, mem.getLongVolatile(at + SLOT_GENERATION));
        }
    }

    /**
     * A waiter's claim on dead owner {@code ownerId} while it repairs a latch the owner held: the
     * owner's liveness lock, which failCheck takes too, so failCheck gives back what the dead
     * process held only after the repair. Null if failCheck (here or elsewhere) or another
     * repairer holds it.
     */
    AutoCloseable claimDeadOwner(int ownerId) {
        int s = ownerId - 1;
        if (s < 0 || s >= maxProcesses) {
            return () -> { };
        }
        if (claimedHere.get().contains(s) || (heldDead.contains(s) && Thread.currentThread() == failCheckThread)) {
            return () -> { }; // a repair nested in this thread's repair or failCheck: already serialized
        }
        if (s == slot || heldDead.contains(s)) {
            return null;
        }
        try {
            java.nio.channels.FileLock l = lockFile.tryLockSlot(s);
            if (l == null) {
                return null;
            }
            claimedHere.get().add(s);
            declareDead(s);
            return () -> {
                claimedHere.get().remove(s);
                lockFile.release(l);
            };
        } catch (IOException e) {
            LOG.warn("cannot lock the liveness byte of slot {} of {}: {}", s, home, e.toString());
            return null;
        }
    }

    /** "process PID (slot S)" for latch owner {@code ownerId}, for messages. */
    String describe(int ownerId) {
        int s = ownerId - 1;
        return s >= 0 && s < maxProcesses
                ? "process " + mem.getLong(slotOffset(maxRegions, s) + SLOT_PID) + " (slot " + s + ")"
                : "owner id " + ownerId;
    }

    /** The generation of slot {@code s} if it is in use, else -1. */
    long slotGeneration(int s) {
        if (s < 0 || s >= maxProcesses) {
            return -1;
        }
        long at = slotOffset(maxRegions, s);
        if (mem.getIntVolatile(at + SLOT_STATE) != SLOT_BUSY) {
            return -1;
        }
        return mem.getLong(at + SLOT_GENERATION);
    }

    /** See {@link SharedEnvironment#failCheck()}. */
    int failCheck() {
        synchronized (owner) {
            owner.checkValid();
            failCheckThread = Thread.currentThread();
            try {
                return failCheckLocked();
            } finally {
                failCheckThread = null;
            }
        }
    }

    private int failCheckLocked() {
        // A process without a listener some process of the environment has (a tool, or a process
        // still opening) gives back what its own listeners can, but frees no slot: what the
        // missing listener gives back (a dead process's pins) would stay behind for good. A
        // process that has it frees the slot.
        boolean mayFree = (mem.getIntVolatile(OFF_LISTENER_KINDS) & ~localKinds()) == 0;
        int freed = 0;
        List<Integer> dead = new ArrayList<>();
        List<FileLock> held = new ArrayList<>();
        try {
            try {
                for (int s = 0; s < maxProcesses; s++) {
                    long at = slotOffset(maxRegions, s);
                    if (s == slot || mem.getIntVolatile(at + SLOT_STATE) != SLOT_BUSY) {
                        continue;
                    }
                    FileLock lock = lockFile.tryLockSlot(s);
                    if (lock == null) {
                        continue; // alive
                    }
                    held.add(lock);
                    heldDead.add(s); // we hold its lock now: it must not look alive to our own threads
                    if (mem.getIntVolatile(at + SLOT_STATE) != SLOT_BUSY) {
                        continue; // closed cleanly between our two looks
                    }
                    declareDead(s); // other processes see it dead, not held, from now on
                    long pid = mem.getLong(at + SLOT_PID);
                    String latch = owner.repairLatchesHeldBy(s + 1);
                    if (latch == SharedEnvironment.REPAIR_ELSEWHERE) {
                        // A latch whose repair this process has not registered (it has not
                        // opened that manager): a process that has will repair it and free the slot.
                        LOG.debug("failCheck: process {} (slot {}) holds a latch another process repairs", pid, s);
                        continue;
                    }
                    if (latch != null) {
                        throw owner.fail("process " + pid + " (slot " + s + ") died holding " + latch);
                    }
                    dead.add(s);
                }
                int[] deadSlots = dead.stream().mapToInt(Integer::intValue).toArray();
                for (FailCheckListener l : listeners) {
                    try {
                        l.failCheck(deadSlots);
                    } catch (RunRecoveryException e) {
                        throw e;
                    } catch (RuntimeException e) {
                        throw owner.fail("failCheck could not clean up after dead processes: " + e);
                    }
                }
                for (int s : mayFree ? deadSlots : new int[0]) {
                    long at = slotOffset(maxRegions, s);
                    long pid = mem.getLong(at + SLOT_PID);
                    mem.putIntVolatile(at + SLOT_STATE, SLOT_FREE);
                    freed++;
                    LOG.info("failCheck: process {} (slot {}) of {} died holding no latch; slot freed",
                            pid, s, home);
                }
            } finally {
                for (FileLock l : held) {
                    lockFile.release(l);
                }
                heldDead.clear();
            }
        } catch (IOException e) {
            throw new EnvironmentAccessException("I/O error in failCheck of " + home + ": " + e, e);
        }
        return freed;
    }

    /** Starts the background failCheck thread ({@code libtp-failcheck}), every {@code periodMillis}. */
    void startMonitor(long periodMillis) {
        Thread t = new Thread(() -> monitorLoop(periodMillis), "libtp-failcheck " + home);
        t.setDaemon(true);
        monitor = t;
        t.start();
    }

    /** Stops the background thread; {@code join}: waits (up to 5 s) until it has. */
    void stopMonitor(boolean join) {
        stopped = true;
        Thread t = monitor;
        if (t == null) {
            return;
        }
        t.interrupt();
        if (join) {
            try {
                t.join(5_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void monitorLoop(long period) {
        while (!stopped) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (stopped) {
                return;
            }
            try {
                failCheck();
            } catch (RunRecoveryException e) {
                return; // failed: every caller now gets this exception; nothing more to watch
            } catch (LibTpException | IllegalStateException e) {
                LOG.warn("background failCheck of {}: {}", home, e.toString());
            }
        }
    }

    /** The attached processes: {slot, pid, attach time ms, alive 1/0} per busy slot. */
    List<long[]> attachedSlots() {
        List<long[]> out = new ArrayList<>();
        for (int s = 0; s < maxProcesses; s++) {
            long at = slotOffset(maxRegions, s);
            if (mem.getIntVolatile(at + SLOT_STATE) == SLOT_BUSY) {
                out.add(new long[] {s, mem.getLong(at + SLOT_PID), mem.getLong(at + SLOT_ATTACH), isAlive(s + 1) ? 1 : 0});
            }
        }
        return out;
    }

    int busySlots() {
        int n = 0;
        for (int s = 0; s < maxProcesses; s++) {
            if (mem.getIntVolatile(slotOffset(maxRegions, s) + SLOT_STATE) == SLOT_BUSY) {
                n++;
            }
        }
        return n;
    }
}
