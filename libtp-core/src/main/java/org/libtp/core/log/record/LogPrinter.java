package org.libtp.core.log.record;

import org.libtp.core.log.LogEntry;
import org.libtp.core.log.LogFileReader;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The log printer ({@code db_printlog}): prints every record of an environment's log files, one
 * line each, reading the files directly (no environment is opened, nothing is changed).
 *
 * <p>Usage: {@code java -cp libtp-core.jar org.libtp.core.log.record.LogPrinter <environment-dir>}
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
        return LogFileReader.read(storage, new LogFileReader.Visitor() {
            @Override
            public void file(String name, long logId) {
                out.printf("# %s log id %x%n", name, logId);
            }

            @Override
            public void entry(LogEntry entry) {
                out.println(LogRecords.print(entry));
            }

            @Override
            public void damaged(String message) {
                out.println(message + "; stopping");
            }
        });
    }
}
