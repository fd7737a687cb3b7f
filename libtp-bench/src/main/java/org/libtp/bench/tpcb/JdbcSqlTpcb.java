package org.libtp.bench.tpcb;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.util.ArrayList;
import java.util.List;

/**
 * TPC-B through SQL and JDBC prepared statements, the same transaction on every SQL engine (as
 * pgbench runs it): tables {@code branches}, {@code tellers}, {@code accounts} keyed by an INT
 * primary key with a BIGINT balance and a filler that makes a row about 100 bytes, and
 * {@code history} without a key. A transfer is
 * <pre>
 *  UPDATE accounts SET abalance = abalance + ? WHERE aid = ?
 *  SELECT abalance FROM accounts WHERE aid = ?
 *  UPDATE tellers  SET tbalance = tbalance + ? WHERE tid = ?
 *  UPDATE branches SET bbalance = bbalance + ? WHERE bid = ?
 *  INSERT INTO history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, ?)
 *  COMMIT
 * </pre>
 * with auto-commit off; SQLState 40001 (a deadlock victim or lock timeout) rolls it back and
 * counts an abort.
 *
 * <ul>
 *   <li>{@code libtp-jdbc}: {@code jdbc:libtp:<dir>}; {@code sync} is {@code durability=sync}
 *       (the commit record forced, group commit), {@code nosync} is {@code write_no_sync}
 *       (written to the OS, as the record-API engine's nosync); early lock release and the cache
 *       size as given. Several processes may run it at once.</li>
 *   <li>{@code h2-sql}: H2's SQL engine on a file ({@code jdbc:h2:file:<dir>/tpcbsql}), MVCC with
 *       row locks (a lock timeout of 2 s). H2 never forces its file at a commit by itself: {@code
 *       sync} runs {@code CHECKPOINT SYNC} after each commit (the store written and forced, as the
 *       MVStore engine {@code h2} does with {@code MVStore.sync}; no group commit), with {@code
 *       WRITE_DELAY=0}; {@code nosync} is H2's default (written within 500 ms, lost with the
 *       process). One process only (H2 locks the file).</li>
 * </ul>
 */
final class JdbcSqlTpcb implements TpcbStore {
    enum Dialect { LIBTP, H2 }

    private final Dialect dialect;
    private final EngineOptions options;
    private final String url;
    private final Connection admin;
    private final List<Session> sessions = new ArrayList<>();

    JdbcSqlTpcb(Dialect dialect, EngineOptions o) {
        this.dialect = dialect;
        this.options = o;
        try {
            Files.createDirectories(o.dir());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create " + o.dir(), e);
        }
        this.url = dialect == Dialect.LIBTP
                ? "jdbc:libtp:" + o.dir().toAbsolutePath() + ";create=true;durability=" + (o.sync() ? "sync" : "write_no_sync")
                        + ";early_lock_release=" + o.earlyLockRelease() + ";cache_size=" + o.cacheBytes()
                : "jdbc:h2:file:" + o.dir().toAbsolutePath().resolve("tpcbsql") + ";LOCK_TIMEOUT=2000;CACHE_SIZE="
                        + Math.max(1024, o.cacheBytes() >> 10) + (o.sync() ? ";WRITE_DELAY=0" : "");
        this.admin = connect();
        try (Statement s = admin.createStatement()) {
            s.execute("CREATE TABLE IF NOT EXISTS branches (bid INT PRIMARY KEY, bbalance BIGINT NOT NULL, filler VARCHAR(88))");
            s.execute("CREATE TABLE IF NOT EXISTS tellers (tid INT PRIMARY KEY, bid INT NOT NULL, tbalance BIGINT NOT NULL, "
                    + "filler VARCHAR(84))");
            s.execute("CREATE TABLE IF NOT EXISTS accounts (aid INT PRIMARY KEY, bid INT NOT NULL, abalance BIGINT NOT NULL, "
                    + "filler VARCHAR(84))");
            s.execute("CREATE TABLE IF NOT EXISTS history (tid INT, bid INT, aid INT, delta BIGINT, mtime TIMESTAMP, "
                    + "filler VARCHAR(22))");
            admin.commit();
        } catch (SQLException e) {
            closeQuietly(admin);
            throw failure("create the tables of", e);
        }
    }

    private Connection connect() {
        try {
            Connection c = DriverManager.getConnection(url);
            c.setAutoCommit(false);
            return c;
        } catch (SQLException e) {
            throw failure("open", e);
        }
    }

    private RuntimeException failure(String what, SQLException e) {
        return new IllegalStateException(engine() + ": cannot " + what + " " + options.dir() + ": " + e.getMessage()
                + " (SQLState " + e.getSQLState() + ")", e);
    }

    private static void closeQuietly(Connection c) {
        try {
            c.close();
        } catch (SQLException ignored) {
            // closing anyway
        }
    }

    private static void rollbackQuietly(Connection c) {
        try {
            c.rollback();
        } catch (SQLException ignored) {
            // the transaction is gone either way
        }
    }

    @Override
    public String engine() {
        return dialect == Dialect.LIBTP ? "libtp-jdbc" : "h2-sql";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public boolean multiProcess() {
        return dialect == Dialect.LIBTP;
    }

    private long count(String table) throws SQLException {
        try (Statement s = admin.createStatement(); ResultSet r = s.executeQuery("SELECT COUNT(*) FROM " + table)) {
            r.next();
            long n = r.getLong(1);
            admin.commit();
            return n;
        }
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        try {
            return count("branches") == shape.branches() && count("tellers") == shape.tellers()
                    && count("accounts") == shape.accounts();
        } catch (SQLException e) {
            throw failure("count the rows of", e);
        }
    }

    @Override
    public void load(TpcbShape shape) {
        try (Statement s = admin.createStatement()) {
            for (String t : new String[] {"history", "accounts", "tellers", "branches"}) {
                s.executeUpdate("DELETE FROM " + t);
            }
            admin.commit();
            fill("INSERT INTO branches (bid, bbalance, filler) VALUES (?, 0, ?)", shape.branches(), 88, -1, shape);
            fill("INSERT INTO tellers (tid, bid, tbalance, filler) VALUES (?, ?, 0, ?)", shape.tellers(), 84,
                    shape.tellers() / Math.max(1, shape.branches()), shape);
            fill("INSERT INTO accounts (aid, bid, abalance, filler) VALUES (?, ?, 0, ?)", shape.accounts(), 84,
                    shape.accounts() / Math.max(1, shape.branches()), shape);
        } catch (SQLException e) {
            rollbackQuietly(admin);
            throw failure("load", e);
        }
    }

    private void fill(String sql, int n, int fillerLength, int perBranch, TpcbShape shape) throws SQLException {
        String filler = "x".repeat(fillerLength);
        try (PreparedStatement p = admin.prepareStatement(sql)) {
            for (int id = 0; id < n; id++) {
                int k = 1;
                p.setInt(k++, id);
                if (perBranch > 0) {
                    p.setInt(k++, Math.min(shape.branches() - 1, id / perBranch));
                }
                p.setString(k, filler);
                p.addBatch();
                if (id % 5_000 == 4_999) {
                    p.executeBatch();
                    admin.commit();
                }
            }
            p.executeBatch();
            admin.commit();
        }
    }

    @Override
    public Sums sums() {
        try (Statement s = admin.createStatement()) {
            long a = one(s, "SELECT SUM(abalance) FROM accounts");
            long t = one(s, "SELECT SUM(tbalance) FROM tellers");
            long b = one(s, "SELECT SUM(bbalance) FROM branches");
            long h = one(s, "SELECT SUM(delta) FROM history");
            long rows = one(s, "SELECT COUNT(*) FROM history");
            admin.commit();
            return new Sums(a, t, b, h, rows);
        } catch (SQLException e) {
            rollbackQuietly(admin);
            throw failure("scan", e);
        }
    }

    private static long one(Statement s, String sql) throws SQLException {
        try (ResultSet r = s.executeQuery(sql)) {
            r.next();
            return r.getLong(1);
        }
    }

    @Override
    public TpcbSession session() {
        Session s = new Session(connect());
        synchronized (sessions) {
            sessions.add(s);
        }
        return s;
    }

    @Override
    public void close() {
        synchronized (sessions) {
            for (Session s : sessions) {
                s.close();
            }
            sessions.clear();
        }
        closeQuietly(admin);
    }

    private final class Session implements TpcbSession {
        private final Connection c;
        private final PreparedStatement updAccount;
        private final PreparedStatement selAccount;
        private final PreparedStatement updTeller;
        private final PreparedStatement updBranch;
        private final PreparedStatement insHistory;
        private final PreparedStatement selTeller;
        private final PreparedStatement selBranch;
        /** H2 with sync: forces the store after each commit. */
        private final PreparedStatement force;

        Session(Connection c) {
            this.c = c;
            try {
                updAccount = c.prepareStatement("UPDATE accounts SET abalance = abalance + ? WHERE aid = ?");
                selAccount = c.prepareStatement("SELECT abalance FROM accounts WHERE aid = ?");
                updTeller = c.prepareStatement("UPDATE tellers SET tbalance = tbalance + ? WHERE tid = ?");
                updBranch = c.prepareStatement("UPDATE branches SET bbalance = bbalance + ? WHERE bid = ?");
                insHistory = c.prepareStatement("INSERT INTO history (tid, bid, aid, delta, mtime) VALUES (?, ?, ?, ?, ?)");
                selTeller = c.prepareStatement("SELECT tbalance FROM tellers WHERE tid = ?");
                selBranch = c.prepareStatement("SELECT bbalance FROM branches WHERE bid = ?");
                force = dialect == Dialect.H2 && options.sync() ? c.prepareStatement("CHECKPOINT SYNC") : null;
            } catch (SQLException e) {
                closeQuietly(c);
                throw failure("prepare the statements of", e);
            }
        }

        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            try {
                updAccount.setLong(1, delta);
                updAccount.setInt(2, aid);
                updAccount.executeUpdate();
                selAccount.setInt(1, aid);
                try (ResultSet r = selAccount.executeQuery()) {
                    r.next();
                }
                updTeller.setLong(1, delta);
                updTeller.setInt(2, tid);
                updTeller.executeUpdate();
                updBranch.setLong(1, delta);
                updBranch.setInt(2, bid);
                updBranch.executeUpdate();
                insHistory.setInt(1, tid);
                insHistory.setInt(2, bid);
                insHistory.setInt(3, aid);
                insHistory.setLong(4, delta);
                insHistory.setTimestamp(5, new Timestamp(System.currentTimeMillis()));
                insHistory.executeUpdate();
                c.commit();
                if (force != null) {
                    force.execute();
                }
                return true;
            } catch (SQLException e) {
                rollbackQuietly(c);
                String state = e.getSQLState();
                if ("40001".equals(state) || dialect == Dialect.H2 && state != null && state.startsWith("HYT")) {
                    return false; // a deadlock victim or lock timeout: aborted
                }
                throw failure("run a transfer on", e);
            }
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            try {
                long sum = 0;
                selAccount.setInt(1, aid);
                try (ResultSet r = selAccount.executeQuery()) {
                    r.next();
                    sum += r.getLong(1);
                }
                selTeller.setInt(1, tid);
                try (ResultSet r = selTeller.executeQuery()) {
                    r.next();
                    sum += r.getLong(1);
                }
                selBranch.setInt(1, bid);
                try (ResultSet r = selBranch.executeQuery()) {
                    r.next();
                    sum += r.getLong(1);
                }
                c.commit();
                return sum;
            } catch (SQLException e) {
                rollbackQuietly(c);
                if ("40001".equals(e.getSQLState())) {
                    return Long.MIN_VALUE; // aborted
                }
                throw failure("run a read-only transaction on", e);
            }
        }

        @Override
        public void close() {
            closeQuietly(c);
        }
    }
}
