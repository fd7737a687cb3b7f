package org.libtp.bench.jmh;

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

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.concurrent.TimeUnit;

/**
 * The JDBC driver's hot paths, one thread, warm: a prepared point SELECT by primary key and a
 * prepared single-row UPDATE (auto-commit, no-sync: the CPU path), over 100,000 rows of about
 * 100 bytes, with H2's SQL engine (in memory) beside it. The JDBC driver's targets: the point
 * SELECT at most 2 us and 1 KiB allocated per execution ({@code -prof gc}).
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class JdbcBench {
    static final int ROWS = 100_000;

    @Param({"libtp", "h2"})
    public String engine;

    private Path dir;
    private Connection c;
    private PreparedStatement select;
    private PreparedStatement update;
    private int next;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        dir = Files.createTempDirectory("jdbc-bench");
        c = DriverManager.getConnection(engine.equals("libtp")
                ? "jdbc:libtp:" + dir + ";create=true;durability=no_sync;cache_size=128m"
                : "jdbc:h2:mem:jdbcbench" + System.nanoTime());
        try (Statement s = c.createStatement()) {
            s.execute("CREATE TABLE account (id INT PRIMARY KEY, branch INT NOT NULL, balance BIGINT NOT NULL, "
                    + "filler VARCHAR(84))");
        }
        c.setAutoCommit(false);
        try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?, 0, ?)")) {
            String filler = "x".repeat(84);
            for (int i = 0; i < ROWS; i++) {
                p.setInt(1, i);
                p.setInt(2, i / 1000);
                p.setString(3, filler);
                p.addBatch();
                if (i % 5000 == 4999) {
                    p.executeBatch();
                    c.commit();
                }
            }
            p.executeBatch();
            c.commit();
        }
        c.setAutoCommit(true);
        select = c.prepareStatement("SELECT balance FROM account WHERE id = ?");
        update = c.prepareStatement("UPDATE account SET balance = balance + 1 WHERE id = ?");
    }

    @TearDown(Level.Trial)
    public void tearDown() throws Exception {
        c.close();
        try (var s = Files.walk(dir)) {
            s.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    private int nextId() {
        next = (next + 7919) % ROWS;
        return next;
    }

    @Benchmark
    public long pointSelect() throws SQLException {
        select.setInt(1, nextId());
        try (ResultSet r = select.executeQuery()) {
            r.next();
            return r.getLong(1);
        }
    }

    @Benchmark
    public int singleRowUpdate() throws SQLException {
        update.setInt(1, nextId());
        return update.executeUpdate();
    }
}
