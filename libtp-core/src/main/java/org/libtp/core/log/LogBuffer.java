package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.*;

import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.Storage;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * The shared log buffer: appends (LSN assignment under the log latch), switches to the next file
 * when a record would not fit, and writes buffered bytes to the OS under the write latch (taken
 * after the log latch, so that the write(2) runs after the log latch is released).
 *
 * <p>Bytes leave the buffer only after they are written: the buffer holds [bufferStartLsn,
 * nextLsn), of which [bufferStartLsn, writtenLsn) are written and [writtenLsn, nextLsn) are not
 * (bufferStartLsn &lt;= writtenLsn). A write copies its bytes out under the log latch and writes
 * them under the write latch alone; they stay in the buffer meanwhile, so a process killed in the
 * write(2) leaves every record either in the file or in the buffer, which the next first opener
 * salvages ({@link LogSalvage}). When a record does not fit, the unwritten tail is moved to the
 * buffer's start if it does not overlap its destination (the source stays intact until the
 * single store of bufferStartLsn), else the buffer is written out under the log latch. Once half
 * the buffer is unwritten, the write-back thread writes it out, so that appenders rarely wait for
 * a write(2).
 */
final class LogBuffer {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLog.class);

    private final RegionEnvironment env;
    private final Storage storage;
    private final Memory mem;
    private final Latch logLatch;
    private final Latch writeLatch;
    private final LogFiles files;
    private final long fileSize;
    private final int bufferSize;
    private final long reserve;
    /** A write-out is queued on the write-back thread (this process). */
    private final java.util.concurrent.atomic.AtomicBoolean writeQueued = new java.util.concurrent.atomic.AtomicBoolean();
    /** Scratch for moving the unwritten tail to the buffer's start; used under the log latch only. */
    private byte[] moveScratch = new byte[0];

    LogBuffer(RegionEnvironment env, Storage storage, Memory mem, Latch logLatch, Latch writeLatch, LogFiles files,
              long fileSize, int bufferSize, long reserve) {
        this.env = env;
        this.storage = storage;
        this.mem = mem;
        this.logLatch = logLatch;
        this.writeLatch = writeLatch;
        this.files = files;
        this.fileSize = fileSize;
        this.bufferSize = bufferSize;
        this.reserve = reserve;
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
    long append(int type, long txnId, long prevLsn, byte[] payload, boolean mayUseReserve) {
        if (payload == null) {
            throw new IllegalArgumentException("payload must not be null");
        }
        if (type == LogRecordCodec.FILE_END_TYPE) {
            throw new IllegalArgumentException("log record type " + type + " (LOG_FILE_END) is the log manager's own: "
                    + "it marks the end of a log file and is written only at a file switch");
        }
        if (payload.length + LogRecordCodec.HEADER_SIZE > bufferSize) {
            throw new IllegalArgumentException("log record of " + payload.length + " payload bytes exceeds the "
                    + "log buffer (" + bufferSize + " bytes); raise LogConfig.bufferSize");
        }
        files.checkOpen();
        ByteBuffer rec = LogRecordCodec.encode(type, txnId, prevLsn, payload);
        int length = rec.remaining();
        long room = mayUseReserve ? 0 : reserve;
        long lsn;
        boolean halfUnwritten;
        logLatch.acquire();
        try {
            lsn = mem.getLong(OFF_NEXT_LSN);
            // Every file keeps room for its file-end record after its last record.
            if (Lsn.offset(lsn) + length + room + LogRecordCodec.FILE_END_SIZE > fileSize) {
                lsn = switchFile(lsn);
            }
            files.ensureAllocated(lsn + length + room + LogRecordCodec.FILE_END_SIZE);
            long start = mem.getLong(OFF_BUFFER_START);
            if (lsn - start + length > bufferSize) {
                start = makeRoom(start, lsn, length);
            }
            mem.putBytes(OFF_BUFFER + (lsn - start), rec.array(), 0, length);
            mem.putLongVolatile(OFF_NEXT_LSN, lsn + length);
            halfUnwritten = lsn + length - mem.getLongVolatile(OFF_WRITTEN_LSN) >= bufferSize / 2;
        } catch (IOException e) {
            throw env.fail("I/O error appending to the log in " + storage.directory() + ": " + e);
        } finally {
            logLatch.release();
        }
        if (halfUnwritten) {
            writeBehind();
        }
        files.maybePrepareNext(lsn);
        files.maybeForceBehind(lsn);
        files.maybeFillAhead(lsn + length);
        return lsn;
    }

    /**
     * Makes sure records of about {@code bytes} (capped at half a file) that may not use the
     * reserve could be appended now: the log switches to the next file, and allocates, as an
     * append would. A caller about to make changes that it can log only afterwards (a B-tree
     * split logs page images of pages it has already changed) asks first, so that a log without
     * room refuses the operation before anything changed, rather than eating into the reserve.
     * Not a reservation: concurrent appenders may take the room meanwhile (the reserve covers
     * that).
     *
     * @throws OutOfSpaceException no room for them; nothing changed
     */
    void ensureSpace(long bytes) {
        files.checkOpen();
        long need = Math.min(Math.max(0, bytes), fileSize / 2) + reserve + LogRecordCodec.FILE_END_SIZE;
        long next = mem.getLongVolatile(OFF_NEXT_LSN);
        long a = mem.getLongVolatile(OFF_ALLOCATED);
        if (Lsn.offset(next) + need <= fileSize && Lsn.file(a) == Lsn.file(next) && a >= next + need) {
            return; // the usual case: the background keeps the file allocated ahead
        }
        logLatch.acquire();
        try {
            long lsn = mem.getLong(OFF_NEXT_LSN);
            if (Lsn.offset(lsn) + need > fileSize) {
                lsn = switchFile(lsn);
            }
            files.ensureAllocated(lsn + need);
        } catch (IOException e) {
            throw env.fail("I/O error appending to the log in " + storage.directory() + ": " + e);
        } finally {
            logLatch.release();
        }
    }

    /**
     * Under the log latch: writes the buffer out and the file-end record after it, forces the old
     * file, starts the next one. The file-end record is durable before the next file is named,
     * so every file but the last ends with one (a reader that meets the end of a file's records
     * without it knows records were lost). If the switch stops after writing it (no room for the
     * next file, or the process died), the record is the last file's end and nextLsn stays on
     * it: the next append writes over it.
     */
    private long switchFile(long end) throws IOException {
        long start = mem.getLong(OFF_BUFFER_START);
        writeBuffer(start, end);
        int n = Lsn.file(end);
        // Appends keep it allocated (each one's allocation covers a file-end record after it); only a
        // switch right after an open may find it not: then no room is OutOfSpaceException, nothing changed.
        files.ensureAllocated(end + LogRecordCodec.FILE_END_SIZE);
        files.file(n).write(LogRecordCodec.fileEnd(n + 1), Lsn.offset(end));
        long t0 = System.nanoTime();
        files.file(n).force(); // earlier files are always fully forced (see findEnd)
        files.counted(t0);
        // No room for the next file: OutOfSpaceException, and nothing changed: the records stay
        // in file n, whose reserve is still there for records that may use it.
        files.createFile(n + 1);
        files.switchedTo(n + 1);
        long lsn = Lsn.of(n + 1, LogFileHeader.SIZE);
        setEnd(lsn);
        LOG.debug("log switched to {}", LogFileHeader.fileName(n + 1));
        return lsn;
    }

    /**
     * Under the log latch, when a record of {@code length} bytes at {@code lsn} does not fit in
     * the buffer starting at {@code start}: frees the written bytes at the buffer's front and
     * returns the new bufferStartLsn. The unwritten tail [writtenLsn, lsn) is moved to the front
     * when source and destination do not overlap, so that the buffer holds every unwritten byte
     * at every instant (a process killed in the move leaves the old bufferStartLsn naming intact
     * bytes); otherwise the buffer is written out here and emptied.
     */
    private long makeRoom(long start, long lsn, int length) throws IOException {
        long w = mem.getLongVolatile(OFF_WRITTEN_LSN); // a write in flight may raise it later: fine
        long tail = lsn - w;
        if (w > start && tail <= w - start && tail + length <= bufferSize) {
            int n = (int) tail;
            if (n > 0) {
                if (moveScratch.length < n) {
                    moveScratch = new byte[Math.max(n, Math.min(bufferSize, 2 * moveScratch.length))];
                }
                mem.getBytes(OFF_BUFFER + (w - start), moveScratch, 0, n);
                mem.putBytes(OFF_BUFFER, moveScratch, 0, n);
            }
            mem.putLongVolatile(OFF_BUFFER_START, w);
            return w;
        }
        writeBuffer(start, lsn);
        mem.putLongVolatile(OFF_BUFFER_START, lsn);
        return lsn;
    }

    /**
     * Under the log latch: writes the unwritten buffer bytes up to {@code end} (the buffer starts
     * at {@code start}) to their file (to the OS), after any write in progress (the write latch),
     * so that writtenLsn and the buffer stay in order.
     */
    private void writeBuffer(long start, long end) throws IOException {
        writeLatch.acquire();
        try {
            long from = mem.getLongVolatile(OFF_WRITTEN_LSN);
            byte[] bytes = copyOut(start, from, end);
            if (bytes != null) {
                files.file(Lsn.file(from)).write(ByteBuffer.wrap(bytes), Lsn.offset(from));
            }
            raiseWritten(end);
        } finally {
            writeLatch.release();
        }
    }

    /** Under the log latch: a copy of the bytes of LSNs [from, end) of the buffer starting at {@code start}, or null. */
    private byte[] copyOut(long start, long from, long end) {
        int n = (int) (end - from);
        if (n <= 0) {
            return null;
        }
        if (from < start) {
            throw new IllegalStateException("log buffer lost unwritten bytes: written " + Lsn.toString(from)
                    + ", buffer starts at " + Lsn.toString(start));
        }
        byte[] bytes = new byte[n];
        mem.getBytes(OFF_BUFFER + (from - start), bytes, 0, n);
        return bytes;
    }

    /**
     * Queues a write-out on the write-back thread, once at a time per process: half the buffer
     * is unwritten (NO_SYNC and WRITE_NO_SYNC commits write nothing themselves).
     */
    private void writeBehind() {
        if (writeQueued.get() || !writeQueued.compareAndSet(false, true)) {
            return; // every append while half is unwritten comes here: a read, not a CAS, when queued
        }
        boolean queued = files.runBehind(() -> {
            writeQueued.set(false);
            try {
                if (!env.isFailed()) {
                    writeOut();
                }
            } catch (RuntimeException e) {
                // writeOut failed the environment (an I/O error) or found it failed: said there
                LOG.debug("background write of the log buffer: {}", e.toString());
            }
        });
        if (!queued) {
            writeQueued.set(false);
        }
    }

    private void raiseWritten(long end) {
        long cur = mem.getLongVolatile(OFF_WRITTEN_LSN);
        if (end > cur) {
            mem.putLongVolatile(OFF_WRITTEN_LSN, end); // under the write latch: one writer
        }
    }

    /**
     * Writes the whole buffer to the OS; returns the LSN written up to. The bytes are copied out
     * under the log latch (they stay in the buffer until written); the write(2) runs under the
     * write latch only, so appenders (which need just the log latch) go on meanwhile. Measured: at
     * MPL 4 no-sync, appenders waiting for the log latch while a commit wrote were a quarter of
     * the workers' time.
     */
    long writeOut() {
        long start;
        long end;
        byte[] bytes = null;
        logLatch.acquire();
        try {
            writeLatch.acquire(); // log latch first, then the write latch: the one order
        } catch (RuntimeException e) {
            logLatch.release();
            throw e;
        }
        try {
            try {
                start = mem.getLongVolatile(OFF_WRITTEN_LSN);
                end = mem.getLong(OFF_NEXT_LSN);
                bytes = copyOut(mem.getLong(OFF_BUFFER_START), start, end);
            } finally {
                logLatch.release();
            }
            if (bytes != null) {
                files.file(Lsn.file(start)).write(ByteBuffer.wrap(bytes), Lsn.offset(start));
            }
            raiseWritten(end);
            return end;
        } catch (IOException e) {
            throw env.fail("I/O error writing the log in " + storage.directory() + ": " + e);
        } finally {
            writeLatch.release();
        }
    }

    /**
     * The repair of the log latch after its holder died (the caller took the latch over). Every
     * change under it is a single store or ends with one, except a file switch: the old file is
     * written, its file-end record written after its records, the file forced, the next one
     * renamed into place ({@code log.N+1} exists), then the allocation mark and the three end
     * words move. A switch cut short after the rename is finished here; one cut short before it
     * left at most a file-end record at the end of the records, which the next append writes
     * over, and a {@code .ready} or {@code .new} file the next switch reuses or rebuilds. Returns
     * null, or why the log cannot be repaired.
     */
    String repairLogLatch() {
        if (mem.getIntVolatile(OFF_STATE) == 0) {
            return "the process died finding the end of the log at open";
        }
        long next = mem.getLongVolatile(OFF_NEXT_LSN);
        int n = Lsn.file(next);
        try {
            if (Lsn.offset(next) == LogFileHeader.SIZE
                    && (mem.getLongVolatile(OFF_BUFFER_START) != next || mem.getLongVolatile(OFF_WRITTEN_LSN) != next)) {
                files.switchedTo(n); // setEnd was cut short after it moved nextLsn into the new file
                setEnd(next);
                LOG.info("log latch repair: finished the switch to {}", LogFileHeader.fileName(n));
            } else if (storage.exists(LogFileHeader.fileName(n + 1))) {
                // The switch wrote the buffer and the file-end record before the rename; written
                // again here (the same bytes), so that file n ends with one whatever was cut short.
                writeBuffer(mem.getLong(OFF_BUFFER_START), next);
                files.file(n).write(LogRecordCodec.fileEnd(n + 1), Lsn.offset(next));
                files.file(n).force();
                files.switchedTo(n + 1);
                setEnd(Lsn.of(n + 1, LogFileHeader.SIZE));
                LOG.info("log latch repair: finished the switch to {}", LogFileHeader.fileName(n + 1));
            }
        } catch (IOException | RuntimeException e) {
            return "finishing a log file switch: " + e;
        }
        return null;
    }

    /** Sets the end of the log to {@code lsn}: an empty buffer there, everything before it written. */
    void setEnd(long lsn) {
        mem.putLongVolatile(OFF_NEXT_LSN, lsn);
        mem.putLongVolatile(OFF_BUFFER_START, lsn);
        mem.putLongVolatile(OFF_WRITTEN_LSN, lsn);
    }
}
