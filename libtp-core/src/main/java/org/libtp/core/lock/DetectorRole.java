package org.libtp.core.lock;

import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import static org.libtp.core.lock.LockLayout.*;

/**
 * The periodic deadlock detector: a daemon thread in every process with
 * {@link LockConfig#detectIntervalMillis()} &gt; 0, of which only the distinguished process runs
 * the pass. The role is a word in region {@code lock} naming (process slot, slot generation).
 */
final class DetectorRole {
    /** The facade's logger: the lock manager logs under one name. */
    private static final Logger LOG = LoggerFactory.getLogger(SharedLockManager.class);
    private final LockTable t;
    private final WaitsForGraph graph;
    private final LockerRelease release;
    private final RegionEnvironment env;
    private final Memory ctl;
    private final LockConfig config;
    private final long detectorWord;
    private final Thread thread;

    DetectorRole(LockTable t, WaitsForGraph graph, LockerRelease release, LockConfig config) {
        this.t = t;
        this.graph = graph;
        this.release = release;
        this.env = t.env;
        this.ctl = t.ctl;
        this.config = config;
        int slot = env.processSlot();
        this.detectorWord = ((long) (slot + 1) << 48) | (env.slotGeneration(slot) & GEN_MASK_48);
        this.thread = config.detectIntervalMillis() > 0
                ? new Thread(this::detectorLoop, "libtp-lock-detector " + env.home()) : null;
    }

    /** Starts the detector thread, if this process has one. */
    void start() {
        if (thread != null) {
            thread.setDaemon(true);
            thread.start();
        }
    }

    /** Stops the detector thread (the manager is closed: it will not start another pass). */
    void stop() {
        if (thread != null) {
            thread.interrupt();
            try {
                thread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }

    /** Gives up the role if this process holds it, so another process's thread takes it at once. */
    void giveUp() {
        try {
            ctl.compareAndSetLong(OFF_DETECTOR, detectorWord, 0);
        } catch (IllegalStateException e) {
            // memory already unmapped (environment closed first): the role dies with the process
        }
    }

    /**
     * Every process's detector thread wakes each interval; only the distinguished process runs
     * a pass. The role is a word naming (process slot, slot generation): a thread takes it (CAS)
     * when it is empty or names a process that is gone (its slot freed by failCheck, or reused).
     */
    void detectorLoop() {
        long period = config.detectIntervalMillis();
        while (!t.closed) {
            try {
                Thread.sleep(period);
            } catch (InterruptedException e) {
                return;
            }
            if (t.closed) {
                return;
            }
            try {
                if (holdsDetectorRole()) {
                    graph.detectPass();
                    release.releaseStaleLockers();
                }
            } catch (RunRecoveryException e) {
                return; // every call now fails; nothing more to detect
            } catch (RuntimeException e) {
                if (t.closed || t.environmentGone()) {
                    return; // closed under us (e.g. the environment before this manager)
                }
                LOG.warn("deadlock detector of {}: {}", env.home(), e.toString());
            }
        }
    }

    boolean holdsDetectorRole() {
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
    int detectorProcessSlot() {
        long cur = ctl.getLongVolatile(OFF_DETECTOR);
        return cur == 0 ? -1 : (int) (cur >>> 48) - 1;
    }
}
