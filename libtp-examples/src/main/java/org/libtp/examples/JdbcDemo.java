package org.libtp.examples;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The JDBC demo: the bank of {@link BankDemo} as a SQL table with a secondary index, used through
 * a HikariCP connection pool by two JVM processes at once. Each transfer is one transaction of
 * plain JDBC (two UPDATEs); a deadlock victim gets SQLState 40001 and is retried. At the end the
 * parent checks that the total is unchanged and shows a query the index answers.
 *
 * <pre>
 * java -cp libtp-examples/target/libtp-examples.jar org.libtp.examples.JdbcDemo [directory] [seconds]
 * </pre>
 */
public final class JdbcDemo {
    static final int ACCOUNTS = 1000;
    static final int THREADS = 2;

    private JdbcDemo() {
    }

    static HikariDataSource pool(Path dir) {
        HikariConfig c = new HikariConfig();
        c.setJdbcUrl("jdbc:libtp:" + dir + ";create=true;early_lock_release=true");
        c.setMaximumPoolSize(THREADS);
        c.setAutoCommit(false);
        c.setPoolName("libtp-demo");
        return new HikariDataSource(c);
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 3 && args[0].equals("--teller")) {
            try (HikariDataSource ds = pool(Paths.get(args[1]))) {
                tellers(ds, Integer.parseInt(args[2]), "child");
            }
            return;
        }
        Path dir = args.length > 0 ? Files.createDirectories(Paths.get(args[0])) : Files.createTempDirectory("libtp-jdbc");
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 5;
        System.out.println("LibTP JDBC demo: jdbc:libtp:" + dir.toAbsolutePath());
        try (HikariDataSource ds = pool(dir)) {
            try (Connection c = ds.getConnection(); Statement s = c.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS account (id INT PRIMARY KEY, branch VARCHAR(10) NOT NULL, "
                        + "balance BIGINT NOT NULL)");
                s.execute("CREATE INDEX IF NOT EXISTS account_branch ON account (branch)");
                try (ResultSet r = s.executeQuery("SELECT COUNT(*) FROM account")) {
                    r.next();
                    if (r.getLong(1) == 0) {
                        try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?, 1000)")) {
                            for (int i = 0; i < ACCOUNTS; i++) {
                                p.setInt(1, i);
                                p.setString(2, "branch-" + i % 10);
                                p.addBatch();
                            }
                            p.executeBatch();
                        }
                        System.out.printf("[parent] created %,d accounts%n", ACCOUNTS);
                    }
                }
                c.commit();
            }
            long before = total(ds);
            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    JdbcDemo.class.getName(), "--teller", dir.toString(), Integer.toString(seconds))).inheritIO().start();
            tellers(ds, seconds, "parent");
            if (!child.waitFor(seconds + 120L, TimeUnit.SECONDS) || child.exitValue() != 0) {
                child.destroyForcibly();
                throw new IllegalStateException("the child JVM failed");
            }
            long after = total(ds);
            System.out.printf("[parent] total before %,d, after %,d: %s%n", before, after,
                    before == after ? "unchanged" : "CHANGED");
            try (Connection c = ds.getConnection(); Statement s = c.createStatement();
                 ResultSet r = s.executeQuery("EXPLAIN SELECT SUM(balance) FROM account WHERE branch = 'branch-3'")) {
                r.next();
                System.out.println("[parent] plan of a per-branch sum: " + r.getString(1));
                c.commit();
            }
            if (before != after) {
                System.exit(1);
            }
        }
    }

    static long total(HikariDataSource ds) throws SQLException {
        try (Connection c = ds.getConnection(); Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT SUM(balance) FROM account")) {
            r.next();
            long t = r.getLong(1);
            c.commit();
            return t;
        }
    }

    /** {@link #THREADS} threads move money for {@code seconds}; prints the throughput. */
    static void tellers(HikariDataSource ds, int seconds, String who) throws Exception {
        AtomicLong done = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        long end = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        List<Thread> threads = new ArrayList<>();
        List<Exception> failures = new ArrayList<>();
        for (int t = 0; t < THREADS; t++) {
            long seed = t * 31L + who.hashCode();
            Thread th = new Thread(() -> {
                Random rnd = new Random(seed);
                try (Connection c = ds.getConnection();
                     PreparedStatement take = c.prepareStatement("UPDATE account SET balance = balance - ? WHERE id = ?");
                     PreparedStatement give = c.prepareStatement("UPDATE account SET balance = balance + ? WHERE id = ?")) {
                    while (System.nanoTime() < end) {
                        int from = rnd.nextInt(ACCOUNTS);
                        int to = rnd.nextInt(ACCOUNTS);
                        long amount = 1 + rnd.nextInt(50);
                        try {
                            take.setLong(1, amount);
                            take.setInt(2, from);
                            take.executeUpdate();
                            give.setLong(1, amount);
                            give.setInt(2, to);
                            give.executeUpdate();
                            c.commit();
                            done.incrementAndGet();
                        } catch (SQLException e) {
                            if (!"40001".equals(e.getSQLState())) {
                                throw e;
                            }
                            c.rollback(); // a deadlock victim: try another transfer
                            retries.incrementAndGet();
                        }
                    }
                } catch (Exception e) {
                    synchronized (failures) {
                        failures.add(e);
                    }
                }
            }, who + "-teller-" + t);
            threads.add(th);
            th.start();
        }
        for (Thread th : threads) {
            th.join();
        }
        if (!failures.isEmpty()) {
            throw failures.get(0);
        }
        System.out.printf("[%s] %,d transfers in %d s (%,.0f/s) over JDBC, %d deadlock victims retried%n", who, done.get(),
                seconds, done.get() / (double) seconds, retries.get());
    }
}
