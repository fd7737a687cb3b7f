package org.libtp.core.tp;

import org.libtp.core.log.LogManager.ForceTotals;
import org.libtp.core.log.LogManager;

import java.util.concurrent.locks.LockSupport;
import java.util.function.LongConsumer;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * How fast a hot backup copies: at most {@link BackupConfig#maxBytesPerSecond()} if set, and,
 * when {@link BackupConfig#yieldToCommits()}, no faster than leaves the disk to the processes
 * committing durably.
 *
 * <p>The signal is the mean time of a log force, summed by every process in the log region
 * ({@link LogManager#forceTotals()}): a backup's writes queue on the same disk as the commits'
 * forces and lengthen them. The pacer measures the mean force time without the backup (a
 * {@value #PAUSE_MS} ms pause in the copying, at the start and every {@value #REMEASURE_MS} ms,
 * the copy's writes forced first; the lowest mean measured counts), then adjusts its rate every {@value #WINDOW_MS} ms as TCP does its
 * window (additive increase, multiplicative decrease): halved when forces take more than
 * {@value #SLOWER} times the undisturbed mean (plus {@value #SLACK_MICROS} µs, the noise of a
 * fast disk), raised by {@value #STEP_MB} MB/s otherwise, doubled when nobody forced at all. It
 * never goes below {@value #MIN_MB} MB/s, so a backup always ends.
 */
final class BackupPacer {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(BackupPacer.class);
    static final long WINDOW_MS = 100;
    static final long PAUSE_MS = 100;
    static final long REMEASURE_MS = 3_000;
    static final double SLOWER = 1.25;
    static final double SLACK_MICROS = 50;
    static final long MIN_MB = 4;
    static final long STEP_MB = 16;
    static final long START_MB = 64;
    private static final long MB = 1_000_000L;
    private static final long MAX_RATE = Long.MAX_VALUE / 4;

    private final long cap;
    private final boolean yielding;
    private final Supplier<ForceTotals> forces;
    private final LongSupplier clock;
    private final LongConsumer sleep;
    private Runnable beforePause = () -> { };

    private long rate;
    private long windowStart;
    private long windowBytes;
    private ForceTotals windowForces;
    private double undisturbedMicros = -1;
    private long nextRemeasure;
    private long pausedNanos;

    BackupPacer(BackupConfig config, LogManager log) {
        this(config.maxBytesPerSecond(), config.yieldToCommits(), log::forceTotals, System::nanoTime,
                LockSupport::parkNanos);
    }

    /**
     * @param forces the log's force totals now
     * @param clock  nanoseconds
     * @param sleep  sleeps so many nanoseconds
     */
    BackupPacer(long maxBytesPerSecond, boolean yieldToCommits, Supplier<ForceTotals> forces, LongSupplier clock,
                LongConsumer sleep) {
        this.cap = maxBytesPerSecond <= 0 ? MAX_RATE : maxBytesPerSecond;
        this.yielding = yieldToCommits;
        this.forces = forces;
        this.clock = clock;
        this.sleep = sleep;
        this.rate = yielding ? Math.min(cap, START_MB * MB) : cap;
        this.windowStart = clock.getAsLong();
        this.nextRemeasure = windowStart;
        this.windowForces = yielding ? forces.get() : null;
    }

    /** Runs {@code r} before each measuring pause: the copy forces what it wrote, so the pause is quiet. */
    void beforePause(Runnable r) {
        beforePause = r;
    }

    /** The rate now (bytes per second). */
    long rate() {
        return rate;
    }

    /** The undisturbed mean force time last measured, in microseconds (-1: none yet). */
    double undisturbedMicros() {
        return undisturbedMicros;
    }

    /** Time spent in measuring pauses so far. */
    long pausedNanos() {
        return pausedNanos;
    }

    /** Called with the bytes copied since the last call: sleeps as long as the rate says. */
    void copied(long bytes) {
        if (!yielding && cap == MAX_RATE) {
            return;
        }
        long now = clock.getAsLong();
        if (yielding && now - windowStart >= WINDOW_MS * 1_000_000L) {
            adjust(now); // a new window begins: these bytes are paced in it
            now = clock.getAsLong();
        }
        windowBytes += bytes;
        long due = windowStart + (long) (windowBytes * 1e9 / rate);
        if (due > now) {
            sleep.accept(due - now);
        }
    }

    private void adjust(long now) {
        ForceTotals f = forces.get();
        double mean = f.meanMicrosSince(windowForces);
        if (now >= nextRemeasure) {
            measureUndisturbed();
        } else if (mean < 0) {
            rate = Math.min(cap, rate >= MAX_RATE / 2 ? MAX_RATE : rate * 2); // nobody forces: the disk is ours
        } else if (undisturbedMicros >= 0 && mean > undisturbedMicros * SLOWER + SLACK_MICROS) {
            rate = Math.max(Math.min(cap, MIN_MB * MB), rate / 2);
        } else {
            rate = Math.min(cap, rate + STEP_MB * MB);
        }
        if (LOG.isDebugEnabled()) {
            LOG.debug("backup pace: forces {} µs (undisturbed {} µs), {} MB in the window, next {} MB/s",
                    Math.round(mean), Math.round(undisturbedMicros), windowBytes / MB, rate / MB);
        }
        windowStart = clock.getAsLong();
        windowBytes = 0;
        windowForces = forces.get();
    }

    /** Pauses the copying and measures the mean force time meanwhile. */
    private void measureUndisturbed() {
        long t0 = clock.getAsLong();
        beforePause.run();
        ForceTotals before = forces.get();
        sleep.accept(PAUSE_MS * 1_000_000L);
        double mean = forces.get().meanMicrosSince(before);
        if (mean >= 0) {
            // The lowest measured: a pause can begin while the disk still writes the copy's last
            // bytes, which would make the committers' forces look undisturbed when they are not.
            undisturbedMicros = undisturbedMicros < 0 ? mean : Math.min(undisturbedMicros, mean);
        }
        long t1 = clock.getAsLong();
        pausedNanos += t1 - t0;
        nextRemeasure = t1 + REMEASURE_MS * 1_000_000L;
    }
}
