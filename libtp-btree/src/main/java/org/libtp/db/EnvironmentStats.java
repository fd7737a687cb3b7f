package org.libtp.db;

import org.libtp.core.log.Lsn;

import java.util.Locale;

/**
 * Statistics of an environment at one moment ({@link Environment#stats()}): read without
 * stopping anyone, so counters that move meanwhile may be a little apart from each other. Some
 * are of the whole environment (every process), some of this process since it opened it; each
 * says which. {@link #toString()} is a readable summary.
 *
 * @param log          the write-ahead log
 * @param locks        the lock manager
 * @param cache        the shared buffer pool
 * @param transactions the transaction manager
 */
public record EnvironmentStats(Log log, Locks locks, Cache cache, Transactions transactions) {

    /**
     * The log. An LSN (log sequence number) is a position in the log: the log file number in the
     * high 32 bits, the byte offset in it in the low 32 ({@code (file,offset)} in toString).
     *
     * @param endLsn            where the next record goes (every process)
     * @param flushedLsn        everything before it is forced to disk (every process)
     * @param forces            forces (fdatasync) of the log this process did
     * @param files             log files in the directory
     * @param firstFile         the oldest log file's number (0 if none)
     * @param lastFile          the newest log file's number (0 if none)
     * @param lastCheckpointLsn the last checkpoint record (0 if none yet)
     * @param forcesAll         forces of the log by every process since the shared regions were created
     * @param meanForceMicros   their mean duration in microseconds (-1 if none): how long a durable
     *                          commit waits for the disk
     */
    public record Log(long endLsn, long flushedLsn, long forces, int files, int firstFile, int lastFile,
                      long lastCheckpointLsn, long forcesAll, double meanForceMicros) {
        @Override
        public String toString() {
            return "log: end " + Lsn.toString(endLsn) + ", flushed " + Lsn.toString(flushedLsn) + ", " + forces
                    + " forces by this process, " + files + " files" + (files > 0 ? " (" + firstFile + ".." + lastFile + ")" : "")
                    + ", last checkpoint " + Lsn.toString(lastCheckpointLsn) + ", " + forcesAll + " forces by every process"
                    + (meanForceMicros >= 0 ? String.format(java.util.Locale.ROOT, " (mean %.0f µs)", meanForceMicros) : "");
        }
    }

    /**
     * The lock manager, every process.
     *
     * @param requests     lock requests since the environment's regions were created
     * @param waits        requests that had to wait
     * @param deadlocks    deadlock victims chosen
     * @param timeouts     requests that timed out
     * @param escalations  database locks taken in place of more page locks
     *                     ({@link EnvironmentConfig#lockEscalationThreshold()})
     * @param locksInUse   lock requests in the table now (granted and waiting)
     * @param maxLocks     the table's capacity ({@link EnvironmentConfig#maxLocks()})
     * @param objectsInUse locked objects (pages) now
     * @param maxObjects   their capacity ({@link EnvironmentConfig#maxLockObjects()})
     */
    public record Locks(long requests, long waits, long deadlocks, long timeouts, long escalations, int locksInUse,
                        int maxLocks, int objectsInUse, int maxObjects) {
        @Override
        public String toString() {
            return "locks: " + requests + " requests, " + waits + " waits, " + deadlocks + " deadlocks, " + timeouts
                    + " timeouts, " + escalations + " escalations; " + locksInUse + " of " + maxLocks + " locks, " + objectsInUse + " of " + maxObjects
                    + " objects in use";
        }
    }

    /**
     * The shared buffer pool (cache of pages). The counters are this process's since it opened
     * the environment; the frame counts are the shared pool's now.
     *
     * @param hits        page requests found in the pool
     * @param misses      page requests not found in the pool
     * @param reads       pages read from files
     * @param writes      pages written to files
     * @param evictions   pages replaced to make room
     * @param frames      page frames in the pool
     * @param dirtyFrames frames changed since they were last written
     * @param pinned      frames in use by an operation now
     * @param imagedWrites page images logged before page writes
     *                    ({@link EnvironmentConfig#tornWriteProtection()}; 0 without it)
     */
    public record Cache(long hits, long misses, long reads, long writes, long evictions, int frames, int dirtyFrames,
                        int pinned, long imagedWrites) {
        /** Hits per request, 0..1 (0 before any request). */
        public double hitRatio() {
            long n = hits + misses;
            return n == 0 ? 0 : (double) hits / n;
        }

        @Override
        public String toString() {
            return String.format(Locale.ROOT, "cache: %d hits, %d misses (%.1f %% hits), %d reads, %d writes, "
                    + "%d evictions, %d page images logged; %d of %d frames dirty, %d pinned", hits, misses,
                    100 * hitRatio(), reads, writes, evictions, imagedWrites, dirtyFrames, frames, pinned);
        }
    }

    /**
     * The transaction manager.
     *
     * @param active          transactions active now, every process
     * @param maxTransactions the capacity ({@link EnvironmentConfig#maxTransactions()})
     * @param begun           transactions this process began (also the ones the library runs
     *                        itself: auto-commit, catalog, page reclamation)
     * @param committed       ... that committed
     * @param aborted         ... that aborted
     */
    public record Transactions(int active, int maxTransactions, long begun, long committed, long aborted) {
        @Override
        public String toString() {
            return "transactions: " + active + " of " + maxTransactions + " active; this process began " + begun
                    + ", committed " + committed + ", aborted " + aborted;
        }
    }

    @Override
    public String toString() {
        return "EnvironmentStats\n  " + log + "\n  " + locks + "\n  " + cache + "\n  " + transactions;
    }
}
