package org.libtp.tools;

import org.libtp.btree.AccessMethods;
import org.libtp.core.log.record.LogPrinter;
import org.libtp.core.log.Lsn;
import org.libtp.core.storage.FileStorage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** {@code libtp printlog}: Berkeley DB's db_printlog. Reads the files; opens no environment. */
@Command(name = "printlog", mixinStandardHelpOptions = true,
        description = "Print every log record, one line each, from the log files (nothing is opened or changed). "
                + "Exit status 1 if a damaged record stops it.")
final class PrintlogCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = "--from", paramLabel = "LSN", description = "only records at or after LSN, written file,offset "
            + "as printlog shows it: (3,4096) or 3,4096")
    String from;
    @Option(names = "--txn", paramLabel = "ID", description = "only the records of transaction ID")
    Long txn;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    /** A record line: "(file,offset) txn id ...". */
    private static final Pattern RECORD = Pattern.compile("^\\((\\d+),(\\d+)\\) txn (\\d+) .*");

    @Override
    public Integer call() throws IOException {
        Tools.requireEnvironment(dir);
        long fromLsn = from == null ? 0 : parseLsn(from);
        ByteArrayOutputStream buf = new ByteArrayOutputStream();
        boolean ok;
        try (PrintStream ps = new PrintStream(buf, false, StandardCharsets.UTF_8)) {
            AccessMethods.registerLogRecords(); // the B-tree's records are printed by its codec
            ok = LogPrinter.print(new FileStorage(dir), ps);
        }
        PrintWriter out = spec.commandLine().getOut();
        for (String line : buf.toString(StandardCharsets.UTF_8).split("\n", -1)) {
            if (line.isEmpty()) {
                continue;
            }
            Matcher m = RECORD.matcher(line);
            if (m.matches()) {
                long lsn = Lsn.of(Integer.parseInt(m.group(1)), Long.parseLong(m.group(2)));
                if (Long.compareUnsigned(lsn, fromLsn) < 0 || txn != null && Long.parseLong(m.group(3)) != txn) {
                    continue;
                }
            } else if (txn != null && line.startsWith("#")) {
                continue; // file headers only without a transaction filter
            }
            out.println(line);
        }
        out.flush();
        return ok ? 0 : Libtp.PROBLEMS;
    }

    private long parseLsn(String s) {
        try {
            return Lsn.parse(s);
        } catch (IllegalArgumentException e) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--from " + s + ": an LSN is "
                    + "file,offset, e.g. (3,4096)");
        }
    }
}
