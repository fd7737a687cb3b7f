package org.libtp.core.txn;

import org.libtp.core.OutOfSpaceException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import static org.libtp.core.txn.TxnLayout.*;

/**
 * Checkpoints (paper 3.2.5, fuzzy): when one is due, the process's checkpoint thread that takes
 * it, and the checkpoint itself (see the package note). Shares the transaction region with
 * {@link SharedTxnManager}: it reads the table for the active transactions' first LSNs and
 * publishes the last checkpoint's LSNs there.
 */
final class Checkpointer {
    private static final Logger LOG = LoggerFactory.getLogger(Checkpointer.class);

    private final RegionEnvironment env;
    private final SharedLog log;
    private final TxnConfig config;
    private final Memory mem;
    private final Latch txnLatch;
    private final Latch ckpLatch;
    private final int max;
    private final List<ResourceManager> managers;
    private final LogRetention retention;
    private volatile boolean closed;

    Checkpointer(RegionEnvironment env, SharedLog log, TxnConfig config, Memory mem, Latch txnLatch, Latch ckpLatch,
                 List<ResourceManager> managers, LogRetention retention) {
        this.env = env;
        this.log = log;
        this.config = config;
        this.mem = mem;
        this.txnLatch = txnLatch;
        this.ckpLatch = ckpLatch;
        this.max = config.maxTransactions();
        this.managers = managers;
        this.retention = retention;
    }

    /**
     * Called after every commit: asks for a checkpoint when the log has grown by
     * {@code checkpointBytes} (or {@code checkpointSeconds} passed) since the last one. The
     * checkpoint is taken by this process's checkpoint thread, not by the committer: it writes
     * and forces data pages, which would otherwise stall whichever commit crossed the line (a
     * third of a no-sync TPC-B run at MPL 1). If the log runs ahead by four times the interval
     * anyway (the thread cannot keep up), the committer takes it itself, which bounds recovery
     * time as before.
     */
    void maybeCheckpoint() {
        if (System.nanoTime() - spaceBackoffFrom < SPACE_BACKOFF_NANOS) {
            return; // the last attempt found no space: each attempt logs page images, eating the log's reserve
        }
        long distance = logSinceCheckpoint();
        long bytes = config.checkpointBytes();
        boolean due = bytes > 0 && distance > bytes || ageDue(distance);
        if (!due || checkpointing) {
            return;
        }
        if (bytes > 0 && distance > 4 * bytes || !wakeCheckpointer()) {
            if (ckpLatch.tryAcquire()) { // someone is already at it otherwise
                ckpLatch.release();
                try {
                    checkpoint(false);
                } catch (RunRecoveryException e) {
                    throw e;
                } catch (RuntimeException e) {
                    // The commit itself succeeded: a checkpoint that could not be taken (no
                    // space to write pages or its record) is retried past the next interval.
                    noteFailure(e);
                    LOG.warn("checkpoint of {} after a commit failed (retried later): {}", env.home(), e.toString());
                }
            }
        }
    }

    /**
     * Log written since the last checkpoint record (not since its redo point): what the
     * checkpoint itself logged (the page images of the pages it wrote, with torn-write
     * protection) must not make the next one due at once, or checkpoints would follow each other
     * without pause.
     */
    private long logSinceCheckpoint() {
        return logSince(Math.max(mem.getLongVolatile(OFF_LAST_CKP_REDO), mem.getLongVolatile(OFF_LAST_CKP)));
    }

    /** Bytes of log from {@code lsn} to the end. */
    private long logSince(long lsn) {
        long end = log.endLsn();
        return (Lsn.file(end) - (long) Lsn.file(lsn)) * log.fileSize() + Lsn.offset(end) - Lsn.offset(lsn);
    }

    private boolean ageDue(long distance) {
        return config.checkpointSeconds() > 0 && distance > 0
                && System.currentTimeMillis() - mem.getLongVolatile(OFF_LAST_CKP_MILLIS) > config.checkpointSeconds() * 1000;
    }

    /**
     * A checkpoint that fails for want of space is not tried again for a second: each attempt
     * logs the image of every page it tries to write (torn-write protection), and while the disk
     * stays full those images would eat the log space that aborts and structure changes need.
     */
    static final long SPACE_BACKOFF_NANOS = TimeUnit.SECONDS.toNanos(1);
    private volatile long spaceBackoffFrom = System.nanoTime() - SPACE_BACKOFF_NANOS;

    private void noteFailure(RuntimeException e) {
        if (e instanceof OutOfSpaceException) {
            spaceBackoffFrom = System.nanoTime();
        }
    }

    /** Set by the checkpoint thread while it works, so that commits do not keep waking it. */
    private volatile boolean checkpointing;
    private Thread checkpointer; // guarded by this

    /** Wakes (starting it the first time) this process's checkpoint thread; false once closed. */
    private boolean wakeCheckpointer() {
        Thread t;
        synchronized (this) {
            if (closed) {
                return false;
            }
            t = checkpointer;
            if (t == null) {
                t = new Thread(this::checkpointLoop, "libtp-checkpoint " + env.home());
                t.setDaemon(true);
                checkpointer = t;
                t.start();
            }
        }
        LockSupport.unpark(t);
        return true;
    }

    private void checkpointLoop() {
        while (!closed) {
            LockSupport.park(this);
            if (closed) {
                return;
            }
            long bytes = config.checkpointBytes();
            long distance = logSinceCheckpoint();
            if (!(bytes > 0 && distance > bytes || ageDue(distance))) {
                continue; // a stale wake-up: another thread or process took it meanwhile
            }
            checkpointing = true;
            try {
                if (ckpLatch.tryAcquire()) { // another process's checkpoint thread may be at it
                    ckpLatch.release();
                    checkpoint(false);
                }
            } catch (RunRecoveryException e) {
                LOG.debug("checkpoint thread of {} stops: {}", env.home(), e.toString());
                return; // every later call fails anyway
            } catch (RuntimeException e) {
                if (closed) {
                    return;
                }
                noteFailure(e);
                LOG.warn("background checkpoint of {} failed (the next commit past the interval retries): {}",
                        env.home(), e.toString());
            } finally {
                checkpointing = false;
            }
        }
    }

    /**
     * Takes a checkpoint now. {@code full}: every change logged so far is written to the data
     * files (a sharp checkpoint, as at a clean close: the next recovery redoes nothing);
     * otherwise only pages dirty since before the previous checkpoint are (fuzzy).
     */
    long checkpoint(boolean full) {
        return checkpoint(full ? Mode.FULL : Mode.FUZZY);
    }

    /**
     * The checkpoint that ends recovery, at open: if recovery changed pages ({@code changed}), it
     * logs the active transactions and the dirty-page table (those pages, with their oldest LSNs)
     * and writes no page unless the table would not fit in its record. Writing them all first (a
     * sharp checkpoint) was most of the time from open to the first commit after a crash; they
     * are written by the next checkpoint, due by the usual rules (log volume, time), in the
     * background. Until then a crash redoes from where this recovery did; so that crashes in a
     * row cannot let that distance grow without bound, a recovery that redid more than two
     * checkpoint intervals of log writes the pages now, as before.
     */
    long checkpointAfterRecovery(boolean changed) {
        long distance = logSince(mem.getLongVolatile(OFF_LAST_CKP_REDO)); // what this recovery redid
        long bytes = config.checkpointBytes();
        boolean writeNothing = changed && !(bytes > 0 && distance > 2 * bytes);
        return checkpoint(writeNothing ? Mode.AFTER_RECOVERY : Mode.FUZZY);
    }

    /** What a checkpoint writes: every dirty page, those dirty since before the previous one, or none. */
    private enum Mode { FULL, FUZZY, AFTER_RECOVERY }

    private long checkpoint(Mode mode) {
        boolean full = mode == Mode.FULL;
        ckpLatch.acquire();
        try {
            long redo = log.endLsn();
            List<LogRecord.ActiveTxn> active = new ArrayList<>();
            for (int i = 0; i < max; i++) {
                long e = TxnLayout.entry(i);
                if (mem.getIntVolatile(e + E_STATE) != FREE) {
                    long first = mem.getLongVolatile(e + E_FIRST);
                    if (first != Lsn.NULL) {
                        active.add(new LogRecord.ActiveTxn(mem.getLong(e + E_ID), first));
                    }
                }
            }
            long begin = redo;
            long previous = mem.getLongVolatile(OFF_LAST_CKP_BEGIN);
            log.flush(begin, Durability.SYNC); // write-ahead: the log before the data
            // The dirty-page table must fit in the log buffer with the rest of the record.
            int room = Math.max(0, (log.bufferSize() / 2 - 64 - 16 * active.size()) / 20);
            List<LogRecord.DirtyPage> dirty = new ArrayList<>();
            for (ResourceManager rm : managers) {
                long writeBefore = mode == Mode.AFTER_RECOVERY ? Lsn.NULL : full || previous == Lsn.NULL ? begin : previous;
                dirty.addAll(rm.checkpoint(begin, writeBefore, Math.max(0, room - dirty.size())));
            }
            for (LogRecord.DirtyPage d : dirty) {
                redo = Math.min(redo, d.recLsn()); // redo from the oldest change not yet written
            }
            long nextId;
            txnLatch.acquire();
            try {
                nextId = mem.getLong(OFF_NEXT_ID);
            } finally {
                txnLatch.release();
            }
            byte[] payload = LogRecords.encode(new LogRecord.Checkpoint(redo, nextId, active, dirty));
            long lsn = log.append(RecordType.CHECKPOINT.id(), 0, Lsn.NULL, payload, false);
            long end = lsn + LogRecordCodec.HEADER_SIZE + payload.length;
            log.flush(end, Durability.SYNC);
            log.anchorAt(end, lsn); // the log must reach this checkpoint at every later open; recovery starts there
            mem.putLongVolatile(OFF_LAST_CKP, lsn);
            long from = redo;
            for (LogRecord.ActiveTxn a : active) {
                from = Math.min(from, a.firstLsn());
            }
            mem.putLongVolatile(OFF_LAST_CKP_FROM, from);
            mem.putLongVolatile(OFF_LAST_CKP_REDO, redo);
            mem.putLongVolatile(OFF_LAST_CKP_MILLIS, System.currentTimeMillis());
            mem.putLongVolatile(OFF_LAST_CKP_BEGIN, begin);
            if (log.autoRemove()) {
                retention.removeQuietly();
            }
            return lsn;
        } finally {
            ckpLatch.release();
        }
    }

    /** Stops this process's checkpoint thread, letting a checkpoint in progress finish first. */
    void close() {
        Thread t;
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
            t = checkpointer;
        }
        if (t != null) {
            // Let a checkpoint in progress finish before the pool and log under it close.
            LockSupport.unpark(t);
            try {
                t.join(TimeUnit.MINUTES.toMillis(1));
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (t.isAlive()) {
                LOG.warn("checkpoint thread of {} still running at close", env.home());
            }
        }
    }
}
