package org.libtp.jdbc;

import javax.sql.DataSource;
import java.io.PrintWriter;
import java.sql.Connection;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.util.Properties;
import java.util.logging.Logger;

/**
 * A {@link DataSource} for pools and frameworks: set the URL ({@link #setUrl}) and optionally
 * properties; every {@link #getConnection()} is a new connection on the JVM's shared environment.
 */
public final class LibTpDataSource implements DataSource {
    private String url;
    private final Properties properties = new Properties();
    private int loginTimeout;
    private PrintWriter logWriter;
    private final LibTpDriver driver = new LibTpDriver();

    public LibTpDataSource() {
    }

    public LibTpDataSource(String url) {
        this.url = url;
    }

    public void setUrl(String url) {
        this.url = url;
    }

    /** The same as {@link #setUrl} (some tools use this spelling). */
    public void setURL(String url) {
        this.url = url;
    }

    public String getUrl() {
        return url;
    }

    /** An option of {@code JdbcUrl} (create, durability, cache_size, ...), winning over the URL's. */
    public void setProperty(String name, String value) {
        properties.setProperty(name, value);
    }

    @Override
    public Connection getConnection() throws SQLException {
        if (url == null) {
            throw new SQLException("LibTpDataSource has no URL: call setUrl(\"jdbc:libtp:<dir>\")", "08001");
        }
        if (!JdbcUrl.accepts(url)) {
            throw new SQLException("not a LibTP URL: " + url, "08001");
        }
        return driver.connect(url, properties);
    }

    @Override
    public Connection getConnection(String user, String password) throws SQLException {
        return getConnection();
    }

    @Override
    public PrintWriter getLogWriter() {
        return logWriter;
    }

    @Override
    public void setLogWriter(PrintWriter out) {
        logWriter = out;
    }

    @Override
    public void setLoginTimeout(int seconds) {
        loginTimeout = seconds;
    }

    @Override
    public int getLoginTimeout() {
        return loginTimeout;
    }

    @Override
    public Logger getParentLogger() throws SQLFeatureNotSupportedException {
        throw new SQLFeatureNotSupportedException("LibTP logs through SLF4J", "0A000");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new SQLException("LibTpDataSource does not wrap " + iface.getName(), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
