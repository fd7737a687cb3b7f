package org.libtp.jdbc;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Two child JVMs and the parent run durable ({@code durability=sync}) JDBC transfers on one
 * directory at the same time, each for about 3 s, retrying 40001. Each reports how many it
 * committed and the wall-clock times of its first and last commit: all made progress and their
 * commit windows overlap (the processes share the database through page locks, not one at a time
 * behind a directory lock), and the total is exact afterwards.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class MultiProcessTransfersTest {
    static final int ACCOUNTS = 1000;
    static final long INITIAL = 1000;
    static final long RUN_MILLIS = 3_000;

    @TempDir
    Path dir;

    /** The result of one process's transfers. */
    record Run(long committed, long retries, long firstCommitAt, long lastCommitAt) {
        @Override
        public String toString() {
            return "COMMITTED " + committed + " RETRIES " + retries + " FIRST " + firstCommitAt + " LAST " + lastCommitAt;
        }

        static Run parse(String line) {
            String[] w = line.trim().split("\\s+");
            return new Run(Long.parseLong(w[1]), Long.parseLong(w[3]), Long.parseLong(w[5]), Long.parseLong(w[7]));
        }
    }

    /** Transfers on {@code c} (auto-commit off) until {@code deadline}, retrying 40001. */
    static Run transfers(Connection c, Random rnd, long deadline) throws SQLException, InterruptedException {
        long committed = 0;
        long retries = 0;
        long first = 0;
        long last = 0;
        try (PreparedStatement sel = c.prepareStatement("SELECT balance FROM account WHERE id = ? FOR UPDATE");
             PreparedStatement upd = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
            while (System.currentTimeMillis() < deadline) {
                int a = rnd.nextInt(ACCOUNTS);
                int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                long amount = 1 + rnd.nextInt(100);
                while (true) {
                    try {
                        long ba = balance(sel, a);
                        long bb = balance(sel, b);
                        upd.setLong(1, ba - amount);
                        upd.setInt(2, a);
                        if (upd.executeUpdate() != 1) {
                            throw new IllegalStateException("account " + a + " not updated");
                        }
                        upd.setLong(1, bb + amount);
                        upd.setInt(2, b);
                        if (upd.executeUpdate() != 1) {
                            throw new IllegalStateException("account " + b + " not updated");
                        }
                        c.commit();
                        last = System.currentTimeMillis();
                        if (first == 0) {
                            first = last;
                        }
                        committed++;
                        break;
                    } catch (SQLException e) {
                        c.rollback();
                        if (!"40001".equals(e.getSQLState())) {
                            throw e;
                        }
                        retries++;
                        Thread.sleep(rnd.nextInt(3));
                    }
                }
            }
        }
        return new Run(committed, retries, first, last);
    }

    static long balance(PreparedStatement sel, int id) throws SQLException {
        sel.setInt(1, id);
        try (ResultSet r = sel.executeQuery()) {
            if (!r.next()) {
                throw new IllegalStateException("no account " + id);
            }
            return r.getLong(1);
        }
    }

    /** Waits for the parent's "go" file, so all processes start their transfers together. */
    static void awaitGo(Path dir) throws InterruptedException {
        long giveUp = System.currentTimeMillis() + 120_000;
        while (!Files.exists(dir.resolve("go"))) {
            if (System.currentTimeMillis() > giveUp) {
                throw new IllegalStateException("no go file");
            }
            Thread.sleep(2);
        }
    }

    /** Child: args dir, seed. */
    public static final class Teller {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            Random rnd = new Random(Long.parseLong(args[1]));
            try (Connection c = DriverManager.getConnection("jdbc:libtp:" + home.resolve("db") + ";durability=sync")) {
                c.setAutoCommit(false);
                System.out.println("READY");
                awaitGo(home);
                Run r = transfers(c, rnd, System.currentTimeMillis() + RUN_MILLIS);
                System.out.println(r);
            }
            System.out.println("DONE");
        }
    }

    @Test
    void twoChildJvmsAndTheParentTransferAtTheSameTime() throws Exception {
        long seed = Seeds.seed("MultiProcessTransfersTest");
        Random rnd = new Random(seed);
        String url = "jdbc:libtp:" + dir.resolve("db") + ";durability=sync";
        try (Connection c = DriverManager.getConnection(url + ";create=true")) {
            try (Statement s = c.createStatement()) {
                s.executeUpdate("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
            }
            c.setAutoCommit(false);
            try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                for (int i = 0; i < ACCOUNTS; i++) {
                    p.setInt(1, i);
                    p.setLong(2, INITIAL);
                    p.addBatch();
                }
                p.executeBatch();
            }
            c.commit();
        }
        List<ChildJvm> children = ChildJvm.startAll(2, Teller.class,
                i -> new String[] {dir.toString(), Long.toString(rnd.nextLong())});
        List<Run> runs = new ArrayList<>();
        try {
            for (ChildJvm child : children) {
                child.awaitLine("READY", Duration.ofSeconds(60));
            }
            try (Connection c = DriverManager.getConnection(url)) {
                c.setAutoCommit(false);
                Files.createFile(dir.resolve("go"));
                Run parent = transfers(c, new Random(rnd.nextLong()), System.currentTimeMillis() + RUN_MILLIS);
                for (ChildJvm child : children) {
                    runs.add(Run.parse(child.awaitLine("COMMITTED ", Duration.ofSeconds(60))));
                    child.assertExitsCleanly(Duration.ofSeconds(30));
                }
                runs.add(parent);
            }
        } finally {
            ChildJvm.closeAll(children);
        }
        System.out.println("MultiProcessTransfersTest: child 1 " + runs.get(0) + "; child 2 " + runs.get(1) + "; parent "
                + runs.get(2));
        for (Run r : runs) {
            assertTrue(r.committed() > 0, "every process made progress: " + runs + " (seed " + seed + ")");
        }
        long latestFirst = runs.stream().mapToLong(Run::firstCommitAt).max().orElseThrow();
        long earliestLast = runs.stream().mapToLong(Run::lastCommitAt).min().orElseThrow();
        assertTrue(latestFirst < earliestLast,
                "the processes committed during one common window, not one after another: " + runs);

        try (Connection c = DriverManager.getConnection(url);
             Statement s = c.createStatement();
             ResultSet r = s.executeQuery("SELECT SUM(balance), COUNT(*) FROM account")) {
            assertTrue(r.next());
            assertEquals(ACCOUNTS * INITIAL, r.getLong(1), "seed " + seed);
            assertEquals(ACCOUNTS, r.getInt(2));
        }
    }
}
