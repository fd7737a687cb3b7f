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
        if (payload.length + LogRecordCodec.HEADER_SIZE > bufferSize) {
            throw new IllegalArgumentException("log record of " + payload.length + " payload bytes exceeds the "
                    + "log buffer (" + bufferSize + " bytes); raise LogConfig.bufferSize");
        }
        files.checkOpen();
        ByteBuffer rec = LogRecordCodec.encode(type, txnId, prevLsn, payload);
        int length = rec.remaining();
        long room = mayUseReserve ? 0 : reserve;
        long lsn;
        logLatch.acquire();
        try {
            lsn = mem.getLong(OFF_NEXT_LSN);
            if (Lsn.offset(lsn) + length + room > fileSize) {
                lsn = switchFile(lsn);
            }
            files.ensureAllocated(lsn + length + room);
            long start = mem.getLong(OFF_BUFFER_START);
            if (lsn - start + length > bufferSize) {
                writeBuffer(start, lsn);
                start = lsn;
                mem.putLongVolatile(OFF_BUFFER_START, lsn);
            }
            mem.putBytes(OFF_BUFFER + (lsn - start), rec.array(), 0, length);
            mem.putLongVolatile(OFF_NEXT_LSN, lsn + length);
        } catch (IOException e) {
            throw env.fail("I/O error appending to the log in " + storage.directory() + ": " + e);
        } finally {
            logLatch.release();
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
        long need = Math.min(Math.max(0, bytes), fileSize / 2) + reserve;
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

    /** Under the log latch: writes the buffer out, forces the old file, starts the next one. */
    private long switchFile(long end) throws IOException {
        long start = mem.getLong(OFF_BUFFER_START);
        writeBuffer(start, end);
        int n = Lsn.file(end);
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
     * Under the log latch: writes buffer bytes [start, end) to their file (to the OS), after any
     * write in progress (the write latch), so that writtenLsn and the buffer stay in order.
     */
    private void writeBuffer(long start, long end) throws IOException {
        writeLatch.acquire();
        try {
            byte[] bytes = copyOut(start, end);
            if (bytes != null) {
                files.file(Lsn.file(start)).write(ByteBuffer.wrap(bytes), Lsn.offset(start));
            }
            raiseWritten(end);
        } finally {
            writeLatch.release();
        }
    }

    /** Under the log latch: a copy of buffer bytes [start, end), or null if there are none. */
    private byte[] copyOut(long start, long end) {
        int n = (int) (end - start);
        if (n <= 0) {
            return null;
        }
        byte[] bytes = new byte[n];
        mem.getBytes(OFF_BUFFER, bytes, 0, n);
        return bytes;
    }

    private void raiseWritten(long end) {
        long cur = mem.getLongVolatile(OFF_WRITTEN_LSN);
        if (end > cur) {
            mem.putLongVolatile(OFF_WRITTEN_LSN, end); // under the write latch: one writer
        }
    }

    /**
     * Writes the whole buffer to the OS; returns the LSN written up to. The bytes are copied out
     * and the buffer emptied under the log latch; the write(2) runs under the write latch only,
     * so appenders (which need just the log latch) go on meanwhile. Measured: at MPL 4 no-sync,
     * appenders waiting for the log latch while a commit wrote were a quarter of the workers'
     * time.
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
                start = mem.getLong(OFF_BUFFER_START);
                end = mem.getLong(OFF_NEXT_LSN);
                bytes = copyOut(start, end);
                if (bytes != null) {
                    mem.putLongVolatile(OFF_BUFFER_START, end);
                }
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

    /** Sets the end of the log to {@code lsn}: an empty buffer there, everything before it written. */
    void setEnd(long lsn) {
        mem.putLongVolatile(OFF_NEXT_LSN, lsn);
        mem.putLongVolatile(OFF_BUFFER_START, lsn);
        mem.putLongVolatile(OFF_WRITTEN_LSN, lsn);
    }
}
