package org.libtp.bench.tpcb;

import org.libtp.bench.engine.SqliteEngine;
import org.libtp.bench.engine.SqliteEngine.Synchronous;
import org.sqlite.SQLiteErrorCode;
import org.sqlite.SQLiteException;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

/**
 * TPC-B on SQLite (xerial sqlite-jdbc): one database file {@code tpcb.sqlite} in the directory,
 * tables {@code accounts}, {@code tellers} and {@code branches} with an {@code INTEGER PRIMARY
 * KEY} id (the rowid B-tree itself, no separate index) and a {@code rec} BLOB holding exactly
 * the 100 bytes of {@link TpcbRecords}; {@code history} is a rowid table of 50-byte BLOBs.
 *
 * <p>Journal mode WAL. A transfer is {@code BEGIN IMMEDIATE} (takes the database's single write
 * lock up front, so two writers never deadlock upgrading a read lock), three SELECT + UPDATE
 * pairs, an INSERT, {@code COMMIT}. SQLite has one writer at a time, per file, across threads
 * and processes: concurrent writers wait in the busy handler ({@code busy_timeout} 5 s); one
 * that still finds the database busy is counted as an abort. Readers never wait (WAL).
 *
 * <p>Durability: {@code sync} is {@code PRAGMA synchronous=FULL}: a commit appends its pages
 * to the WAL file and fsyncs it before COMMIT returns (no group commit: each committer syncs
 * the WAL itself, one at a time under the write lock). {@code nosync} is {@code
 * synchronous=OFF}: the commit's pages are written to the WAL with write(2) and never forced;
 * the commit survives the process (the OS has the pages) but not an OS crash or power loss.
 * Checkpoints (WAL -> database file) run automatically every 1,000 WAL pages.
 *
 * <p>Each session has its own JDBC connection and so its own page cache: {@code cacheBytes}
 * is divided among the {@code mpl} connections (at least 2 MiB each). Several processes may
 * open the file at once (SQLite locks it, and the WAL index is shared memory).
 */
final class SqliteTpcb implements TpcbStore {
    private static final String FILE = "tpcb.sqlite";
    private static final int BUSY_TIMEOUT_MS = 5_000;
    private static final String[] TABLES = {"branches", "tellers", "accounts"};

    private final EngineOptions options;
    private final Path file;
    /** For loaded, load and sums: synchronous=FULL whatever the mode. */
    private final Connection admin;
    private final List<Session> sessions = new ArrayList<>();

    SqliteTpcb(EngineOptions o) {
        this.options = o;
        this.file = o.dir().resolve(FILE);
        this.admin = connect(true, Math.max(2L << 20, o.cacheBytes() / 4));
        try (Statement s = admin.createStatement()) {
            for (String t : TABLES) {
                s.execute("CREATE TABLE IF NOT EXISTS " + t + " (id INTEGER PRIMARY KEY, rec BLOB NOT NULL)");
            }
            s.execute("CREATE TABLE IF NOT EXISTS history (rec BLOB NOT NULL)");
        } catch (SQLException e) {
            closeQuietly(admin);
            throw failure("create the tables of", e);
        }
    }

    /** {@code nosync} is synchronous=OFF here (OO1's is NORMAL): see {@link SqliteEngine}. */
    private Connection connect(boolean sync, long cacheBytes) {
        return SqliteEngine.connect(file, sync ? Synchronous.FULL : Synchronous.OFF, BUSY_TIMEOUT_MS, cacheBytes);
    }

    @Override
    public String engine() {
        return "sqlite";
    }

    @Override
    public String durability() {
        return options.sync() ? "sync" : "nosync";
    }

    @Override
    public boolean multiProcess() {
        return true;
    }

    @Override
    public boolean loaded(TpcbShape shape) {
        return maxId("branches") == shape.branches() - 1 && maxId("tellers") == shape.tellers() - 1
                && maxId("accounts") == shape.accounts() - 1;
    }

    private long maxId(String table) {
        try (Statement s = admin.createStatement();
             ResultSet r = s.executeQuery("SELECT max(id) FROM " + table)) {
            r.next();
            long v = r.getLong(1);
            return r.wasNull() ? -1 : v;
        } catch (SQLException e) {
            throw failure("read " + table + " of", e);
        }
    }

    /** One transaction per table (SQLite writes a big transaction's pages once); then checkpointed. */
    @Override
    public void load(TpcbShape shape) {
        try (Statement s = admin.createStatement()) {
            s.execute("BEGIN IMMEDIATE");
            try {
                for (String t : TABLES) {
                    s.execute("DELETE FROM " + t);
                }
                s.execute("DELETE FROM history");
                fill("branches", shape.branches());
                fill("tellers", shape.tellers());
                fill("accounts", shape.accounts());
                s.execute("COMMIT");
            } catch (SQLException | RuntimeException e) {
                rollbackQuietly(admin);
                throw e;
            }
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            throw failure("load", e);
        }
    }

    private void fill(String table, int n) throws SQLException {
        try (PreparedStatement p = admin.prepareStatement("INSERT INTO " + table + " (id, rec) VALUES (?, ?)")) {
            for (int id = 0; id < n; id++) {
                p.setInt(1, id);
                p.setBytes(2, TpcbRecords.record(id, 0));
                p.addBatch();
                if (id % 5_000 == 4_999) {
                    p.executeBatch();
                }
            }
            p.executeBatch();
        }
    }

    @Override
    public Sums sums() {
        try (Statement s = admin.createStatement()) {
            s.execute("BEGIN");
            try {
                long a = sum(s, "accounts");
                long t = sum(s, "tellers");
                long b = sum(s, "branches");
                long h = 0;
                long rows = 0;
                try (ResultSet r = s.executeQuery("SELECT rec FROM history")) {
                    while (r.next()) {
                        h += TpcbRecords.historyDelta(r.getBytes(1));
                        rows++;
                    }
                }
                return new Sums(a, t, b, h, rows);
            } finally {
                s.execute("COMMIT");
            }
        } catch (SQLException e) {
            throw failure("scan", e);
        }
    }

    private static long sum(Statement s, String table) throws SQLException {
        long sum = 0;
        try (ResultSet r = s.executeQuery("SELECT rec FROM " + table)) {
            while (r.next()) {
                sum += TpcbRecords.balance(r.getBytes(1));
            }
        }
        return sum;
    }

    @Override
    public TpcbSession session() {
        Session s = new Session(connect(options.sync(), Math.max(2L << 20, options.cacheBytes() / options.mpl())));
        synchronized (sessions) {
            sessions.add(s);
        }
        return s;
    }

    @Override
    public void close() {
        List<Session> open;
        synchronized (sessions) {
            open = new ArrayList<>(sessions);
        }
        for (Session s : open) {
            s.close();
        }
        try {
            admin.close();
        } catch (SQLException e) {
            throw failure("close", e);
        }
    }

    private final class Session implements TpcbSession {
        private final Connection c;
        private final PreparedStatement begin;
        private final PreparedStatement beginRead;
        private final PreparedStatement commit;
        private final PreparedStatement[] select = new PreparedStatement[3];
        private final PreparedStatement[] update = new PreparedStatement[3];
        private final PreparedStatement insertHistory;
        private boolean closed;

        Session(Connection c) {
            this.c = c;
            try {
                begin = c.prepareStatement("BEGIN IMMEDIATE");
                beginRead = c.prepareStatement("BEGIN");
                commit = c.prepareStatement("COMMIT");
                // order of the transfer: account, teller, branch
                String[] order = {"accounts", "tellers", "branches"};
                for (int i = 0; i < 3; i++) {
                    select[i] = c.prepareStatement("SELECT rec FROM " + order[i] + " WHERE id = ?");
                    update[i] = c.prepareStatement("UPDATE " + order[i] + " SET rec = ? WHERE id = ?");
                }
                insertHistory = c.prepareStatement("INSERT INTO history (rec) VALUES (?)");
            } catch (SQLException e) {
                closeQuietly(c);
                throw failure("prepare statements on", e);
            }
        }

        @Override
        public boolean transfer(int aid, int tid, int bid, long delta) {
            boolean inTxn = false;
            try {
                begin.execute();
                inTxn = true;
                update(0, aid, delta);
                update(1, tid, delta);
                update(2, bid, delta);
                insertHistory.setBytes(1, TpcbRecords.history(aid, tid, bid, delta, System.currentTimeMillis()));
                insertHistory.executeUpdate();
                commit.execute();
                inTxn = false;
                return true;
            } catch (SQLException e) {
                if (inTxn) {
                    rollbackQuietly(c);
                }
                if (busy(e)) {
                    return false;
                }
                throw failure("run a transfer on", e);
            }
        }

        private void update(int table, int id, long delta) throws SQLException {
            PreparedStatement s = select[table];
            s.setInt(1, id);
            byte[] rec;
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("TPC-B record " + id + " missing from SQLite " + file);
                }
                rec = r.getBytes(1);
            }
            PreparedStatement u = update[table];
            u.setBytes(1, TpcbRecords.add(rec, delta));
            u.setInt(2, id);
            u.executeUpdate();
        }

        private long read(int table, int id) throws SQLException {
            PreparedStatement s = select[table];
            s.setInt(1, id);
            try (ResultSet r = s.executeQuery()) {
                if (!r.next()) {
                    throw new IllegalStateException("TPC-B record " + id + " missing from SQLite " + file);
                }
                return TpcbRecords.balance(r.getBytes(1));
            }
        }

        @Override
        public long readOnly(int aid, int tid, int bid) {
            boolean inTxn = false;
            try {
                beginRead.execute();
                inTxn = true;
                long sum = read(0, aid) + read(1, tid) + read(2, bid);
                commit.execute();
                inTxn = false;
                return sum;
            } catch (SQLException e) {
                if (inTxn) {
                    rollbackQuietly(c);
                }
                if (busy(e)) {
                    return Long.MIN_VALUE;
                }
                throw failure("run a read-only transaction on", e);
            }
        }

        @Override
        public void close() {
            synchronized (sessions) {
                if (closed) {
                    return;
                }
                closed = true;
                sessions.remove(this);
            }
            closeQuietly(c);
        }
    }

    /** SQLITE_BUSY or SQLITE_LOCKED, with any extended code: the busy handler gave up. */
    private static boolean busy(SQLException e) {
        if (e instanceof SQLiteException se) {
            SQLiteErrorCode rc = se.getResultCode();
            int primary = rc.code & 0xff;
            return primary == SQLiteErrorCode.SQLITE_BUSY.code || primary == SQLiteErrorCode.SQLITE_LOCKED.code;
        }
        int primary = e.getErrorCode() & 0xff;
        return primary == 5 || primary == 6;
    }

    private static void rollbackQuietly(Connection c) {
        try (Statement s = c.createStatement()) {
            s.execute("ROLLBACK");
        } catch (SQLException ignored) {
            // already rolled back by SQLite (e.g. after SQLITE_BUSY on COMMIT it stays open; this ends it)
        }
    }

    private static void closeQuietly(Connection c) {
        SqliteEngine.closeQuietly(c);
    }

    private RuntimeException failure(String what, SQLException e) {
        return new IllegalStateException("SQLite: cannot " + what + " " + file + ": " + e.getMessage(), e);
    }
}
