package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.Transaction;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;

/**
 * Updates of records by size: 10,000 records of {@code valueBytes} in TP mode (default 4 KiB
 * pages), each operation an auto-committed NO_SYNC put of a random record with the same length
 * and 16 of its bytes changed (a row update). 1 KiB records are inline in their leaf; 3,000 and
 * 8,000-byte ones live in overflow chains (one and two pages), which a same-length put overwrites
 * in place. At the trial's end the data file's size is printed (a new chain per update grows it).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class RecordSizeBench {
    static final int RECORDS = 10_000;

    @Param({"1024", "3000", "8000"})
    public int valueBytes;

    private Path dir;
    private Environment env;
    private Database db;
    private byte[][] keys;
    private byte[][] values;
    private final SplittableRandom rnd = new SplittableRandom(42);

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("libtp-recordsize");
        env = Environment.open(dir, EnvironmentConfig.builder().durability(Durability.NO_SYNC)
                .cacheBytes(256L << 20).build());
        db = env.openDatabase(null, "rows", DatabaseConfig.builder().allowCreate(true).build());
        keys = new byte[RECORDS][];
        values = new byte[RECORDS][];
        for (int i = 0; i < RECORDS; i += 100) {
            try (Transaction t = env.beginTransaction()) {
                for (int k = i; k < i + 100; k++) {
                    keys[k] = String.format("row%06d", k).getBytes(StandardCharsets.UTF_8);
                    values[k] = new byte[valueBytes];
                    rnd.nextBytes(values[k]);
                    db.put(t, keys[k], values[k]);
                }
                t.commit();
            }
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        db.close();
        env.close();
        try (var files = Files.list(dir)) {
            long bytes = files.filter(f -> f.getFileName().toString().startsWith("rows"))
                    .mapToLong(f -> f.toFile().length()).sum();
            System.out.printf("%n%d-byte records: data file %,d bytes after the trial%n", valueBytes, bytes);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            TempDirs.deleteRecursively(dir);
        }
    }

    @Benchmark
    public void update() {
        int i = rnd.nextInt(RECORDS);
        byte[] v = values[i];
        int at = rnd.nextInt(valueBytes - 16);
        for (int k = 0; k < 16; k++) {
            v[at + k] = (byte) rnd.nextInt();
        }
        db.put(null, keys[i], v);
    }
}
