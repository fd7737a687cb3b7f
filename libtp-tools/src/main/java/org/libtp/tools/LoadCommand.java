package org.libtp.tools;

import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.DatabaseType;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.Transaction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code libtp load}: Berkeley DB's db_load. Records go in in transactions of {@code --batch}
 * records each (not forced), and a checkpoint at the end makes the whole load durable before the
 * command reports success: a crash in the middle leaves some whole batches; repeat the load (a key
 * already present is replaced).
 */
@Command(name = "load", mixinStandardHelpOptions = true,
        description = {"Read Berkeley DB's db_dump text format (from db5.3_dump or libtp dump) into databases, "
                + "creating them if needed; a key already present is replaced.",
            "The database is --db, or each section's database= line."})
final class LoadCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = {"-s", "--db"}, paramLabel = "NAME", description = "the database to load (one section only)")
    String db;
    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "read FILE instead of standard input")
    Path file;
    @Option(names = "--create", description = "make DIR a new environment if it is not one (it must exist and be empty)")
    boolean create;
    @Option(names = "--batch", paramLabel = "N", description = "records per transaction (default ${DEFAULT-VALUE})")
    int batch = 10_000;
    @Option(names = "--record-length", paramLabel = "N",
            description = "recno: the fixed record length when the dump has no re_len (shorter records are padded)")
    Integer recordLength;
    @Option(names = {"-q", "--quiet"}, description = "no progress bar")
    boolean quiet;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;
    private ProgressBar bar;
    private CountingStream counted;
    private long inputSize;

    /** Counts the bytes read from the input, for the progress bar. */
    static final class CountingStream extends java.io.FilterInputStream {
        volatile long count;

        CountingStream(java.io.InputStream in) {
            super(in);
        }

        @Override
        public int read() throws IOException {
            int b = super.read();
            if (b >= 0) {
                count++;
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            int n = super.read(b, off, len);
            if (n > 0) {
                count += n;
            }
            return n;
        }
    }

    @Override
    public Integer call() throws IOException {
        if (batch < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--batch must be at least 1");
        }
        if (!(create && Files.isDirectory(dir) && isEmpty(dir))) {
            Tools.requireEnvironment(dir);
        }
        long total = 0;
        inputSize = file == null ? 0 : Files.size(file);
        counted = new CountingStream(file == null ? System.in : Files.newInputStream(file));
        try (Environment env = create ? Environment.join(dir, EnvironmentConfig.defaults()) : Tools.open(dir, false);
             BufferedReader in = new BufferedReader(new InputStreamReader(counted, StandardCharsets.ISO_8859_1), 1 << 16);
             ProgressBar progress = ProgressBar.of(spec.commandLine().getErr(), "load", "B", quiet)) {
            bar = progress;
            int[] lineNo = {0};
            int sections = 0;
            Map<String, String> h;
            while ((h = DumpFormat.readHeader(in, lineNo)) != null) {
                sections++;
                String name = db != null ? db : h.get("database");
                if (name == null) {
                    throw new Tools.ToolException("line " + lineNo[0] + ": the dump names no database; give --db NAME");
                }
                if (db != null && sections > 1) {
                    throw new Tools.ToolException("line " + lineNo[0] + ": a second section, but --db names one database; "
                            + "load without --db to use each section's database= line");
                }
                total += section(env, name, h, in, lineNo);
            }
            if (sections == 0) {
                throw new Tools.ToolException("the input holds no dump (no VERSION=3 ... HEADER=END)");
            }
            env.checkpoint(); // the batches were not forced: make the load durable before saying so
        }
        spec.commandLine().getOut().println("loaded " + total + " records");
        return 0;
    }

    private static boolean isEmpty(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.findAny().isEmpty();
        }
    }

    private long section(Environment env, String name, Map<String, String> h, BufferedReader in, int[] lineNo)
            throws IOException {
        String type = DumpFormat.type(h, lineNo[0]);
        boolean print = "print".equals(h.get("format"));
        boolean recno = type.equals("recno");
        boolean keys = !recno || "1".equals(h.get("keys"));
        int length = 0;
        int pad = 0;
        DatabaseConfig.Builder config = DatabaseConfig.builder().allowCreate(true);
        if (recno) {
            String reLen = h.get("re_len");
            if (reLen == null && recordLength == null) {
                throw new Tools.ToolException("database " + name + ": the dump has no re_len (variable-length recno); "
                        + "LibTP's recno records have one fixed length: give --record-length N");
            }
            try {
                length = recordLength != null ? recordLength : Integer.parseInt(reLen.trim());
            } catch (NumberFormatException e) {
                throw new Tools.ToolException("line " + lineNo[0] + ": re_len=" + DumpFormat.clip(reLen)
                        + " is not a record length");
            }
            pad = DumpFormat.pad(h);
            config.type(DatabaseType.RECNO).recordLength(length);
        }
        long n = 0;
        Database opened;
        try {
            opened = env.openDatabase(null, name, config.build());
        } catch (IllegalArgumentException e) {
            // a name, type or record length from the dump that the database refuses: the dump's
            // error, reported with its line like the others (the API's own exception says what)
            throw new Tools.ToolException("the section ending at line " + lineNo[0] + ": " + e.getMessage());
        }
        try (Database d = opened) {
            if (recno && d.config().recordLength() != length) {
                throw new Tools.ToolException("database " + name + " exists with records of " + d.config().recordLength()
                        + " bytes, the dump has " + length);
            }
            Transaction t = env.beginTransaction(Durability.NO_SYNC, false);
            try {
                String line;
                byte[] key = null;
                while ((line = in.readLine()) != null) {
                    lineNo[0]++;
                    if (line.equals("DATA=END")) {
                        if (key != null) {
                            throw new Tools.ToolException("line " + lineNo[0] + ": a key without its data before DATA=END");
                        }
                        t.commit();
                        t = null;
                        return n;
                    }
                    byte[] item = DumpFormat.decode(line, print, "line " + lineNo[0]);
                    if (keys && key == null) {
                        key = item;
                        continue;
                    }
                    if (recno) {
                        byte[] rec = item;
                        if (rec.length > length) {
                            throw new Tools.ToolException("line " + lineNo[0] + ": a record of " + rec.length
                                    + " bytes; database " + name + " holds " + length);
                        }
                        if (rec.length < length) {
                            rec = java.util.Arrays.copyOf(rec, length);
                            java.util.Arrays.fill(rec, item.length, length, (byte) pad);
                        }
                        if (key != null) {
                            long number = recordNumber(key, lineNo[0]);
                            long last = d.count(t);
                            if (number - last > MAX_GAP) {
                                // each skipped number costs an append and a delete: a damaged number
                                // (99999999999) would run for days
                                throw new Tools.ToolException("line " + lineNo[0] + ": record number " + number
                                        + " skips more than " + MAX_GAP + " numbers after record " + last
                                        + ": the dump is damaged, or its database had a gap this large, which load "
                                        + "does not fill");
                            }
                            // Numbers the dump skips (deleted records, aborted appends) stay absent:
                            // taken by an append and deleted, as a put may go at most one past the end.
                            for (long count = d.count(t); count + 1 < number; count++) {
                                d.delete(t, d.append(t, rec));
                            }
                            d.put(t, number, rec);
                        } else {
                            d.append(t, rec);
                        }
                    } else {
                        if (key.length == 0 || key.length > d.maxKeyLength()) {
                            throw new Tools.ToolException("line " + lineNo[0] + ": a key of " + key.length + " bytes; "
                                    + "LibTP keys take 1 to " + d.maxKeyLength() + " bytes (a larger pageSize allows "
                                    + "longer ones)");
                        }
                        d.put(t, key, item);
                    }
                    key = null;
                    if (++n % batch == 0) {
                        bar.at(counted.count, inputSize);
                        t.commit();
                        t = env.beginTransaction(Durability.NO_SYNC, false);
                    }
                }
                throw new Tools.ToolException("the input ends inside database " + name + " (no DATA=END)");
            } finally {
                if (t != null && t.isActive()) {
                    t.abort();
                }
            }
        }
    }

    /** The most record numbers a recno section may skip at once (deleted records in the dumped database). */
    static final long MAX_GAP = 1 << 20;

    private static long recordNumber(byte[] key, int line) {
        try {
            long n = Long.parseLong(new String(key, StandardCharsets.US_ASCII));
            if (n < 1) {
                throw new NumberFormatException();
            }
            return n;
        } catch (NumberFormatException e) {
            throw new Tools.ToolException("line " + line + ": a record number must be a positive decimal number");
        }
    }
}
