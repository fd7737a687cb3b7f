package org.libtp.core.log;

import static org.libtp.core.log.LogLayout.*;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.region.Region;
import org.libtp.core.region.RegionHeader;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;

/**
 * Salvage of the log buffer a run left unwritten. NO_SYNC and WRITE_NO_SYNC commits return once
 * their records are in the shared log buffer, a mapped region file that outlives every process
 * (tmpfs or the page cache keep it until the machine restarts). When the last run ended
 * uncleanly, the environment keeps its log region ({@link RegionEnvironment#keptRegion}); the
 * first process to open the log then appends the buffer's records that the log files lack and
 * forces them, before recovery reads the log. So a commit acknowledged at WRITE_NO_SYNC survives
 * kill -9 of every process without a write(2) per commit, as it did with one.
 *
 * <p>What is appended: the records from the end of the log files (a record boundary: the last
 * complete record) up to the kept nextLsn, each checked (length, CRC32C) before anything is
 * written. The buffer holds every byte not yet written to the file ({@link LogLayout}'s
 * invariant), so the log's end is at or after the buffer's start. Only from the same boot: after a
 * machine restart, a region file on disk may hold pages older than the log files (the kernel wrote
 * them back in any order), and the OS lost the unforced writes anyway, as NO_SYNC promises.
 */
final class LogSalvage {
    private static final Logger LOG = LoggerFactory.getLogger(SharedLog.class);
    private static final Path BOOT_ID = Path.of("/proc/sys/kernel/random/boot_id");
    private static final long[] THIS_BOOT = readBootId();

    private LogSalvage() {
    }

    /** The kernel's boot id as two longs, or {0, 0} where it cannot be read (not Linux). */
    static long[] bootId() {
        return THIS_BOOT.clone();
    }

    private static long[] readBootId() {
        try {
            UUID u = UUID.fromString(Files.readString(BOOT_ID).trim());
            return new long[] {u.getMostSignificantBits(), u.getLeastSignificantBits()};
        } catch (IOException | RuntimeException e) {
            LOG.debug("no boot id ({}): NO_SYNC commits are written to the OS, the buffer is not salvaged", e.toString());
            return new long[] {0, 0};
        }
    }

    /**
     * In the first process, under the log latch, after the end of the log files was found at
     * {@code end}: appends and forces what the kept log region holds past it; returns the new end.
     * The kept region is deleted afterwards (and also when there is nothing to take from it).
     *
     * @throws VersionMismatchException the kept region is of another LibTP's layout
     * @throws CorruptionException the kept region is damaged, or the log files end before the
     *         buffer's unwritten bytes begin; nothing was written
     * @throws EnvironmentAccessException writing or forcing the salvaged records failed; the kept
     *         region stays for the next open
     */
    static long salvage(RegionEnvironment env, LogFiles files, long logId, long end) {
        Path kept = env.keptRegion("log");
        if (kept == null) {
            return end;
        }
        long newEnd;
        try {
            newEnd = salvage(kept, files, logId, end);
        } catch (IOException e) {
            throw new CorruptionException("cannot read the log region " + kept + " kept from the last run, which may hold "
                    + "committed records no process wrote to the log (" + e + "). " + advice(kept), e);
        }
        try {
            env.discardKeptRegion("log");
        } catch (IOException e) {
            // Harmless: salvaging it again finds its records in the log already.
            LOG.warn("could not delete the kept log region {}: {}", kept, e.toString());
        }
        return newEnd;
    }

    private static String advice(Path kept) {
        return "Open the environment once with the LibTP version that ran last (it salvages them), or delete " + kept
                + " to give them up; nothing was changed";
    }

    private static long salvage(Path kept, LogFiles files, long logId, long end) throws IOException {
        long size = Files.size(kept);
        if (size <= OFF_BUFFER) {
            throw new CorruptionException("the log region " + kept + " kept from the last run is truncated (" + size
                    + " bytes). " + advice(kept));
        }
        long declared; // the size the header declares names the fingerprint; a file of another size is cut
        try (var ch = java.nio.channels.FileChannel.open(kept, java.nio.file.StandardOpenOption.READ)) {
            ByteBuffer h = ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            ch.read(h, RegionHeader.OFF_REGION_SIZE);
            declared = h.getLong(0);
        }
        try {
            Region.readHeader(kept, RegionHeader.KIND_USER, SharedLog.spec(declared - OFF_BUFFER).fingerprint());
        } catch (VersionMismatchException e) {
            throw new VersionMismatchException("the log region " + kept + " kept from the last run is of another LibTP "
                    + "version (" + e.getMessage() + "); it may hold committed records no process wrote to the log. "
                    + advice(kept));
        } catch (CorruptionException e) {
            throw new CorruptionException(e.getMessage() + "; it is the log region kept from the last run, which may "
                    + "hold committed records no process wrote to the log. " + advice(kept));
        }
        ByteBuffer r;
        try (var ch = java.nio.channels.FileChannel.open(kept, java.nio.file.StandardOpenOption.READ)) {
            r = ByteBuffer.allocate((int) size).order(ByteOrder.nativeOrder());
            while (r.hasRemaining()) {
                if (ch.read(r, r.position()) < 0) {
                    throw new IOException("ended early");
                }
            }
        }
        if (r.getInt((int) OFF_STATE) != 1) {
            LOG.debug("kept log region {}: the last run never opened the log; nothing to salvage", kept);
            return end;
        }
        long[] boot = {r.getLong((int) OFF_BOOT_ID), r.getLong((int) OFF_BOOT_ID + 8)};
        if (boot[0] == 0 && boot[1] == 0) {
            LOG.debug("kept log region {}: made where the boot id was unknown (its commits wrote the log); not salvaged", kept);
            return end;
        }
        if (boot[0] != THIS_BOOT[0] || boot[1] != THIS_BOOT[1]) {
            LOG.info("the log region kept from the last run dates from before the machine restarted; NO_SYNC and "
                    + "WRITE_NO_SYNC commits the OS had not written are lost, as those settings allow");
            return end;
        }
        if (r.getLong((int) OFF_LOG_ID) != logId) {
            LOG.warn("the log region kept from the last run belongs to another log (id {}, this log {}): the log was "
                    + "reset or replaced since; its buffer is not salvaged", Long.toHexString(r.getLong((int) OFF_LOG_ID)),
                    Long.toHexString(logId));
            return end;
        }
        long start = r.getLong((int) OFF_BUFFER_START);
        long next = r.getLong((int) OFF_NEXT_LSN);
        long capacity = size - OFF_BUFFER;
        if (next <= end) {
            return end; // every record is in the log files already
        }
        if (Lsn.file(start) != Lsn.file(next) || next - start > capacity || Lsn.file(end) != Lsn.file(next)) {
            throw new CorruptionException("the log region " + kept + " kept from the last run names buffer LSNs ["
                    + Lsn.toString(start) + ", " + Lsn.toString(next) + ") that do not follow the log's end "
                    + Lsn.toString(end) + ". " + advice(kept));
        }
        if (end < start) {
            throw new CorruptionException("the log files end at LSN " + Lsn.toString(end) + " but the records the last "
                    + "run left in its log buffer (kept as " + kept + ") begin at " + Lsn.toString(start) + ": bytes "
                    + "between were written to the log file and are gone (was the file replaced or truncated?). "
                    + advice(kept));
        }
        ByteBuffer le = r.duplicate().order(ByteOrder.LITTLE_ENDIAN); // record headers are little-endian
        long lsn = end;
        int records = 0;
        while (lsn < next) {
            int at = (int) (OFF_BUFFER + (lsn - start));
            int length = le.getInt(at + LogRecordCodec.OFF_LENGTH);
            if (length < LogRecordCodec.HEADER_SIZE || lsn + length > next) {
                break;
            }
            byte[] rec = new byte[length];
            r.get(at, rec);
            try {
                LogRecordCodec.decode(kept.toString(), lsn, rec);
            } catch (CorruptionException e) {
                break;
            }
            lsn += length;
            records++;
        }
        if (lsn < next) {
            LOG.warn("the log region kept from the last run holds {} bytes from LSN {} that are not whole records; the "
                    + "{} records before them are salvaged", next - lsn, Lsn.toString(lsn), records);
        }
        if (lsn > end) {
            byte[] bytes = new byte[(int) (lsn - end)];
            r.get((int) (OFF_BUFFER + (end - start)), bytes);
            try {
                var f = files.file(Lsn.file(end));
                f.write(ByteBuffer.wrap(bytes), Lsn.offset(end));
                f.force();
            } catch (IOException e) {
                // The kept region stays: the next open salvages again (over what got written).
                throw new EnvironmentAccessException("I/O error appending " + records + " salvaged log records ("
                        + bytes.length + " bytes) to " + files.where(LogFileHeader.fileName(Lsn.file(end))) + ": " + e + "; the log region kept from "
                        + "the last run (" + kept + ") is left for the next open to salvage again", e);
            }
            LOG.info("salvaged {} log records ({} bytes, LSN {} to {}) that the last run committed without writing "
                    + "them to the log (NO_SYNC / WRITE_NO_SYNC)", records, bytes.length, Lsn.toString(end),
                    Lsn.toString(lsn));
        }
        return lsn;
    }
}
