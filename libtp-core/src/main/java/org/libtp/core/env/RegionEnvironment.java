package org.libtp.core.env;

import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.region.RegionHeader;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SemaphoreLayout;
import org.libtp.core.sync.SharedEvent;
import org.libtp.core.sync.SharedSemaphore;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * A handle on an environment: a directory whose region files several processes map to share
 * state. The first process to open it creates the regions; later ones attach. Opening the same
 * directory several times in one JVM works and shares one process slot.
 *
 * <p>Thread-safe. Every method checks the handle and the environment first: a closed handle
 * throws {@link IllegalStateException}; a failed environment throws
 * {@link RunRecoveryException} until every process has closed it.
 *
 * <pre>{@code
 * try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.defaults())) {
 *     Region r = env.region(new RegionSpec("demo", 4096, 1, new LatchArray(256, 64, 1)));
 *     Latch latch = env.latch(r, 256, "demo latch");
 *     latch.acquire();
 *     try { ... } finally { latch.release(); }
 * }
 * }</pre>
 */
public final class RegionEnvironment implements AutoCloseable {
    /** Per JVM: one shared state per real path, reference counted. Guarded by itself. */
    private static final Map<Path, SharedEnvironment> OPEN = new HashMap<>();
    /** Per JVM: one monitor per real path, so opens of different environments don't wait on each other. */
    private static final Map<Path, Object> PATH_LOCKS = new HashMap<>();

    private final SharedEnvironment shared;
    private volatile boolean closed;

    private RegionEnvironment(SharedEnvironment shared) {
        this.shared = shared;
    }

    /**
     * Opens (creating if needed) the environment in directory {@code home}, which must exist and
     * be writable.
     *
     * @throws EnvironmentAccessException missing or unwritable directory, I/O error
     * @throws org.libtp.core.VersionMismatchException a region file of another format
     * @throws org.libtp.core.CorruptionException a truncated or damaged region file
     * @throws org.libtp.core.RunRecoveryException the environment failed and is still open elsewhere
     * @throws org.libtp.core.CapacityExceededException every process slot is taken
     * @throws org.libtp.core.ConfigMismatchException the environment is open elsewhere with its
     *         regions placed otherwise than {@code config} explicitly asks
     * @throws org.libtp.core.OutOfSpaceException no room for the shared regions
     */
    public static RegionEnvironment open(Path home, RegionEnvironmentConfig config) {
        if (home == null || config == null) {
            throw new IllegalArgumentException("home and config must not be null");
        }
        if (!Files.exists(home)) {
            throw new EnvironmentAccessException("environment directory " + home.toAbsolutePath()
                    + " does not exist; create it first");
        }
        if (!Files.isDirectory(home)) {
            throw new EnvironmentAccessException("environment path " + home.toAbsolutePath()
                    + " is not a directory");
        }
        if (!Files.isWritable(home)) {
            throw new EnvironmentAccessException("environment directory " + home.toAbsolutePath()
                    + " is not writable; LibTP creates its lock file, log and data files there");
        }
        Path real;
        try {
            real = home.toRealPath();
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot resolve environment directory " + home + ": " + e, e);
        }
        Object pathLock;
        synchronized (PATH_LOCKS) {
            pathLock = PATH_LOCKS.computeIfAbsent(real, p -> new Object());
        }
        synchronized (pathLock) {
            SharedEnvironment s;
            synchronized (OPEN) {
                s = OPEN.get(real);
            }
            if (s != null) {
                s.checkValid();
                s.checkPlacement(config);
                s.retain();
                return new RegionEnvironment(s);
            }
            s = SharedEnvironment.attach(real, config);
            synchronized (OPEN) {
                OPEN.put(real, s);
            }
            return new RegionEnvironment(s);
        }
    }

    private SharedEnvironment live() {
        if (closed) {
            throw new IllegalStateException("environment handle for " + shared.home() + " is closed");
        }
        shared.checkValid();
        return shared;
    }

    /** The environment directory (real path). */
    public Path home() {
        return shared.home();
    }

    /**
     * The directory holding the shared region files: the environment's own directory in shared
     * memory ({@code /dev/shm/libtp-<id>} by default) or the environment directory itself; see
     * {@link RegionPlacement}. The same in every process attached now.
     */
    public Path regionDirectory() {
        return shared.regionDirectory();
    }

    /**
     * The region {@code name} as the last run left it, when that run ended uncleanly (every
     * process died or the environment failed) and the region is one an unclean end keeps (the
     * log); null otherwise. Its manager reads it while it opens first, then calls
     * {@link #discardKeptRegion}. Read it as a file; it is not mapped or attached.
     */
    public Path keptRegion(String name) {
        return live().keptRegion(name);
    }

    /** Deletes the kept region {@code name} (see {@link #keptRegion}). */
    public void discardKeptRegion(String name) throws IOException {
        live().discardKeptRegion(name);
    }

    /** Where the shared regions are: {@link RegionPlacement#SHM} or {@link RegionPlacement#ENV_DIR}. */
    public RegionPlacement regionPlacement() {
        return shared.regionPlacement();
    }

    /** The configuration this process opened with. */
    public RegionEnvironmentConfig config() {
        return shared.config();
    }

    /** This process's registry slot. */
    public int processSlot() {
        live();
        return shared.slot();
    }

    /** True if this process created the environment's regions (it opened the environment alone). */
    public boolean createdRegions() {
        return shared.created();
    }

    /**
     * True if this process rebuilt the regions of an environment that had not been closed cleanly
     * (a process died, or the environment had failed). The transaction manager's recovery runs then.
     */
    public boolean wasUnclean() {
        return shared.previousUnclean();
    }

    /** A random id of this incarnation of the regions: equal in every process attached now. */
    public long incarnation() {
        return live().incarnation();
    }

    /** Process slots currently marked in use (live, or dead and not yet reclaimed). */
    public int busyProcessSlots() {
        return live().busySlots();
    }

    /**
     * A process attached to the environment (a busy registry slot).
     *
     * @param alive false if it is known to be dead (failCheck will free its slot)
     */
    public record AttachedProcess(int slot, long pid, long attachedMillis, boolean alive) {
    }

    /** The processes attached now, this one included, by registry slot. */
    public java.util.List<AttachedProcess> attachedProcesses() {
        java.util.List<AttachedProcess> out = new java.util.ArrayList<>();
        for (long[] a : live().attachedSlots()) {
            out.add(new AttachedProcess((int) a[0], a[1], a[2], a[3] == 1));
        }
        return out;
    }

    /** Which memory implementation maps this process's regions ("varhandle" or "chronicle"). */
    public String memoryImplementation() {
        return shared.memoryKind();
    }

    /** True if the environment has been marked failed. */
    public boolean isFailed() {
        if (closed) {
            throw new IllegalStateException("environment handle for " + shared.home() + " is closed");
        }
        return shared.isFailed();
    }

    /** Creates (first caller in any process) or attaches the region described by {@code spec}. */
    public Region region(RegionSpec spec) {
        if (spec == null) {
            throw new IllegalArgumentException("spec must not be null");
        }
        return live().region(spec);
    }

    /**
     * A view of the latch at {@code offset} of {@code region}, which must be a declared latch
     * position of the region (so that {@link #failCheck()} can find it).
     */
    public Latch latch(Region region, long offset, String name) {
        SharedEnvironment s = live();
        if (!declaresLatch(region, offset)) {
            throw new IllegalArgumentException("offset " + offset + " of region " + region.file()
                    + " is not in a latch array declared in its RegionSpec");
        }
        return new Latch(region.memory(), offset, name, s);
    }

    /**
     * Views of {@code count} latches of {@code region} at {@code first + k * stride} (each a
     * declared latch position, as for {@link #latch}), named {@code name + " " + k}. One look at
     * the region's declared arrays for all of them: a pool of 64k frames attaches its frame
     * latches in milliseconds, not in a tenth of a second.
     */
    public Latch[] latches(Region region, long first, long stride, int count, String name) {
        SharedEnvironment s = live();
        if (count < 0 || stride <= 0 && count > 1) {
            throw new IllegalArgumentException("count " + count + ", stride " + stride);
        }
        LatchArray[] arrays = latchArraysOf(region);
        Latch[] out = new Latch[count];
        for (int k = 0; k < count; k++) {
            long offset = first + stride * k;
            if (!declares(arrays, offset)) {
                throw new IllegalArgumentException("offset " + offset + " of region " + region.file()
                        + " is not in a latch array declared in its RegionSpec");
            }
            out[k] = new Latch(region.memory(), offset, name + " " + k, s);
        }
        return out;
    }

    /**
     * Registers how to repair what the latches {@code latches} (views of this environment's
     * {@code region}, from {@link #latch} or {@link #latches}) guard when a process dies holding
     * one: latch {@code k} of the array is repaired by {@code repair.repair(k, ...)}, by the thread
     * that finds the dead holder (a waiter, or failCheck in this process). Latches without a
     * repair fail the environment when their holder dies. Undone by {@link #forgetRepairs}.
     */
    public void repairLatches(Region region, Latch[] latches, org.libtp.core.sync.LatchRepair repair) {
        SharedEnvironment s = live();
        if (repair == null) {
            throw new IllegalArgumentException("repair must not be null");
        }
        for (int k = 0; k < latches.length; k++) {
            if (!declaresLatch(region, latches[k].offset())) {
                throw new IllegalArgumentException("latch " + latches[k].name() + " is not a declared latch of region "
                        + region.file());
            }
            latches[k].onOwnerDeath(repair, k);
        }
        s.registerRepairable(region, latches);
    }

    /** Undoes {@link #repairLatches} (a manager closing). */
    public void forgetRepairs(Region region, Latch[] latches) {
        for (Latch l : latches) {
            l.onOwnerDeath(null, 0);
        }
        shared.unregisterRepairable(region, latches);
    }

    /** Latches of dead processes this process repaired in place since it attached. */
    public long latchRepairs() {
        return shared.latchRepairs();
    }

    private boolean declaresLatch(Region region, long offset) {
        return declares(latchArraysOf(region), offset);
    }

    private static boolean declares(LatchArray[] arrays, long offset) {
        // The fingerprint covers the declared arrays; the shared state keeps the spec's view.
        for (LatchArray a : arrays) {
            if (a.contains(offset)) {
                return true;
            }
        }
        return false;
    }

    private LatchArray[] latchArraysOf(Region region) {
        return shared.latchArrays(region);
    }

    /** A view of the semaphore at {@code offset} (4-aligned, in the payload) of {@code region}. */
    public SharedSemaphore semaphore(Region region, long offset, String name) {
        SharedEnvironment s = live();
        if (offset < RegionHeader.SIZE || offset > region.size() - SemaphoreLayout.SIZE) {
            throw new IllegalArgumentException("semaphore offset " + offset + " is outside the payload of "
                    + region.file());
        }
        return new SharedSemaphore(region.memory(), offset, name, s);
    }

    /** A view of the broadcast event at {@code offset} (4-aligned, in the payload) of {@code region}. */
    public SharedEvent event(Region region, long offset) {
        SharedEnvironment s = live();
        if (offset < RegionHeader.SIZE || offset > region.size() - SharedEvent.SIZE) {
            throw new IllegalArgumentException("event offset " + offset + " is outside the payload of "
                    + region.file());
        }
        return new SharedEvent(region.memory(), offset, s);
    }

    /** Throws {@link RunRecoveryException} if the environment has failed. */
    public void checkValid() {
        live();
    }

    /**
     * Marks the environment failed, for a manager that met an unrecoverable error (a failed log
     * force): every call in every process then throws the returned exception.
     */
    public RunRecoveryException fail(String reason) {
        return shared.fail(reason);
    }

    /**
     * Finds processes that died without closing the environment. A dead process that held no
     * latch just loses its slot (returned count); one that held a latch fails the environment
     * and this throws {@link RunRecoveryException}. Also runs in the background
     * every {@link RegionEnvironmentConfig#failCheckMillis()}.
     */
    public int failCheck() {
        return live().failCheck();
    }

    /** For tests in this package. */
    SharedEnvironment sharedForTest() {
        return shared;
    }

    /**
     * For tests in this package: this process leaves the environment as if killed — its record
     * locks go (the lock file is closed), nothing is cleaned up, the handle is dead.
     */
    void crashForTest() {
        closed = true;
        shared.crashForTest();
        synchronized (OPEN) {
            OPEN.remove(shared.home());
        }
    }

    /** Registers a manager's {@link FailCheckListener} for this process. */
    public void addFailCheckListener(FailCheckListener listener) {
        live().addListener(listener, 0);
    }

    /**
     * Adds a listener of a kind ({@link FailCheckListener#BUFFER}) whose work no other path does:
     * once any process of the environment has a listener of a kind, a process without one runs
     * its own listeners for a dead process but does not free its slot (what the missing listener
     * gives back would stay behind for good); a process that has it frees the slot.
     */
    public void addFailCheckListener(FailCheckListener listener, int kind) {
        live().addListener(listener, kind);
    }

    public void removeFailCheckListener(FailCheckListener listener) {
        shared.removeListener(listener);
    }

    /**
     * The generation of registry slot {@code slot} if a process holds it now, else -1. A record
     * of (slot, generation) names one attachment of one process, robust to slot reuse.
     */
    public long slotGeneration(int slot) {
        return live().slotGeneration(slot);
    }

    /**
     * False if the process in registry slot {@code slot} is known to be dead (its liveness lock
     * on the lock file is free), even before failCheck has freed its slot. True for this
     * process's own slot, and when liveness cannot be checked.
     */
    public boolean isProcessAlive(int slot) {
        return live().isAlive(slot + 1);
    }

    /** Closes this handle; the last handle of the JVM detaches the process. Idempotent. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        Path real = shared.home();
        Object pathLock;
        synchronized (PATH_LOCKS) {
            pathLock = PATH_LOCKS.computeIfAbsent(real, p -> new Object());
        }
        synchronized (pathLock) {
            shared.release();
            if (shared.isClosed()) {
                synchronized (OPEN) {
                    OPEN.remove(real);
                }
            }
        }
    }

    @Override
    public String toString() {
        return "Environment[" + shared.home() + ", slot " + shared.slot() + (closed ? ", closed" : "") + "]";
    }
}
