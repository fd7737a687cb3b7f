package org.libtp.core.txn;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.tp.TxnEnvironment;

import java.nio.file.Path;
import java.util.List;

/** A {@link TxnEnvironment} with the test slot store. */
final class TxnFixture implements AutoCloseable {
    static final int SLOTS = 1024;
    final TxnEnvironment tp;
    final RegionEnvironment env;
    final SharedLog log;
    final SlotStore store;
    final SharedTxnManager tm;

    TxnFixture(Path home, long failCheckMillis, TxnConfig txnConfig) {
        this(home, failCheckMillis, txnConfig, new FileStorage(home));
    }

    TxnFixture(Path home, long failCheckMillis, TxnConfig txnConfig, Storage storage) {
        this(home, failCheckMillis, txnConfig, storage, true);
    }

    TxnFixture(Path home, long failCheckMillis, TxnConfig txnConfig, Storage storage, boolean autoRemoveLogs) {
        tp = TxnEnvironment.open(home,
                RegionEnvironmentConfig.builder().latchCheckMillis(50).failCheckMillis(failCheckMillis).build(),
                LogConfig.builder().fileSize(256 * 1024).bufferSize(64 * 1024).autoRemove(autoRemoveLogs).build(),
                txnConfig, storage,
                (env, s) -> List.of(new SlotStore(env, s, SLOTS)));
        env = tp.env();
        log = tp.log();
        store = (SlotStore) tp.resourceManagers().get(0);
        tm = tp.txn();
    }

    TxnFixture(Path home) {
        this(home, 0, TxnConfig.defaults());
    }

    @Override
    public void close() {
        tp.close();
    }
}
