package org.libtp.core.log;

import org.libtp.core.CorruptionException;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * Reads the log files of a directory without the log region, file by file and record by record
 * (as {@code db_printlog} does): for printing a log, even one whose environment is not open or
 * cannot be. Each record's checksum is checked; the first damaged record stops the reading.
 */
public final class LogFileReader {
    /** What the reader finds, in log order. */
    public interface Visitor {
        /** A log file begins: its name and the log id in its header. */
        void file(String name, long logId);

        /** A whole record whose checksum matches. */
        void entry(LogEntry entry);

        /** A damaged record (named by LSN and what is wrong with it): the reading stops here. */
        void damaged(String message);
    }

    private LogFileReader() {
    }

    /** Reads every log file of {@code storage}; false if a damaged record stopped it. */
    public static boolean read(Storage storage, Visitor visitor) throws IOException {
        int lastFile = storage.list("log.").stream().mapToInt(LogFileHeader::fileNumber).max().orElse(-1);
        for (String name : storage.list("log.")) {
            int n = LogFileHeader.fileNumber(name);
            if (n <= 0) {
                continue;
            }
            boolean ended = false;
            try (StorageFile f = storage.open(name, false)) {
                ByteBuffer h = ByteBuffer.allocate(LogFileHeader.SIZE);
                try {
                    f.readFully(h, 0);
                } catch (EOFException e) {
                    // Cut inside its header: as damaged as a header that fails its checksum.
                    throw new CorruptionException("log file " + storage.directory().resolve(name) + " is " + f.size()
                            + " bytes, shorter than its " + LogFileHeader.SIZE + "-byte header: it was cut short. "
                            + LogAnchor.RESTORE);
                }
                visitor.file(name, LogFileHeader.validate(name, h, n));
                long size = f.size();
                long created = h.order(ByteOrder.LITTLE_ENDIAN).getLong(LogFileHeader.OFF_FILE_SIZE);
                long off = LogFileHeader.SIZE;
                ByteBuffer head = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                while (off + LogRecordCodec.HEADER_SIZE <= size) {
                    head.clear();
                    f.readFully(head, off);
                    int length = head.getInt(0);
                    if (length == 0) {
                        if (n != lastFile) {
                            // Every file but the last ends with its file-end record.
                            visitor.damaged(Lsn.toString(Lsn.of(n, off)) + ": " + name + " has no record here but no "
                                    + "file-end record either, and later log files follow: a stretch of the log was "
                                    + "zeroed or damaged");
                            return false;
                        }
                        break;
                    }
                    if (length < LogRecordCodec.HEADER_SIZE || off + length > size) {
                        visitor.damaged(Lsn.toString(Lsn.of(n, off)) + ": impossible record length " + length);
                        return false;
                    }
                    byte[] rec = new byte[length];
                    f.readFully(ByteBuffer.wrap(rec), off);
                    LogEntry e;
                    try {
                        e = LogRecordCodec.decode(name, Lsn.of(n, off), rec);
                    } catch (CorruptionException x) {
                        visitor.damaged(x.getMessage());
                        return false;
                    }
                    visitor.entry(e);
                    if (e.type() == LogRecordCodec.FILE_END_TYPE) {
                        ended = true;
                        break; // the log goes on in the next file
                    }
                    off += length;
                }
                if (!ended && n != lastFile && off + LogRecordCodec.HEADER_SIZE > size && size >= created) {
                    visitor.damaged(Lsn.toString(Lsn.of(n, off)) + ": " + name + " ends without its file-end record, "
                            + "and later log files follow: its last records were lost");
                    return false;
                }
                if (size < created) {
                    // Log files keep the length they were created with: the records went on past the cut.
                    visitor.damaged(Lsn.toString(Lsn.of(n, size)) + ": " + name + " is cut short (" + size + " of the "
                            + created + " bytes it was created with)");
                    return false;
                }
            }
        }
        return true;
    }
}
