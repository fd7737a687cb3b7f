package org.libtp.bench.engine;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * Connections to a SQLite database file (xerial sqlite-jdbc) in WAL journal mode, with the
 * durability and cache of the harness's options.
 *
 * <p>The harnesses set two things differently, on purpose, and say so at the call:
 * <ul>
 * <li>{@code synchronous} for {@code nosync}. TPC-B uses {@link Synchronous#OFF}: a commit's
 *     pages are written to the WAL and never forced, not even at checkpoints, the weakest
 *     setting, matching the other engines' no-force commits under concurrent committers. OO1
 *     uses {@link Synchronous#NORMAL}: the WAL is forced only at checkpoints. Both survive the
 *     process, not the OS; {@code sync} is {@link Synchronous#FULL} in both (the WAL forced at
 *     every commit).
 * <li>The busy timeout. TPC-B's writers (threads and processes, one connection each) queue for
 *     SQLite's one write lock, waiting up to 5 s in the busy handler; OO1 has one connection and
 *     keeps SQLite's default (0: no wait).
 * </ul>
 * The page cache is {@code PRAGMA cache_size} in KiB; TPC-B divides its cache among its
 * connections, OO1 gives its one connection the whole.
 */
public final class SqliteEngine {
    /** {@code PRAGMA synchronous}. */
    public enum Synchronous { FULL, NORMAL, OFF }

    private SqliteEngine() {
    }

    /**
     * A new connection to {@code file} (its directory created if missing), in WAL mode.
     *
     * @param busyTimeoutMillis how long a writer waits for the write lock; 0 keeps SQLite's
     *                          default (no wait)
     * @param cacheBytes        this connection's page cache
     * @throws IllegalStateException if it cannot be opened, or SQLite refuses WAL mode
     */
    public static Connection connect(Path file, Synchronous synchronous, int busyTimeoutMillis, long cacheBytes) {
        EngineDirs.create(file.toAbsolutePath().getParent());
        Connection c;
        try {
            c = DriverManager.getConnection("jdbc:sqlite:" + file.toAbsolutePath());
        } catch (SQLException e) {
            throw new IllegalStateException("SQLite: cannot open " + file + ": " + e.getMessage(), e);
        }
        try (Statement s = c.createStatement()) {
            if (busyTimeoutMillis > 0) {
                s.execute("PRAGMA busy_timeout=" + busyTimeoutMillis);
            }
            String mode;
            try (ResultSet r = s.executeQuery("PRAGMA journal_mode=WAL")) {
                mode = r.next() ? r.getString(1) : "?";
            }
            if (!"wal".equalsIgnoreCase(mode)) {
                throw new IllegalStateException("SQLite " + file + " refused WAL mode (journal_mode=" + mode + ")");
            }
            s.execute("PRAGMA synchronous=" + synchronous.name());
            s.execute("PRAGMA cache_size=-" + Math.max(1, cacheBytes >> 10));
            return c;
        } catch (SQLException e) {
            closeQuietly(c);
            throw new IllegalStateException("SQLite: cannot open " + file + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            closeQuietly(c);
            throw e;
        }
    }

    /** Closes {@code c}, ignoring a failure: for the paths that are already failing. */
    public static void closeQuietly(Connection c) {
        if (c == null) {
            return;
        }
        try {
            c.close();
        } catch (SQLException e) {
            // already failing
        }
    }
}
