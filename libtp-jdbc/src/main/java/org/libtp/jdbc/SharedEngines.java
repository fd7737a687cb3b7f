package org.libtp.jdbc;

import org.libtp.core.CapacityExceededException;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.sql.exec.Engine;
import org.libtp.sql.exec.SqlErrors;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.HashMap;
import java.util.Map;

/**
 * The environments this JVM's connections use: one {@link Environment} (and SQL engine) per
 * directory, shared by every connection to it, closed with the last one. Environment-wide
 * options (cache size, lock timeout, early lock release, read-only) come from the connection
 * that opened it; a later connection that asks for others gets an error naming the option.
 */
final class SharedEngines {
    private record Shared(Engine engine, JdbcUrl opened, int refs) {
    }

    private static final Map<Path, Shared> OPEN = new HashMap<>();

    private SharedEngines() {
    }

    /**
     * Why {@code env} cannot be used (failed: RunRecoveryException, or closed), or null if it is
     * live. Begins and aborts a read-only transaction, which checks the environment's failed flag
     * (the statistics do not).
     */
    static RuntimeException failure(Environment env) {
        try {
            env.beginTransaction(Durability.NO_SYNC, true).abort();
            return null;
        } catch (CapacityExceededException e) {
            return null; // live, only busy
        } catch (RuntimeException e) {
            return e;
        }
    }

    static synchronized Engine acquire(JdbcUrl u) throws SQLException {
        Shared s = OPEN.get(u.dir());
        if (s != null) {
            RuntimeException failed = failure(s.engine().environment());
            if (failed != null) {
                // A new connection would only fail too; the environment is recovered by the next
                // open once every handle (in every process) is closed.
                throw new java.sql.SQLNonTransientConnectionException(u.dir() + " cannot be used: " + failed.getMessage()
                        + " (this JVM still has " + s.refs() + " connection(s) open to it: close them all, as a pool"
                        + " does when they fail validation, then connect again to recover it)", "08006", failed);
            }
            String diff = u.cacheBytes() != s.opened().cacheBytes() ? "cache_size"
                    : u.lockTimeoutMillis() != s.opened().lockTimeoutMillis() ? "lock_timeout"
                    : u.earlyLockRelease() != s.opened().earlyLockRelease() ? "early_lock_release"
                    : u.readOnly() != s.opened().readOnly() ? "read_only"
                    : u.reopenTimeoutMillis() != s.opened().reopenTimeoutMillis() ? "reopen_timeout"
                    : u.maxLocks() != s.opened().maxLocks() ? "max_locks" : null;
            if (diff != null) {
                throw new SQLException(u.dir() + " is already open in this JVM with other " + diff + " (opened by "
                        + s.opened().url() + "); every connection of a JVM shares one environment", "08001");
            }
            OPEN.put(u.dir(), new Shared(s.engine(), s.opened(), s.refs() + 1));
            return s.engine();
        }
        if (Files.exists(u.dir()) && !Files.isDirectory(u.dir())) {
            throw new java.sql.SQLNonTransientConnectionException("no LibTP environment at " + u.dir() + ": it is a "
                    + "file, not a directory; the URL names the environment's directory", "08001");
        }
        if (!Files.isDirectory(u.dir())) {
            if (!u.create()) {
                throw new java.sql.SQLNonTransientConnectionException("no LibTP environment at " + u.dir()
                        + ": the directory does not exist (add ;create=true to the URL to create it)", "08001");
            }
            try {
                Files.createDirectories(u.dir());
            } catch (IOException e) {
                throw new SQLException("cannot create " + u.dir() + ": " + e, "08001", e);
            }
        }
        Environment env;
        try {
            EnvironmentConfig c = EnvironmentConfig.builder().durability(u.durability())
                    .earlyLockRelease(u.earlyLockRelease()).cacheBytes(u.cacheBytes())
                    .lockTimeoutMillis(u.lockTimeoutMillis()).readOnly(u.readOnly())
                    .reopenTimeoutMillis(u.reopenTimeoutMillis())
                    .maxLocks(u.maxLocks()).maxLockObjects(u.maxLocks()).build();
            env = u.join() ? Environment.join(u.dir(), c) : Environment.open(u.dir(), c);
        } catch (IllegalArgumentException e) {
            throw new SQLException("bad setting in " + u.url() + ": " + e.getMessage(), "08001", e);
        } catch (RuntimeException e) {
            SQLException m = SqlErrors.map(e);
            throw new SQLException("cannot open " + u.dir() + ": " + m.getMessage(), "08001", e);
        }
        Engine engine;
        try {
            engine = new Engine(env);
        } catch (RuntimeException e) {
            env.close();
            throw SqlErrors.map(e);
        }
        OPEN.put(u.dir(), new Shared(engine, u, 1));
        return engine;
    }

    static synchronized void release(Engine engine) {
        Path dir = null;
        for (Map.Entry<Path, Shared> e : OPEN.entrySet()) {
            if (e.getValue().engine() == engine) {
                dir = e.getKey();
            }
        }
        if (dir == null) {
            return;
        }
        Shared s = OPEN.get(dir);
        if (s.refs() > 1) {
            OPEN.put(dir, new Shared(s.engine(), s.opened(), s.refs() - 1));
            return;
        }
        OPEN.remove(dir);
        try {
            engine.close();
        } finally {
            engine.environment().close();
        }
    }
}
