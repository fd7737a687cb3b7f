package org.libtp.bench.oo1;

import org.libtp.bench.engine.SqliteEngine;
import org.libtp.bench.engine.SqliteEngine.Synchronous;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * OO1 on SQLite (sqlite-jdbc), its relational form: a {@code part} table whose
 * {@code INTEGER PRIMARY KEY} id is the B-tree key (a rowid table), a {@code connection} table
 * whose rowid is the record number, and an index on each of its {@code src} and {@code dst}
 * columns (SQLite's index entries are (column, rowid), like LibTP's from- and to-index keys). A
 * traversal step is one prepared {@code SELECT dst FROM connection WHERE src = ?}, which reads
 * the index and then each row, as the paper's frontend does.
 *
 * <p>WAL journal, one connection, explicit {@code BEGIN} / {@code COMMIT} around every test
 * ({@code BEGIN IMMEDIATE} for the insert). {@code sync}: {@code PRAGMA synchronous=FULL}, the
 * WAL is fsynced at every commit; {@code nosync}: {@code synchronous=NORMAL}, a commit is written
 * to the WAL (to the OS) and fsynced only at checkpoints: it survives the process, not the OS.
 * The page cache is {@code --cache-mb} ({@code PRAGMA cache_size}); no memory mapping.
 */
final class SqliteOo1 implements Oo1Store {
    private final StoreOptions options;
    private final java.sql.Connection db;
    private final PreparedStatement selectPart;
    private final PreparedStatement selectFrom;
    private final PreparedStatement selectTo;
    private final PreparedStatement maxId;
    private final PreparedStatement insertPart;
    private final PreparedStatement insertConnection;

    SqliteOo1(StoreOptions o) {
        this.options = o;
        // nosync is synchronous=NORMAL here (TPC-B's is OFF), and one connection needs no busy
        // timeout: see SqliteEngine
        db = SqliteEngine.connect(o.dir().resolve("oo1.sqlite"), o.sync() ? Synchronous.FULL : Synchronous.NORMAL, 0,
                o.cacheBytes());
        try {
            try (Statement s = db.createStatement()) {
                s.execute("CREATE TABLE IF NOT EXISTS part(id INTEGER PRIMARY KEY, type TEXT NOT NULL,"
                        + " x INTEGER NOT NULL, y INTEGER NOT NULL, build INTEGER NOT NULL)");
                s.execute("CREATE TABLE IF NOT EXISTS connection(recno INTEGER PRIMARY KEY, src INTEGER NOT NULL,"
                        + " dst INTEGER NOT NULL, type TEXT NOT NULL, length INTEGER NOT NULL)");
                s.execute("CREATE INDEX IF NOT EXISTS connection_src ON connection(src)");
                s.execute("CREATE INDEX IF NOT EXISTS connection_dst ON connection(dst)");
            }
            selectPart = db.prepareStatement("SELECT x, y FROM part WHERE id = ?");
            selectFrom = db.prepareStatement("SELECT dst FROM connection WHERE src = ?");
            selectTo = db.prepareStatement("SELECT src FROM connection WHERE dst = ?");
            maxId = db.prepareStatement("SELECT max(id) FROM part");
            insertPart = db.prepareStatement("INSERT INTO part(id, type, x, y, build) VALUES (?, ?, ?, ?, ?)");
            insertConnection = db.prepareStatement("INSERT INTO connection(src, dst, type, length) VALUES (?, ?, ?, ?) RETURNING recno");
        } catch (SQLException e) {
            closeQuietly();
            throw failure("open", e);
        }
    }

    private IllegalStateException failure(String what, SQLException e) {
        return new IllegalStateException("SQLite " + what + " on " + options.dir().resolve("oo1.sqlite") + ": "
                + e.getMessage(), e);
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
    public <T> T read(ReadTask<T> task) {
        return inTransaction("BEGIN", () -> task.run(ops));
    }

    @Override
    public <T> T write(WriteTask<T> task) {
        return inTransaction("BEGIN IMMEDIATE", () -> task.run(ops));
    }

    @Override
    public void bulk(WriteTask<?> task) {
        write(task); // a handful of commits: forcing them costs nothing worth a second mode
    }

    private <T> T inTransaction(String begin, java.util.function.Supplier<T> body) {
        try (Statement s = db.createStatement()) {
            s.execute(begin);
            boolean done = false;
            try {
                T r = body.get();
                s.execute("COMMIT");
                done = true;
                return r;
            } finally {
                if (!done) {
                    s.execute("ROLLBACK");
                }
            }
        } catch (SQLException e) {
            throw failure("transaction", e);
        }
    }

    @Override
    public void flush() {
        try (Statement s = db.createStatement()) {
            s.execute("PRAGMA wal_checkpoint(TRUNCATE)");
        } catch (SQLException e) {
            throw failure("checkpoint", e);
        }
    }

    @Override
    public Counts counts() {
        return inTransaction("BEGIN", () -> new Counts(count("SELECT count(*) FROM part"),
                count("SELECT count(*) FROM connection"),
                count("SELECT count(*) FROM connection INDEXED BY connection_src WHERE src > 0"),
                count("SELECT count(*) FROM connection INDEXED BY connection_dst WHERE dst > 0")));
    }

    private long count(String sql) {
        try (Statement s = db.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            rs.next();
            return rs.getLong(1);
        } catch (SQLException e) {
            throw failure(sql, e);
        }
    }

    @Override
    public void close() {
        try {
            db.close();
        } catch (SQLException e) {
            throw failure("close", e);
        }
    }

    private void closeQuietly() {
        SqliteEngine.closeQuietly(db);
    }

    private final Writer ops = new Writer() {
        @Override
        public boolean part(int id, PartVisitor v) {
            try {
                selectPart.setInt(1, id);
                try (ResultSet rs = selectPart.executeQuery()) {
                    if (!rs.next()) {
                        return false;
                    }
                    v.visit(rs.getInt(1), rs.getInt(2));
                    return true;
                }
            } catch (SQLException e) {
                throw failure("part lookup", e);
            }
        }

        @Override
        public void connectionsFrom(int id, IntList toIds) {
            ids(selectFrom, id, toIds);
        }

        @Override
        public void connectionsTo(int id, IntList fromIds) {
            ids(selectTo, id, fromIds);
        }

        private void ids(PreparedStatement ps, int id, IntList out) {
            try {
                ps.setInt(1, id);
                try (ResultSet rs = ps.executeQuery()) {
                    while (rs.next()) {
                        out.add(rs.getInt(1));
                    }
                }
            } catch (SQLException e) {
                throw failure("connection lookup", e);
            }
        }

        @Override
        public int maxPartId() {
            try (ResultSet rs = maxId.executeQuery()) {
                return rs.next() ? rs.getInt(1) : 0;
            } catch (SQLException e) {
                throw failure("max(id)", e);
            }
        }

        @Override
        public void putPart(Part p) {
            try {
                insertPart.setInt(1, p.id());
                insertPart.setString(2, p.type());
                insertPart.setInt(3, p.x());
                insertPart.setInt(4, p.y());
                insertPart.setLong(5, p.build());
                insertPart.executeUpdate();
            } catch (SQLException e) {
                throw failure("insert of part " + p.id(), e);
            }
        }

        @Override
        public long addConnection(Connection c) {
            try {
                insertConnection.setInt(1, c.from());
                insertConnection.setInt(2, c.to());
                insertConnection.setString(3, c.type());
                insertConnection.setInt(4, c.length());
                try (ResultSet rs = insertConnection.executeQuery()) {
                    rs.next();
                    return rs.getLong(1);
                }
            } catch (SQLException e) {
                throw failure("insert of a connection from " + c.from(), e);
            }
        }
    };
}
