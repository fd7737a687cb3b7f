package org.libtp.core.txn;

import org.libtp.core.env.Environment;
import org.libtp.core.env.EnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;

import java.nio.file.Path;
import java.util.List;

/** Environment + log + slot store + transaction manager, opened and closed together. */
final class TxnFixture implements AutoCloseable {
    static final int SLOTS = 1024;
    final Environment env;
    final SharedLog log;
    final SlotStore store;
    final SharedTxnManager tm;

    TxnFixture(Path home, long failCheckMillis, TxnConfig txnConfig) {
        this(home, failCheckMillis, txnConfig, new FileStorage(home));
    }

    TxnFixture(Path home, long failCheckMillis, TxnConfig txnConfig, org.libtp.core.storage.Storage storage) {
        env = Environment.open(home, EnvironmentConfig.builder().latchCheckMillis(50)
                .failCheckMillis(failCheckMillis).build());
        SharedLog l = null;
        try {
            l = SharedLog.open(env, storage, LogConfig.builder().fileSize(256 * 1024).bufferSize(64 * 1024).build());
            store = new SlotStore(env, storage, SLOTS);
            tm = SharedTxnManager.open(env, l, txnConfig, List.of(store));
        } catch (RuntimeException | Error e) {
            if (l != null) {
                l.close();
            }
            env.close();
            throw e;
        }
        log = l;
    }

    TxnFixture(Path home) {
        this(home, 0, TxnConfig.defaults());
    }

    @Override
    public void close() {
        tm.close();
        log.close();
        env.close();
    }
}
