package org.libtp.core.tp;

import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.lock.SharedLockManager;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.txn.PageUpdates;
import org.libtp.core.txn.ResourceManager;
import org.libtp.core.txn.SharedTxnManager;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.BiFunction;
import java.util.function.Function;

/**
 * An environment with its log, buffer, transaction and lock managers, opened in the right order:
 * opening it runs recovery when the environment was not closed cleanly (every process closed or
 * died since the regions were built), before returning. Closing closes them all (the log is
 * flushed).
 *
 * <pre>{@code
 * try (TxnEnvironment tp = TxnEnvironment.open(dir, RegionEnvironmentConfig.defaults(), LogConfig.defaults(),
 *         TxnConfig.defaults(), BufferConfig.defaults(), LockConfig.defaults(), new FileStorage(dir),
 *         parts -> List.of())) {
 *     int file = tp.buffers().open("data.db");
 *     Txn t = tp.txn().begin();
 *     tp.locks().lock(t, new LockObject(file, 0), LockMode.WRITE, 0);
 *     Page p = tp.buffers().get(file, 0, BufferManager.CREATE);
 *     p.latch();
 *     tp.pages().update(t, p, 64, new byte[] {1, 2, 3});
 *     p.unlatch();
 *     tp.buffers().unpin(p, true);
 *     tp.txn().commit(t);
 * }
 * }</pre>
 */
public final class TxnEnvironment implements AutoCloseable {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(TxnEnvironment.class);
    private final RegionEnvironment env;
    private final Storage storage;
    private final SharedLog log;
    private final SharedBufferPool buffers;
    private final PageUpdates pages;
    private final SharedTxnManager txn;
    private final SharedLockManager locks;
    private final List<ResourceManager> resourceManagers;

    /** What record managers may use when they are created (the transaction manager is not open yet). */
    public record Parts(RegionEnvironment env, Storage storage, SharedLog log, SharedBufferPool buffers, PageUpdates pages) {
    }

    private TxnEnvironment(Parts parts, SharedTxnManager txn, SharedLockManager locks, List<ResourceManager> rms) {
        this.locks = locks;
        this.env = parts.env();
        this.storage = parts.storage();
        this.log = parts.log();
        this.buffers = parts.buffers();
        this.pages = parts.pages();
        this.txn = txn;
        this.resourceManagers = rms;
    }

    /** Opens with the real file system and the default buffer pool. */
    public static TxnEnvironment open(Path home, RegionEnvironmentConfig envConfig, LogConfig logConfig, TxnConfig txnConfig,
                                      BiFunction<RegionEnvironment, Storage, List<ResourceManager>> resourceManagers) {
        return open(home, envConfig, logConfig, txnConfig, new FileStorage(home), resourceManagers);
    }

    /** Opens with the given storage (tests inject faults through it) and the default buffer pool. */
    public static TxnEnvironment open(Path home, RegionEnvironmentConfig envConfig, LogConfig logConfig, TxnConfig txnConfig,
                                      Storage storage,
                                      BiFunction<RegionEnvironment, Storage, List<ResourceManager>> resourceManagers) {
        return open(home, envConfig, logConfig, txnConfig, BufferConfig.defaults(), LockConfig.defaults(), storage,
                parts -> resourceManagers.apply(parts.env(), parts.storage()));
    }

    /**
     * Opens everything. {@code resourceManagers} creates the record managers (besides the
     * buffer manager's page records, which are always there) from the managers opened so far.
     */
    public static TxnEnvironment open(Path home, RegionEnvironmentConfig envConfig, LogConfig logConfig, TxnConfig txnConfig,
                                      BufferConfig bufferConfig, LockConfig lockConfig, Storage storage,
                                      Function<Parts, List<ResourceManager>> resourceManagers) {
        // A backup's manifest (or a request by hand) asks for catastrophic recovery: the copy's
        // data files may be older than its last checkpoint says. A partial copy is refused before
        // anything else is read or changed.
        BackupManifest manifest = readManifest(home, storage);
        if (manifest != null && manifest.state().equals(BackupManifest.INCOMPLETE)) {
            throw new org.libtp.core.CorruptionException(home + " holds a backup or restore that did not complete ("
                    + BackupManifest.FILE + " says " + manifest.state() + "): it cannot be recovered; delete it and "
                    + "take the backup (or the restore) again");
        }
        RegionEnvironment env = RegionEnvironment.open(home, envConfig);
        SharedLog log = null;
        SharedBufferPool buffers = null;
        SharedTxnManager txn = null;
        try {
            log = SharedLog.open(env, storage, logConfig);
            buffers = SharedBufferPool.open(env, storage, log, bufferConfig);
            PageUpdates pages = new PageUpdates(buffers);
            Parts parts = new Parts(env, storage, log, buffers, pages);
            List<ResourceManager> user = List.copyOf(resourceManagers.apply(parts));
            List<ResourceManager> all = new ArrayList<>();
            all.add(pages);
            all.addAll(user);
            txn = SharedTxnManager.open(env, log, txnConfig, all, manifest != null);
            if (manifest != null && txn.ranRecovery()) {
                // Recovered (and checkpointed): from now on an environment like any other.
                try {
                    storage.delete(BackupManifest.FILE);
                    storage.forceDirectory();
                } catch (java.io.IOException e) {
                    throw new org.libtp.core.EnvironmentAccessException("cannot delete " + BackupManifest.FILE + " in "
                            + home + " after its catastrophic recovery: " + e, e);
                }
                LOG.info("recovered {} catastrophically ({} {})", home, BackupManifest.FILE,
                        manifest.state().equals(BackupManifest.RECOVER) ? "asked for it" : "of a backup taken from "
                                + manifest.source());
            }
            // Commit and abort release the locks (the lock manager's end listener), also for the
            // transactions failCheck rolls back for dead processes.
            SharedLockManager locks = SharedLockManager.open(txn, lockConfig);
            // A process killed inside a frame latch: the page is rebuilt from its file and the log.
            buffers.rebuildPagesWith(txn::rebuildPage);
            return new TxnEnvironment(parts, txn, locks, user);
        } catch (RuntimeException | Error e) {
            if (txn != null) {
                txn.close();
            } else if (env.wasUnclean()) {
                // Recovery of an unclean end did not complete: the close below must not record a
                // clean end, or the next open would not say that it recovers. A failed
                // environment's regions stay, and its log buffer is kept for salvage as after a crash.
                try {
                    env.fail("recovery did not complete (" + e + "); the next open runs it again");
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (buffers != null) {
                try {
                    buffers.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (log != null) {
                try {
                    log.close();
                } catch (RuntimeException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            env.close();
            throw e;
        }
    }

    private static BackupManifest readManifest(Path home, Storage storage) {
        try {
            return BackupManifest.read(storage);
        } catch (java.io.IOException e) {
            throw new org.libtp.core.EnvironmentAccessException("cannot read " + BackupManifest.FILE + " in " + home
                    + ": " + e, e);
        }
    }

    public RegionEnvironment env() {
        return env;
    }

    /** The storage of the durable files (log, data files, anchor, registry). */
    public Storage storage() {
        return storage;
    }

    public SharedLog log() {
        return log;
    }

    public SharedBufferPool buffers() {
        return buffers;
    }

    /** Logged page changes (the buffer manager's record manager). */
    public PageUpdates pages() {
        return pages;
    }

    public SharedTxnManager txn() {
        return txn;
    }

    /** The lock manager (page locks, deadlock detection). */
    public SharedLockManager locks() {
        return locks;
    }

    /** The record managers the caller's factory created. */
    public List<ResourceManager> resourceManagers() {
        return resourceManagers;
    }

    /**
     * Closes. The last process to close takes a full checkpoint first, so that the next open's
     * recovery has nothing to redo (a crash instead leaves that work to recovery); if that
     * checkpoint fails, the environment is marked failed, as a crash would leave it. Every manager
     * is closed (their threads stopped, their files closed) even if the environment has failed
     * or one of them fails to close; a failed environment closes without an exception (that is
     * what the RunRecoveryException asked for), another error is thrown once everything is
     * closed.
     */
    @Override
    public void close() {
        RuntimeException first = null;
        try {
            try {
                if (!env.isFailed() && env.busyProcessSlots() == 1) {
                    txn.checkpoint(true);
                }
            } catch (RuntimeException e) {
                // The data files lack pages (a full disk): this is not a clean end. A failed
                // environment's close records none and keeps the log region for salvage, so the
                // next open recovers, says so, and finds commits no process could write out.
                org.slf4j.LoggerFactory.getLogger(TxnEnvironment.class)
                        .warn("final checkpoint of {} failed; recovery will redo from the last one: {}", env.home(), e.toString());
                env.fail("the final checkpoint failed (" + e + "); the next open recovers");
            }
            buffers.rebuildPagesWith(null);
            for (AutoCloseable m : new AutoCloseable[] {locks::close, txn::close, buffers::close, log::close}) {
                try {
                    m.close();
                } catch (org.libtp.core.RunRecoveryException e) {
                    org.slf4j.LoggerFactory.getLogger(TxnEnvironment.class)
                            .debug("closing a manager of failed environment {}: {}", env.home(), e.toString());
                } catch (Exception e) {
                    RuntimeException r = e instanceof RuntimeException re ? re : new IllegalStateException(e);
                    if (first == null) {
                        first = r;
                    } else {
                        first.addSuppressed(r);
                    }
                }
            }
        } finally {
            env.close();
        }
        if (first != null) {
            throw first;
        }
    }
}
