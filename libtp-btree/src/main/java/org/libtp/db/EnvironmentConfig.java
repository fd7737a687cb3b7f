package org.libtp.db;

import org.libtp.core.env.RegionPlacement;
import org.libtp.core.lock.VictimPolicy;

import java.util.Comparator;
import java.util.HashMap;
import java.util.Map;

/**
 * How to open an {@link Environment}: every setting of the record API, with its default. Immutable;
 * build with {@link #builder()} (or {@link #toBuilder()}); {@link Builder#build()} checks every
 * value and names the one that is wrong.
 *
 * <p>Two kinds of settings. <b>Shared</b> ones size the environment's shared-memory regions and
 * are fixed when the first process to open the environment creates them: later processes must
 * pass equal values (a different one is refused at open with an exception naming the setting or
 * the region, except {@code maxProcesses}, where the running environment's value is used), and a
 * new value takes effect when every process has closed the environment and one opens it again.
 * They are marked "shared" below. The others are chosen by each process for itself.
 *
 * @param mode                  {@link OpenMode} (default {@code TP})
 * @param durability            default commit {@link Durability} in TP mode (default {@code SYNC});
 *                              {@link Environment#beginTransaction(Durability, boolean)} chooses per
 *                              transaction
 * @param readOnly              this process only reads (default false): every write, database
 *                              creation, removal and rename, and every writable transaction throws
 *                              {@link IllegalStateException} naming this setting; reads, read-only
 *                              transactions, cursors and stats work. It does not make the
 *                              directory read-only: the directory must still be writable, LibTP
 *                              creates its region, lock and log files there, and if the environment
 *                              was not closed cleanly the open still runs recovery (which writes
 *                              the log and data files) before returning. Other processes may write
 *                              meanwhile
 * @param pageSize              shared: bytes per page of the buffer pool and of every database, a power
 *                              of two in [512, 65536] (default 4096). Also bounds keys: see
 *                              {@link Database#maxKeyLength()}
 * @param cacheBytes            shared: bytes of the shared buffer pool (the cache of database pages,
 *                              one for all processes), 16 to 16M pages (default 64 MiB)
 * @param maxFiles              shared: data files the environment can register, 1..65536 (default 256):
 *                              the catalog and every database created use one each, also after the
 *                              database is removed (its file is not reclaimed yet)
 * @param logFileSize           shared: bytes per log file, preallocated, 64 KiB..1 GiB (default 10 MiB).
 *                              Files recovery no longer needs are removed after checkpoints unless
 *                              {@code keepLogFiles}
 * @param logBufferSize         shared: bytes of the shared log buffer, in [max(16 KiB, 4 pages),
 *                              logFileSize / 2] (default 1 MiB); also the largest log record
 * @param checkpointBytes       a checkpoint is taken once this many bytes of log have been written since
 *                              the last one (0 = never by size; default 32 MiB). Bounds the log
 *                              that recovery reads and redoes after a crash
 * @param checkpointSeconds     ... or once this many seconds have passed since the last one (0 = never
 *                              by time; default 60). The checkpoint that ends recovery writes no pages
 *                              (the next one writes what recovery changed) unless recovery redid more
 *                              than two intervals of log
 * @param maxTransactions       shared: transactions active at once, all processes together, 1..65536
 *                              (default 256); one more throws {@link org.libtp.core.CapacityExceededException}
 * @param maxProcesses          shared: processes that may have the environment open at once, 1..4096
 *                              (default 64)
 * @param maxLocks              shared: lock requests (granted or waiting) the lock table holds, all
 *                              transactions together, 1..16M (default 20000); a transaction holds
 *                              about one per page it reads or writes. One more throws
 *                              {@link org.libtp.core.CapacityExceededException}
 * @param maxLockObjects        shared: distinct locked pages at once, 1..16M (default 20000)
 * @param lockTimeoutMillis     milliseconds a lock request waits before it throws
 *                              {@link org.libtp.core.LockTimeoutException} (0 = forever; default 10000,
 *                              10 seconds). Deadlocks do not need it: they are detected as soon as a
 *                              request blocks and the victim gets a {@link org.libtp.core.DeadlockException}
 *                              at once. The timeout only ends a wait behind a holder that is alive but
 *                              stuck, typically a transaction some thread forgot to commit or abort.
 *                              Ten seconds is far above any lock wait of a healthy workload (they last
 *                              microseconds to milliseconds), and it turns what would be a silent hang
 *                              into an exception naming the lock
 * @param deadlockVictim        which transaction of a deadlock is aborted (default
 *                              {@link VictimPolicy#YOUNGEST}, the one that began last)
 * @param deadlockDetectIntervalMillis milliseconds between runs of the periodic deadlock detector, which
 *                              catches cycles that the check when a request blocks cannot see (0 = this
 *                              process never runs it; else 10..3600000; default 1000). One process at
 *                              a time runs it
 * @param earlyLockRelease      TP mode: a committing transaction's locks are released once its
 *                              commit record is in the shared log buffer, and the commit returns
 *                              after the force, as its durability says (default false). Hot records
 *                              then see more than one commit per disk force; read-only transactions
 *                              wait at commit until what they may have read is durable
 * @param maxTransactionAttempts {@link Environment#runInTransaction} and
 *                              {@link Environment#inTransaction}: attempts of a transaction that ends
 *                              in a deadlock or lock timeout before the exception reaches the caller,
 *                              1..1000 (default 10)
 * @param maxRetryDelayMillis   ... and the longest pause before a retry, 0..60000 (default 100): the
 *                              pause doubles from 1 ms up to this, each a random fraction of it, so
 *                              that the transactions of a deadlock do not meet again in step
 * @param reopenTimeoutMillis   how long this handle may take to reopen the environment after it failed
 *                              (a process died where its work cannot be repaired in place), 0..600000
 *                              (default 30000; 0: no transparent reopen). The handle detaches, waits
 *                              until every other process has too, lets the first reopener recover
 *                              and attaches again; {@code Database} handles and the handle itself
 *                              stay valid. A transaction in flight (and a cursor reading in it)
 *                              gets an {@link org.libtp.core.EnvironmentReopenedException} (retry
 *                              it; {@link Environment#inTransaction} does); an idle handle notices
 *                              the failure within 100 ms. If the reopen does not succeed in time
 *                              (another process keeps the failed environment open), operations
 *                              throw {@code RunRecoveryException} and the handle tries again at
 *                              the next one
 * @param keepLogFiles          keep the log files recovery no longer needs (default false: they are
 *                              removed after each checkpoint, so the log takes a few files). True keeps
 *                              them for backups and catastrophic recovery until the application
 *                              removes them ({@link Environment#archivableLogFiles()},
 *                              {@link Environment#removeArchivableLogFiles()}); the directory then grows
 *                              with every write
 * @param tornWriteProtection   shared: before a database page is written to its file, its whole image is
 *                              logged and forced (default true), so that recovery rewrites a page whose
 *                              write a power loss or OS crash tore (left half old, half new). It costs a
 *                              page of log per page write (pages are written at checkpoints and when
 *                              the cache evicts them), not a commit's. Turn it off only where page
 *                              writes are atomic (a copy-on-write file system such as ZFS or btrfs, a
 *                              device with atomic writes of the page size): a torn page is then a
 *                              {@link org.libtp.core.CorruptionException} after such a crash, and the
 *                              database must be restored from a backup. Does not matter for kill -9,
 *                              which never tears a write the kernel accepted
 * @param lockEscalationThreshold page locks one transaction takes in one database before it locks the
 *                              whole database instead and takes no more page locks there (default
 *                              1000; 0 = never): a scan of any size in one transaction then fits the
 *                              lock table, while writers of that database wait for the scan to end (and
 *                              a full lock table escalates too)
 * @param regionPlacement       where the shared memory of the processes lives (null, the default: the
 *                              system property {@code libtp.regions}, else AUTO: a directory under
 *                              {@code /dev/shm} where it is a tmpfs with room, else the environment
 *                              directory); see {@link RegionPlacement}. The first
 *                              process decides; later ones follow it unless they ask for another
 *                              placement explicitly ({@link org.libtp.core.ConfigMismatchException})
 * @param shmDirectory          the tmpfs under which SHM placement makes the region directory (null,
 *                              the default: {@code /dev/shm}, or the system property
 *                              {@code libtp.shmDirectory})
 * @param keyOrders             named key orders (comparators) that B-tree databases may use
 *                              ({@link DatabaseConfig#keyOrder()}); default none. A database records
 *                              the name of its order; every process that opens the environment must
 *                              register the same orders under the same names, because recovery and
 *                              rollback need them before any database is opened
 */
public record EnvironmentConfig(OpenMode mode, Durability durability, boolean readOnly, int pageSize, long cacheBytes,
                                int maxFiles, long logFileSize, int logBufferSize, long checkpointBytes,
                                long checkpointSeconds, int maxTransactions, int maxProcesses, int maxLocks,
                                int maxLockObjects, long lockTimeoutMillis, VictimPolicy deadlockVictim,
                                long deadlockDetectIntervalMillis, boolean earlyLockRelease,
                                int maxTransactionAttempts, long maxRetryDelayMillis, long reopenTimeoutMillis, boolean keepLogFiles,
                                boolean tornWriteProtection, int lockEscalationThreshold, RegionPlacement regionPlacement,
                                java.nio.file.Path shmDirectory, Map<String, Comparator<byte[]>> keyOrders) {
    /** Default {@link #lockTimeoutMillis()}: 10 seconds. */
    public static final long DEFAULT_LOCK_TIMEOUT_MILLIS = 10_000;
    /** Default {@link #maxTransactionAttempts()}. */
    public static final int DEFAULT_TRANSACTION_ATTEMPTS = 10;
    /** Default {@link #reopenTimeoutMillis()}: 30 seconds. */
    public static final long DEFAULT_REOPEN_TIMEOUT_MILLIS = 30_000;

    public EnvironmentConfig {
        if (mode == null) {
            throw new IllegalArgumentException("mode must not be null");
        }
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        if (deadlockVictim == null) {
            throw new IllegalArgumentException("deadlockVictim must not be null");
        }
        if (keyOrders == null) {
            throw new IllegalArgumentException("keyOrders must not be null");
        }
        keyOrders = Map.copyOf(keyOrders);
        for (Map.Entry<String, Comparator<byte[]>> e : keyOrders.entrySet()) {
            DatabaseConfig.checkOrderName(e.getKey());
        }
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new IllegalArgumentException("pageSize " + pageSize + " must be a power of two in [512, 65536]");
        }
        if (cacheBytes / pageSize < 16 || cacheBytes / pageSize > (1 << 24)) {
            throw new IllegalArgumentException("cacheBytes " + cacheBytes + " must hold 16 to 16M pages of "
                    + pageSize + " bytes");
        }
        range("maxFiles", maxFiles, 1, 65536);
        range("logFileSize", logFileSize, 64 * 1024, 1L << 30);
        long minBuffer = Math.max(16 * 1024, 4L * pageSize);
        if (logBufferSize < minBuffer || logBufferSize > logFileSize / 2) {
            throw new IllegalArgumentException("logBufferSize " + logBufferSize + " must be in [" + minBuffer
                    + ", logFileSize / 2 = " + logFileSize / 2 + "]: at least 16 KiB and four pages (a log "
                    + "record holds up to a page before and after a change)");
        }
        range("checkpointBytes", checkpointBytes, 0, Long.MAX_VALUE);
        range("checkpointSeconds", checkpointSeconds, 0, Long.MAX_VALUE);
        range("maxTransactions", maxTransactions, 1, 65536);
        range("maxProcesses", maxProcesses, 1, 4096);
        range("maxLocks", maxLocks, 1, 1 << 24);
        range("maxLockObjects", maxLockObjects, 1, 1 << 24);
        range("lockTimeoutMillis", lockTimeoutMillis, 0, Long.MAX_VALUE);
        if (deadlockDetectIntervalMillis != 0 && (deadlockDetectIntervalMillis < 10 || deadlockDetectIntervalMillis > 3_600_000)) {
            throw new IllegalArgumentException("deadlockDetectIntervalMillis " + deadlockDetectIntervalMillis
                    + " must be 0 (this process never runs the periodic detector) or in [10, 3600000]");
        }
        range("maxTransactionAttempts", maxTransactionAttempts, 1, 1000);
        range("maxRetryDelayMillis", maxRetryDelayMillis, 0, 60_000);
        range("reopenTimeoutMillis", reopenTimeoutMillis, 0, 600_000);
        range("lockEscalationThreshold", lockEscalationThreshold, 0, Integer.MAX_VALUE);
    }

    private static void range(String name, long v, long min, long max) {
        if (v < min || v > max) {
            throw new IllegalArgumentException(name + " " + v + " not in [" + min + ", "
                    + (max == Long.MAX_VALUE ? "2^63-1" : Long.toString(max)) + "]");
        }
    }

    public static EnvironmentConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this configuration's values. */
    public Builder toBuilder() {
        Builder b = new Builder().mode(mode).durability(durability).readOnly(readOnly).pageSize(pageSize)
                .cacheBytes(cacheBytes).maxFiles(maxFiles).logFileSize(logFileSize).logBufferSize(logBufferSize)
                .checkpointBytes(checkpointBytes).checkpointSeconds(checkpointSeconds)
                .maxTransactions(maxTransactions).maxProcesses(maxProcesses).maxLocks(maxLocks)
                .maxLockObjects(maxLockObjects).lockTimeoutMillis(lockTimeoutMillis).deadlockVictim(deadlockVictim)
                .deadlockDetectIntervalMillis(deadlockDetectIntervalMillis).earlyLockRelease(earlyLockRelease)
                .maxTransactionAttempts(maxTransactionAttempts).maxRetryDelayMillis(maxRetryDelayMillis).reopenTimeoutMillis(reopenTimeoutMillis)
                .keepLogFiles(keepLogFiles).tornWriteProtection(tornWriteProtection)
                .lockEscalationThreshold(lockEscalationThreshold)
                .regionPlacement(regionPlacement).shmDirectory(shmDirectory);
        keyOrders.forEach(b::keyOrder);
        return b;
    }

    /** Mutable builder; {@link #build()} validates. The defaults are those of the record's components. */
    public static final class Builder {
        private OpenMode mode = OpenMode.TP;
        private Durability durability = Durability.SYNC;
        private boolean readOnly;
        private int pageSize = 4096;
        private long cacheBytes = 64L << 20;
        private int maxFiles = 256;
        private long logFileSize = 10L << 20;
        private int logBufferSize = 1 << 20;
        private long checkpointBytes = 32L << 20;
        private long checkpointSeconds = 60;
        private int maxTransactions = 256;
        private int maxProcesses = 64;
        private int maxLocks = 20_000;
        private int maxLockObjects = 20_000;
        private long lockTimeoutMillis = DEFAULT_LOCK_TIMEOUT_MILLIS;
        private VictimPolicy deadlockVictim = VictimPolicy.YOUNGEST;
        private long deadlockDetectIntervalMillis = 1000;
        private boolean earlyLockRelease;
        private int maxTransactionAttempts = DEFAULT_TRANSACTION_ATTEMPTS;
        private long maxRetryDelayMillis = 100;
        private long reopenTimeoutMillis = DEFAULT_REOPEN_TIMEOUT_MILLIS;
        private boolean keepLogFiles;
        private boolean tornWriteProtection = true;
        private int lockEscalationThreshold = 1000;
        private RegionPlacement regionPlacement;
        private java.nio.file.Path shmDirectory;

        /** Where the shared regions live (null: the system property, else AUTO). */
        public Builder regionPlacement(RegionPlacement v) {
            regionPlacement = v;
            return this;
        }

        /** The tmpfs for SHM placement (null: /dev/shm or the system property). */
        public Builder shmDirectory(java.nio.file.Path v) {
            shmDirectory = v;
            return this;
        }

        public Builder tornWriteProtection(boolean v) {
            tornWriteProtection = v;
            return this;
        }

        public Builder keepLogFiles(boolean v) {
            keepLogFiles = v;
            return this;
        }

        public Builder lockEscalationThreshold(int v) {
            lockEscalationThreshold = v;
            return this;
        }
        private final Map<String, Comparator<byte[]>> keyOrders = new HashMap<>();

        public Builder mode(OpenMode v) {
            mode = v;
            return this;
        }

        public Builder durability(Durability v) {
            durability = v;
            return this;
        }

        public Builder readOnly(boolean v) {
            readOnly = v;
            return this;
        }

        public Builder pageSize(int v) {
            pageSize = v;
            return this;
        }

        public Builder cacheBytes(long v) {
            cacheBytes = v;
            return this;
        }

        public Builder maxFiles(int v) {
            maxFiles = v;
            return this;
        }

        public Builder logFileSize(long v) {
            logFileSize = v;
            return this;
        }

        public Builder logBufferSize(int v) {
            logBufferSize = v;
            return this;
        }

        public Builder checkpointBytes(long v) {
            checkpointBytes = v;
            return this;
        }

        public Builder checkpointSeconds(long v) {
            checkpointSeconds = v;
            return this;
        }

        public Builder maxTransactions(int v) {
            maxTransactions = v;
            return this;
        }

        public Builder maxProcesses(int v) {
            maxProcesses = v;
            return this;
        }

        public Builder maxLocks(int v) {
            maxLocks = v;
            return this;
        }

        public Builder maxLockObjects(int v) {
            maxLockObjects = v;
            return this;
        }

        /** 0 waits forever; see {@link EnvironmentConfig#lockTimeoutMillis()} for why the default is 10 s. */
        public Builder lockTimeoutMillis(long v) {
            lockTimeoutMillis = v;
            return this;
        }

        public Builder deadlockVictim(VictimPolicy v) {
            deadlockVictim = v;
            return this;
        }

        public Builder deadlockDetectIntervalMillis(long v) {
            deadlockDetectIntervalMillis = v;
            return this;
        }

        public Builder earlyLockRelease(boolean v) {
            earlyLockRelease = v;
            return this;
        }

        public Builder maxTransactionAttempts(int v) {
            maxTransactionAttempts = v;
            return this;
        }

        public Builder maxRetryDelayMillis(long v) {
            maxRetryDelayMillis = v;
            return this;
        }

        /** 0 turns transparent reopen off; see {@link EnvironmentConfig#reopenTimeoutMillis()}. */
        public Builder reopenTimeoutMillis(long v) {
            reopenTimeoutMillis = v;
            return this;
        }

        /** Registers key order {@code name} (1..64 characters of [A-Za-z0-9_.-]). */
        public Builder keyOrder(String name, Comparator<byte[]> order) {
            DatabaseConfig.checkOrderName(name);
            if (order == null) {
                throw new IllegalArgumentException("key order " + name + " must not be null");
            }
            keyOrders.put(name, order);
            return this;
        }

        public EnvironmentConfig build() {
            return new EnvironmentConfig(mode, durability, readOnly, pageSize, cacheBytes, maxFiles, logFileSize,
                    logBufferSize, checkpointBytes, checkpointSeconds, maxTransactions, maxProcesses, maxLocks,
                    maxLockObjects, lockTimeoutMillis, deadlockVictim, deadlockDetectIntervalMillis, earlyLockRelease,
                    maxTransactionAttempts, maxRetryDelayMillis, reopenTimeoutMillis, keepLogFiles, tornWriteProtection, lockEscalationThreshold,
                    regionPlacement,
                    shmDirectory, keyOrders);
        }
    }
}
