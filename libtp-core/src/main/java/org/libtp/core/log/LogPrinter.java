package org.libtp.core.log;

import org.libtp.core.log.record.LogRecords;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The log printer ({@code db_printlog}): prints every record of an environment's log files, one
 * line each, reading the files directly (no environment is opened, nothing is changed).
 *
 * <p>Usage: {@code java -cp libtp-core.jar org.libtp.core.log.LogPrinter <environment-dir>}
 */
public final class LogPrinter {
    private LogPrinter() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length != 1) {
            System.err.println("usage: LogPrinter <environment-dir>");
            System.exit(2);
        }
        System.exit(print(new FileStorage(Path.of(args[0])), System.out) ? 0 : 1);
    }

    /** Prints the log of {@code storage} to {@code out}; false if a damaged record stopped it. */
    public static boolean print(Storage storage, PrintStream out) throws IOException {
        for (String name : storage.list("log.")) {
            int n = LogFileHeader.fileNumber(name);
            if (n <= 0) {
                continue;
            }
            try (StorageFile f = storage.open(name, false)) {
                ByteBuffer h = ByteBuffer.allocate(LogFileHeader.SIZE);
                f.readFully(h, 0);
                long logId = LogFileHeader.validate(name, h, n);
                out.printf("# %s log id %x%n", name, logId);
                long size = f.size();
                long off = LogFileHeader.SIZE;
                ByteBuffer head = ByteBuffer.allocate(4).order(ByteOrder.LITTLE_ENDIAN);
                while (off + LogRecordCodec.HEADER_SIZE <= size) {
                    head.clear();
                    f.readFully(head, off);
                    int length = head.getInt(0);
                    if (length == 0) {
                        break;
                    }
                    if (length < LogRecordCodec.HEADER_SIZE || off + length > size) {
                        out.printf("%s: impossible record length %d; stopping%n", Lsn.toString(Lsn.of(n, off)), length);
                        return false;
                    }
                    byte[] rec = new byte[length];
                    f.readFully(ByteBuffer.wrap(rec), off);
                    LogEntry e;
                    try {
                        e = LogRecordCodec.decode(name, Lsn.of(n, off), rec);
                    } catch (org.libtp.core.CorruptionException x) {
                        out.println(x.getMessage() + "; stopping");
                        return false;
                    }
                    out.println(LogRecords.print(e));
                    off += length;
                }
            }
        }
        return true;
    }
}
