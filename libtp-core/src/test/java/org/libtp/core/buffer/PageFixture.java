package org.libtp.core.buffer;

import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.SharedTxnManager;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Path;
import java.util.List;

/**
 * A {@link TxnEnvironment} with a small buffer pool and one data file of pages holding long
 * counters at {@code 32 + 8 * slot}, changed through logged page updates.
 */
public final class PageFixture implements AutoCloseable {
    public static final String FILE = "pages.db";
    public final TxnEnvironment tp;
    public final SharedBufferPool bp;
    public final SharedTxnManager tm;
    public final int file;

    public PageFixture(Path home, int frames, long failCheckMillis) {
        this(home, frames, failCheckMillis, TxnConfig.defaults(), new FileStorage(home));
    }

    public PageFixture(Path home, int frames, long failCheckMillis, TxnConfig txnConfig, Storage storage) {
        tp = TxnEnvironment.open(home,
                RegionEnvironmentConfig.builder().latchCheckMillis(50).failCheckMillis(failCheckMillis).build(),
                LogConfig.builder().fileSize(1024 * 1024).bufferSize(256 * 1024).build(), txnConfig,
                BufferConfig.builder().pageSize(4096).poolBytes(4096L * frames).partitions(16).build(),
                org.libtp.core.lock.LockConfig.defaults(), storage,
                parts -> List.of());
        bp = tp.buffers();
        tm = tp.txn();
        file = bp.open(FILE);
    }

    public static int offset(int slot) {
        return PageHeader.SIZE + 8 * slot;
    }

    public long get(long page, int slot) {
        Page p = bp.get(file, page, BufferManager.CREATE);
        try {
            return p.getLong(offset(slot));
        } finally {
            bp.unpin(p, false);
        }
    }

    /** Adds {@code delta} to the counter in {@code txn}; returns the new value. */
    public long add(Txn txn, long page, int slot, long delta) {
        Page p = bp.get(file, page, BufferManager.CREATE);
        try {
            p.latch();
            try {
                long v = p.getLong(offset(slot)) + delta;
                tp.pages().update(txn, p, offset(slot), longBytes(v));
                return v;
            } finally {
                p.unlatch();
            }
        } finally {
            bp.unpin(p, true);
        }
    }

    public static byte[] longBytes(long v) {
        byte[] b = new byte[8];
        for (int i = 0; i < 8; i++) {
            b[i] = (byte) (v >>> (8 * i));
        }
        return b;
    }

    @Override
    public void close() {
        tp.close();
    }
}
