package org.libtp.core.lock;

import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.SharedTxnManager;
import org.libtp.core.txn.SlotStore;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Path;
import java.util.List;

/** A {@link TxnEnvironment} (with its {@link SharedLockManager}) and the test slot store. */
final class LockFixture implements AutoCloseable {
    static final int SLOTS = 256;
    final TxnEnvironment tp;
    final RegionEnvironment env;
    final SharedTxnManager tm;
    final SlotStore store;
    final SharedLockManager lm;

    LockFixture(Path home, long failCheckMillis, LockConfig lockConfig) {
        this(home, failCheckMillis, TxnConfig.defaults(), lockConfig);
    }

    LockFixture(Path home, long failCheckMillis, TxnConfig txnConfig, LockConfig lockConfig) {
        tp = TxnEnvironment.open(home,
                RegionEnvironmentConfig.builder().latchCheckMillis(50).failCheckMillis(failCheckMillis).build(),
                LogConfig.builder().fileSize(256 * 1024).bufferSize(64 * 1024).build(), txnConfig,
                BufferConfig.builder().poolBytes(1L << 20).build(), lockConfig, new FileStorage(home),
                parts -> List.of(new SlotStore(parts.env(), parts.storage(), SLOTS)));
        env = tp.env();
        tm = tp.txn();
        store = (SlotStore) tp.resourceManagers().get(0);
        lm = tp.locks();
    }

    static LockObject page(long p) {
        return new LockObject(1, p);
    }

    @Override
    public void close() {
        tp.close(); // closes the lock manager too
    }
}
