package org.libtp.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * HikariCP as a real client of the driver: a pool of 8 connections (auto-commit off) shared by 8
 * threads doing read-modify-write transfers ({@code SELECT ... FOR UPDATE} on half the threads,
 * plain {@code SELECT} — read locks upgraded by the UPDATE, so deadlocks — on the others),
 * retrying 40001. The total and every balance (against the deltas of the committed transfers)
 * are exact afterwards; Hikari's validation ({@code isValid}) keeps good connections and evicts
 * a closed one; closing the pool closes the JVM's environment (a new connection may then open it
 * with another cache size).
 */
class PoolTransfersTest {
    static final int ACCOUNTS = 100;
    static final long INITIAL = 1000;
    static final int THREADS = 8;
    static final long RUN_MILLIS = 3_000;

    @TempDir
    Path dir;

    static HikariDataSource pool(String url) {
        HikariConfig cfg = new HikariConfig();
        cfg.setJdbcUrl(url);
        cfg.setMaximumPoolSize(THREADS);
        cfg.setMinimumIdle(THREADS);
        cfg.setAutoCommit(false);
        cfg.setConnectionTimeout(30_000);
        cfg.setPoolName("libtp-pool-test");
        return new HikariDataSource(cfg);
    }

    @Test
    void transfersThroughHikariKeepTheTotalAndThePoolClosesTheEnvironment() throws Exception {
        long seed = Seeds.seed("PoolTransfersTest");
        Path db = dir.resolve("db");
        String url = "jdbc:libtp:" + db + ";create=true";
        AtomicLongArray expected = new AtomicLongArray(ACCOUNTS);
        AtomicLong commits = new AtomicLong();
        AtomicLong retries = new AtomicLong();
        AtomicLong skipped = new AtomicLong();
        AtomicLong forUpdateCommits = new AtomicLong();
        ConcurrentLinkedQueue<Throwable> failures = new ConcurrentLinkedQueue<>();
        try (HikariDataSource ds = pool(url)) {
            try (Connection c = ds.getConnection()) {
                assertFalse(c.getAutoCommit(), "Hikari set auto-commit off");
                try (Statement s = c.createStatement()) {
                    s.executeUpdate("CREATE TABLE account (id INT PRIMARY KEY, balance BIGINT NOT NULL)");
                }
                try (PreparedStatement p = c.prepareStatement("INSERT INTO account VALUES (?, ?)")) {
                    for (int i = 0; i < ACCOUNTS; i++) {
                        p.setInt(1, i);
                        p.setLong(2, INITIAL);
                        p.addBatch();
                        expected.set(i, INITIAL);
                    }
                    p.executeBatch();
                }
                c.commit();
            }

            // While the pool is open, another cache size for the same directory is refused clearly.
            SQLException other = org.junit.jupiter.api.Assertions.assertThrows(SQLException.class,
                    () -> DriverManager.getConnection("jdbc:libtp:" + db + ";cache_size=8m"));
            assertTrue(other.getMessage().contains("cache_size"), other.getMessage());
            assertEquals("08001", other.getSQLState());

            long deadline = System.currentTimeMillis() + RUN_MILLIS;
            List<Thread> threads = new ArrayList<>();
            for (int t = 0; t < THREADS; t++) {
                boolean forUpdate = t % 2 == 0;
                Random rnd = new Random(seed + t);
                threads.add(new Thread(() -> {
                    try {
                        while (System.currentTimeMillis() < deadline) {
                            int a = rnd.nextInt(ACCOUNTS);
                            int b = (a + 1 + rnd.nextInt(ACCOUNTS - 1)) % ACCOUNTS;
                            long amount = 1 + rnd.nextInt(200);
                            int r = transfer(ds, a, b, amount, forUpdate, expected, retries);
                            if (r > 0) {
                                commits.incrementAndGet();
                                if (forUpdate) {
                                    forUpdateCommits.incrementAndGet();
                                }
                            } else {
                                skipped.incrementAndGet();
                            }
                        }
                    } catch (Throwable e) {
                        failures.add(e);
                    }
                }, "transfer-" + t));
            }
            threads.forEach(Thread::start);
            for (Thread t : threads) {
                t.join(60_000);
                assertFalse(t.isAlive(), t.getName() + " is stuck");
            }
            if (!failures.isEmpty()) {
                AssertionError e = new AssertionError("transfer threads failed (seed " + seed + ")", failures.peek());
                failures.stream().skip(1).forEach(e::addSuppressed);
                throw e;
            }
            System.out.println("PoolTransfersTest: " + commits + " transfers committed (" + forUpdateCommits
                    + " with FOR UPDATE), " + skipped + " skipped (insufficient funds), " + retries
                    + " retries after 40001 in " + RUN_MILLIS + " ms on " + THREADS + " pooled connections");
            assertTrue(commits.get() > THREADS, "too little progress: " + commits);
            assertTrue(forUpdateCommits.get() > 0 && commits.get() > forUpdateCommits.get(), "both kinds committed");

            try (Connection c = ds.getConnection()) {
                long sum = 0;
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT id, balance FROM account ORDER BY id")) {
                    int n = 0;
                    while (r.next()) {
                        assertEquals(n, r.getInt("id"));
                        assertEquals(expected.get(n), r.getLong("balance"), "balance of account " + n + " (seed " + seed + ")");
                        assertTrue(r.getLong(2) >= 0, "account " + n + " overdrawn");
                        sum += r.getLong(2);
                        n++;
                    }
                    assertEquals(ACCOUNTS, n);
                }
                try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT SUM(balance), COUNT(*) FROM account")) {
                    assertTrue(r.next());
                    assertEquals(ACCOUNTS * INITIAL, r.getLong(1));
                    assertEquals(ACCOUNTS, r.getInt(2));
                }
                assertEquals(ACCOUNTS * INITIAL, sum, "seed " + seed);
                c.rollback();
            }

            checkValidation(ds);
        }

        // The pool closed its connections, the last of which closed the environment: another
        // cache size is now accepted (it would be refused if the environment were still open).
        try (Connection c = DriverManager.getConnection("jdbc:libtp:" + db + ";cache_size=8m")) {
            assertTrue(c.isValid(1));
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT SUM(balance) FROM account")) {
                assertTrue(r.next());
                assertEquals(ACCOUNTS * INITIAL, r.getLong(1));
            }
        }
    }

    /**
     * One transfer of {@code amount} from {@code a} to {@code b}, retried on 40001: returns 1 when
     * committed, 0 when {@code a} lacks the funds (rolled back).
     */
    static int transfer(HikariDataSource ds, int a, int b, long amount, boolean forUpdate, AtomicLongArray expected,
                        AtomicLong retries) throws SQLException, InterruptedException {
        String select = "SELECT balance FROM account WHERE id = ?" + (forUpdate ? " FOR UPDATE" : "");
        for (int attempt = 1; ; attempt++) {
            try (Connection c = ds.getConnection()) {
                try (PreparedStatement sel = c.prepareStatement(select);
                     PreparedStatement upd = c.prepareStatement("UPDATE account SET balance = ? WHERE id = ?")) {
                    long ba = balance(sel, a);
                    long bb = balance(sel, b);
                    if (ba < amount) {
                        c.rollback();
                        return 0;
                    }
                    upd.setLong(1, ba - amount);
                    upd.setInt(2, a);
                    assertEquals(1, upd.executeUpdate());
                    upd.setLong(1, bb + amount);
                    upd.setInt(2, b);
                    assertEquals(1, upd.executeUpdate());
                    c.commit();
                    expected.addAndGet(a, -amount);
                    expected.addAndGet(b, amount);
                    return 1;
                } catch (SQLException e) {
                    c.rollback(); // a no-op when the engine already rolled the transaction back
                    if (!"40001".equals(e.getSQLState())) {
                        throw e;
                    }
                    retries.incrementAndGet();
                    if (attempt > 1000) {
                        throw new AssertionError("transfer retried 1000 times", e);
                    }
                    Thread.sleep(ThreadLocalRandomHolder.jitter(attempt));
                }
            }
        }
    }

    static final class ThreadLocalRandomHolder {
        static long jitter(int attempt) {
            return java.util.concurrent.ThreadLocalRandom.current().nextInt(1 + Math.min(attempt, 10) * 2);
        }
    }

    static long balance(PreparedStatement sel, int id) throws SQLException {
        sel.setInt(1, id);
        try (ResultSet r = sel.executeQuery()) {
            assertTrue(r.next(), "account " + id);
            long v = r.getLong(1);
            assertFalse(r.next());
            return v;
        }
    }

    /**
     * Hikari validates a connection idle for over 500 ms with {@code isValid} before lending it:
     * the good ones are kept (the same physical connections come back), a closed one is evicted.
     */
    private static void checkValidation(HikariDataSource ds) throws Exception {
        Set<LibTpConnection> physical = Collections.newSetFromMap(new IdentityHashMap<>());
        List<Connection> borrowed = new ArrayList<>();
        for (int i = 0; i < THREADS; i++) {
            Connection c = ds.getConnection();
            assertTrue(c.isValid(1), "isValid through the pool's proxy");
            physical.add(c.unwrap(LibTpConnection.class));
            borrowed.add(c);
        }
        assertEquals(THREADS, physical.size());
        for (Connection c : borrowed) {
            c.close();
        }
        borrowed.clear();
        Thread.sleep(700); // past Hikari's alive-bypass window: the next borrow validates
        LibTpConnection dead = null;
        for (int i = 0; i < THREADS; i++) {
            Connection c = ds.getConnection();
            LibTpConnection p = c.unwrap(LibTpConnection.class);
            assertTrue(physical.contains(p), "a valid connection was kept, not replaced");
            borrowed.add(c);
            if (i == 0) {
                dead = p;
            }
        }
        // Close one physical connection behind the pool's back: isValid says so, and Hikari
        // evicts it at the next validation instead of lending it.
        dead.close();
        assertFalse(dead.isValid(1));
        for (Connection c : borrowed) {
            try {
                c.close();
            } catch (SQLException e) {
                // the proxy of the dead connection may report it; Hikari evicts it either way
            }
        }
        Thread.sleep(700);
        borrowed.clear();
        for (int i = 0; i < THREADS; i++) {
            Connection c = ds.getConnection();
            LibTpConnection p = c.unwrap(LibTpConnection.class);
            assertTrue(p != dead, "the closed connection was evicted");
            assertFalse(p.isClosed());
            try (Statement s = c.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM account")) {
                assertTrue(r.next());
                assertEquals(ACCOUNTS, r.getInt(1));
            }
            c.rollback();
            borrowed.add(c);
        }
        for (Connection c : borrowed) {
            c.close();
        }
        assertEquals(THREADS, ds.getHikariPoolMXBean().getTotalConnections());
    }
}
