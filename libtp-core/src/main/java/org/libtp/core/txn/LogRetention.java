package org.libtp.core.txn;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.Arrays;

import static org.libtp.core.txn.TxnLayout.*;

/**
 * Which log files recovery still needs (archiving, {@code db_archive}'s question), the hot
 * backup's pin that holds files back while it copies them, and their removal. The pin and the
 * removal both run under the checkpoint latch (see the package note, "Archiving").
 */
final class LogRetention {
    private static final Logger LOG = LoggerFactory.getLogger(LogRetention.class);

    private final RegionEnvironment env;
    private final SharedLog log;
    private final Memory mem;
    private final Latch ckpLatch;
    private final int max;

    LogRetention(RegionEnvironment env, SharedLog log, Memory mem, Latch ckpLatch, int max) {
        this.env = env;
        this.log = log;
        this.mem = mem;
        this.ckpLatch = ckpLatch;
        this.max = max;
    }

    /**
     * Log files that recovery no longer needs: every record in them is before the last
     * checkpoint's redo point and before the first record of every active transaction, and no
     * running hot backup still has to copy them. Like {@code db_archive}; the caller may copy
     * them elsewhere, then {@link #removeLogFiles}.
     */
    int[] archivableLogFiles() {
        long horizon = recoveryHorizon();
        long pin = backupPin();
        if (pin != Lsn.NULL) {
            horizon = Math.min(horizon, pin);
        }
        int limit = Lsn.file(horizon);
        return Arrays.stream(log.fileNumbers()).filter(n -> n < limit).toArray();
    }

    /**
     * The oldest LSN recovery would read now: the last checkpoint's redo LSN, or the first record
     * of a transaction that checkpoint lists as active (even one that has ended since), or of a
     * transaction running now.
     */
    private long recoveryHorizon() {
        long horizon = Math.min(mem.getLongVolatile(OFF_LAST_CKP_REDO), mem.getLongVolatile(OFF_LAST_CKP_FROM));
        for (int i = 0; i < max; i++) {
            long e = TxnLayout.entry(i);
            if (mem.getIntVolatile(e + E_STATE) != FREE) {
                long first = mem.getLongVolatile(e + E_FIRST);
                if (first != Lsn.NULL && first < horizon) {
                    horizon = first;
                }
            }
        }
        return horizon;
    }

    /** The running hot backup's first LSN, or NULL if none runs (or its process died). */
    private long backupPin() {
        long pin = mem.getLongVolatile(OFF_BACKUP_FROM);
        if (pin == Lsn.NULL) {
            return Lsn.NULL;
        }
        int owner = mem.getIntVolatile(OFF_BACKUP_OWNER);
        return env.slotGeneration(owner) == mem.getLongVolatile(OFF_BACKUP_OWNER_GEN) ? pin : Lsn.NULL;
    }

    /**
     * Starts a hot backup in this process: from now until {@link #endBackup()} no process removes
     * a log file the backup may still copy. Returns the first LSN it must copy: where recovery
     * would start reading now, or {@code atMost} if that is older (an incremental backup continues
     * where the previous one ended). Under the checkpoint latch, so no checkpoint is between
     * choosing its log files to remove and removing them. One backup at a time per environment.
     *
     * @throws IllegalStateException if a backup is running in a live process
     */
    long beginBackup(long atMost) {
        ckpLatch.acquire();
        try {
            if (backupPin() != Lsn.NULL) {
                throw new IllegalStateException("a hot backup of " + env.home() + " is running in process slot "
                        + mem.getIntVolatile(OFF_BACKUP_OWNER) + "; wait until it ends");
            }
            long from = recoveryHorizon();
            if (atMost != Lsn.NULL) {
                from = Math.min(from, atMost);
            }
            int slot = env.processSlot();
            mem.putLongVolatile(OFF_BACKUP_FROM, Lsn.NULL);
            mem.putIntVolatile(OFF_BACKUP_OWNER, slot);
            mem.putLongVolatile(OFF_BACKUP_OWNER_GEN, env.slotGeneration(slot));
            mem.putLongVolatile(OFF_BACKUP_FROM, from);
            return from;
        } finally {
            ckpLatch.release();
        }
    }

    /** Ends this process's hot backup: log files it pinned may be removed again. */
    void endBackup() {
        ckpLatch.acquire();
        try {
            if (mem.getIntVolatile(OFF_BACKUP_OWNER) == env.processSlot()) {
                mem.putLongVolatile(OFF_BACKUP_FROM, Lsn.NULL);
            }
        } finally {
            ckpLatch.release();
        }
    }

    /**
     * After a checkpoint: removes the log files recovery no longer needs. A failure leaves them
     * for the next checkpoint (logged): they take space, nothing else.
     */
    void removeQuietly() {
        try {
            int n = removeLogFilesLatched();
            if (n > 0) {
                LOG.debug("removed {} log files of {} that recovery no longer needs", n, env.home());
            }
        } catch (RuntimeException e) {
            LOG.warn("could not remove old log files of {} ({}); the next checkpoint tries again", env.home(), e.toString());
        }
    }

    /**
     * Deletes the log files {@link #archivableLogFiles()} names; returns how many. Under the
     * checkpoint latch, which a hot backup takes to pin its files.
     */
    int removeLogFiles() {
        ckpLatch.acquire();
        try {
            return removeLogFilesLatched();
        } finally {
            ckpLatch.release();
        }
    }

    private int removeLogFilesLatched() {
        int[] files = archivableLogFiles();
        for (int n : files) {
            log.removeFile(n);
        }
        return files.length;
    }
}
