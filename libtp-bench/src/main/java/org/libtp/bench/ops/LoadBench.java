package org.libtp.bench.ops;

import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.Transaction;

import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

import java.io.BufferedWriter;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code load}: bulk load of N records three ways, on one dump: a {@code Database.put} loop in
 * transactions of 10,000 (not forced, a checkpoint at the end: what {@code libtp load} does),
 * {@code libtp load} reading Berkeley DB's dump format, and {@code db5.3_load} when installed
 * (same cache size). Keys are 8-byte big-endian counters, values random bytes. One JSON line.
 */
@Command(name = "load", sortOptions = false,
        description = "bulk load of N records: a Database.put loop in transactions, libtp load from a dump, db5.3_load (if"
                + " installed) on the same dump; prints one JSON line")
public final class LoadBench implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--records", paramLabel = "N", defaultValue = "1000000",
            description = "records to load (default: ${DEFAULT-VALUE})")
    long records;

    @Option(names = "--value-bytes", paramLabel = "B", defaultValue = "32",
            description = "bytes of each record's random value (default: ${DEFAULT-VALUE})")
    int valueBytes;

    @Option(names = "--dir", paramLabel = "DIR",
            description = "where the dump and the three environments go (default: a temporary directory, deleted at the end)")
    Path dir;

    @Option(names = "--batch", paramLabel = "N", defaultValue = "10000",
            description = "records per transaction of the put loop and of libtp load (default: ${DEFAULT-VALUE})")
    int batch;

    private final PrintStream out;
    private final PrintStream err;

    public LoadBench(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws Exception {
        if (records < 1 || valueBytes < 0 || batch < 1) {
            throw new ParameterException(spec.commandLine(), "--records and --batch must be >= 1, --value-bytes >= 0");
        }
        Path root = dir != null ? dir : Files.createTempDirectory("libtp-load-bench");
        Files.createDirectories(root);
        Path dump = root.resolve("records.dump");
        long t0 = System.nanoTime();
        writeDump(dump, records, valueBytes);
        double dumpSeconds = (System.nanoTime() - t0) / 1e9;
        long dumpBytes = Files.size(dump);

        // 1. The API loop, the same batches and durability as libtp load.
        Path a = Files.createDirectories(root.resolve("put"));
        byte[] value = new byte[valueBytes];
        java.util.Random rnd = new java.util.Random(1);
        t0 = System.nanoTime();
        try (Environment env = Environment.open(a, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            Transaction t = env.beginTransaction(Durability.NO_SYNC, false);
            java.nio.ByteBuffer key = java.nio.ByteBuffer.allocate(8);
            for (long i = 0; i < records; i++) {
                rnd.nextBytes(value);
                db.put(t, key.putLong(0, i).array().clone(), value);
                if ((i + 1) % batch == 0) {
                    t.commit();
                    t = env.beginTransaction(Durability.NO_SYNC, false);
                }
            }
            t.commit();
            env.checkpoint();
        }
        double putSeconds = (System.nanoTime() - t0) / 1e9;

        // 2. libtp load, in this JVM (the command's own code path, picocli included).
        Path b = Files.createDirectories(root.resolve("load"));
        t0 = System.nanoTime();
        picocli.CommandLine cl = org.libtp.tools.Libtp.commandLine();
        cl.setOut(new java.io.PrintWriter(java.io.OutputStream.nullOutputStream()));
        int status = cl.execute("load", b.toString(), "--create", "--db", "t", "-q",
                "--batch", Integer.toString(batch), "-f", dump.toString());
        double loadSeconds = (System.nanoTime() - t0) / 1e9;
        if (status != 0) {
            err.println("load: libtp load failed with status " + status);
            return 1;
        }

        // 3. Berkeley DB's db5.3_load, with a cache the size of LibTP's default.
        double bdbSeconds = -1;
        if (onPath("db5.3_load")) {
            Path c = Files.createDirectories(root.resolve("bdb"));
            Files.writeString(c.resolve("DB_CONFIG"), "set_cachesize 0 " + (64 << 20) + " 1\n");
            t0 = System.nanoTime();
            Process p = new ProcessBuilder("db5.3_load", "-h", c.toString(), "-f", dump.toString(), "t.db")
                    .redirectErrorStream(true).start();
            String o = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (p.waitFor() == 0) {
                bdbSeconds = (System.nanoTime() - t0) / 1e9;
            } else {
                err.println("load: db5.3_load failed: " + o);
            }
        }
        out.println(String.format(Locale.ROOT, "{\"bench\":\"load\",\"records\":%d,\"valueBytes\":%d,\"dumpBytes\":%d,"
                        + "\"dumpSeconds\":%.2f,\"putSeconds\":%.2f,\"putPerSecond\":%.0f,\"loadSeconds\":%.2f,"
                        + "\"loadPerSecond\":%.0f,\"loadVsPut\":%.3f,\"db53LoadSeconds\":%.2f,\"db53PerSecond\":%.0f,"
                        + "\"loadVsDb53\":%.3f,\"jdk\":\"%s\"}",
                records, valueBytes, dumpBytes, dumpSeconds, putSeconds, records / putSeconds, loadSeconds,
                records / loadSeconds, putSeconds / loadSeconds, bdbSeconds, bdbSeconds > 0 ? records / bdbSeconds : 0,
                bdbSeconds > 0 ? bdbSeconds / loadSeconds : 0, System.getProperty("java.version")));
        if (dir == null) {
            org.libtp.bench.engine.TempDirs.deleteRecursively(root);
        }
        return 0;
    }

    static boolean onPath(String cmd) {
        for (String d : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(d, cmd))) {
                return true;
            }
        }
        return false;
    }

    /** Berkeley DB's dump format, bytevalue, btree: what db_dump writes. */
    static void writeDump(Path file, long records, int valueBytes) throws Exception {
        HexFormat hex = HexFormat.of();
        java.util.Random rnd = new java.util.Random(1);
        byte[] value = new byte[valueBytes];
        java.nio.ByteBuffer key = java.nio.ByteBuffer.allocate(8);
        try (BufferedWriter w = Files.newBufferedWriter(file, StandardCharsets.US_ASCII)) {
            w.write("VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n");
            for (long i = 0; i < records; i++) {
                rnd.nextBytes(value);
                w.write(' ');
                w.write(hex.formatHex(key.putLong(0, i).array()));
                w.write("\n ");
                w.write(hex.formatHex(value));
                w.write('\n');
            }
            w.write("DATA=END\n");
        }
    }
}
