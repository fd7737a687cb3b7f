package org.libtp.jdbc;

import org.libtp.sql.exec.Result;

import java.math.BigDecimal;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.List;
import java.util.Locale;

/** A forward-only, read-only result set over a materialized result. */
final class LibTpResultSet extends UnsupportedResultSet {
    private final java.sql.Statement statement;
    private final Result result;
    private final List<Object[]> rows;
    private int at = -1;
    private boolean wasNull;
    private boolean closed;
    private int fetchSize;

    LibTpResultSet(java.sql.Statement statement, Result result) {
        this.statement = statement;
        this.result = result;
        this.rows = result.rows();
    }

    private void open() throws SQLException {
        if (isClosed()) {
            throw new SQLException("the result set is closed", "24000");
        }
    }

    private Object value(int column) throws SQLException {
        open();
        if (at < 0 || at >= rows.size()) {
            throw new SQLException("no current row: call next() first" + (at >= rows.size() ? " (past the last row)" : ""),
                    "24000");
        }
        if (column < 1 || column > result.labels().size()) {
            throw new SQLException("column index " + column + " not in 1.." + result.labels().size(), "07009");
        }
        Object v = rows.get(at)[column - 1];
        wasNull = v == null;
        return v;
    }

    @Override
    public boolean next() throws SQLException {
        open();
        if (at < rows.size()) {
            at++;
        }
        return at < rows.size();
    }

    @Override
    public void close() {
        closed = true;
    }

    /** Closed by {@link #close()} or with its statement (which is closed with its connection). */
    @Override
    public boolean isClosed() {
        return closed || statement instanceof LibTpStatement s && s.isClosed();
    }

    @Override
    public boolean wasNull() throws SQLException {
        open();
        return wasNull;
    }

    @Override
    public int findColumn(String label) throws SQLException {
        open();
        if (label == null) {
            throw new SQLException("column label must not be null", "HY009");
        }
        List<String> labels = result.labels();
        for (int i = 0; i < labels.size(); i++) {
            if (labels.get(i).equalsIgnoreCase(label)) {
                return i + 1;
            }
        }
        throw new SQLException("no column " + label + " in the result (columns: " + labels + ")", "42S22");
    }

    @Override
    public String getString(int i) throws SQLException {
        return Convert.text(value(i));
    }

    @Override
    public boolean getBoolean(int i) throws SQLException {
        return Convert.toBoolean(value(i));
    }

    @Override
    public byte getByte(int i) throws SQLException {
        return (byte) Convert.toLong(value(i), Byte.MIN_VALUE, Byte.MAX_VALUE, "byte");
    }

    @Override
    public short getShort(int i) throws SQLException {
        return (short) Convert.toLong(value(i), Short.MIN_VALUE, Short.MAX_VALUE, "short");
    }

    @Override
    public int getInt(int i) throws SQLException {
        return (int) Convert.toLong(value(i), Integer.MIN_VALUE, Integer.MAX_VALUE, "int");
    }

    @Override
    public long getLong(int i) throws SQLException {
        return Convert.toLong(value(i), Long.MIN_VALUE, Long.MAX_VALUE, "long");
    }

    @Override
    public float getFloat(int i) throws SQLException {
        return (float) Convert.toDouble(value(i));
    }

    @Override
    public double getDouble(int i) throws SQLException {
        return Convert.toDouble(value(i));
    }

    @Override
    public BigDecimal getBigDecimal(int i) throws SQLException {
        return Convert.toDecimal(value(i));
    }

    @Override
    public BigDecimal getBigDecimal(int i, int scale) throws SQLException {
        BigDecimal d = getBigDecimal(i);
        return d == null ? null : d.setScale(scale, java.math.RoundingMode.HALF_UP);
    }

    @Override
    public byte[] getBytes(int i) throws SQLException {
        return Convert.toBytes(value(i));
    }

    @Override
    public java.sql.Date getDate(int i) throws SQLException {
        java.time.LocalDate d = Convert.toLocalDate(value(i));
        return d == null ? null : java.sql.Date.valueOf(d);
    }

    @Override
    public java.sql.Time getTime(int i) throws SQLException {
        java.time.LocalTime t = Convert.toLocalTime(value(i));
        return t == null ? null : java.sql.Time.valueOf(t);
    }

    @Override
    public java.sql.Timestamp getTimestamp(int i) throws SQLException {
        java.time.LocalDateTime t = Convert.toLocalDateTime(value(i));
        return t == null ? null : java.sql.Timestamp.valueOf(t);
    }

    @Override
    public Object getObject(int i) throws SQLException {
        Object v = value(i);
        if (v instanceof java.time.LocalDate d) {
            return java.sql.Date.valueOf(d); // JDBC 4.2 getObject(int) of DATE is java.sql.Date
        }
        if (v instanceof java.time.LocalTime t) {
            return java.sql.Time.valueOf(t);
        }
        if (v instanceof java.time.LocalDateTime t) {
            return java.sql.Timestamp.valueOf(t);
        }
        return v instanceof byte[] b ? b.clone() : v;
    }

    @Override
    public <T> T getObject(int i, Class<T> type) throws SQLException {
        return Convert.to(value(i), type);
    }

    @Override
    public String getString(String l) throws SQLException {
        return getString(findColumn(l));
    }

    @Override
    public boolean getBoolean(String l) throws SQLException {
        return getBoolean(findColumn(l));
    }

    @Override
    public byte getByte(String l) throws SQLException {
        return getByte(findColumn(l));
    }

    @Override
    public short getShort(String l) throws SQLException {
        return getShort(findColumn(l));
    }

    @Override
    public int getInt(String l) throws SQLException {
        return getInt(findColumn(l));
    }

    @Override
    public long getLong(String l) throws SQLException {
        return getLong(findColumn(l));
    }

    @Override
    public float getFloat(String l) throws SQLException {
        return getFloat(findColumn(l));
    }

    @Override
    public double getDouble(String l) throws SQLException {
        return getDouble(findColumn(l));
    }

    @Override
    public BigDecimal getBigDecimal(String l) throws SQLException {
        return getBigDecimal(findColumn(l));
    }

    @Override
    public BigDecimal getBigDecimal(String l, int scale) throws SQLException {
        return getBigDecimal(findColumn(l), scale);
    }

    @Override
    public byte[] getBytes(String l) throws SQLException {
        return getBytes(findColumn(l));
    }

    @Override
    public java.sql.Date getDate(String l) throws SQLException {
        return getDate(findColumn(l));
    }

    @Override
    public java.sql.Time getTime(String l) throws SQLException {
        return getTime(findColumn(l));
    }

    @Override
    public java.sql.Timestamp getTimestamp(String l) throws SQLException {
        return getTimestamp(findColumn(l));
    }

    @Override
    public Object getObject(String l) throws SQLException {
        return getObject(findColumn(l));
    }

    @Override
    public <T> T getObject(String l, Class<T> type) throws SQLException {
        return getObject(findColumn(l), type);
    }

    @Override
    public ResultSetMetaData getMetaData() throws SQLException {
        open();
        return new LibTpResultSetMetaData(result);
    }

    @Override
    public java.sql.Statement getStatement() {
        return statement;
    }

    @Override
    public int getType() {
        return TYPE_FORWARD_ONLY;
    }

    @Override
    public int getConcurrency() {
        return CONCUR_READ_ONLY;
    }

    @Override
    public int getHoldability() {
        return CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public int getFetchDirection() {
        return FETCH_FORWARD;
    }

    @Override
    public void setFetchDirection(int d) throws SQLException {
        if (d != FETCH_FORWARD) {
            throw new java.sql.SQLFeatureNotSupportedException("result sets are forward-only", "0A000");
        }
    }

    @Override
    public int getFetchSize() {
        return fetchSize;
    }

    @Override
    public void setFetchSize(int n) throws SQLException {
        if (n < 0) {
            throw new SQLException("fetch size " + n + " < 0", "HY024");
        }
        fetchSize = n;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        open();
        return null;
    }

    @Override
    public void clearWarnings() {
        // none are kept
    }

    @Override
    public int getRow() throws SQLException {
        open();
        return at >= 0 && at < rows.size() ? at + 1 : 0;
    }

    @Override
    public boolean isBeforeFirst() throws SQLException {
        open();
        return at < 0 && !rows.isEmpty();
    }

    @Override
    public boolean isAfterLast() throws SQLException {
        open();
        return at >= rows.size() && !rows.isEmpty();
    }

    @Override
    public boolean isFirst() throws SQLException {
        open();
        return at == 0 && !rows.isEmpty();
    }

    @Override
    public boolean isLast() throws SQLException {
        open();
        return at == rows.size() - 1 && !rows.isEmpty();
    }

    @Override
    public String getCursorName() throws SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("named cursors are not supported", "0A000");
    }

    @Override
    public String toString() {
        return "LibTpResultSet[" + rows.size() + " rows, columns " + result.labels().toString().toUpperCase(Locale.ROOT) + "]";
    }
}
