package org.libtp.core.tp;

import org.junit.jupiter.api.Test;
import org.libtp.core.log.LogManager.ForceTotals;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The backup's pacer on a simulated clock and disk: committers force the log at a steady rate,
 * and each force takes longer the faster the backup writes.
 */
class BackupPacerTest {
    private static final long MB = 1_000_000L;

    /** A disk shared by committers (1,000 forces a second) and the backup. */
    static final class SimDisk {
        long now;
        long forces;
        long forceNanos;
        /** Force time without the backup, and what each MB/s of backup writing adds. */
        final long baseNanos;
        final long nanosPerMbps;
        final boolean committers;
        long bytesThisMilli;
        long sleptTotal;

        SimDisk(long baseNanos, long nanosPerMbps, boolean committers) {
            this.baseNanos = baseNanos;
            this.nanosPerMbps = nanosPerMbps;
            this.committers = committers;
        }

        ForceTotals totals() {
            return new ForceTotals(forces, forceNanos);
        }

        /** Time passes: a force per simulated millisecond, slowed by the backup's recent bytes. */
        void advance(long nanos, long bytes) {
            long millis = Math.max(1, nanos / 1_000_000);
            double mbps = bytes / 1e6 / (nanos / 1e9);
            for (long i = 0; i < millis; i++) {
                if (committers) {
                    forces++;
                    forceNanos += baseNanos + (long) (nanosPerMbps * mbps);
                }
            }
            now += nanos;
        }
    }

    /** Copies {@code total} bytes in chunks of 1 MB, each taking 1 ms of copying; returns seconds taken. */
    private static double copy(BackupPacer p, SimDisk d, long total) {
        long start = d.now;
        for (long done = 0; done < total; done += MB) {
            d.advance(1_000_000, MB);
            p.copied(MB);
        }
        return (d.now - start) / 1e9;
    }

    private static BackupPacer pacer(long cap, boolean yield, SimDisk d) {
        return new BackupPacer(cap, yield, d::totals, () -> d.now, n -> {
            d.sleptTotal += n;
            d.advance(n, 0);
        });
    }

    @Test
    void fullSpeedWithoutLimitNeverSleeps() {
        SimDisk d = new SimDisk(500_000, 10_000, true);
        BackupPacer p = pacer(0, false, d);
        copy(p, d, 2_000 * MB);
        assertEquals(0, d.sleptTotal);
    }

    @Test
    void aFixedLimitIsKept() {
        SimDisk d = new SimDisk(500_000, 10_000, true);
        BackupPacer p = pacer(100 * MB, false, d);
        double s = copy(p, d, 500 * MB);
        assertEquals(5.0, s, 0.1, "500 MB at 100 MB/s");
    }

    @Test
    void nobodyCommittingLetsTheBackupRun() {
        SimDisk d = new SimDisk(500_000, 10_000, false);
        BackupPacer p = pacer(0, true, d);
        double s = copy(p, d, 5_000 * MB);
        // 1 ms per MB is the copy's own speed (1,000 MB/s); the pacer's ramp and pauses cost a little
        assertTrue(s < 6.5, "5,000 MB took " + s + " s with nobody forcing");
        assertTrue(p.rate() >= 1_000 * MB, "pace " + p.rate() / MB + " MB/s");
    }

    @Test
    void forcesThatSlowDownMakeTheBackupYield() {
        // Each MB/s of backup adds 10 µs to a 500 µs force: at its own 1,000 MB/s forces take 10.5 ms.
        SimDisk d = new SimDisk(500_000, 10_000, true);
        BackupPacer p = pacer(0, true, d);
        double s = copy(p, d, 1_000 * MB);
        double mbps = 1_000 / s;
        // 1.25 x 500 + 50 = 675 µs allows 17.5 MB/s; additive increase above it, halving below
        assertTrue(mbps > 5 && mbps < 40, "average pace " + mbps + " MB/s");
        assertEquals(500, p.undisturbedMicros(), 1.0);
        double mean = d.forceNanos / 1e3 / d.forces;
        // AIMD oscillates around the threshold (here between about 16 and 33 MB/s: its step is as large
        // as the equilibrium pace); at its own speed the copy would make forces 21 times slower
        assertTrue(mean < 500 * 1.6, "mean force " + mean + " µs");
    }

    @Test
    void neverSlowerThanTheFloor() {
        // Any backup write makes forces 100 x slower: the pace stays at the floor, and the copy ends.
        SimDisk d = new SimDisk(500_000, 1_000_000, true);
        BackupPacer p = pacer(0, true, d);
        double s = copy(p, d, 100 * MB);
        assertTrue(p.rate() >= BackupPacer.MIN_MB * MB, "pace " + p.rate());
        assertTrue(s < 100.0 / BackupPacer.MIN_MB * 1.2, "100 MB took " + s + " s");
    }

    @Test
    void aFixedLimitCapsTheYieldingPace() {
        SimDisk d = new SimDisk(500_000, 10_000, false);
        BackupPacer p = pacer(20 * MB, true, d);
        double s = copy(p, d, 200 * MB);
        assertEquals(10.0, s, 1.0, "200 MB at most 20 MB/s");
        assertTrue(p.rate() <= 20 * MB);
    }
}
