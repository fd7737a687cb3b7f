package org.libtp.core.env;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.ConfigMismatchException;
import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.memory.Memory;
import org.libtp.core.memory.MemoryFactory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.region.RegionHeader;
import org.libtp.core.sync.Futex;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.LatchLayout;
import org.libtp.core.sync.SyncContext;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.SecureRandom;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.libtp.core.env.EnvLayout.*;

/**
 * The per-JVM state of one open environment: the lock file, the mapped regions and this
 * process's registry slot. Every {@link RegionEnvironment} handle of the same directory in one JVM
 * shares one instance (reference counted): a process has one slot and one lock-file channel per
 * environment, as record locks require.
 *
 * <p>All methods that change the directory, the registry or the lock file are synchronized on
 * this object; across processes they are serialized by the lock file's creation lock.
 */
final class SharedEnvironment implements SyncContext {
    private static final Logger LOG = LoggerFactory.getLogger(SharedEnvironment.class);
    static final String ENV_FILE = "__libtp.env";
    static final String REGION_PREFIX = "__libtp.rgn.";

    private final Path home;
    /** Where the region files are: {@link #home}, or the environment's directory in shared memory. */
    private final Path regionDir;
    /** How the regions are placed (SHM or ENV_DIR), as recorded in the lock file. */
    private final RegionLocation location;
    private final RegionEnvironmentConfig config;
    private final LockFile lockFile;
    private final Region env;
    private final Memory mem;
    private final int maxProcesses;
    private final int maxRegions;
    private final int slot;
    private final FileLock slotLock;
    private final boolean created;
    private final boolean previousUnclean;
    private final Futex futex;
    private final long checkIntervalNanos;
    private final Map<String, Region> regions = new HashMap<>();
    private final ProcessRegistry processes;
    private int refs = 1;
    private volatile boolean closed;

    private SharedEnvironment(Path home, RegionLocation location, RegionEnvironmentConfig config, LockFile lockFile,
                              Region env, int slot, FileLock slotLock, boolean created, boolean previousUnclean) {
        this.home = home;
        this.location = location;
        this.regionDir = location.directory();
        this.config = config;
        this.lockFile = lockFile;
        this.env = env;
        this.mem = env.memory();
        this.maxProcesses = mem.getInt(OFF_MAX_PROCESSES);
        this.maxRegions = mem.getInt(OFF_MAX_REGIONS);
        this.slot = slot;
        this.slotLock = slotLock;
        this.created = created;
        this.previousUnclean = previousUnclean;
        this.futex = config.pollingFutex() ? Futex.polling() : Futex.platform();
        this.checkIntervalNanos = TimeUnit.MILLISECONDS.toNanos(config.latchCheckMillis());
        this.processes = new ProcessRegistry(this, home, lockFile, mem, maxProcesses, maxRegions, slot);
        if (config.failCheckMillis() > 0) {
            processes.startMonitor(config.failCheckMillis());
        }
    }

    // ---------------------------------------------------------------- attach / detach

    /** Creates or attaches the environment in {@code home} (a real path) for this process. */
    static SharedEnvironment attach(Path home, RegionEnvironmentConfig config) {
        LockFile lockFile;
        try {
            lockFile = LockFile.open(home);
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot open lock file " + home.resolve(LockFile.NAME)
                    + " for writing (" + e + "); the environment directory must be writable", e);
        }
        try {
            lockFile.lockCreation();
            try {
                return attachLocked(home, config, lockFile);
            } finally {
                lockFile.unlockCreation();
            }
        } catch (IOException e) {
            closeQuietly(lockFile);
            throw new EnvironmentAccessException("I/O error opening environment " + home + ": " + e, e);
        } catch (RuntimeException | Error e) {
            closeQuietly(lockFile);
            throw e;
        }
    }

    private static SharedEnvironment attachLocked(Path home, RegionEnvironmentConfig config, LockFile lockFile)
            throws IOException {
        RegionLocation recorded = lockFile.readLocation();
        boolean copiedOpen = false;
        if (recorded != null && !RegionDirectories.belongsTo(recorded.directory(), recorded.placement(), home)) {
            // A lock file copied with the directory names the original's regions: leave them to
            // it (rebuilding or removing them would wreck a running original) and treat this
            // copy as the original was at the copy: not closed cleanly if it was open.
            LOG.warn("the lock file of {} names shared regions in {}, which belong to another environment directory "
                    + "(this one was copied from it{}); they are left alone", home, recorded.directory(),
                    recorded.open() ? " while it was open: recovery runs" : "");
            copiedOpen = recorded.open();
            recorded = null;
        }
        // An environment created before the location was recorded keeps its regions in home.
        RegionLocation current = recorded != null ? recorded
                : new RegionLocation(false, RegionPlacement.ENV_DIR, 0, 0, home);
        // Alone: no process holds a liveness byte of the lock file (under the creation lock,
        // attaching and detaching processes take and drop theirs), whatever the regions say.
        boolean alone = lockFile.noSlotHeld();
        Path envFile = current.directory().resolve(ENV_FILE);
        Region env = null;
        int previousFlags = 0;
        boolean regionsFound = false;
        if (alone) {
            try {
                if (Files.exists(envFile)) {
                    ByteBuffer h = Region.readHeader(envFile, RegionHeader.KIND_ENV, FINGERPRINT);
                    previousFlags = h.getInt(RegionHeader.OFF_FLAGS);
                    regionsFound = true;
                    if (h.getInt(RegionHeader.OFF_STATE) != RegionHeader.STATE_READY) {
                        // Cannot happen with rename-into-place, but if it does its creator died
                        // holding the creation lock: nobody is attached, and the state is unknown.
                        previousFlags |= RegionHeader.FLAG_NEEDS_RECOVERY;
                    }
                }
            } catch (IOException | VersionMismatchException | CorruptionException e) {
                // Leftovers nobody is attached to (another LibTP version's, or damaged): region
                // files hold nothing the data needs, so they are rebuilt, and recovery runs.
                LOG.warn("replacing the unusable environment region left in {}: {}", envFile, e.getMessage());
                previousFlags |= RegionHeader.FLAG_NEEDS_RECOVERY;
                regionsFound = true;
            }
        } else {
            checkPlacement(home, config, current);
            if (!Files.exists(envFile)) {
                throw new EnvironmentAccessException("environment " + home + " is open in other processes with its "
                        + "shared regions in " + current.directory() + ", but " + envFile + " cannot be found or read "
                        + "by this process: every process of an environment must run as the same user on the same "
                        + "machine, and nothing may remove the region files while it is open");
            }
            Region.readHeader(envFile, RegionHeader.KIND_ENV, FINGERPRINT);
            env = Region.attach(envFile, RegionHeader.KIND_ENV, FINGERPRINT, config.memory());
        }
        boolean created = false;
        boolean previousUnclean = false;
        if (alone) {
            // The regions are gone (a machine restart) while the record says they were in use:
            // the last run did not end with a clean close either.
            previousUnclean = (previousFlags & (RegionHeader.FLAG_NEEDS_RECOVERY | RegionHeader.FLAG_FAILED)) != 0
                    || !regionsFound && current.open() || copiedOpen;
            if (previousUnclean) {
                LOG.warn("environment {} was not closed cleanly{}; rebuilding its shared regions", home,
                        (previousFlags & RegionHeader.FLAG_FAILED) != 0 ? " (it had failed)" : "");
            }
            RegionLocation chosen = choose(home, config);
            if (previousUnclean && regionsFound) {
                for (String name : KEPT_REGIONS) {
                    keepForSalvage(current.directory(), chosen.directory(), name);
                }
            }
            if (recorded != null && !recorded.directory().equals(chosen.directory())) {
                // The last run's regions were elsewhere (another placement or path): not needed.
                RegionDirectories.remove(recorded.directory(), recorded.placement() == RegionPlacement.SHM, true);
            } else if (recorded == null && !chosen.directory().equals(home)) {
                RegionDirectories.remove(home, false, false); // regions of a LibTP that kept them here
            }
            if (chosen.placement() == RegionPlacement.SHM) {
                RegionDirectories.sweep(chosen.directory().getParent(), chosen.directory());
            }
            long generation = new SecureRandom().nextLong();
            current = new RegionLocation(true, chosen.placement(), generation, System.currentTimeMillis(),
                    chosen.directory());
            try {
                env = createEnvRegion(home, current, lockFile, config);
            } catch (IOException | RuntimeException e) {
                RegionDirectories.remove(current.directory(), current.placement() == RegionPlacement.SHM, false);
                throw e;
            }
            created = true;
        } else {
            if ((env.flags() & RegionHeader.FLAG_FAILED) != 0) {
                String reason = failReason(env.memory());
                env.close();
                throw new RunRecoveryException("environment " + home + " has failed (" + reason
                        + ") and other processes still have it open. Close it in every process, "
                        + "then reopen it to recover.");
            }
            int mp = env.memory().getInt(OFF_MAX_PROCESSES);
            int mr = env.memory().getInt(OFF_MAX_REGIONS);
            if (mp != config.maxProcesses() || mr != config.maxRegions()) {
                LOG.info("environment {} is already open with maxProcesses={}, maxRegions={}; "
                        + "using those instead of this process's {}, {}", home, mp, mr,
                        config.maxProcesses(), config.maxRegions());
            }
        }
        try {
            Memory m = env.memory();
            int maxProcesses = m.getInt(OFF_MAX_PROCESSES);
            int maxRegions = m.getInt(OFF_MAX_REGIONS);
            for (int s = 0; s < maxProcesses; s++) {
                long at = slotOffset(maxRegions, s);
                if (m.getIntVolatile(at + SLOT_STATE) != SLOT_FREE) {
                    continue;
                }
                FileLock lock = lockFile.tryLockSlot(s);
                if (lock == null) {
                    continue; // its last owner is still releasing it
                }
                ProcessHandle self = ProcessHandle.current();
                m.putLong(at + SLOT_PID, self.pid());
                m.putLong(at + SLOT_START, self.info().startInstant().map(i -> i.toEpochMilli()).orElse(0L));
                m.putLong(at + SLOT_GENERATION, m.getLong(at + SLOT_GENERATION) + 1);
                m.putLong(at + SLOT_ATTACH, System.currentTimeMillis());
                m.putIntVolatile(at + SLOT_STATE, SLOT_BUSY);
                LOG.debug("attached to {} as slot {} (created={}, regions in {})", home, s, created,
                        current.directory());
                return new SharedEnvironment(home, current, config, lockFile, env, s, lock, created, previousUnclean);
            }
            throw new CapacityExceededException("environment " + home + " has all " + maxProcesses
                    + " process slots in use (live or not yet reclaimed by failCheck). Raise "
                    + "EnvironmentConfig.maxProcesses, which takes effect when the environment is "
                    + "next created (all processes closed).");
        } catch (RuntimeException | IOException e) {
            env.close();
            if (created) {
                RegionDirectories.remove(current.directory(), current.placement() == RegionPlacement.SHM, true);
                lockFile.writeLocation(current.closed(), false);
            }
            throw e;
        }
    }

    /**
     * Where the creator of new regions puts them, by {@code config}: shared memory where the
     * placement allows and it is usable, else the environment directory.
     *
     * @throws EnvironmentAccessException placement SHM and shared memory is not usable
     */
    private static RegionLocation choose(Path home, RegionEnvironmentConfig config) {
        RegionPlacement p = config.regionPlacement();
        if (p == RegionPlacement.ENV_DIR) {
            return new RegionLocation(true, RegionPlacement.ENV_DIR, 0, 0, home);
        }
        Path shm = config.shmDirectory();
        Path dir = RegionDirectories.shmDirectory(home, shm);
        String problem = RegionDirectories.shmProblem(shm, p == RegionPlacement.SHM);
        if (problem == null) {
            try {
                RegionDirectories.prepare(dir);
            } catch (EnvironmentAccessException e) {
                if (p == RegionPlacement.SHM) {
                    throw e;
                }
                problem = e.getMessage();
            }
        }
        if (problem != null) {
            if (p == RegionPlacement.SHM) {
                throw new EnvironmentAccessException("the shared regions of " + home + " cannot go to shared memory "
                        + "under " + shm + " (EnvironmentConfig.regionPlacement is SHM): " + problem + ". Set "
                        + "EnvironmentConfig.shmDirectory to a writable tmpfs, or the placement to AUTO or ENV_DIR");
            }
            LOG.info("shared regions of {} go to the environment directory: {} (EnvironmentConfig.shmDirectory)",
                    home, problem);
            return new RegionLocation(true, RegionPlacement.ENV_DIR, 0, 0, home);
        }
        return new RegionLocation(true, RegionPlacement.SHM, 0, 0, dir);
    }

    /** As {@link #checkPlacement(Path, RegionEnvironmentConfig, RegionLocation)} for another handle of this JVM. */
    void checkPlacement(RegionEnvironmentConfig other) {
        checkPlacement(home, other, location);
    }

    /**
     * A process attaching to a running environment goes where its regions are; one that asked
     * explicitly for another place is told so.
     */
    private static void checkPlacement(Path home, RegionEnvironmentConfig config, RegionLocation running) {
        RegionPlacement want = config.regionPlacement();
        boolean ok = switch (want) {
            case AUTO -> true;
            case ENV_DIR -> running.placement() == RegionPlacement.ENV_DIR;
            case SHM -> running.placement() == RegionPlacement.SHM
                    && sameDirectory(running.directory().getParent(), config.shmDirectory());
        };
        if (!ok) {
            throw new ConfigMismatchException("environment " + home + " is open in other processes with its shared "
                    + "regions in " + running.directory() + " (" + running.placement() + "), but this process asks for "
                    + (want == RegionPlacement.SHM ? "SHM under " + config.shmDirectory() : want)
                    + " (EnvironmentConfig.regionPlacement / shmDirectory). Every process of an environment must use "
                    + "the regions its creator placed: open with RegionPlacement.AUTO (which follows them) or the same "
                    + "setting, or close the environment in every process first; nothing was changed");
        }
    }

    /**
     * Regions whose last contents an unclean end keeps, under {@link #KEPT_PREFIX} in the new
     * region directory, for their manager to salvage: the log buffer holds records (NO_SYNC and
     * WRITE_NO_SYNC commits) that every process died before writing.
     */
    static final java.util.Set<String> KEPT_REGIONS = java.util.Set.of("log");
    /** File name prefix of a kept region; not a region file, so no rebuild or removal deletes it. */
    static final String KEPT_PREFIX = "__libtp.kept.";

    /**
     * Before the regions of an unclean end are rebuilt, or removed by a last close that did not
     * attach it: moves region {@code name} (one of {@link #KEPT_REGIONS}) from {@code oldDir} to
     * {@code newDir} as a kept file, unless a kept file is already there (an
     * earlier open died before its manager salvaged it: that one is the older, unsalvaged
     * state, and the region beside it was never used). Failures are logged: what cannot be kept
     * is lost as it was before regions were kept at all, never half-kept.
     */
    private static void keepForSalvage(Path oldDir, Path newDir, String name) {
        Path src = oldDir.resolve(REGION_PREFIX + name);
        Path dst = newDir.resolve(KEPT_PREFIX + name);
        try {
            if (Files.exists(dst) || !Files.exists(src)) {
                return;
            }
            Files.createDirectories(newDir);
            Path tmp = newDir.resolve(KEPT_PREFIX + name + ".new");
            try {
                Files.move(src, tmp, StandardCopyOption.ATOMIC_MOVE);
            } catch (IOException e) {
                Files.copy(src, tmp, StandardCopyOption.REPLACE_EXISTING); // another file system
            }
            Files.move(tmp, dst, StandardCopyOption.ATOMIC_MOVE);
            LOG.debug("kept the {} region of the last run as {} for salvage", name, dst);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not keep the {} region of the last run ({}): records it held that no process "
                    + "wrote to the log are lost", name, e.toString());
        }
    }

    /** The kept region {@code name} of the last run (see {@link #KEPT_REGIONS}), or null. */
    Path keptRegion(String name) {
        Path p = regionDir.resolve(KEPT_PREFIX + name);
        return Files.exists(p) ? p : null;
    }

    /** Deletes the kept region {@code name}: its manager salvaged it, or found nothing to. */
    void discardKeptRegion(String name) throws IOException {
        Files.deleteIfExists(regionDir.resolve(KEPT_PREFIX + name));
    }

    private static boolean sameDirectory(Path a, Path b) {
        if (a == null || b == null) {
            return false;
        }
        try {
            return Files.isSameFile(a, b);
        } catch (IOException e) {
            return a.normalize().equals(b.normalize());
        }
    }

    private static Region createEnvRegion(Path home, RegionLocation location, LockFile lockFile,
                                          RegionEnvironmentConfig config) throws IOException {
        // The new env region replaces the old one by rename, with NEEDS_RECOVERY already set: a
        // crash at any point of this leaves an environment that is reported unclean.
        Path dir = location.directory();
        long generation = location.incarnation();
        ByteBuffer cfg = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
        cfg.putInt(config.maxProcesses()).putInt(config.maxRegions());
        Region env = Region.create(dir.resolve(ENV_FILE), RegionHeader.KIND_ENV,
                regionSize(config.maxRegions(), config.maxProcesses()), FINGERPRINT, cfg.array(),
                generation, config.memory());
        try {
            Memory m = env.memory();
            m.putInt(OFF_MAX_PROCESSES, config.maxProcesses());
            m.putInt(OFF_MAX_REGIONS, config.maxRegions());
            byte[] h = home.toString().getBytes(StandardCharsets.UTF_8);
            if (h.length <= HOME_CAPACITY) {
                m.putBytes(OFF_HOME, h, 0, h.length);
                m.putInt(OFF_HOME_LENGTH, h.length);
            }
            env.setFlags(RegionHeader.FLAG_NEEDS_RECOVERY); // "open"; cleared by a clean last close
            try (DirectoryStream<Path> old = Files.newDirectoryStream(dir, REGION_PREFIX + "*")) {
                for (Path p : old) {
                    Files.deleteIfExists(p); // regions of the old incarnation (not in the new directory)
                }
            }
            // Recorded (and forced) before the region is in place: from now on a crash leaves a
            // lock file that says "open", so the next open knows it was not closed cleanly.
            lockFile.writeLocation(location, true);
            env.markReady();
        } catch (IOException | RuntimeException e) {
            env.abandon();
            throw e;
        }
        LOG.info("created environment regions of {} in {} (incarnation {})", home, dir, Long.toHexString(generation));
        return env;
    }

    synchronized void retain() {
        refs++;
    }

    /** Drops one reference; the last detaches this process. */
    void release() {
        synchronized (this) {
            if (--refs > 0) {
                return;
            }
            closed = true;
        }
        processes.stopMonitor(true);
        synchronized (this) {
            boolean removeRegions = false;
            try {
                lockFile.lockCreation();
                try {
                    mem.putIntVolatile(slotOffset(maxRegions, slot) + SLOT_STATE, SLOT_FREE);
                    lockFile.release(slotLock);
                    if ((env.flags() & RegionHeader.FLAG_FAILED) == 0 && lockFile.noSlotHeld()) {
                        // Clean close of the last process: the regions hold nothing the next
                        // open needs, so they go (a failed environment's stay, to say so).
                        env.clearFlags(RegionHeader.FLAG_NEEDS_RECOVERY);
                        for (Region r : regions.values()) {
                            r.close();
                        }
                        env.close();
                        for (String name : KEPT_REGIONS) {
                            if (!regions.containsKey(name)) {
                                // Not attached here, so not flushed by this close: a process that
                                // died earlier may have left commits in it for the next open.
                                keepForSalvage(regionDir, regionDir, name);
                            }
                        }
                        RegionDirectories.remove(regionDir, location.placement() == RegionPlacement.SHM,
                                location.placement() == RegionPlacement.SHM);
                        lockFile.writeLocation(location.closed(), false);
                        removeRegions = true;
                        LOG.debug("last process closed environment {} cleanly; regions in {} removed", home, regionDir);
                    }
                } finally {
                    lockFile.unlockCreation();
                }
            } catch (IOException | RuntimeException e) {
                LOG.warn("error while detaching from {}: {}", home, e.toString());
            } finally {
                closeQuietly(lockFile);
                if (!removeRegions) {
                    for (Region r : regions.values()) {
                        r.close();
                    }
                    env.close();
                }
            }
        }
    }

    LockFile lockFileForTest() {
        return lockFile;
    }

    /** See {@link RegionEnvironment#crashForTest()}. */
    synchronized void crashForTest() {
        closed = true;
        processes.stopMonitor(false);
        closeQuietly(lockFile);
    }

    private static void closeQuietly(LockFile f) {
        try {
            f.close();
        } catch (IOException e) {
            LOG.debug("closing {}: {}", f.path(), e.toString());
        }
    }

    // ---------------------------------------------------------------- accessors

    Path home() {
        return home;
    }

    Path regionDirectory() {
        return regionDir;
    }

    RegionPlacement regionPlacement() {
        return location.placement();
    }

    RegionEnvironmentConfig config() {
        return config;
    }

    int slot() {
        return slot;
    }

    boolean created() {
        return created;
    }

    boolean previousUnclean() {
        return previousUnclean;
    }

    long incarnation() {
        return env.envGeneration();
    }

    int maxProcesses() {
        return maxProcesses;
    }

    boolean isClosed() {
        return closed;
    }

    // ---------------------------------------------------------------- failure

    boolean isFailed() {
        return (env.flags() & RegionHeader.FLAG_FAILED) != 0;
    }

    @Override
    public void checkValid() {
        if ((mem.getIntVolatile(RegionHeader.OFF_FLAGS) & RegionHeader.FLAG_FAILED) != 0) {
            throw new RunRecoveryException("environment " + home + " has failed: " + failReason(mem)
                    + ". Close every handle in every process, then reopen the environment to recover.");
        }
    }

    /** Marks the environment failed (first reason wins) and returns the exception to throw. */
    RunRecoveryException fail(String reason) {
        if (mem.compareAndSetInt(OFF_FAIL_LOCK, 0, 1)) {
            byte[] b = reason.getBytes(StandardCharsets.UTF_8);
            int n = Math.min(b.length, FAIL_REASON_CAPACITY);
            mem.putBytes(OFF_FAIL_REASON, b, 0, n);
            mem.putIntVolatile(OFF_FAIL_LENGTH, n);
            LOG.error("environment {} failed: {}", home, reason);
        } else {
            // Another thread or process is failing it: let its reason be recorded before this
            // one raises the flag, or everyone reads "reason not recorded yet" (bounded: the
            // winner may have died between the two steps).
            long deadline = System.nanoTime() + 200_000_000L;
            while (mem.getIntVolatile(OFF_FAIL_LENGTH) <= 0 && System.nanoTime() < deadline) {
                Thread.yield();
            }
        }
        env.setFlags(RegionHeader.FLAG_FAILED);
        return new RunRecoveryException("environment " + home + " has failed: " + failReason(mem)
                + ". Close every handle in every process, then reopen the environment to recover.");
    }

    private static String failReason(Memory m) {
        int n = m.getIntVolatile(OFF_FAIL_LENGTH);
        if (n <= 0 || n > FAIL_REASON_CAPACITY) {
            return "reason not recorded yet";
        }
        byte[] b = new byte[n];
        m.getBytes(OFF_FAIL_REASON, b, 0, n);
        return new String(b, StandardCharsets.UTF_8);
    }

    // ---------------------------------------------------------------- SyncContext

    @Override
    public int ownerId() {
        return slot + 1;
    }

    @Override
    public boolean isAlive(int ownerId) {
        return processes.isAlive(ownerId);
    }

    @Override
    public AutoCloseable claimDeadOwner(int ownerId) {
        return processes.claimDeadOwner(ownerId);
    }

    @Override
    public RuntimeException ownerDied(String latchName, int ownerId) {
        return fail(processes.describe(ownerId) + " died holding latch '" + latchName + "'");
    }

    @Override
    public RuntimeException ownerDied(String latchName, int ownerId, String why) {
        return fail(processes.describe(ownerId) + " died holding latch '" + latchName + "', and what it guards "
                + "could not be repaired: " + why);
    }

    @Override
    public String describeOwner(int ownerId) {
        return processes.describe(ownerId);
    }

    @Override
    public void repaired(String latchName, int ownerId) {
        latchRepairs.increment();
        LOG.warn("{} died holding latch '{}' of {}; what it guards was repaired in place, the other processes go on",
                processes.describe(ownerId), latchName, home);
    }

    /** Latches of dead processes repaired in place by this process. */
    long latchRepairs() {
        return latchRepairs.sum();
    }

    private final java.util.concurrent.atomic.LongAdder latchRepairs = new java.util.concurrent.atomic.LongAdder();

    /**
     * Views of latches with a repair, by region, that failCheck uses for latches a dead process
     * holds (a waiter uses its own view's repair). Copy-on-write: read by failCheck under this
     * object's monitor, written by managers opening and closing.
     */
    private volatile Map<Region, List<Latch[]>> repairable = Map.of();

    synchronized void registerRepairable(Region region, Latch[] latches) {
        Map<Region, List<Latch[]>> m = new java.util.IdentityHashMap<>(repairable);
        List<Latch[]> l = new java.util.ArrayList<>(m.getOrDefault(region, List.of()));
        l.add(latches);
        m.put(region, List.copyOf(l));
        repairable = m;
    }

    synchronized void unregisterRepairable(Region region, Latch[] latches) {
        Map<Region, List<Latch[]>> m = new java.util.IdentityHashMap<>(repairable);
        List<Latch[]> l = new java.util.ArrayList<>(m.getOrDefault(region, List.of()));
        l.remove(latches);
        if (l.isEmpty()) {
            m.remove(region);
        } else {
            m.put(region, List.copyOf(l));
        }
        repairable = m;
    }

    /** This process's view with a repair of the latch at {@code offset} of {@code region}, or null. */
    private Latch repairableView(Region region, long offset) {
        for (Latch[] arr : repairable.getOrDefault(region, List.of())) {
            if (arr.length == 0) {
                continue;
            }
            long first = arr[0].offset();
            long stride = arr.length > 1 ? arr[1].offset() - first : 1;
            long k = (offset - first) / stride;
            if (offset >= first && (offset - first) % stride == 0 && k < arr.length && arr[(int) k].repairable()) {
                return arr[(int) k];
            }
        }
        return null;
    }

    @Override
    public long checkIntervalNanos() {
        return checkIntervalNanos;
    }

    @Override
    public Futex futex() {
        return futex;
    }

    // ---------------------------------------------------------------- regions

    /** Creates or attaches the region described by {@code spec}. */
    synchronized Region region(RegionSpec spec) {
        Region r = regions.get(spec.name());
        if (r != null) {
            if (r.fingerprint() != spec.fingerprint()) {
                throw mismatch(spec, r.fingerprint());
            }
            return r;
        }
        try {
            lockFile.lockCreation();
            try {
                checkValid();
                int free = -1;
                for (int i = 0; i < maxRegions; i++) {
                    long e = directoryEntry(i);
                    if (mem.getIntVolatile(e + DIR_STATE) == ENTRY_READY) {
                        if (entryName(i).equals(spec.name())) {
                            long fp = mem.getLong(e + DIR_FINGERPRINT);
                            if (fp != spec.fingerprint() || mem.getLong(e + DIR_SIZE) != spec.size()) {
                                throw mismatch(spec, fp);
                            }
                            r = attachRegion(spec.fileName(), fp);
                            regions.put(spec.name(), r);
                            return r;
                        }
                    } else if (free < 0) {
                        free = i;
                    }
                }
                if (free < 0) {
                    throw new CapacityExceededException("environment " + home + " has all " + maxRegions
                            + " region directory entries in use; raise EnvironmentConfig.maxRegions "
                            + "(takes effect when the environment is next created)");
                }
                r = Region.create(regionDir.resolve(spec.fileName()), RegionHeader.KIND_USER, spec.size(),
                        spec.fingerprint(), new byte[0], env.envGeneration(), config.memory());
                try {
                    r.markReady();
                } catch (IOException | RuntimeException e) {
                    r.abandon();
                    throw e;
                }
                long e = directoryEntry(free);
                byte[] name = spec.name().getBytes(StandardCharsets.UTF_8);
                mem.putInt(e + DIR_NAME_LENGTH, name.length);
                mem.putBytes(e + DIR_NAME, name, 0, name.length);
                mem.putLong(e + DIR_SIZE, spec.size());
                mem.putLong(e + DIR_FINGERPRINT, spec.fingerprint());
                List<LatchArray> arrays = spec.latchArrays();
                mem.putInt(e + DIR_LATCH_ARRAY_COUNT, arrays.size());
                int repairableMask = 0;
                for (int k = 0; k < arrays.size(); k++) {
                    repairableMask |= arrays.get(k).repairable() ? 1 << k : 0;
                }
                mem.putInt(e + DIR_REPAIRABLE, repairableMask);
                for (int k = 0; k < arrays.size(); k++) {
                    long a = e + DIR_LATCH_ARRAYS + (long) DIR_LATCH_ARRAY_SIZE * k;
                    mem.putLong(a, arrays.get(k).offset());
                    mem.putInt(a + 8, arrays.get(k).stride());
                    mem.putInt(a + 12, arrays.get(k).count());
                }
                mem.putIntVolatile(e + DIR_STATE, ENTRY_READY);
                regions.put(spec.name(), r);
                return r;
            } finally {
                lockFile.unlockCreation();
            }
        } catch (IOException e) {
            throw new EnvironmentAccessException("I/O error creating or attaching region " + spec.name()
                    + " in " + home + ": " + e, e);
        }
    }

    /** The latch arrays declared for {@code region} (from the directory). */
    synchronized LatchArray[] latchArrays(Region region) {
        for (int i = 0; i < maxRegions; i++) {
            long e = directoryEntry(i);
            if (mem.getIntVolatile(e + DIR_STATE) == ENTRY_READY && regions.get(entryName(i)) == region) {
                int count = mem.getInt(e + DIR_LATCH_ARRAY_COUNT);
                LatchArray[] out = new LatchArray[count];
                for (int k = 0; k < count; k++) {
                    long a = e + DIR_LATCH_ARRAYS + (long) DIR_LATCH_ARRAY_SIZE * k;
                    out[k] = new LatchArray(mem.getLong(a), mem.getInt(a + 8), mem.getInt(a + 12));
                }
                return out;
            }
        }
        throw new IllegalArgumentException("region " + region.file() + " is not a region of " + home);
    }

    private VersionMismatchException mismatch(RegionSpec spec, long fp) {
        return new VersionMismatchException("region " + spec.name() + " of " + home
                + " exists with fingerprint " + String.format("0x%016x", fp) + ", but this process asks for "
                + String.format("0x%016x", spec.fingerprint()) + " (size " + spec.size()
                + "); every process must use the same RegionSpec");
    }

    private Region attachRegion(String fileName, long fp) throws IOException {
        Region r = Region.attach(regionDir.resolve(fileName), RegionHeader.KIND_USER, fp, config.memory());
        if (r.envGeneration() != env.envGeneration()) {
            r.close();
            throw new CorruptionException("region file " + r.file() + " belongs to incarnation "
                    + Long.toHexString(r.envGeneration()) + " but the environment is incarnation "
                    + Long.toHexString(env.envGeneration()));
        }
        return r;
    }

    private String entryName(int i) {
        long e = directoryEntry(i);
        int n = mem.getInt(e + DIR_NAME_LENGTH);
        byte[] b = new byte[Math.max(0, Math.min(n, DIR_NAME_CAPACITY))];
        mem.getBytes(e + DIR_NAME, b, 0, b.length);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * Repairs the latches dead owner {@code ownerId} holds in any region, through this process's
     * repairs ({@link org.libtp.core.sync.LatchRepair}); returns the first it holds that this
     * process cannot repair (described), or null when it holds none any more, or
     * {@link #REPAIR_ELSEWHERE} if it holds one whose repair this process has not registered but
     * its manager declares (another process repairs it). A repair that fails fails the environment
     * (and throws).
     */
    static final String REPAIR_ELSEWHERE = "(repaired by a process with its manager)";

    String repairLatchesHeldBy(int ownerId) throws IOException {
        for (int i = 0; i < maxRegions; i++) {
            long e = directoryEntry(i);
            if (mem.getIntVolatile(e + DIR_STATE) != ENTRY_READY) {
                continue;
            }
            String name = entryName(i);
            Region r = regions.get(name);
            if (r == null) {
                r = attachRegion(REGION_PREFIX + name, mem.getLong(e + DIR_FINGERPRINT));
                regions.put(name, r);
            }
            Memory rm = r.memory();
            int count = mem.getInt(e + DIR_LATCH_ARRAY_COUNT);
            for (int k = 0; k < count; k++) {
                long a = e + DIR_LATCH_ARRAYS + (long) DIR_LATCH_ARRAY_SIZE * k;
                long off = mem.getLong(a);
                int stride = mem.getInt(a + 8);
                int n = mem.getInt(a + 12);
                for (int j = 0; j < n; j++) {
                    long at = off + (long) stride * j;
                    if (LatchLayout.ownerOf(rm.getIntVolatile(at + LatchLayout.WORD)) == ownerId) {
                        Latch view = repairableView(r, at);
                        if (view == null) {
                            if ((mem.getInt(e + DIR_REPAIRABLE) & (1 << k)) != 0) {
                                return REPAIR_ELSEWHERE;
                            }
                            return "latch #" + j + " at offset " + at + " of region " + name;
                        }
                        view.repairIfHeldBy(ownerId); // false: another thread took it over to repair it
                    }
                }
            }
        }
        return null;
    }
// ---------------------------------------------------------------- processes (ProcessRegistry)

    void addListener(FailCheckListener l, int kind) {
        processes.addListener(l, kind);
    }

    void removeListener(FailCheckListener l) {
        processes.removeListener(l);
    }

    /** The generation of slot {@code s} if it is in use, else -1. */
    long slotGeneration(int s) {
        return processes.slotGeneration(s);
    }

    /**
     * Finds processes that died without closing. A dead process that held no latch only frees
     * its slot; one that held a latch fails the environment. Returns the number of slots freed.
     *
     * @throws RunRecoveryException if the environment is (or is now) failed
     */
    int failCheck() {
        return processes.failCheck();
    }

    /** Slots in use now (BUSY), for statistics and tests. */
    @Override
    public int attachedProcesses() {
        return processes.busySlots();
    }

    /** The attached processes: {slot, pid, attach time ms, alive 1/0} per busy slot. */
    List<long[]> attachedSlots() {
        return processes.attachedSlots();
    }

    int busySlots() {
        return processes.busySlots();
    }

    String memoryKind() {
        return MemoryFactory.resolve(config.memory()).name().toLowerCase();
    }
}
