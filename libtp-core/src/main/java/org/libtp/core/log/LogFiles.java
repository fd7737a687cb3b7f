package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.*;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageErrors;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * The log manager's files, for one process's handle on the log: opening, creating and switching
 * log files (the next one prepared ahead in the background), zero-filling each file ahead of its
 * records (the alloc latch) so that no log write needs new space, forcing behind NO_SYNC
 * appenders, removal of files no longer needed, and, at open in the first process, the search
 * for the end of the log with torn-tail truncation. Each process has its own file handles.
 */
final class LogFiles {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLog.class);

    private final RegionEnvironment env;
    private final Storage storage;
    private final Memory mem;
    private final Latch allocLatch;
    private final long fileSize;
    private final int bufferSize;
    /** The tail of each file kept for records that must not fail for want of space (see {@link SharedLog}). */
    private final long reserve;

    LogFiles(RegionEnvironment env, Storage storage, Memory mem, Latch allocLatch, long fileSize, int bufferSize,
             long reserve) {
        this.env = env;
        this.storage = storage;
        this.mem = mem;
        this.allocLatch = allocLatch;
        this.fileSize = fileSize;
        this.bufferSize = bufferSize;
        this.reserve = reserve;
    }

    /** Bytes of a new log file zero-filled at creation (the rest is a hole until the records near it). */
    static final long FIRST_WINDOW = 512 * 1024;

    /** Zeros written per alloc latch hold. */
    static final long STEP = 256 * 1024;

    /** How far ahead of the records the background keeps the file allocated, beyond the reserve. */
    static final long AHEAD = 512 * 1024;

    private final java.util.concurrent.atomic.AtomicBoolean fillScheduled = new java.util.concurrent.atomic.AtomicBoolean();
    private volatile long lastFillWarning;
    private final Map<Integer, StorageFile> files = new HashMap<>();
    private long forces;
    private volatile boolean closed;

    // ------------------------------------------------------------------ opening: find the end

    /**
     * Under the log latch, in the first process: finds the end of the log and checks it against
     * the anchor ({@link LogAnchor}), truncating a torn tail; returns the LSN the next record
     * gets. Every refusal happens before anything on disk is changed.
     */
    long recoverEnd() {
        try {
            deleteStalePrepared(Integer.MAX_VALUE); // prepared-ahead files of the last run
            List<Integer> numbers = new ArrayList<>();
            for (String n : storage.list("log.")) {
                int k = LogFileHeader.fileNumber(n);
                if (k > 0) {
                    numbers.add(k);
                }
            }
            LogAnchor anchor = LogAnchor.read(storage);
            if (anchor == null) {
                if (!numbers.isEmpty()) {
                    throw new CorruptionException("the log anchor " + where(LogAnchor.FILE) + " is missing but log files "
                            + "exist (" + LogFileHeader.fileName(numbers.get(0)) + " ...): it was deleted, or the log "
                            + "files were copied from another environment; nothing was changed. " + LogAnchor.RESTORE);
                }
                if (storage.exists(REGISTRY_FILE)) {
                    throw new CorruptionException("the log anchor " + where(LogAnchor.FILE) + " and every log file are "
                            + "missing but data files are registered (" + REGISTRY_FILE + "): a new log would restart "
                            + "LSNs below the pages' and lose later changes silently; nothing was changed. "
                            + LogAnchor.RESTORE);
                }
                SecureRandom random = new SecureRandom();
                anchor = new LogAnchor(random.nextLong(), random.nextLong(), 0, System.currentTimeMillis());
                storage.replaceFile(LogAnchor.FILE, anchor.encode()); // before the log: a log never lacks its anchor
            }
            anchoredCheckpoint = anchor.checkpointLsn();
            mem.putLong(OFF_ENV_ID, anchor.envId());
            mem.putLong(OFF_ANCHOR_CREATED, anchor.createdMillis());
            mem.putLong(OFF_LOG_ID, anchor.logId());
            mem.putLongVolatile(OFF_ANCHOR_MIN_END, anchor.minEndLsn());
            if (numbers.isEmpty()) {
                if (anchor.minEndLsn() != 0) {
                    throw new CorruptionException("every log file of " + storage.directory() + " is missing, but the log "
                            + "anchor " + where(LogAnchor.FILE) + " says the log reached LSN "
                            + Lsn.toString(anchor.minEndLsn()) + ": data pages may carry LSNs up to there, and a new "
                            + "log would restart below them and lose later changes silently; nothing was changed. "
                            + LogAnchor.RESTORE);
                }
                createFile(1);
                long start = Lsn.of(1, LogFileHeader.SIZE);
                LOG.info("created log in {}", storage.directory());
                return start;
            }
            for (int i = 1; i < numbers.size(); i++) {
                if (numbers.get(i) != numbers.get(i - 1) + 1) {
                    throw new CorruptionException("log files in " + storage.directory() + " are not consecutive: "
                            + LogFileHeader.fileName(numbers.get(i - 1)) + " is followed by "
                            + LogFileHeader.fileName(numbers.get(i)) + "; a log file is missing");
                }
            }
            for (int n : numbers) {
                long id = readHeader(n);
                if (id != anchor.logId()) {
                    throw new CorruptionException("log file " + where(LogFileHeader.fileName(n)) + " belongs to another "
                            + "log (id " + Long.toHexString(id) + ", the anchor's " + Long.toHexString(anchor.logId())
                            + "): it was copied from another environment; nothing was changed. " + LogAnchor.RESTORE);
                }
                // Every log file keeps the length it was created with (the last one is checked
                // by findEnd): a shorter one was cut, and a scan would meet its end mid-log.
                if (n != numbers.get(numbers.size() - 1) && file(n).size() < sizeOf(n)) {
                    long size = file(n).size();
                    throw new CorruptionException("log file " + where(LogFileHeader.fileName(n)) + " is " + size
                            + " bytes, shorter than the " + sizeOf(n) + " bytes it was created with: it was cut short at "
                            + "LSN " + Lsn.toString(Lsn.of(n, size)) + ", and the records it held after that are lost; "
                            + "nothing was changed. " + LogAnchor.RESTORE);
                }
            }
            int last = numbers.get(numbers.size() - 1);
            long[] end = findEnd(last);
            if (end[0] < anchor.minEndLsn()) {
                throw new CorruptionException("the log of " + storage.directory() + " ends in "
                        + LogFileHeader.fileName(last) + " at LSN " + Lsn.toString(end[0])
                        + " but reached LSN " + Lsn.toString(anchor.minEndLsn()) + " durably (log anchor "
                        + LogAnchor.FILE + "): log records were lost (a log file cut short or damaged), and data pages "
                        + "may carry changes the log no longer holds; recovery would leave partial transactions, so "
                        + "nothing was changed. " + LogAnchor.RESTORE);
            }
            if (end[1] >= 0) {
                zero(file(last), Lsn.offset(end[0]), end[1]);
                file(last).force();
            }
            if (sizeOf(last) != fileSize) {
                // Created with another logFileSize: it stays as it is, and appends go on in a new
                // file of this run's size (log files never change their size).
                LOG.info("log file {} of {} was created with {} bytes, logFileSize is now {}: the log continues in {}",
                        LogFileHeader.fileName(last), storage.directory(), sizeOf(last), fileSize,
                        LogFileHeader.fileName(last + 1));
                file(last).write(LogRecordCodec.fileEnd(last + 1), Lsn.offset(end[0])); // its run kept room
                file(last).force();
                createFile(last + 1);
                end[0] = Lsn.of(last + 1, LogFileHeader.SIZE);
            }
            return end[0];
        } catch (IOException e) {
            throw new EnvironmentAccessException("I/O error opening the log in " + storage.directory() + ": " + e, e);
        }
    }

    /** The buffer manager's durable file registry: its presence means data files exist. */
    static final String REGISTRY_FILE = "__libtp.files";

    String where(String name) {
        return storage.directory().resolve(name).toString();
    }

    private long readHeader(int n) throws IOException {
        ByteBuffer h = ByteBuffer.allocate(LogFileHeader.SIZE);
        try {
            file(n).readFully(h, 0);
        } catch (EOFException e) {
            throw new CorruptionException("log file " + where(LogFileHeader.fileName(n)) + " is " + file(n).size()
                    + " bytes, shorter than its " + LogFileHeader.SIZE + "-byte header: it was cut short or emptied "
                    + "(log files are written whole before they are named), and the records it held are lost; "
                    + "nothing was changed. " + LogAnchor.RESTORE);
        }
        return LogFileHeader.validate(LogFileHeader.fileName(n), h, n);
    }

    /**
     * Scans the last file for the end of its valid records. A record that is cut short, has a
     * bad length or fails its checksum ends the log there: it can only be a torn write that was
     * never acknowledged (earlier files were forced before it was created, and forced data does
     * not tear), so the rest of the file is to be zeroed (by the caller, once the end passed its
     * checks), with one WARN line. Returns {end LSN, file size if the tail must be zeroed else -1}.
     * A file shorter than it was created (log files are preallocated, forced, then named) was
     * cut: refused.
     */
    private long[] findEnd(int n) throws IOException {
        StorageFile f = file(n);
        long size = f.size();
        ByteBuffer hb = ByteBuffer.allocate(LogFileHeader.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        f.readFully(hb, 0);
        long created = hb.getLong(LogFileHeader.OFF_FILE_SIZE);
        if (size < created) {
            throw new CorruptionException("log file " + where(f.name()) + " is " + size + " bytes, shorter than the "
                    + created + " bytes it was created with: it was cut short, and the records it held are lost; "
                    + "nothing was changed. " + LogAnchor.RESTORE);
        }
        long off = LogFileHeader.SIZE;
        ByteBuffer head = ByteBuffer.allocate(LogRecordCodec.HEADER_SIZE).order(ByteOrder.LITTLE_ENDIAN);
        while (true) {
            if (off + LogRecordCodec.HEADER_SIZE > size) {
                break;
            }
            head.clear();
            f.readFully(head, off);
            int length = head.getInt(LogRecordCodec.OFF_LENGTH);
            if (length == 0) {
                break;
            }
            String why = null;
            // Bounded by the file, not by the log buffer: the buffer may have been larger when the
            // record was written (a setting changed between runs). The checksum decides.
            if (length < LogRecordCodec.HEADER_SIZE || off + length > size) {
                why = "impossible length " + length;
            } else {
                byte[] rec = new byte[length];
                f.readFully(ByteBuffer.wrap(rec), off);
                if (LogRecordCodec.crc(rec, 0, length) != ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN)
                        .getInt(LogRecordCodec.OFF_CRC)) {
                    why = "checksum mismatch";
                }
            }
            if (why != null) {
                long proof = checkpointAfter(f, off + 1, size, Lsn.of(n, off));
                if (proof >= 0) {
                    // A checkpoint is written only after the log was forced through its redo
                    // LSN; this record lies before that: it was synced, so this is damage inside
                    // the durable log, not a torn unacknowledged write.
                    throw new CorruptionException("log file " + f.name() + ": record at LSN "
                            + Lsn.toString(Lsn.of(n, off)) + " is damaged (" + why + ") but a valid checkpoint "
                            + "record follows at LSN " + Lsn.toString(Lsn.of(n, proof)) + ": the synced log is "
                            + "corrupt. Restore the environment from a backup; nothing was changed.");
                }
                LOG.warn("log file {}: torn or corrupt record at LSN {} ({}); truncating the log there",
                        f.name(), Lsn.toString(Lsn.of(n, off)), why);
                return new long[] {Lsn.of(n, off), size};
            }
            if (head.getInt(LogRecordCodec.OFF_TYPE) == LogRecordCodec.FILE_END_TYPE) {
                // A switch that stopped before the next file was named: the log ends here, and
                // the next append writes over the record.
                LOG.info("log file {} ends with a file-end record at LSN {} but is the last log file: the log "
                        + "continues there", f.name(), Lsn.toString(Lsn.of(n, off)));
                break;
            }
            off += length;
        }
        return new long[] {Lsn.of(n, off), -1};
    }

    /**
     * The offset of a valid checkpoint record (type 3, no transaction, good checksum) at or after
     * {@code from} whose redo LSN is beyond {@code damaged}, or -1. Only candidates whose header
     * looks like a checkpoint's are checksummed.
     */
    private long checkpointAfter(StorageFile f, long from, long size, long damaged) throws IOException {
        final int chunk = 1 << 20;
        byte[] buf = new byte[chunk + LogRecordCodec.HEADER_SIZE];
        for (long base = from; base + LogRecordCodec.HEADER_SIZE <= size; base += chunk) {
            int n = (int) Math.min(buf.length, size - base);
            ByteBuffer bb = ByteBuffer.wrap(buf, 0, n);
            f.readFully(bb, base);
            ByteBuffer le = ByteBuffer.wrap(buf, 0, n).order(ByteOrder.LITTLE_ENDIAN);
            for (int i = 0; i + LogRecordCodec.HEADER_SIZE <= n && i < chunk; i++) {
                if (buf[i + LogRecordCodec.OFF_TYPE] != 3 || le.getInt(i + LogRecordCodec.OFF_TYPE) != 3
                        || le.getLong(i + LogRecordCodec.OFF_TXN) != 0 || le.getInt(i + LogRecordCodec.OFF_RESERVED) != 0) {
                    continue;
                }
                int length = le.getInt(i + LogRecordCodec.OFF_LENGTH);
                if (length < LogRecordCodec.HEADER_SIZE + 12 || length > bufferSize || base + i + length > size) {
                    continue;
                }
                byte[] rec = new byte[length];
                f.readFully(ByteBuffer.wrap(rec), base + i);
                if (LogRecordCodec.crc(rec, 0, length) == le.getInt(i + LogRecordCodec.OFF_CRC)) {
                    long redo = ByteBuffer.wrap(rec).order(ByteOrder.LITTLE_ENDIAN).getLong(LogRecordCodec.HEADER_SIZE);
                    if (redo > damaged) {
                        return base + i;
                    }
                }
            }
        }
        return -1;
    }

    private static void zero(StorageFile f, long from, long to) throws IOException {
        ByteBuffer z = ByteBuffer.allocate(64 * 1024);
        for (long at = from; at < to; at += z.capacity()) {
            z.clear().limit((int) Math.min(z.capacity(), to - at));
            f.write(z, at);
        }
    }

    // ------------------------------------------------------------------ files

    synchronized StorageFile file(int n) throws IOException {
        checkOpen();
        long removedBelow = mem.getLongVolatile(OFF_REMOVED_BELOW);
        if (removedBelow > closedBelow) {
            closeRemoved(removedBelow);
        }
        StorageFile f = files.get(n);
        if (f == null) {
            f = storage.open(LogFileHeader.fileName(n), false);
            files.put(n, f);
        }
        return f;
    }

    /**
     * Creates log file {@code n}: header, the first window zero-filled, full length (a hole after
     * the window), forced, directory forced. A file prepared ahead is only renamed.
     *
     * @throws OutOfSpaceException no room for it; nothing was left behind
     * @throws IOException another error building it (nothing left behind), or one after it was
     *         named (forcing the directory)
     */
    void createFile(int n) throws IOException {
        String name = LogFileHeader.fileName(n);
        String ready = name + READY;
        if (storage.exists(ready)) {
            // Prepared ahead by prepareNext: complete and forced; publishing it is one rename.
            storage.rename(ready, name);
        } else {
            build(name + ".new", n);
            try {
                storage.rename(name + ".new", name);
            } catch (IOException | RuntimeException e) {
                deleteQuietly(name + ".new");
                throw e;
            }
        }
        storage.forceDirectory();
    }

    /**
     * Writes a complete empty log file {@code n} under {@code tmp}, forced: the header, zeros up to
     * {@link #FIRST_WINDOW} and one byte at the end, so the file has its full length (a file cut
     * short is refused at open) while only its start takes disk space; appends zero-fill the rest
     * ahead of themselves ({@link #ensureAllocated}). Zeros read from a hole end the records
     * just as written ones do. Any failure deletes {@code tmp}.
     *
     * @throws OutOfSpaceException no room for the file
     */
    private void build(String tmp, int n) throws IOException {
        storage.delete(tmp);
        try (StorageFile f = storage.open(tmp, true)) {
            f.write(LogFileHeader.encode(n, fileSize, mem.getLong(OFF_LOG_ID)), 0);
            long window = Math.min(fileSize, FIRST_WINDOW);
            zero(f, LogFileHeader.SIZE, window);
            if (window < fileSize) {
                f.write(ByteBuffer.allocate(1), fileSize - 1);
            }
            f.force();
        } catch (IOException | RuntimeException e) {
            deleteQuietly(tmp);
            if (e instanceof IOException io && StorageErrors.isNoSpace(io)) {
                throw noSpace("create log file " + LogFileHeader.fileName(n) + " (" + Math.min(fileSize, FIRST_WINDOW)
                        + " bytes of its " + fileSize + " allocated at creation)", io);
            }
            throw e;
        }
    }

    private OutOfSpaceException noSpace(String what, IOException cause) {
        long free = StorageErrors.usableSpace(storage.directory());
        return new OutOfSpaceException("no space to " + what + " in " + storage.directory() + " (" + cause.getMessage()
                + "; " + (free < 0 ? "free space unknown" : free + " bytes free") + "). The operation was refused and "
                + "nothing was half-written: abort the transaction, free space on that file system (or remove log "
                + "files recovery no longer needs: LogConfig.autoRemove, checkpoints), then retry", cause);
    }

    private void deleteQuietly(String name) {
        try {
            storage.delete(name);
        } catch (IOException | RuntimeException e) {
            LOG.warn("could not delete {} in {}: {}", name, storage.directory(), e.toString());
        }
    }

    /** Suffix of a log file prepared ahead of need; not a log file name until renamed. */
    static final String READY = ".ready";

    /**
     * Creating a 10 MiB zero-filled file under the log latch stalls every appender of every
     * process (measured: ~33 ms per switch, most of the time at NO_SYNC). So once an eighth of
     * the current file is used (at NO_SYNC a 10 MiB file can last 0.1 s, and building the next,
     * which competes with checkpoint writes for the disk, takes about half of that), one process builds the next file in the background as
     * {@code log.N.ready}; the switch then only renames it. Only a switch, under the log latch,
     * ever gives a file its {@code log.N} name, so a file in use is never replaced; a
     * {@code .ready} file that lost the race is deleted at the next switch or open.
     */
    void maybePrepareNext(long lsn) {
        if (Lsn.offset(lsn) < fileSize / 8 || preparer == null) {
            return;
        }
        int next = Lsn.file(lsn) + 1;
        long claimed = mem.getLongVolatile(OFF_PREPARING);
        if (claimed >= next || !mem.compareAndSetLong(OFF_PREPARING, claimed, next)) {
            return; // prepared or being prepared (by a live or a dead process: then the switch builds it)
        }
        preparer.execute(() -> {
            String ready = LogFileHeader.fileName(next) + READY;
            String prep = LogFileHeader.fileName(next) + ".prep";
            try {
                if (closed || storage.exists(LogFileHeader.fileName(next))) {
                    return;
                }
                build(prep, next);
                try {
                    storage.rename(prep, ready);
                } catch (IOException | RuntimeException e) {
                    deleteQuietly(prep);
                    throw e;
                }
            } catch (IOException | RuntimeException e) {
                LOG.debug("preparing {} ahead failed ({}); the switch will create it", ready, e.toString());
            }
        });
    }

    /** One daemon thread per process handle that prepares log files ahead. */
    private final java.util.concurrent.ExecutorService preparer = java.util.concurrent.Executors
            .newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "libtp-log-prepare");
                t.setDaemon(true);
                return t;
            });

    /** Deletes prepared-ahead leftovers numbered at most {@code upTo}. */
    void deleteStalePrepared(int upTo) throws IOException {
        for (String name : storage.list("log.")) {
            if (name.endsWith(READY) || name.endsWith(".prep") || name.endsWith(".new")) {
                int k = LogFileHeader.fileNumber(name.substring(0, name.lastIndexOf('.')));
                if (k > 0 && k <= upTo) {
                    storage.delete(name);
                }
            }
        }
    }

    // ------------------------------------------------------------------ allocation ahead of the records

    /**
     * Under the log latch: makes sure the current file's blocks are allocated (zeros written)
     * below {@code target} (capped at the file's end), so that writing records there cannot fail
     * for want of space. Usually the background has done it already.
     *
     * @throws OutOfSpaceException no room; {@code allocated} stays below target and nothing
     *         is appended
     */
    void ensureAllocated(long target) throws IOException {
        long end = Lsn.of(Lsn.file(target), fileSize);
        long want = Math.min(target, end);
        if (mem.getLongVolatile(OFF_ALLOCATED) >= want) {
            return;
        }
        allocLatch.acquire();
        try {
            long a = mem.getLongVolatile(OFF_ALLOCATED);
            while (a < want) {
                long to = Math.min(end, Math.max(want, a + STEP));
                try {
                    zero(file(Lsn.file(a)), Lsn.offset(a), Lsn.offset(to));
                } catch (IOException e) {
                    if (StorageErrors.isNoSpace(e)) {
                        throw noSpace("extend log file " + LogFileHeader.fileName(Lsn.file(a)) + " to "
                                + Lsn.offset(to) + " bytes", e);
                    }
                    throw e;
                }
                mem.putLongVolatile(OFF_ALLOCATED, to);
                a = to;
            }
        } finally {
            allocLatch.release();
        }
    }

    /**
     * Asks the background to zero-fill ahead when the records near the allocated end, so that
     * appenders (who hold the log latch) rarely write zeros themselves.
     */
    void maybeFillAhead(long end) {
        long a = mem.getLongVolatile(OFF_ALLOCATED);
        if (Lsn.file(a) != Lsn.file(end) || Lsn.offset(a) >= fileSize
                || a - end >= reserve + STEP || !fillScheduled.compareAndSet(false, true)) {
            return;
        }
        try {
            preparer.execute(() -> {
                try {
                    fillAhead();
                } finally {
                    fillScheduled.set(false);
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            fillScheduled.set(false); // closing
        }
    }

    /** Background: zero-fills the current file up to reserve + AHEAD past its records, a step per latch hold. */
    private void fillAhead() {
        while (!closed && !env.isFailed()) {
            allocLatch.acquire();
            try {
                long a = mem.getLongVolatile(OFF_ALLOCATED);
                long next = mem.getLongVolatile(OFF_NEXT_LSN);
                long end = Lsn.of(Lsn.file(a), fileSize);
                long want = Math.min(end, next + reserve + AHEAD);
                if (Lsn.file(a) != Lsn.file(next) || a >= want) {
                    return; // done, or a switch is under way (it allocates the new file itself)
                }
                long to = Math.min(want, a + STEP);
                zero(file(Lsn.file(a)), Lsn.offset(a), Lsn.offset(to));
                mem.putLongVolatile(OFF_ALLOCATED, to);
            } catch (IOException | RuntimeException e) {
                long now = System.currentTimeMillis();
                if (!closed && now - lastFillWarning > 60_000) {
                    lastFillWarning = now;
                    LOG.warn("could not allocate the log ahead of its records in {} ({}); appends allocate "
                            + "themselves, and are refused with OutOfSpaceException if there is no room", storage.directory(),
                            e.toString());
                }
                return;
            } finally {
                allocLatch.release();
            }
        }
    }

    /** The (file, quarter) this process last asked the write-back thread to force. */
    private final java.util.concurrent.atomic.AtomicLong forcedBehind = new java.util.concurrent.atomic.AtomicLong();

    /**
     * At NO_SYNC nothing forces the log until the switch to the next file, which then forces a
     * whole file (10 MiB) under the log latch: every appender of every process stalls for tens of
     * milliseconds, several times a second at full speed. So each time a quarter of the file has
     * gone by unforced, a background thread forces what the OS has of it; the switch's force then
     * has at most a quarter left. These forces only make data durable sooner (flushedLsn is not
     * moved by them); a failure fails the environment like any failed force, as the kernel may
     * have dropped the pages it could not write.
     */
    void maybeForceBehind(long lsn) {
        long quarter = fileSize / 4;
        long q = Lsn.offset(lsn) / quarter;
        if (q == 0 || writeBehind == null) {
            return;
        }
        long flushed = mem.getLongVolatile(OFF_FLUSHED_LSN);
        if (Lsn.file(flushed) == Lsn.file(lsn) && Lsn.offset(flushed) >= q * quarter) {
            return; // commits are forcing it anyway (SYNC)
        }
        long key = ((long) Lsn.file(lsn) << 3) | q;
        long last = forcedBehind.get();
        if (key <= last || !forcedBehind.compareAndSet(last, key)) {
            return;
        }
        int n = Lsn.file(lsn);
        try {
            writeBehind.execute(() -> {
                try {
                    if (!closed && !env.isFailed() && !removed(n)) {
                        file(n).force();
                    }
                } catch (java.nio.channels.ClosedChannelException e) {
                    LOG.debug("write-behind force of {} skipped: closed", LogFileHeader.fileName(n));
                } catch (java.nio.file.NoSuchFileException e) {
                    if (!removed(n)) {
                        env.fail("background force of log file " + LogFileHeader.fileName(n) + " in "
                                + storage.directory() + " failed: the file is gone (" + e + ")");
                    }
                    // Removed meanwhile by a checkpoint: it was forced before the next file was
                    // created, and no longer needed.
                } catch (IOException e) {
                    env.fail("background force of log file " + LogFileHeader.fileName(n) + " in "
                            + storage.directory() + " failed (" + e + "); the kernel may have dropped its pages");
                } catch (RuntimeException e) {
                    LOG.debug("write-behind force of {} skipped: {}", LogFileHeader.fileName(n), e.toString());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing
        }
    }

    /**
     * Runs {@code task} on the write-back thread; false if the log is closing (the task did not
     * and will not run).
     */
    boolean runBehind(Runnable task) {
        if (closed) {
            return false;
        }
        try {
            writeBehind.execute(task);
            return true;
        } catch (java.util.concurrent.RejectedExecutionException e) {
            return false;
        }
    }

    /**
     * One daemon thread per process handle that writes the log buffer out and forces the log
     * behind NO_SYNC and WRITE_NO_SYNC appenders.
     */
    private final java.util.concurrent.ExecutorService writeBehind = java.util.concurrent.Executors
            .newSingleThreadExecutor(r -> {
                Thread t = new Thread(r, "libtp-log-writeback");
                t.setDaemon(true);
                return t;
            });

    /** Sizes log files were created with, by number (their headers say; they never change). */
    private final Map<Integer, Long> createdSizes = new java.util.concurrent.ConcurrentHashMap<>();

    /**
     * The size log file {@code n} was created with. Files created before {@code logFileSize}
     * was changed keep their own; the current file and later ones have this run's.
     */
    /**
     * The checkpoint the anchor named when this process created the region (0 if none or not
     * this process): recovery, which runs in that process, starts looking there.
     */
    volatile long anchoredCheckpoint;

    long sizeOf(int n) throws IOException {
        Long known = createdSizes.get(n);
        if (known != null) {
            return known;
        }
        ByteBuffer hb = ByteBuffer.allocate(LogFileHeader.SIZE).order(ByteOrder.LITTLE_ENDIAN);
        file(n).readFully(hb, 0);
        long size = hb.getLong(LogFileHeader.OFF_FILE_SIZE);
        if (size < LogFileHeader.SIZE + LogRecordCodec.HEADER_SIZE || size > LogConfig.MAX_FILE_SIZE) {
            throw new CorruptionException("log file " + where(LogFileHeader.fileName(n)) + " header says it was created "
                    + "with " + size + " bytes: its header is damaged");
        }
        createdSizes.put(n, size);
        return size;
    }

    /** {@link #sizeOf}, or this run's file size for a file that is gone or not yet created. */
    long sizeOfQuietly(int n) {
        try {
            return sizeOf(n);
        } catch (IOException e) {
            return fileSize;
        }
    }

    /** True if the record slot at {@code lsn} of a non-last file is the zero end marker. */
    /** Deletes log file {@code n} (archiving); never the current one. */
    synchronized void removeFile(int n) {
        checkOpen();
        if (n >= Lsn.file(mem.getLongVolatile(OFF_NEXT_LSN))) {
            throw new IllegalArgumentException("log file " + LogFileHeader.fileName(n) + " is the current log file");
        }
        try {
            StorageFile f = files.remove(n);
            if (f != null) {
                f.close();
            }
            storage.delete(LogFileHeader.fileName(n));
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot remove log file " + LogFileHeader.fileName(n) + ": " + e, e);
        }
        // Other processes close their handles on it at their next access (see file()).
        while (true) {
            long below = mem.getLongVolatile(OFF_REMOVED_BELOW);
            if (below > n || mem.compareAndSetLong(OFF_REMOVED_BELOW, below, n + 1L)) {
                break;
            }
        }
    }

    /** True if log file {@code n} was removed as no longer needed (by any process). */
    private boolean removed(int n) {
        return n < mem.getLongVolatile(OFF_REMOVED_BELOW);
    }

    /** Highest {@code removedBelow} this process has closed its handles for. */
    private long closedBelow;

    /** Closes this process's handles on removed log files (numbered below {@code below}). */
    private void closeRemoved(long below) {
        java.util.Iterator<Map.Entry<Integer, StorageFile>> it = files.entrySet().iterator();
        while (it.hasNext()) {
            Map.Entry<Integer, StorageFile> e = it.next();
            if (e.getKey() < below) {
                try {
                    e.getValue().close();
                } catch (IOException ex) {
                    LOG.debug("closing removed log file {}: {}", e.getValue().name(), ex.toString());
                }
                it.remove();
            }
        }
        closedBelow = below;
    }

    int[] fileNumbers() {
        try {
            return storage.list("log.").stream().mapToInt(LogFileHeader::fileNumber).filter(k -> k > 0).sorted().toArray();
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot list log files in " + storage.directory() + ": " + e, e);
        }
    }

    synchronized long forceCount() {
        return forces;
    }

    /** Counts a force begun at {@code t0}, in this process and in the region. */
    void counted(long t0) {
        long took = System.nanoTime() - t0;
        synchronized (this) {
            forces++;
        }
        mem.getAndAddLong(OFF_FORCES_ALL, 1);
        mem.getAndAddLong(OFF_FORCE_NANOS, took);
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("log manager of " + storage.directory() + " is closed");
        }
    }

    /** Closes this process's handles, after a file being prepared ahead is done. */
    synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        preparer.shutdownNow();
        writeBehind.shutdownNow();
        try {
            // Wait for a file being prepared ahead: nothing of this handle may touch the
            // directory after close returns (a caller may delete it then).
            if (!preparer.awaitTermination(30, java.util.concurrent.TimeUnit.SECONDS)) {
                LOG.warn("the log file being prepared ahead in {} did not finish within 30 s of close",
                        storage.directory());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        for (StorageFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                LOG.debug("closing {}: {}", f.name(), e.toString());
            }
        }
        files.clear();
    }

    /**
     * Under the log latch, at a switch to the new log file {@code n}: its first window is
     * allocated; leftovers of lost preparing races are looked for off the log latch (listing the
     * directory is slow).
     */
    void switchedTo(int n) {
        allocLatch.acquire();
        try {
            mem.putLongVolatile(OFF_ALLOCATED, Lsn.of(n, Math.min(fileSize, FIRST_WINDOW)));
        } finally {
            allocLatch.release();
        }
        try {
            preparer.execute(() -> {
                try {
                    if (!closed) {
                        deleteStalePrepared(n);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.debug("deleting stale prepared log files failed: {}", e.toString());
                }
            });
        } catch (java.util.concurrent.RejectedExecutionException e) {
            // closing: the next open deletes them
        }
    }

    boolean isClosed() {
        return closed;
    }
}
