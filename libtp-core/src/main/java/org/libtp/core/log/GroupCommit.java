package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.*;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.storage.Storage;
import org.libtp.core.sync.SharedEvent;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Group commit: leader/follower flushes of the log with the paper's three thresholds, through
 * the leader word and the flush event of the log region.
 */
final class GroupCommit {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLog.class);

    private final RegionEnvironment env;
    private final Storage storage;
    private final Memory mem;
    private final LogConfig config;
    private final LogBuffer buffer;
    private final LogFiles files;
    private final long leaderMe;
    private final SharedEvent flushed;

    GroupCommit(RegionEnvironment env, Storage storage, Region region, LogConfig config, LogBuffer buffer,
                LogFiles files) {
        this.env = env;
        this.storage = storage;
        this.mem = region.memory();
        this.config = config;
        this.buffer = buffer;
        this.files = files;
        this.leaderMe = (long) (env.processSlot() + 1) << 40 | (env.slotGeneration(env.processSlot()) & GEN_MASK);
        this.flushed = env.event(region, OFF_FLUSH_EVENT);
    }

    // ------------------------------------------------------------------ flush / group commit

    void flush(long upTo, Durability durability) {
        files.checkOpen();
        switch (durability) {
            case NO_SYNC:
                return;
            case WRITE_NO_SYNC:
                // The buffer outlives every process and the next first opener salvages it
                // (LogSalvage), which is the promise of WRITE_NO_SYNC without a write(2) per
                // commit; where that cannot be known safe (no boot id), the commit writes.
                if (salvageable()) {
                    return;
                }
                if (mem.getLongVolatile(OFF_WRITTEN_LSN) < upTo) {
                    buffer.writeOut();
                }
                return;
            case SYNC:
                flushSync(upTo);
                return;
            default:
                throw new IllegalArgumentException(String.valueOf(durability));
        }
    }

    /** Whether the log buffer would be salvaged after every process died (the region has a boot id). */
    boolean salvageable() {
        return mem.getLong(OFF_BOOT_ID) != 0 || mem.getLong(OFF_BOOT_ID + 8) != 0;
    }

    /**
     * Leader/follower group commit. Whoever takes the leader word leads: it may wait a little
     * for more committers (the paper's three thresholds), writes everything buffered, forces,
     * publishes flushedLsn and wakes every follower. The others sleep on the flush event until
     * flushedLsn covers them, or take the lead themselves when the latch is free.
     */
    private void flushSync(long upTo) {
        if (mem.getLongVolatile(OFF_FLUSHED_LSN) >= upTo) {
            return;
        }
        mem.getAndAddInt(OFF_COMMITTERS, 1);
        try {
            while (true) {
                int gen = flushed.generation();
                if (mem.getLongVolatile(OFF_FLUSHED_LSN) >= upTo) {
                    return;
                }
                if (mem.compareAndSetLong(OFF_LEADER, 0, leaderMe)) {
                    try {
                        if (mem.getLongVolatile(OFF_FLUSHED_LSN) >= upTo) {
                            return;
                        }
                        groupDelay();
                        lead();
                    } finally {
                        mem.putLongVolatile(OFF_LEADER, 0);
                    }
                    flushed.signalAll();
                    continue;
                }
                flushed.await(gen, TimeUnit.MILLISECONDS.toNanos(100));
                env.checkValid();
                takeOverFromDeadLeader();
            }
        } finally {
            mem.getAndAddInt(OFF_COMMITTERS, -1);
        }
    }

    /**
     * A follower's check after waiting: if the leader's process is dead (its liveness lock is
     * free, or its slot was freed or reused), clear the leader word so that a live committer
     * leads. The dead leader's half-done work is redone: writeOut from writtenLsn and a force
     * of the current file cover it.
     */
    private void takeOverFromDeadLeader() {
        long w = mem.getLongVolatile(OFF_LEADER);
        if (w == 0 || w == leaderMe) {
            return;
        }
        int slot = (int) (w >>> 40) - 1;
        boolean gone = (env.slotGeneration(slot) & GEN_MASK) != (w & GEN_MASK) || !env.isProcessAlive(slot);
        if (gone && mem.compareAndSetLong(OFF_LEADER, w, 0)) {
            LOG.warn("the group-commit leader (process slot {}) of {} died during a log write or force; "
                    + "another committer takes over", slot, storage.directory());
        }
    }

    /** The paper's thresholds: wait for more committers when enough transactions are active. */
    private void groupDelay() {
        int active = mem.getIntVolatile(OFF_ACTIVE_TXNS);
        if (config.maxGroupDelayMicros() == 0 || active < config.groupThreshold()) {
            return;
        }
        long deadline = System.nanoTime() + TimeUnit.MICROSECONDS.toNanos(config.maxGroupDelayMicros());
        while (System.nanoTime() < deadline) {
            int waiting = mem.getIntVolatile(OFF_COMMITTERS);
            long unflushed = mem.getLongVolatile(OFF_NEXT_LSN) - mem.getLongVolatile(OFF_FLUSHED_LSN);
            if (waiting * 100 >= config.waitThresholdPercent() * active || unflushed >= config.logDelayBytes()) {
                return;
            }
            Thread.onSpinWait();
        }
    }

    /** As the leader: write everything buffered, force, publish. */
    private void lead() {
        long target = buffer.writeOut();
        long from = mem.getLongVolatile(OFF_FLUSHED_LSN);
        try {
            // Files before target's were forced when the log switched away from them.
            long t0 = System.nanoTime();
            files.file(Lsn.file(target)).force();
            files.counted(t0);
        } catch (IOException e) {
            // Never retried: after a failed fsync the kernel may have dropped the pages.
            throw env.fail("force of log file " + LogFileHeader.fileName(Lsn.file(target)) + " failed (" + e
                    + "); records from " + Lsn.toString(from) + " may be lost");
        }
        long cur = mem.getLongVolatile(OFF_FLUSHED_LSN);
        while (cur < target && !mem.compareAndSetLong(OFF_FLUSHED_LSN, cur, target)) {
            cur = mem.getLongVolatile(OFF_FLUSHED_LSN);
        }
    }

    /** Group commit hint from the transaction manager: a transaction began (+1) or ended (-1). */
    void activeTransactions(int delta) {
        mem.getAndAddInt(OFF_ACTIVE_TXNS, delta);
    }

    /** The hint counted again ({@code n}); begins and ends racing with it leave it off by one at most, for a while. */
    void resetActiveTransactions(int n) {
        mem.putIntVolatile(OFF_ACTIVE_TXNS, n);
    }
}
