package org.libtp.core.txn;

import org.libtp.core.env.Environment;
import org.libtp.core.env.EnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;

import java.nio.file.Path;
import java.util.List;
import java.util.function.BiFunction;

/**
 * An environment with its log and transaction managers, opened in the right order: opening it
 * runs recovery when the environment was not closed cleanly (every process closed or died since
 * the regions were built), before returning. Closing closes all three (the log is flushed).
 *
 * <pre>{@code
 * try (TxnEnvironment tp = TxnEnvironment.open(dir, EnvironmentConfig.defaults(), LogConfig.defaults(),
 *         TxnConfig.defaults(), (env, storage) -> List.of(myRecordManager(env, storage)))) {
 *     Transaction t = tp.txn().begin();
 *     ...
 *     tp.txn().commit(t);
 * }
 * }</pre>
 */
public final class TxnEnvironment implements AutoCloseable {
    private final Environment env;
    private final SharedLog log;
    private final SharedTxnManager txn;
    private final List<ResourceManager> resourceManagers;

    private TxnEnvironment(Environment env, SharedLog log, SharedTxnManager txn, List<ResourceManager> rms) {
        this.env = env;
        this.log = log;
        this.txn = txn;
        this.resourceManagers = rms;
    }

    /** Opens with the real file system. */
    public static TxnEnvironment open(Path home, EnvironmentConfig envConfig, LogConfig logConfig, TxnConfig txnConfig,
                                      BiFunction<Environment, Storage, List<ResourceManager>> resourceManagers) {
        return open(home, envConfig, logConfig, txnConfig, new FileStorage(home), resourceManagers);
    }

    /** Opens with the given storage (tests inject faults through it). */
    public static TxnEnvironment open(Path home, EnvironmentConfig envConfig, LogConfig logConfig, TxnConfig txnConfig,
                                      Storage storage,
                                      BiFunction<Environment, Storage, List<ResourceManager>> resourceManagers) {
        Environment env = Environment.open(home, envConfig);
        SharedLog log = null;
        try {
            log = SharedLog.open(env, storage, logConfig);
            List<ResourceManager> rms = List.copyOf(resourceManagers.apply(env, storage));
            SharedTxnManager txn = SharedTxnManager.open(env, log, txnConfig, rms);
            return new TxnEnvironment(env, log, txn, rms);
        } catch (RuntimeException | Error e) {
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

    public Environment env() {
        return env;
    }

    public SharedLog log() {
        return log;
    }

    public SharedTxnManager txn() {
        return txn;
    }

    public List<ResourceManager> resourceManagers() {
        return resourceManagers;
    }

    @Override
    public void close() {
        try {
            txn.close();
            log.close();
        } finally {
            env.close();
        }
    }
}
