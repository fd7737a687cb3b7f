package org.libtp.jdbc;

import org.libtp.sql.exec.Engine;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.DriverPropertyInfo;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * The JDBC driver for {@code jdbc:libtp:<dir>[;option=value...]} (options in {@link JdbcUrl}).
 * Registered with {@link DriverManager} through {@code META-INF/services/java.sql.Driver} and
 * when this class loads. Connections of one JVM to one directory share one environment;
 * connections of several JVMs to it work at the same time (page locks, group commit, recovery
 * by the first process that opens it after a crash).
 */
public final class LibTpDriver implements java.sql.Driver {
    static {
        try {
            DriverManager.registerDriver(new LibTpDriver());
        } catch (SQLException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    @Override
    public Connection connect(String url, Properties info) throws SQLException {
        if (!JdbcUrl.accepts(url)) {
            return null; // JDBC: another driver's URL
        }
        JdbcUrl u = JdbcUrl.parse(url, info);
        Engine engine = SharedEngines.acquire(u);
        return new LibTpConnection(u, engine);
    }

    @Override
    public boolean acceptsURL(String url) {
        return JdbcUrl.accepts(url);
    }

    @Override
    public DriverPropertyInfo[] getPropertyInfo(String url, Properties info) {
        String[][] opts = {
            {"create", "false", "create the directory and environment if missing"},
            {"durability", "sync", "sync | write_no_sync | no_sync: what a commit waits for"},
            {"early_lock_release", "false", "release locks before the commit's disk force"},
            {"cache_size", "64m", "bytes of the shared page cache (k, m, g)"},
            {"lock_timeout", "10000", "milliseconds a lock request waits (0 = forever)"},
            {"read_only", "false", "this JVM only reads"},
        };
        DriverPropertyInfo[] out = new DriverPropertyInfo[opts.length];
        for (int i = 0; i < opts.length; i++) {
            out[i] = new DriverPropertyInfo(opts[i][0], info == null ? opts[i][1] : info.getProperty(opts[i][0], opts[i][1]));
            out[i].description = opts[i][2];
        }
        out[1].choices = new String[] {"sync", "write_no_sync", "no_sync"};
        return out;
    }

    @Override
    public int getMajorVersion() {
        return 0;
    }

    @Override
    public int getMinorVersion() {
        return 1;
    }

    /** Not yet: the SQL subset is documented in docs/sql.md. */
    @Override
    public boolean jdbcCompliant() {
        return false;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("LibTP logs through SLF4J", "0A000");
    }
}
