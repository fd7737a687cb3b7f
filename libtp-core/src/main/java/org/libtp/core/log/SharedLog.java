package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.*;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.function.Predicate;

/**
 * The log manager on a shared region ({@code __libtp.rgn.log}); its layout and invariants are
 * {@link LogLayout}'s. Each process has its own file handles; any process may write and force.
 * The work is done by its parts: {@link LogBuffer} (appends, LSNs, writes to the OS),
 * {@link GroupCommit} (flushes), {@link LogFiles} (files, allocation ahead, the end of the log
 * at open); this class is the {@link LogManager} face, with reads and scans.
 */
public final class SharedLog implements LogManager {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLog.class);
    private final RegionEnvironment env;
    private final Storage storage;
    private final Memory mem;
    private final Latch logLatch;
    private final Latch writeLatch;
    private final long fileSize;
    private final int bufferSize;
    private final LogConfig config;
    private final LogFiles files;
    private final LogBuffer buffer;
    private final GroupCommit commit;
    private final Region region;
    /** The latch views registered with their repairs (one array each: see {@link #registerRepairs}). */
    private final Latch[][] repairViews;

    private SharedLog(RegionEnvironment env, Storage storage, Region region, LogConfig config) {
        this.env = env;
        this.storage = storage;
        this.mem = region.memory();
        this.logLatch = env.latch(region, OFF_LOG_LATCH, "log latch");
        this.writeLatch = env.latch(region, OFF_WRITE_LATCH, "log write latch");
        this.config = config;
        this.fileSize = mem.getLong(OFF_FILE_SIZE);
        this.bufferSize = mem.getInt(OFF_BUFFER_SIZE);
        // The tail of each log file kept for records that must not fail for want of space: those
        // that undo (compensations, abort records), commit, or log a change already made (page
        // images). Other records switch to the next file, or are refused with
        // OutOfSpaceException, before they would eat into it.
        long reserve = Math.min(fileSize / 8, 256 * 1024);
        Latch allocLatch = env.latch(region, OFF_ALLOC_LATCH, "log alloc latch");
        this.files = new LogFiles(env, storage, mem, allocLatch, fileSize, bufferSize, reserve);
        this.buffer = new LogBuffer(env, storage, mem, logLatch, writeLatch, files, fileSize, bufferSize, reserve);
        this.commit = new GroupCommit(env, storage, region, config, buffer, files);
        this.region = region;
        this.repairViews = new Latch[][] {{logLatch}, {writeLatch}, {allocLatch}};
    }

    /**
     * What each latch of the log region guards, when its holder dies: the log latch, the buffer
     * and the end of the log, consistent at every instant (a record is copied in before nextLsn
     * moves past it; a move of the unwritten tail leaves its source intact until bufferStartLsn
     * moves) except within a file switch, which the repair finishes ({@link LogBuffer#repairLogLatch});
     * the write latch, nothing (writtenLsn moves only after the write(2), so the next writer
     * writes the same bytes again); the alloc latch, nothing (allocated moves only after the
     * zeros are written).
     */
    private void registerRepairs() {
        env.repairLatches(region, repairViews[0], (k, dead) -> buffer.repairLogLatch());
        env.repairLatches(region, repairViews[1], (k, dead) -> null);
        env.repairLatches(region, repairViews[2], (k, dead) -> null);
    }

    static RegionSpec spec(LogConfig config) {
        return spec(config.bufferSize());
    }

    /** The log region's spec with a buffer of {@code bufferSize} bytes. */
    static RegionSpec spec(long bufferSize) {
        return new RegionSpec("log", OFF_BUFFER + bufferSize, LAYOUT_VERSION, FINGERPRINT,
                new LatchArray(OFF_LOG_LATCH, 64, 1, true), new LatchArray(OFF_WRITE_LATCH, 64, 1, true),
                new LatchArray(OFF_ALLOC_LATCH, 64, 1, true));
    }

    /**
     * Opens the log of {@code env} on {@code storage}. The first process (the log region is new)
     * finds the end of the log, truncating a torn tail; later ones attach.
     */
    public static SharedLog open(RegionEnvironment env, Storage storage, LogConfig config) {
        Region region = env.region(spec(config));
        Memory m = region.memory();
        SharedLog log;
        if (m.getIntVolatile(OFF_STATE) != 0) {
            // Attaching to a running log takes no latch: a holder that died in it is repaired by
            // the views registered below, which this one is not yet.
            log = new SharedLog(env, storage, region, config);
            log.registerRepairs();
            return log;
        }
        Latch latch = env.latch(region, OFF_LOG_LATCH, "log latch");
        latch.acquire();
        try {
            if (m.getIntVolatile(OFF_STATE) == 0) {
                m.putLong(OFF_FILE_SIZE, config.fileSize());
                m.putInt(OFF_BUFFER_SIZE, config.bufferSize());
                log = new SharedLog(env, storage, region, config);
                try {
                    long end = log.files.recoverEnd();
                    // Records the last run committed without writing them (NO_SYNC, WRITE_NO_SYNC)
                    // are in its kept buffer: into the log before recovery reads it.
                    end = LogSalvage.salvage(env, log.files, m.getLong(OFF_LOG_ID), end);
                    long[] boot = LogSalvage.bootId();
                    m.putLong(OFF_BOOT_ID, boot[0]);
                    m.putLong(OFF_BOOT_ID + 8, boot[1]);
                    log.buffer.setEnd(end);
                    m.putLong(OFF_FLUSHED_LSN, end);
                    // How far the last file is allocated is not known: from its end on, the first
                    // appends write zeros again (harmless over zeros or a torn tail).
                    m.putLongVolatile(OFF_ALLOCATED, m.getLongVolatile(OFF_NEXT_LSN));
                    m.putIntVolatile(OFF_STATE, 1);
                } catch (RuntimeException | Error e) {
                    // A refused log (damaged, of another environment) must not keep the files it
                    // read open: the caller gets no handle to close them with.
                    log.files.close();
                    throw e;
                }
            } else {
                log = new SharedLog(env, storage, region, config);
            }
        } finally {
            latch.release();
        }
        log.registerRepairs();
        return log;
    }

    /**
     * Raises the anchor's minimum end to {@code lsn}, which must be forced already. The caller
     * serializes (the transaction manager calls it under its checkpoint latch, after a
     * checkpoint's force). A failure to write it is logged and ignored: an anchor that lags
     * only weakens the check at open, it never makes it wrong.
     */
    public void anchorAt(long lsn) {
        anchorAt(lsn, 0);
    }

    /**
     * {@link #anchorAt(long)} for the checkpoint record at {@code checkpointLsn}, which ends at
     * {@code lsn}: the anchor names it, so that recovery finds it without reading the log.
     */
    public void anchorAt(long lsn, long checkpointLsn) {
        files.checkOpen();
        if (lsn <= mem.getLongVolatile(OFF_ANCHOR_MIN_END)) {
            return;
        }
        if (lsn > flushedLsn()) {
            throw new IllegalArgumentException("anchor LSN " + Lsn.toString(lsn) + " is not forced yet (flushed "
                    + Lsn.toString(flushedLsn()) + ")");
        }
        LogAnchor a = new LogAnchor(mem.getLong(OFF_ENV_ID), mem.getLong(OFF_LOG_ID), lsn, mem.getLong(OFF_ANCHOR_CREATED),
                checkpointLsn);
        try {
            storage.replaceFile(LogAnchor.FILE, a.encode());
            mem.putLongVolatile(OFF_ANCHOR_MIN_END, lsn);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not update the log anchor {} to LSN {} ({}); the open-time check of the log's end uses "
                    + "the previous value", files.where(LogAnchor.FILE), Lsn.toString(lsn), e.toString());
            try {
                storage.delete(LogAnchor.FILE + ".new");
            } catch (IOException ignored) {
                LOG.debug("could not delete {}.new: {}", LogAnchor.FILE, ignored.toString());
            }
        }
    }

    /** The environment's random id (from the anchor). */
    @Override
    public long environmentId() {
        return mem.getLong(OFF_ENV_ID);
    }

    /** The minimum end of the log the anchor records (0: none yet). */
    public long anchoredEnd() {
        return mem.getLongVolatile(OFF_ANCHOR_MIN_END);
    }

    // ------------------------------------------------------------------ append

    /**
     * Appends a record that may use the reserve at the end of each log file (see
     * {@link #append(int, long, long, byte[], boolean)}): for compensations, abort and commit
     * records and changes already made.
     */
    @Override
    public long append(int type, long txnId, long prevLsn, byte[] payload) {
        return append(type, txnId, prevLsn, payload, true);
    }

    /**
     * Appends a record. {@code mayUseReserve}: the record must not fail for want of space (it
     * undoes, commits, or logs a change already made), so it may use the reserve kept at the end
     * of each log file; otherwise (a change not made yet, a checkpoint) it leaves the reserve
     * free, switching to the next file before it would eat into it.
     *
     * @throws OutOfSpaceException the file system has no room for the next stretch of the log or
     *         the next log file; nothing was appended or left behind, the environment is fine
     * @throws org.libtp.core.RunRecoveryException an I/O error writing or forcing the log
     */
    @Override
    public long append(int type, long txnId, long prevLsn, byte[] payload, boolean mayUseReserve) {
        return buffer.append(type, txnId, prevLsn, payload, mayUseReserve);
    }

    /**
     * Makes sure records of about {@code bytes} (capped at half a file) that may not use the
     * reserve could be appended now (see {@link LogBuffer#ensureSpace}): a caller about to make
     * changes that it can log only afterwards asks first.
     *
     * @throws OutOfSpaceException no room for them; nothing changed
     */
    public void ensureSpace(long bytes) {
        buffer.ensureSpace(bytes);
    }

    @Override
    public void flush(long upTo, Durability durability) {
        commit.flush(upTo, durability);
    }

    /** Group commit hint from the transaction manager: a transaction began (+1) or ended (-1). */
    public void activeTransactions(int delta) {
        commit.activeTransactions(delta);
    }

    /** Sets the group commit hint to {@code n} active transactions (counted again after a process died in begin). */
    public void resetActiveTransactions(int n) {
        commit.resetActiveTransactions(n);
    }

    // ------------------------------------------------------------------ read / scan

    @Override
    public LogEntry read(long lsn) {
        files.checkOpen();
        env.checkValid();
        if (lsn < Lsn.of(1, LogFileHeader.SIZE)) {
            throw new IllegalArgumentException("no log record at LSN " + Lsn.toString(lsn));
        }
        byte[] rec = null;
        logLatch.acquire();
        try {
            long start = mem.getLong(OFF_BUFFER_START);
            long end = mem.getLong(OFF_NEXT_LSN);
            if (lsn >= end) {
                throw new IllegalArgumentException("LSN " + Lsn.toString(lsn) + " is at or beyond the end of the log "
                        + Lsn.toString(end));
            }
            if (lsn >= start) {
                int length = mem.getInt(OFF_BUFFER + (lsn - start)); // little-endian platforms only
                if (length < LogRecordCodec.HEADER_SIZE || lsn + length > end) {
                    throw new IllegalArgumentException("LSN " + Lsn.toString(lsn) + " is not the start of a record");
                }
                rec = new byte[length];
                mem.getBytes(OFF_BUFFER + (lsn - start), rec, 0, length);
            }
        } finally {
            logLatch.release();
        }
        if (rec != null) {
            return LogRecordCodec.decode("the log buffer", lsn, rec);
        }
        // Before bufferStartLsn, so written (bytes leave the buffer only once written).
        try {
            return readFromFile(lsn);
        } catch (IOException e) {
            throw new EnvironmentAccessException("I/O error reading the log at " + Lsn.toString(lsn) + ": " + e, e);
        }
    }

    private LogEntry readFromFile(long lsn) throws IOException {
        int n = Lsn.file(lsn);
        long off = Lsn.offset(lsn);
        StorageFile f;
        long size;
        try {
            f = files.file(n);
            size = files.sizeOf(n);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new IllegalArgumentException("LSN " + Lsn.toString(lsn) + ": log file "
                    + LogFileHeader.fileName(n) + " does not exist (archived or removed?)");
        }
        if (off + LogRecordCodec.HEADER_SIZE > size) {
            throw new IllegalArgumentException("LSN " + Lsn.toString(lsn) + " is past the last record of its file");
        }
        ByteBuffer head = ByteBuffer.allocate(LogRecordCodec.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        f.readFully(head, off);
        int length = head.getInt(LogRecordCodec.OFF_LENGTH);
        if (length < LogRecordCodec.HEADER_SIZE || off + length > size) {
            throw new CorruptionException("log record at LSN " + Lsn.toString(lsn) + " in " + f.name()
                    + " has impossible length " + length);
        }
        byte[] rec = new byte[length];
        f.readFully(ByteBuffer.wrap(rec), off);
        return LogRecordCodec.decode(f.name(), lsn, rec);
    }

    @Override
    public void scan(long from, Predicate<LogEntry> visitor) {
        files.checkOpen();
        int[] numbers = files.fileNumbers();
        if (numbers.length == 0) {
            return;
        }
        long lsn = from == Lsn.NULL ? Lsn.of(numbers[0], LogFileHeader.SIZE) : from;
        LogScanWindow window = new LogScanWindow(files, mem);
        while (true) {
            long end = endLsn();
            if (lsn >= end) {
                return;
            }
            if (Lsn.offset(lsn) + LogRecordCodec.HEADER_SIZE > files.sizeOfQuietly(Lsn.file(lsn))) {
                // No record fits here (e.g. a checkpoint's redo LSN taken when the next record
                // was about to go to the next file): the next record is at the next file's start.
                lsn = Lsn.of(Lsn.file(lsn) + 1, LogFileHeader.SIZE);
                continue;
            }
            LogEntry e = window.read(lsn);
            try {
                if (e == null) {
                    e = read(lsn);
                } else {
                    env.checkValid();
                }
            } catch (IllegalArgumentException | CorruptionException ex) {
                if (Lsn.file(lsn) < Lsn.file(end)) {
                    // A file that is not the last ends with its file-end record: records that stop
                    // before it were lost (zeroed or damaged), and skipping to the next file would
                    // leave a gap in the history nobody noticed.
                    throw new CorruptionException("log file " + files.where(LogFileHeader.fileName(Lsn.file(lsn)))
                            + " has no valid record at LSN " + Lsn.toString(lsn) + " (" + ex.getMessage() + ") but "
                            + "does not end there: it is not the last log file, and every file but the last ends with "
                            + "a file-end record. A stretch of the log was zeroed or damaged and the records in it are "
                            + "lost. " + LogAnchor.RESTORE, ex);
                }
                throw ex;
            }
            if (e.type() == LogRecordCodec.FILE_END_TYPE) {
                lsn = Lsn.of(Lsn.file(lsn) + 1, LogFileHeader.SIZE); // the log's own, not a visitor's
                continue;
            }
            if (!visitor.test(e)) {
                return;
            }
            lsn = e.nextLsn();
            if (Lsn.offset(lsn) + LogRecordCodec.HEADER_SIZE > files.sizeOfQuietly(Lsn.file(lsn))) {
                lsn = Lsn.of(Lsn.file(lsn) + 1, LogFileHeader.SIZE);
            }
        }
    }

    /**
     * The checkpoint record the anchor named when this process opened the log first (created
     * its region), or {@link Lsn#NULL}: a hint for recovery, which checks it.
     */
    public long anchoredCheckpoint() {
        return files.anchoredCheckpoint;
    }

    /**
     * Whether NO_SYNC and WRITE_NO_SYNC commits leave their records in the shared buffer (no
     * write(2)), which the next first opener salvages after every process died: true where the
     * kernel's boot id is known (Linux).
     */
    public boolean buffersUnforcedCommits() {
        return commit.salvageable();
    }

    /** Size of the shared log buffer: the largest record that fits. */
    public int bufferSize() {
        return bufferSize;
    }

    /** Configured size of each log file. */
    public long fileSize() {
        return fileSize;
    }

    /** Whether log files no longer needed are removed after checkpoints ({@link LogConfig#autoRemove}). */
    public boolean autoRemove() {
        return config.autoRemove();
    }

    @Override
    public long endLsn() {
        return mem.getLongVolatile(OFF_NEXT_LSN);
    }

    @Override
    public long flushedLsn() {
        return mem.getLongVolatile(OFF_FLUSHED_LSN);
    }

    /**
     * Waits until this process's write-back thread has run what was queued on it, then writes
     * the whole buffer out: afterwards nothing of this process writes the log until the next
     * append. For tests that need records to be in the buffer only.
     */
    void drainWriteBehindForTest() throws InterruptedException {
        java.util.concurrent.CountDownLatch done = new java.util.concurrent.CountDownLatch(1);
        if (files.runBehind(done::countDown)) {
            done.await();
        }
        buffer.writeOut();
    }

    /** Deletes log file {@code n} (archiving); never the current one. */
    public void removeFile(int n) {
        files.removeFile(n);
    }

    @Override
    public int[] fileNumbers() {
        return files.fileNumbers();
    }

    @Override
    public long forceCount() {
        return files.forceCount();
    }

    @Override
    public ForceTotals forceTotals() {
        return new ForceTotals(mem.getLongVolatile(OFF_FORCES_ALL), mem.getLongVolatile(OFF_FORCE_NANOS));
    }

    /**
     * Closes this process's log handle. Unless the environment has failed, the log is first
     * written out and forced, so NO_SYNC and WRITE_NO_SYNC commits survive a clean shutdown (as
     * Berkeley DB flushes the log when its environment closes).
     */
    @Override
    public void close() {
        if (files.isClosed()) {
            return;
        }
        if (!env.isFailed()) {
            try {
                flush(endLsn(), Durability.SYNC);
            } catch (RuntimeException e) {
                LOG.warn("could not flush the log while closing: {}", e.toString());
            }
        }
        for (Latch[] views : repairViews) {
            env.forgetRepairs(region, views);
        }
        files.close();
    }
}
