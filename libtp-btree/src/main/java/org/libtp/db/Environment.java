package org.libtp.db;

import org.libtp.btree.AccessMethods;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.DeadlockException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.EnvironmentReopenedException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.buffer.BufferStats;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.lock.LockStats;
import org.libtp.core.lock.LockTableSnapshot;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.LogManager;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.tp.BackupConfig;
import org.libtp.core.tp.HotBackup;
import org.libtp.core.tp.Repair;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.TransactionManager;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Function;

/**
 * An environment: a directory of databases shared by every thread and process that opens it,
 * in one of the paper's {@link OpenMode}s. Opening it after a crash runs recovery first
 * ({@link #wasRecovered()}). Thread-safe; open it once per process (opening it again in the same
 * process works too) and close it when done.
 *
 * <p>If the environment fails (a process died where its work cannot be repaired in place, or a
 * log force failed), this handle reopens it by itself: it waits until no thread of this process
 * is inside one of its calls, detaches, and opens again until every other process has detached
 * too; the first to open runs recovery. This handle and its {@link Database}s stay valid; a
 * transaction that was active gets {@link org.libtp.core.EnvironmentReopenedException} (retry
 * it; {@link #runInTransaction} does). See {@link EnvironmentConfig#reopenTimeoutMillis()}.
 *
 * <pre>{@code
 * try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
 *      Database db = env.openDatabase(null, "accounts", DatabaseConfig.builder().allowCreate(true).build())) {
 *     env.runInTransaction(t -> {              // commits; retries deadlock victims
 *         db.put(t, key, value);
 *     });
 *     try (Transaction t = env.beginTransaction()) { // or by hand: not committed = aborted at close
 *         db.put(t, key, value);
 *         t.commit();
 *     }
 *     try (CursorIterable it = db.entries(null, KeyRange.atLeast(key))) {
 *         for (Entry e : it) { ... }
 *     }
 * }
 * }</pre>
 */
public final class Environment implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(Environment.class);
    /*
     * The managers of the current incarnation: replaced together by a reopen, only while no
     * thread of this JVM is inside an operation of this handle (the gate is closed and drained),
     * so an operation never mixes two incarnations' managers.
     */
    volatile TxnEnvironment tp;
    volatile AccessMethods am;
    volatile Catalog catalog;
    /** Counts the reopens: a Transaction, Database binding or Cursor of an older one is stale. */
    volatile long incarnation;
    final EnvironmentConfig config;
    private final Path home;
    private final Storage storage;
    /** Opened by {@link #join}: a reopen joins too. */
    private final boolean joined;
    private final Set<Database> open = ConcurrentHashMap.newKeySet();
    /** Transactions begun through this handle and not yet ended: close() aborts them. */
    private final Set<Transaction> active = ConcurrentHashMap.newKeySet();
    private volatile boolean closed;
    /** close() has begun: a failure met while closing is not reopened. */
    private volatile boolean closing;
    private final Gate gate = new Gate();
    private final Object reopenLock = new Object();
    /** Set when a reopen did not succeed in time: what operations throw until one does. */
    private volatile RunRecoveryException broken;
    private volatile java.util.concurrent.ScheduledFuture<?> watch;
    /** The watcher has a reopen thread running. */
    private final java.util.concurrent.atomic.AtomicBoolean reopening = new java.util.concurrent.atomic.AtomicBoolean();

    private Environment(TxnEnvironment tp, EnvironmentConfig config, Storage storage, boolean joined) {
        this.tp = tp;
        this.config = config;
        this.storage = storage;
        this.joined = joined;
        this.home = tp.env().home();
        this.am = new AccessMethods(tp, config.keyOrders()::get);
        this.catalog = new Catalog(this);
    }

    /**
     * Opens the environment in directory {@code dir}, which must exist (LibTP does not create
     * it: a mistyped path would otherwise become a new, empty environment). A directory without
     * an environment gets a new one. If the environment was not closed cleanly, recovery runs
     * before this returns ({@link #wasRecovered()}).
     *
     * @throws org.libtp.core.EnvironmentAccessException if {@code dir} does not exist, is not a
     *         directory or is not writable (the message names the path), or on an I/O error
     * @throws org.libtp.core.VersionMismatchException if the directory was written by an
     *         incompatible LibTP
     * @throws org.libtp.core.CorruptionException if a file of the environment is damaged
     * @throws org.libtp.core.RunRecoveryException if the environment has failed and another
     *         process still has it open after {@link EnvironmentConfig#reopenTimeoutMillis()}
     *         (the others reopen it by themselves within about a second; one that does not — a
     *         handle with reopening off — must be closed). With reopening off, at once
     * @throws org.libtp.core.CapacityExceededException if {@link EnvironmentConfig#maxProcesses()}
     *         processes have it open already
     * @throws org.libtp.core.ConfigMismatchException if another process has the environment open
     *         in another {@link OpenMode} or with another size setting (the message names each
     *         setting with the running value)
     */
    public static Environment open(Path dir, EnvironmentConfig config) {
        if (dir == null || config == null) {
            throw new IllegalArgumentException("directory and config must not be null");
        }
        return open(dir, config, new FileStorage(dir));
    }

    /**
     * Opens as {@link #open(Path, EnvironmentConfig)} does, but where other processes have the
     * environment open, with their shared settings (open mode, page size, cache size, table
     * sizes, log file and buffer sizes, torn-write protection) in place of {@code config}'s
     * instead of a {@link org.libtp.core.ConfigMismatchException} (Berkeley DB's
     * {@code DB_JOINENV}). For tools and monitors that attach to a running application without
     * knowing its settings; alone, {@code config} applies. {@link #config()} tells what was used.
     */
    public static Environment join(Path dir, EnvironmentConfig config) {
        if (dir == null || config == null) {
            throw new IllegalArgumentException("directory and config must not be null");
        }
        return open(dir, config, new FileStorage(dir), true);
    }

    /** Opens with the given storage for the durable files (crash tests inject faults through it). */
    static Environment open(Path dir, EnvironmentConfig config, Storage storage) {
        return open(dir, config, storage, false);
    }

    private static Environment open(Path dir, EnvironmentConfig requested, Storage storage,
                                    boolean adopt) {
        Object[] opened;
        long deadline = System.nanoTime() + requested.reopenTimeoutMillis() * 1_000_000L;
        for (;;) {
            try {
                opened = attach(dir, requested, storage, adopt);
                break;
            } catch (RunRecoveryException e) {
                // Failed, and other processes still have it open: they are detaching to reopen it.
                if (requested.reopenTimeoutMillis() == 0 || System.nanoTime() - deadline > 0
                        || Thread.currentThread().isInterrupted()) {
                    throw e;
                }
                java.util.concurrent.locks.LockSupport.parkNanos(20_000_000L);
            }
        }
        TxnEnvironment tp = (TxnEnvironment) opened[0];
        try {
            Environment env = new Environment(tp, (EnvironmentConfig) opened[1], storage, adopt);
            env.catalog.open();
            env.startWatch();
            return env;
        } catch (RuntimeException e) {
            tp.close();
            throw e;
        }
    }

    /** Attaches the managers: {TxnEnvironment, the EnvironmentConfig in force}. */
    private static Object[] attach(Path dir, EnvironmentConfig requested, Storage storage, boolean adopt) {
        RegionEnvironmentConfig.Builder core =
                RegionEnvironmentConfig.builder().maxProcesses(requested.maxProcesses());
        if (requested.regionPlacement() != null) {
            core.regionPlacement(requested.regionPlacement());
        }
        if (requested.shmDirectory() != null) {
            core.shmDirectory(requested.shmDirectory());
        }
        RegionEnvironmentConfig coreConfig = core.build();
        // The settings all processes must share are checked before any manager attaches. The
        // guard handle shares the process's attachment with the one TxnEnvironment opens and stays
        // open until that one is: were it the last, closing it would detach, and the next attach,
        // alone, would rebuild the regions (and forget the recorded settings).
        TxnEnvironment tp;
        EnvironmentConfig config;
        try (RegionEnvironment guard = RegionEnvironment.open(dir, coreConfig)) {
            config = adopt ? OpenSettings.adopt(guard, requested) : requested;
            OpenSettings.checkOrRecord(guard, config);
            EnvironmentConfig c = config;
            tp = TxnEnvironment.open(dir, coreConfig,
                LogConfig.builder().fileSize(config.logFileSize()).bufferSize(config.logBufferSize())
                        .autoRemove(!config.keepLogFiles()).build(),
                TxnConfig.builder().maxTransactions(config.maxTransactions()).durability(config.durability().core())
                        .checkpointBytes(config.checkpointBytes()).checkpointSeconds(config.checkpointSeconds())
                        .earlyLockRelease(config.earlyLockRelease()).build(),
                BufferConfig.builder().pageSize(config.pageSize()).poolBytes(config.cacheBytes())
                        .maxFiles(config.maxFiles()).tornWriteProtection(config.tornWriteProtection()).build(),
                LockConfig.builder().maxLocks(config.maxLocks()).maxObjects(config.maxLockObjects())
                        .lockTimeoutMillis(config.lockTimeoutMillis()).victimPolicy(config.deadlockVictim())
                        .detectIntervalMillis(config.deadlockDetectIntervalMillis())
                        .escalationThreshold(config.lockEscalationThreshold()).build(),
                storage, parts -> List.of(AccessMethods.recordManager(parts.buffers(), c.keyOrders()::get)));
        }
        return new Object[] {tp, config};
    }

    /**
     * Starts the environment in {@code dir} over with a new, empty log, keeping its data files as
     * they are (Berkeley DB's {@code db_load -r lsn} for every file): the page LSNs are set to 0,
     * the log files deleted and a new log anchor written. Use it when the open refuses because the
     * log was lost, cut short or replaced ({@link org.libtp.core.CorruptionException} naming the
     * log), and to adopt data files copied from another environment. Changes of transactions that
     * had not completed, or whose log records were lost, may remain in the files in part: nothing
     * can roll them back any more; run {@link Database#verify()} afterwards. No process may have
     * the environment open. Returns the number of pages rewritten.
     *
     * @throws IllegalStateException if another process has the environment open
     * @throws org.libtp.core.CorruptionException if a data page fails its checksum (restore that file)
     * @throws org.libtp.core.EnvironmentAccessException on an I/O error
     */
    public static long resetLog(Path dir) {
        if (dir == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw new EnvironmentAccessException("environment directory " + dir.toAbsolutePath()
                    + " does not exist");
        }
        return Repair.resetLog(dir);
    }

    /**
     * Rewrites the environment's file registry ({@code __libtp.files}: which data file has which
     * file id, as the log records name them) from the data files' header pages. Use it when the
     * open refuses because the registry is damaged or missing, or after copying data files in
     * (then also {@link #resetLog}). No process may have the environment open. Returns the
     * number of data files registered.
     *
     * @throws IllegalStateException if another process has the environment open
     * @throws org.libtp.core.CorruptionException if a data file header is damaged or two files claim one id
     */
    public static int rebuildFileRegistry(Path dir) {
        if (dir == null) {
            throw new IllegalArgumentException("directory must not be null");
        }
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw new EnvironmentAccessException("environment directory " + dir.toAbsolutePath()
                    + " does not exist");
        }
        return Repair.rebuildFileRegistry(dir).size();
    }

    /**
     * Salvage of a damaged catalog ({@code catalog.libtp}, the file naming the databases): moves
     * it into a subdirectory {@code damaged-<time>} of {@code dir}, starts a new log as
     * {@link #resetLog} does (the old log names the catalog's pages), opens the environment with
     * {@code config} (register the key orders the databases use) and enters every data file
     * into a new catalog under the name its file carries ({@code NAME.db}; a database that was
     * re-created also left {@code NAME+N.db}, entered as {@code NAME.salvagedK}), with the type
     * its meta page shows. Removed databases whose files remain come back too: remove them again.
     * No process may have the environment open. Returns the names entered.
     *
     * @throws IllegalStateException if another process has the environment open
     * @throws org.libtp.core.CorruptionException if a data file is damaged as well
     */
    public static List<String> rebuildCatalog(Path dir, EnvironmentConfig config) {
        if (dir == null || config == null) {
            throw new IllegalArgumentException("directory and config must not be null");
        }
        Path catalog = dir.resolve(Catalog.FILE);
        if (java.nio.file.Files.exists(catalog)) {
            try {
                Path aside = dir.resolve("damaged-" + System.currentTimeMillis());
                java.nio.file.Files.createDirectories(aside);
                java.nio.file.Files.move(catalog, aside.resolve(Catalog.FILE));
            } catch (java.io.IOException e) {
                throw new EnvironmentAccessException("cannot move the damaged catalog " + catalog
                        + " aside: " + e, e);
            }
        }
        Repair.resetLog(dir); // also rebuilds the file registry, now without the catalog
        try (Environment env = open(dir, config)) {
            List<String> names = env.catalog.adoptUnnamedFiles();
            LOG.warn("rebuilt the catalog of {}: {}", dir, names);
            return names;
        }
    }

    public EnvironmentConfig config() {
        return config;
    }

    public Path home() {
        return home;
    }

    /**
     * True if this open recovered the environment from a crash: the environment had not been
     * closed cleanly (a process died in it, or it had failed) and this process, the first to open
     * it since, ran recovery before {@link #open} returned (redo from the last checkpoint, then
     * rollback of the transactions that had not committed). False after a clean close, and in a
     * process that opened the environment while another had it open (that one recovered it if
     * it needed it). Recovery runs in every {@link OpenMode}; only TP mode logs data changes, so
     * only TP mode's databases are brought back to their last committed state.
     */
    public boolean wasRecovered() {
        TxnEnvironment t = tp;
        return t.txn().ranRecovery() && t.env().wasUnclean();
    }

    /**
     * How many times this handle has reopened the environment after it failed (see
     * {@link EnvironmentConfig#reopenTimeoutMillis()}); 0 if it never failed under it.
     */
    public long reopenCount() {
        return incarnation;
    }

    /** Statistics of the log, locks, buffer pool and transactions now; see {@link EnvironmentStats}. */
    public EnvironmentStats stats() {
        return guarded(null, this::statsNow);
    }

    private EnvironmentStats statsNow() {
        int[] files = tp.log().fileNumbers();
        LogManager.ForceTotals forced = tp.log().forceTotals();
        EnvironmentStats.Log log = new EnvironmentStats.Log(tp.log().endLsn(), tp.log().flushedLsn(),
                tp.log().forceCount(), files.length, files.length == 0 ? 0 : files[0],
                files.length == 0 ? 0 : files[files.length - 1], tp.txn().lastCheckpoint(), forced.forces(),
                forced.meanMicrosSince(new LogManager.ForceTotals(0, 0)));
        LockStats l = tp.locks().stats();
        LockConfig lc = tp.locks().config();
        EnvironmentStats.Locks locks = new EnvironmentStats.Locks(l.requests(), l.waits(), l.deadlocks(), l.timeouts(), l.escalations(),
                l.locksInUse(), lc.maxLocks(), l.objectsInUse(), lc.maxObjects());
        BufferStats b = tp.buffers().stats();
        EnvironmentStats.Cache cache = new EnvironmentStats.Cache(b.hits(), b.misses(), b.reads(), b.writes(),
                b.evictions(), b.frames(), b.dirtyFrames(), b.pinnedFrames(), b.imagedWrites());
        EnvironmentStats.Transactions txns = new EnvironmentStats.Transactions(tp.txn().activeCount(),
                tp.txn().maxTransactions(), tp.txn().begunCount(), tp.txn().committedCount(), tp.txn().abortedCount());
        return new EnvironmentStats(log, locks, cache, txns);
    }

    /**
     * Begins a writable transaction with the environment's durability (TP mode only). Commit or
     * abort it (try-with-resources aborts it if not committed); {@link #runInTransaction} does
     * both and retries deadlock victims.
     *
     * @throws org.libtp.core.CapacityExceededException if {@link EnvironmentConfig#maxTransactions()}
     *         transactions are active already
     * @throws IllegalStateException outside TP mode, in a read-only environment, or if closed
     */
    public Transaction beginTransaction() {
        return beginTransaction(config.durability(), false);
    }

    /**
     * Begins a transaction (TP mode only). {@code readOnly} transactions may not change data (the
     * only kind a read-only environment allows); {@code durability} says what commit waits for.
     *
     * @throws org.libtp.core.CapacityExceededException if {@link EnvironmentConfig#maxTransactions()}
     *         transactions are active already
     * @throws IllegalStateException outside TP mode, for a writable transaction in a read-only
     *         environment, or if closed
     */
    public Transaction beginTransaction(Durability durability, boolean readOnly) {
        checkOpen();
        if (durability == null) {
            throw new IllegalArgumentException("durability must not be null");
        }
        if (config.mode() != OpenMode.TP) {
            throw new IllegalStateException("transactions need OpenMode.TP; this environment is " + config.mode());
        }
        if (!readOnly) {
            checkWritable("a writable transaction (begin a read-only one: beginTransaction(durability, true))");
        }
        return guarded(null, () -> {
            Transaction t = new Transaction(this, tp.txn().begin(durability.core()), readOnly, incarnation);
            active.add(t);
            return t;
        });
    }

    /**
     * Opens database {@code name} (1..100 characters of {@code [A-Za-z0-9_.-]}), creating it
     * within {@code txn} (or its own transaction if null) if {@code config.allowCreate()}.
     *
     * @throws org.libtp.core.DatabaseNotFoundException if it does not exist and
     *         {@code config.allowCreate()} is false
     * @throws IllegalArgumentException if it exists as another type or with another key order,
     *         or the key order is not registered, or the name is not allowed
     * @throws IllegalStateException if it does not exist and the environment is read-only
     * @throws org.libtp.core.CapacityExceededException if creating it needs a data file beyond
     *         {@link EnvironmentConfig#maxFiles()}
     */
    public Database openDatabase(Transaction txn, String name, DatabaseConfig config) {
        checkOpen();
        Catalog.checkName(name);
        if (config == null) {
            throw new IllegalArgumentException("config must not be null");
        }
        if (config.keyOrder() != null && !this.config.keyOrders().containsKey(config.keyOrder())) {
            throw new IllegalArgumentException("key order '" + config.keyOrder() + "' is not registered; register it "
                    + "with EnvironmentConfig.Builder.keyOrder in every process");
        }
        Database db = guarded(txn, () -> openIn(txn, name, config));
        open.add(db);
        return db;
    }

    private Database openIn(Transaction txn, String name, DatabaseConfig config) {
        checkTxn(txn);
        Database db;
        if (this.config.readOnly() && config.allowCreate()) {
            // Open it if it exists; creating it would be a write.
            DatabaseConfig noCreate = new DatabaseConfig(config.type(), false, config.readOnly(), config.keyOrder(),
                    config.recordLength());
            try {
                db = catalog.open(txn, name, noCreate);
            } catch (DatabaseNotFoundException e) {
                checkWritable("creating database " + name);
                throw e;
            }
        } else {
            db = catalog.open(txn, name, config);
        }
        return db;
    }

    /**
     * Removes database {@code name} within {@code txn} (null: its own transaction).
     *
     * @throws org.libtp.core.DatabaseNotFoundException if there is no database {@code name}
     * @throws IllegalStateException in a read-only environment or transaction
     */
    public void removeDatabase(Transaction txn, String name) {
        checkOpen();
        Catalog.checkName(name);
        checkTxn(txn);
        checkWritable("removing database " + name);
        guarded(txn, () -> {
            catalog.remove(txn, name);
            return null;
        });
    }

    /**
     * Renames database {@code from} to {@code to} within {@code txn} (null: its own transaction).
     *
     * @throws org.libtp.core.DatabaseNotFoundException if there is no database {@code from}
     * @throws IllegalArgumentException if a database {@code to} exists
     * @throws IllegalStateException in a read-only environment or transaction
     */
    public void renameDatabase(Transaction txn, String from, String to) {
        checkOpen();
        Catalog.checkName(from);
        Catalog.checkName(to);
        checkTxn(txn);
        checkWritable("renaming database " + from);
        guarded(txn, () -> {
            catalog.rename(txn, from, to);
            return null;
        });
    }

    /**
     * Log files that recovery no longer needs, oldest first (Berkeley DB's {@code db_archive}):
     * copy them to a backup if you keep one, then {@link #removeArchivableLogFiles()}. With the
     * default {@link EnvironmentConfig#keepLogFiles()} false they are removed after each
     * checkpoint anyway, so this is usually empty.
     */
    public List<Path> archivableLogFiles() {
        checkOpen();
        return guarded(null, () -> {
            List<Path> out = new java.util.ArrayList<>();
            for (int n : tp.txn().archivableLogFiles()) {
                out.add(home().resolve(LogFileHeader.fileName(n)));
            }
            return out;
        });
    }

    /**
     * Removes the log files {@link #archivableLogFiles()} lists (never one recovery or a running
     * transaction needs); returns how many. Files no process needs are never deleted by hand:
     * use this.
     */
    public int removeArchivableLogFiles() {
        checkOpen();
        if (config.readOnly()) {
            throw new IllegalStateException("environment " + home() + " was opened with EnvironmentConfig.readOnly");
        }
        return guarded(null, () -> tp.txn().removeLogFiles());
    }

    /**
     * Takes a hot backup into directory {@code dest} (absent or empty) while this and other
     * processes go on committing (Berkeley DB's {@code db_hotbackup}): the data files, then the log
     * from the last checkpoint on. Restore it with {@link #restore}; the copy holds every
     * transaction committed before this call began. The copy yields the disk to processes
     * committing durably: it slows down whenever it makes their log forces slower (see
     * {@link BackupConfig#yieldToCommits()}). See {@link HotBackup}.
     *
     * @throws IllegalArgumentException if {@code dest} is not empty, or is inside the environment
     * @throws IllegalStateException    if the environment is not in {@link OpenMode#TP} (the other
     *                                  modes keep no log: close every process and copy the directory) or
     *                                  another hot backup of it is running
     * @throws org.libtp.core.OutOfSpaceException if {@code dest}'s file system fills up
     */
    public HotBackup.Result backup(Path dest) {
        return backup(dest, BackupConfig.defaults());
    }

    /**
     * Takes a hot backup as {@code config} says: full (as {@link #backup(Path)}), or incremental
     * ({@link BackupConfig#incremental()}: adds the log written since the last
     * backup into {@code dest} to it; the log file that backup ended in must still exist here, so
     * keep log files between incremental backups, {@link EnvironmentConfig#keepLogFiles()}); at
     * most {@code maxBytesPerSecond}; slowing down while it makes the durable commits' log forces
     * slower ({@code yieldToCommits}, the default; off, the copy runs as fast as the disk allows);
     * telling {@code progress} of the bytes copied.
     */
    public HotBackup.Result backup(Path dest, BackupConfig config) {
        checkOpen();
        if (dest == null || config == null) {
            throw new IllegalArgumentException("backup directory and config must not be null");
        }
        if (this.config.mode() != OpenMode.TP) {
            throw new IllegalStateException("hot backup of " + home() + " needs OpenMode.TP (open mode is "
                    + this.config.mode() + ", which keeps no log): close it in every process and copy the directory");
        }
        return guardedOnce(() -> HotBackup.backup(tp, dest, config));
    }

    /**
     * Restores the backup in {@code backup} into {@code target} (absent or empty) and recovers it
     * catastrophically (the whole copied log is redone, unfinished transactions rolled back), so
     * that {@code target} is an environment holding every transaction committed before the
     * backup (or its last incremental) began. The backup is not changed. Returns the bytes copied.
     *
     * @throws IllegalArgumentException if {@code backup} holds no complete backup or {@code target}
     *                                  is not empty
     */
    public static long restore(Path backup, Path target) {
        return restore(backup, target, HotBackup.Progress.NONE);
    }

    /**
     * As {@link #restore(Path, Path)}, telling {@code progress} of the bytes copied (the recovery
     * that follows reports nothing).
     */
    public static long restore(Path backup, Path target, HotBackup.Progress progress) {
        long bytes = HotBackup.restore(backup, target, progress);
        // Opened once, which recovers the copy: with its page size, which its data files say.
        join(target, EnvironmentConfig.defaults()).close();
        return bytes;
    }

    /**
     * Recovers the environment in {@code dir} catastrophically (Berkeley DB's
     * {@code db_recover -c}): redoes every record of every log file there is, not only those after
     * the last checkpoint, then rolls back unfinished transactions. For a directory whose data
     * files may be older than its last checkpoint says (files restored by hand from a copy taken
     * while the environment ran); normal crashes need only {@link #open}. No process may have the
     * environment open. {@code config}'s page size gives way to the data files'.
     *
     * @throws IllegalStateException if another process has the environment open
     */
    public static void recoverCatastrophically(Path dir, EnvironmentConfig config) {
        if (dir == null || config == null) {
            throw new IllegalArgumentException("directory and config must not be null");
        }
        if (!java.nio.file.Files.isDirectory(dir)) {
            throw new EnvironmentAccessException("environment directory " + dir.toAbsolutePath()
                    + " does not exist");
        }
        try (RegionEnvironment guard = RegionEnvironment.open(dir,
                RegionEnvironmentConfig.defaults())) {
            if (guard.busyProcessSlots() > 1) {
                throw new IllegalStateException("environment " + dir + " is open in " + (guard.busyProcessSlots() - 1)
                        + " other process(es); close it everywhere before recovering it catastrophically");
            }
            HotBackup.requestCatastrophicRecovery(dir);
            open(dir, config, new FileStorage(dir), true).close(); // alone: the data files' page size
        }
    }

    /** The processes attached to the environment now, this one included (for monitoring tools). */
    public List<RegionEnvironment.AttachedProcess> attachedProcesses() {
        checkOpen();
        return guarded(null, () -> tp.env().attachedProcesses());
    }

    /** The transactions active now, in every process (for monitoring tools). */
    public List<TransactionManager.ActiveTransaction> activeTransactions() {
        checkOpen();
        return guarded(null, () -> tp.txn().activeTransactions());
    }

    /**
     * The lock table now: every request, granted or waiting, and the waits-for graph (Berkeley
     * DB's {@code db_stat -CA}). Reading it holds every lock partition for a moment.
     */
    public LockTableSnapshot lockTable() {
        checkOpen();
        return guarded(null, () -> tp.locks().snapshot());
    }

    /**
     * Runs one deadlock detection pass now (Berkeley DB's {@code db_deadlock}; a pass also runs
     * every {@link EnvironmentConfig#deadlockDetectIntervalMillis()} in one process): returns the
     * number of transactions chosen as victims, whose waits get a DeadlockException.
     */
    public int detectDeadlocks() {
        checkOpen();
        return guarded(null, () -> tp.locks().detect());
    }

    /** The name of data file {@code fileId} (as lock objects and log records name files). */
    public String dataFileName(int fileId) {
        checkOpen();
        return guarded(null, () -> tp.buffers().fileName(fileId));
    }

    /** Names of the databases, in order. */
    public List<String> databaseNames() {
        checkOpen();
        return guarded(null, () -> catalog.names());
    }

    /**
     * The type database {@code name} was created with, or null if there is no such database:
     * what {@link DatabaseConfig.Builder#type} must say to open it (a tool opening whatever is
     * there asks this first).
     */
    public DatabaseType databaseType(String name) {
        checkOpen();
        if (name == null) {
            throw new IllegalArgumentException("database name must not be null");
        }
        return guarded(null, () -> catalog.type(name));
    }

    /** Takes a checkpoint now (TP mode); also writes the unlogged pages of the other modes. */
    public void checkpoint() {
        checkOpen();
        guarded(null, () -> {
            tp.txn().checkpoint();
            return null;
        });
    }

    /** Writes every changed page to its file and forces the files. */
    public void sync() {
        checkOpen();
        guarded(null, () -> {
            tp.log().flush(tp.log().endLsn(), org.libtp.core.log.Durability.SYNC);
            tp.buffers().sync();
            return null;
        });
    }

    /**
     * Runs {@code work} in a transaction with the environment's durability and commits it,
     * retrying after a deadlock or lock timeout; see
     * {@link #inTransaction(Durability, boolean, Function)}.
     */
    public void runInTransaction(Consumer<Transaction> work) {
        runInTransaction(config.durability(), false, work);
    }

    /** {@link #runInTransaction(Consumer)} with this durability, read-only or not. */
    public void runInTransaction(Durability durability, boolean readOnly, Consumer<Transaction> work) {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        inTransaction(durability, readOnly, t -> {
            work.accept(t);
            return null;
        });
    }

    /**
     * Runs {@code work} in a transaction with the environment's durability, commits it and
     * returns what {@code work} returned; see {@link #inTransaction(Durability, boolean, Function)}.
     */
    public <T> T inTransaction(Function<Transaction, T> work) {
        return inTransaction(config.durability(), false, work);
    }

    /**
     * Begins a transaction, runs {@code work} in it, commits it and returns what {@code work}
     * returned (TP mode only). The usual way to run a transaction: it is the retry loop every
     * caller of {@link #beginTransaction} would otherwise write.
     *
     * <ul>
     * <li>If {@code work} (or the commit) throws {@link DeadlockException} or
     *     {@link LockTimeoutException}, the transaction is aborted and {@code work} runs again in a
     *     new one, after a pause that doubles from 1 ms up to
     *     {@link EnvironmentConfig#maxRetryDelayMillis()}, each a random fraction of it (so that the
     *     transactions of a deadlock do not meet again in step), up to
     *     {@link EnvironmentConfig#maxTransactionAttempts()} attempts in all (default 10); after the
     *     last one the exception is thrown. {@code work} must therefore be safe to run again: it
     *     should change nothing but the database (or undo its other effects when it is retried).</li>
     * <li>Any other exception aborts the transaction and is thrown at once.</li>
     * <li>{@code work} must not commit or abort the transaction; if it ended it anyway, it is not
     *     committed again.</li>
     * </ul>
     *
     * <pre>{@code
     * long balance = env.inTransaction(t -> {
     *     db.update(t, from, v -> minus(v, amount));
     *     return toLong(db.update(t, to, v -> plus(v, amount)));
     * });
     * }</pre>
     *
     * @throws DeadlockException    if every attempt was a deadlock victim (the last one's)
     * @throws LockTimeoutException if the last attempt timed out waiting for a lock
     * @throws IllegalStateException outside TP mode, in a read-only environment unless
     *         {@code readOnly}, or if the environment is closed
     */
    public <T> T inTransaction(Durability durability, boolean readOnly, Function<Transaction, T> work) {
        if (work == null) {
            throw new IllegalArgumentException("work must not be null");
        }
        int attempts = config.maxTransactionAttempts();
        for (int attempt = 1; ; attempt++) {
            Transaction t = beginTransaction(durability, readOnly);
            try {
                T result = work.apply(t);
                if (t.isActive()) {
                    t.commit();
                }
                return result;
            } catch (DeadlockException | LockTimeoutException | EnvironmentReopenedException e) {
                abortAfter(t, e);
                if (attempt >= attempts
                        || e instanceof EnvironmentReopenedException r && r.commitInDoubt()) {
                    throw e; // a commit in doubt may have committed: running it again could apply it twice
                }
                LOG.debug("transaction {} of {}: attempt {} of {} failed ({}); retrying", t.id(), home(), attempt,
                        attempts, e.toString());
                if (!pauseBeforeRetry(attempt)) {
                    throw e; // interrupted: the flag is set again for the caller
                }
            } catch (RuntimeException | Error e) {
                abortAfter(t, e);
                throw e;
            }
        }
    }

    private static void abortAfter(Transaction t, Throwable cause) {
        if (t.isActive()) {
            try {
                t.abort();
            } catch (RuntimeException | Error x) {
                cause.addSuppressed(x);
            }
        }
    }

    /**
     * Sleeps before retry number {@code attempt}: half of min(2^(attempt-1) ms, the maximum)
     * plus a random part of the other half ("equal jitter"). False if interrupted.
     */
    private boolean pauseBeforeRetry(int attempt) {
        long capNanos = Math.min(config.maxRetryDelayMillis() * 1_000_000L, 1_000_000L << Math.min(attempt - 1, 30));
        if (capNanos <= 0) {
            return true;
        }
        long nanos = capNanos / 2 + java.util.concurrent.ThreadLocalRandom.current().nextLong(capNanos / 2 + 1);
        try {
            Thread.sleep(nanos / 1_000_000, (int) (nanos % 1_000_000));
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /** Retries of an auto-committed operation chosen as a deadlock victim before giving up. */
    static final int AUTO_COMMIT_RETRIES = 100;

    /**
     * Runs {@code op} in a transaction of its own (auto-commit): commits it, or aborts it and
     * rethrows; a deadlock victim is aborted and run again, up to {@link #AUTO_COMMIT_RETRIES}.
     */
    <T> T autoCommit(Function<Txn, T> op) {
        for (int attempt = 0; ; attempt++) {
            Txn t = tp.txn().begin();
            try {
                T r = op.apply(t);
                try {
                    tp.txn().commit(t);
                } catch (RunRecoveryException e) {
                    throw new CommitInDoubt(e);
                }
                am.ended(t, true);
                return r;
            } catch (DeadlockException e) {
                tp.txn().abort(t);
                am.ended(t, false);
                if (attempt >= AUTO_COMMIT_RETRIES) {
                    throw e;
                }
            } catch (RuntimeException | Error e) {
                if (!t.isFinished()) {
                    tp.txn().abort(t);
                    am.ended(t, false);
                }
                throw e;
            }
        }
    }

    void checkTxn(Transaction txn) {
        if (txn != null) {
            if (txn.env != this) {
                throw new IllegalArgumentException("transaction " + txn.id() + " belongs to another environment handle");
            }
            txn.checkCurrent();
            txn.txn.checkActive();
        }
    }

    // ------------------------------------------------------------------ failure and reopen

    /**
     * A commit failed with the environment (its commit record may be in the log): the
     * operation is not run again after a reopen.
     */
    static final class CommitInDoubt extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final RunRecoveryException failure;

        CommitInDoubt(RunRecoveryException failure) {
            super(failure.getMessage(), failure, false, false);
            this.failure = failure;
        }
    }

    /** Reopens after one failure of an operation at most this often before giving up. */
    private static final int MAX_REOPENS_PER_CALL = 3;

    /**
     * Enters an operation of this handle (the gate) and returns the incarnation it runs in;
     * waits while a reopen is under way (at most the reopen timeout). Pair with {@link #exit()}.
     */
    long enter() {
        long deadline = 0;
        for (;;) {
            checkOpen();
            if (gate.enter()) {
                RunRecoveryException b = broken;
                if (b == null) {
                    return incarnation;
                }
                gate.exit();
                if (!tryReopen(incarnation, b, 0)) {
                    throw b;
                }
                continue;
            }
            if (deadline == 0) {
                deadline = System.nanoTime() + (config.reopenTimeoutMillis() + 5_000) * 1_000_000L;
            } else if (System.nanoTime() - deadline > 0) {
                throw new RunRecoveryException("environment " + home + " is being reopened by another thread of this "
                        + "process and the reopen did not end within reopenTimeoutMillis=" + config.reopenTimeoutMillis()
                        + " ms; close the environment and open it again");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(1_000_000);
        }
    }

    void exit() {
        gate.exit();
    }

    /**
     * Runs {@code op} inside the gate. If the environment fails under it, this handle reopens it
     * (outside the gate) and runs {@code op} again when nothing of it was in flight ({@code txn}
     * null, not a commit), or else throws {@link EnvironmentReopenedException}.
     */
    <T> T guarded(Transaction txn, java.util.function.Supplier<T> op) {
        for (int reopens = 0; ; reopens++) {
            long inc = enter();
            RunRecoveryException failed;
            boolean inDoubt = false;
            try {
                return op.get();
            } catch (RunRecoveryException e) {
                failed = e;
            } catch (CommitInDoubt e) {
                failed = e.failure;
                inDoubt = true;
            } finally {
                exit();
            }
            afterFailure(failed, inc, txn != null || inDoubt || reopens >= MAX_REOPENS_PER_CALL, inDoubt);
        }
    }

    /** {@link #guarded} for an operation that is not run again after a reopen (a backup). */
    <T> T guardedOnce(java.util.function.Supplier<T> op) {
        long inc = enter();
        RunRecoveryException failed;
        try {
            return op.get();
        } catch (RunRecoveryException e) {
            failed = e;
        } finally {
            exit();
        }
        afterFailure(failed, inc, true, false);
        throw failed; // not reached
    }

    /**
     * Called outside the gate after {@code failed} came out of an operation that entered in
     * incarnation {@code inc}: reopens (unless another thread did already) and returns if the
     * operation may run again; throws {@link EnvironmentReopenedException} if something of it
     * was in flight ({@code inFlight}), or {@code failed} if the environment could not be
     * reopened (or reopening is off).
     */
    void afterFailure(RunRecoveryException failed, long inc, boolean inFlight, boolean inDoubt) {
        if (config.reopenTimeoutMillis() == 0 || closed || closing) {
            throw failed;
        }
        if (!tryReopen(inc, failed, config.reopenTimeoutMillis())) {
            RunRecoveryException b = broken;
            throw b != null ? b : failed;
        }
        if (inFlight) {
            throw new EnvironmentReopenedException("environment " + home + " failed while "
                    + (inDoubt ? "this transaction was committing: it may have committed or not (read to find out "
                    + "before running it again)" : "this transaction was in flight; it was rolled back by the "
                    + "recovery of the reopen: abort it and run it again")
                    + " (the failure: " + failed.getMessage() + ")", inDoubt, failed);
        }
    }

    /**
     * Reopens the environment unless incarnation {@code inc} is no longer current (another
     * thread reopened it: true) or this handle is closed (false): closes the gate and waits until
     * no thread of this JVM is inside an operation, detaches from the failed regions, then opens
     * again and again until every other process has detached too and the first opener has run
     * recovery, for at most {@code timeoutMillis} (0: one attempt). True if the handle is usable.
     */
    private boolean tryReopen(long inc, RunRecoveryException cause, long timeoutMillis) {
        synchronized (reopenLock) {
            if (closed || closing) {
                return false;
            }
            if (incarnation != inc) {
                return broken == null;
            }
            long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
            if (!gate.closeAndDrain(Math.max(timeoutMillis, 100) * 1_000_000L)) {
                gate.open();
                LOG.error("environment {} failed and cannot be reopened: a thread of this process stayed inside an "
                        + "operation for {} ms", home, timeoutMillis);
                return false;
            }
            try {
                if (broken == null) {
                    LOG.warn("environment {} failed ({}); this process detaches and reopens it", home, cause.getMessage());
                    try {
                        tp.close(); // a failed environment closes without writing anything
                    } catch (RuntimeException e) {
                        LOG.warn("detaching from failed environment {}: {}", home, e.toString());
                    }
                }
                long pause = 5;
                for (int attempt = 1; ; attempt++) {
                    try {
                        Object[] opened = attach(home, config, storage, joined);
                        TxnEnvironment fresh = (TxnEnvironment) opened[0];
                        try {
                            tp = fresh;
                            am = new AccessMethods(fresh, config.keyOrders()::get);
                            Catalog c = new Catalog(this);
                            catalog = c;
                            c.open();
                        } catch (RuntimeException e) {
                            fresh.close();
                            throw e;
                        }
                        for (Transaction t : active) {
                            t.stale();
                        }
                        active.clear();
                        broken = null;
                        incarnation = inc + 1;
                        LOG.warn("environment {} reopened after its failure ({} attempt(s); recovered here: {})", home,
                                attempt, wasRecovered());
                        return true;
                    } catch (RunRecoveryException e) {
                        // Other processes still have it open, or it failed again: wait for them.
                        if (System.nanoTime() - deadline > 0) {
                            broken = new RunRecoveryException("environment " + home + " failed (" + cause.getMessage()
                                    + ") and could not be reopened within reopenTimeoutMillis=" + timeoutMillis
                                    + " ms: " + e.getMessage() + ". It is reopened by the next operation once every "
                                    + "other process has closed it (or reopened it)", e);
                            return false;
                        }
                    } catch (RuntimeException e) {
                        broken = new RunRecoveryException("environment " + home + " failed (" + cause.getMessage()
                                + ") and reopening it failed: " + e + ". Close it and open it again", e);
                        LOG.error("reopening failed environment {}: {}", home, e.toString());
                        return false;
                    }
                    java.util.concurrent.locks.LockSupport.parkNanos(pause * 1_000_000L);
                    pause = Math.min(pause * 2, 50);
                }
            } finally {
                gate.open();
            }
        }
    }

    /** Looks for a failure of the environment every so often, so that an idle process detaches too. */
    private static final java.util.concurrent.ScheduledExecutorService WATCHER =
            java.util.concurrent.Executors.newSingleThreadScheduledExecutor(r -> {
                Thread t = new Thread(r, "libtp-reopen-watch");
                t.setDaemon(true);
                return t;
            });

    /** How often an idle handle looks whether the environment failed. */
    static final long WATCH_MILLIS = 100;

    private void startWatch() {
        if (config.reopenTimeoutMillis() > 0) {
            watch = WATCHER.scheduleWithFixedDelay(this::watchOnce, WATCH_MILLIS, WATCH_MILLIS,
                    java.util.concurrent.TimeUnit.MILLISECONDS);
        }
    }

    private void watchOnce() {
        try {
            if (closed || !gate.enter()) {
                return;
            }
            long inc;
            RunRecoveryException failed = broken;
            try {
                inc = incarnation;
                if (failed == null && tp.env().isFailed()) {
                    failed = new RunRecoveryException("environment " + home + " was found failed");
                }
            } finally {
                gate.exit();
            }
            if (failed != null && reopening.compareAndSet(false, true)) {
                // On a thread of its own: a reopen waits for the other handles to detach, and the
                // other handles of this JVM are watched by this thread.
                RunRecoveryException f = failed;
                Thread t = new Thread(() -> {
                    try {
                        tryReopen(inc, f, f == broken ? 0 : config.reopenTimeoutMillis());
                    } finally {
                        reopening.set(false);
                    }
                }, "libtp-reopen");
                t.setDaemon(true);
                t.start();
            }
        } catch (RuntimeException e) {
            LOG.debug("watching environment {}: {}", home, e.toString());
        }
    }

    /** Throws if this environment was opened read-only; {@code what} names the refused change. */
    void checkWritable(String what) {
        if (config.readOnly()) {
            throw new IllegalStateException("environment " + home() + " was opened with EnvironmentConfig.readOnly: "
                    + what + " is not allowed");
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("environment " + home + " is closed");
        }
    }

    boolean isClosed() {
        return closed;
    }

    void closed(Database db) {
        open.remove(db);
    }

    void ended(Transaction t) {
        active.remove(t);
    }

    /**
     * Closes the environment handle: closes the cursors and databases still open (with one WARN
     * log line per cursor), aborts the transactions still active (one WARN each, naming the
     * transaction: what it changed is rolled back, as if it had been aborted), and writes and
     * forces the log. Close it when no other thread uses it. Idempotent. If this is the last
     * process to close the environment, a checkpoint is taken first, so that the next open has
     * nothing to recover.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closing = true;
        java.util.concurrent.ScheduledFuture<?> w = watch;
        if (w != null) {
            w.cancel(false);
        }
        synchronized (reopenLock) { // not while a reopen swaps the managers
            closeNow();
        }
    }

    private void closeNow() {
        if (closed) {
            return;
        }
        if (broken != null) { // detached already by the reopen that did not succeed
            closed = true;
            for (Database db : open) {
                db.close();
            }
            active.clear();
            return;
        }
        for (Database db : open) {
            db.closeCursors("environment " + home() + " is closing");
        }
        for (Transaction t : active) {
            if (t.isActive() && t.incarnation == incarnation) {
                LOG.warn("closing environment {}: transaction {} is still active; aborting it", home(), t.id());
                try {
                    t.abort();
                } catch (RuntimeException e) {
                    LOG.warn("closing environment {}: abort of transaction {} failed: {}", home(), t.id(), e.toString());
                }
            }
        }
        active.clear();
        for (Database db : open) {
            db.close();
        }
        if (config.mode() != OpenMode.TP) {
            tp.buffers().sync(); // the unlogged modes' changes reach the files here
        }
        closed = true;
        tp.close();
    }

    @Override
    public String toString() {
        return "Environment[" + home + ", " + config.mode() + (closed ? ", closed" : "") + "]";
    }
}
