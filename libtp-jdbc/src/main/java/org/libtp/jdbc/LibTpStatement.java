package org.libtp.jdbc;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.exec.Params;
import org.libtp.sql.exec.Prepared;
import org.libtp.sql.exec.Result;
import org.libtp.sql.exec.Session;
import org.libtp.sql.exec.SqlErrors;
import net.sf.jsqlparser.statement.Statement;

import java.math.BigDecimal;
import java.sql.BatchUpdateException;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.SQLWarning;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code Statement} and, when made with SQL, {@code PreparedStatement}: the SQL is parsed once
 * (by JSqlParser) at prepare time; parameters ({@code ?}) are set by index from 1.
 */
class LibTpStatement extends UnsupportedPreparedStatement {
    private final LibTpConnection connection;
    private final Statement prepared;     // null for a plain Statement
    private final Prepared plan;          // its compiled plan, kept across executions (null: plain)
    private final String preparedSql;
    private final int paramCount;
    private Object[] params;
    private final List<Object[]> batchParams = new ArrayList<>();
    private final List<String> batchSql = new ArrayList<>();
    private final boolean returnKeys;
    private ResultSet current;
    private long updateCount = -1;
    private Result generated;
    private boolean closed;
    private int maxRows;
    private int queryTimeout;
    private int fetchSize;

    LibTpStatement(LibTpConnection connection, String sql, boolean returnKeys) throws SQLException {
        this.connection = connection;
        this.returnKeys = returnKeys;
        if (sql == null) {
            this.prepared = null;
            this.plan = null;
            this.preparedSql = null;
            this.paramCount = 0;
        } else {
            this.prepared = Session.parse(sql);
            this.plan = new Prepared(prepared);
            this.preparedSql = sql;
            try {
                this.paramCount = countParams(prepared);
            } catch (StackOverflowError e) {
                throw SqlErrors.tooComplex("nested too deeply to prepare");
            }
        }
        this.params = Params.unset(paramCount);
    }

    /** Parameters ({@code ?}) of a parsed statement: its SQL as JSqlParser prints it, outside string literals. */
    private static int countParams(Statement st) {
        String text = st.toString();
        int n = 0;
        boolean inString = false;
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c == '\'') {
                inString = !inString; // '' inside a literal toggles twice
            } else if (c == '?' && !inString) {
                n++;
            }
        }
        return n;
    }

    void checkOpen() throws SQLException {
        if (closed) {
            throw new SQLException("the statement is closed", "HY010");
        }
        connection.checkOpen();
    }

    /**
     * Whether {@code st} returns rows (a query, {@code SELECT ... FOR UPDATE} included, or an
     * {@code EXPLAIN}): known before it runs, so executeQuery refuses an UPDATE and executeUpdate
     * a query without executing it.
     */
    static boolean returnsRows(Statement st) {
        return st instanceof net.sf.jsqlparser.statement.select.Select
                || st instanceof net.sf.jsqlparser.statement.ExplainStatement;
    }

    private Statement expectRows(Statement st, String sql) throws SQLException {
        checkOpen();
        if (!returnsRows(st)) {
            throw new SQLException("executeQuery got a statement that returns no rows (not executed): " + sql
                    + "; use executeUpdate or execute", "07000");
        }
        return st;
    }

    private Statement expectNoRows(Statement st, String sql) throws SQLException {
        checkOpen();
        if (returnsRows(st)) {
            throw new SQLException("executeUpdate got a query (not executed): " + sql + "; use executeQuery or execute",
                    "07000");
        }
        return st;
    }

    private Result run(Statement st, Object[] p) throws SQLException {
        checkOpen();
        if (current != null) {
            current.close();
            current = null;
        }
        updateCount = -1;
        generated = null;
        Result r = connection.session().execute(st == prepared ? plan : new Prepared(st), p);
        if (r.isQuery()) {
            List<Object[]> rows = r.rows();
            if (maxRows > 0 && rows.size() > maxRows) {
                r = new Result(r.labels(), r.types(), rows.subList(0, maxRows), -1, List.of());
            }
            current = new LibTpResultSet(this, r);
        } else {
            updateCount = r.updateCount();
            generated = r;
        }
        return r;
    }

    private void noSqlOnPrepared(String sql) throws SQLException {
        if (prepared != null) {
            throw new SQLException("a PreparedStatement executes its own SQL; call execute() without SQL", "HY000");
        }
    }

    // ------------------------------------------------------------------ Statement

    @Override
    public ResultSet executeQuery(String sql) throws SQLException {
        checkOpen();
        noSqlOnPrepared(sql);
        Result r = run(expectRows(Session.parse(sql), sql), new Object[0]);
        if (!r.isQuery()) {
            throw new SQLException("executeQuery got a statement that returns no rows: " + sql, "07000");
        }
        return current;
    }

    @Override
    public int executeUpdate(String sql) throws SQLException {
        return (int) executeLargeUpdate(sql);
    }

    @Override
    public long executeLargeUpdate(String sql) throws SQLException {
        checkOpen();
        noSqlOnPrepared(sql);
        Result r = run(expectNoRows(Session.parse(sql), sql), new Object[0]);
        if (r.isQuery()) {
            throw new SQLException("executeUpdate got a query: " + sql, "07000");
        }
        return r.updateCount();
    }

    @Override
    public int executeUpdate(String sql, int keys) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, int[] columns) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public int executeUpdate(String sql, String[] columns) throws SQLException {
        return executeUpdate(sql);
    }

    @Override
    public boolean execute(String sql) throws SQLException {
        checkOpen();
        noSqlOnPrepared(sql);
        return run(Session.parse(sql), new Object[0]).isQuery();
    }

    @Override
    public boolean execute(String sql, int keys) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, int[] columns) throws SQLException {
        return execute(sql);
    }

    @Override
    public boolean execute(String sql, String[] columns) throws SQLException {
        return execute(sql);
    }

    @Override
    public ResultSet getResultSet() throws SQLException {
        checkOpen();
        return current;
    }

    @Override
    public int getUpdateCount() throws SQLException {
        checkOpen();
        return (int) Math.min(Integer.MAX_VALUE, updateCount);
    }

    @Override
    public long getLargeUpdateCount() throws SQLException {
        checkOpen();
        return updateCount;
    }

    @Override
    public boolean getMoreResults() throws SQLException {
        checkOpen();
        if (current != null) {
            current.close();
            current = null;
        }
        updateCount = -1;
        return false;
    }

    @Override
    public boolean getMoreResults(int current) throws SQLException {
        return getMoreResults();
    }

    @Override
    public ResultSet getGeneratedKeys() throws SQLException {
        checkOpen();
        List<Object[]> keys = generated == null || !returnKeys && prepared != null ? List.of() : generated.generatedKeys();
        return new LibTpResultSet(this, new Result(List.of("ID"), List.of(ColumnType.of(
                SqlType.BIGINT)), keys, -1, List.of()));
    }

    @Override
    public void addBatch(String sql) throws SQLException {
        checkOpen();
        noSqlOnPrepared(sql);
        Session.parse(sql);
        batchSql.add(sql);
    }

    @Override
    public void clearBatch() throws SQLException {
        checkOpen();
        batchSql.clear();
        batchParams.clear();
    }

    @Override
    public int[] executeBatch() throws SQLException {
        long[] l = executeLargeBatch();
        int[] r = new int[l.length];
        for (int i = 0; i < l.length; i++) {
            r[i] = (int) Math.min(Integer.MAX_VALUE, l[i]);
        }
        return r;
    }

    @Override
    public long[] executeLargeBatch() throws SQLException {
        checkOpen();
        int n = prepared != null ? batchParams.size() : batchSql.size();
        long[] counts = new long[n];
        List<Object[]> keys = new ArrayList<>(); // getGeneratedKeys after a batch: every statement's, in order
        int i = 0;
        try {
            for (; i < n; i++) {
                Statement st = prepared != null ? prepared : Session.parse(batchSql.get(i));
                if (returnsRows(st)) {
                    throw new BatchUpdateException("statement " + (i + 1) + " of the batch is a query (not executed)",
                            "07000", 0, java.util.Arrays.copyOf(counts, i), null);
                }
                Result r = run(st, prepared != null ? batchParams.get(i) : new Object[0]);
                if (r.isQuery()) {
                    throw new BatchUpdateException("statement " + (i + 1) + " of the batch is a query", "07000", 0,
                            java.util.Arrays.copyOf(counts, i), null);
                }
                counts[i] = r.updateCount();
                keys.addAll(r.generatedKeys());
            }
            generated = new Result(null, null, List.of(), -1, keys);
        } catch (BatchUpdateException e) {
            throw e;
        } catch (SQLException e) {
            throw new BatchUpdateException("statement " + (i + 1) + " of the batch failed: " + e.getMessage(),
                    e.getSQLState(), e.getErrorCode(), java.util.Arrays.copyOf(counts, i), e);
        } finally {
            batchSql.clear();
            batchParams.clear();
        }
        return counts;
    }

    @Override
    public void close() throws SQLException {
        if (current != null) {
            current.close();
        }
        closed = true;
    }

    /** Closed by {@link #close()} or with its connection (JDBC). */
    @Override
    public boolean isClosed() {
        return closed || connection.isClosed();
    }

    @Override
    public java.sql.Connection getConnection() throws SQLException {
        checkOpen();
        return connection;
    }

    @Override
    public int getMaxRows() throws SQLException {
        checkOpen();
        return maxRows;
    }

    @Override
    public void setMaxRows(int n) throws SQLException {
        checkOpen();
        if (n < 0) {
            throw new SQLException("max rows " + n + " < 0", "HY024");
        }
        maxRows = n;
    }

    @Override
    public long getLargeMaxRows() throws SQLException {
        return getMaxRows();
    }

    @Override
    public void setLargeMaxRows(long n) throws SQLException {
        setMaxRows((int) Math.min(Integer.MAX_VALUE, n));
    }

    @Override
    public int getQueryTimeout() throws SQLException {
        checkOpen();
        return queryTimeout;
    }

    /** Recorded; statements are bounded by the lock timeout (a statement never waits longer for a lock). */
    @Override
    public void setQueryTimeout(int seconds) throws SQLException {
        checkOpen();
        if (seconds < 0) {
            throw new SQLException("query timeout " + seconds + " < 0", "HY024");
        }
        queryTimeout = seconds;
    }

    @Override
    public int getFetchSize() throws SQLException {
        checkOpen();
        return fetchSize;
    }

    @Override
    public void setFetchSize(int n) throws SQLException {
        checkOpen();
        if (n < 0) {
            throw new SQLException("fetch size " + n + " < 0", "HY024");
        }
        fetchSize = n;
    }

    @Override
    public int getFetchDirection() {
        return ResultSet.FETCH_FORWARD;
    }

    @Override
    public void setFetchDirection(int d) throws SQLException {
        if (d != ResultSet.FETCH_FORWARD) {
            throw new java.sql.SQLFeatureNotSupportedException("result sets are forward-only", "0A000");
        }
    }

    @Override
    public int getResultSetType() {
        return ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public int getResultSetConcurrency() {
        return ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public SQLWarning getWarnings() throws SQLException {
        checkOpen();
        return null;
    }

    @Override
    public void clearWarnings() {
        // none are kept
    }

    @Override
    public void setEscapeProcessing(boolean on) {
        // no escape syntax is processed either way
    }

    @Override
    public void setPoolable(boolean p) {
        // statements are not pooled by the driver
    }

    @Override
    public boolean isPoolable() {
        return false;
    }

    @Override
    public void closeOnCompletion() {
        // result sets are materialized; nothing to close with them
    }

    @Override
    public boolean isCloseOnCompletion() {
        return false;
    }

    @Override
    public void cancel() throws SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("cancel is not supported (statements end by the lock timeout)",
                "0A000");
    }

    @Override
    public void setMaxFieldSize(int max) {
        // values are returned whole
    }

    @Override
    public int getMaxFieldSize() {
        return 0;
    }

    @Override
    public void setCursorName(String name) throws SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("named cursors are not supported", "0A000");
    }

    // ------------------------------------------------------------------ PreparedStatement

    private Statement prepared() throws SQLException {
        checkOpen();
        if (prepared == null) {
            throw new SQLException("this is a plain Statement: pass the SQL to execute(sql)", "HY000");
        }
        return prepared;
    }

    @Override
    public ResultSet executeQuery() throws SQLException {
        Result r = run(expectRows(prepared(), preparedSql), params.clone());
        if (!r.isQuery()) {
            throw new SQLException("executeQuery got a statement that returns no rows: " + preparedSql, "07000");
        }
        return current;
    }

    @Override
    public int executeUpdate() throws SQLException {
        return (int) executeLargeUpdate();
    }

    @Override
    public long executeLargeUpdate() throws SQLException {
        Result r = run(expectNoRows(prepared(), preparedSql), params.clone());
        if (r.isQuery()) {
            throw new SQLException("executeUpdate got a query: " + preparedSql, "07000");
        }
        return r.updateCount();
    }

    @Override
    public boolean execute() throws SQLException {
        return run(prepared(), params.clone()).isQuery();
    }

    @Override
    public void addBatch() throws SQLException {
        prepared();
        batchParams.add(params.clone());
    }

    @Override
    public void clearParameters() throws SQLException {
        prepared();
        params = Params.unset(paramCount);
    }

    private void set(int i, Object v) throws SQLException {
        prepared();
        if (i < 1 || i > paramCount) {
            throw new SQLException("parameter index " + i + " not in 1.." + paramCount + " of: " + preparedSql, "07009");
        }
        params[i - 1] = Convert.param(v);
    }

    @Override
    public void setNull(int i, int sqlType) throws SQLException {
        set(i, null);
    }

    @Override
    public void setNull(int i, int sqlType, String typeName) throws SQLException {
        set(i, null);
    }

    @Override
    public void setBoolean(int i, boolean x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setByte(int i, byte x) throws SQLException {
        set(i, (short) x);
    }

    @Override
    public void setShort(int i, short x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setInt(int i, int x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setLong(int i, long x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setFloat(int i, float x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setDouble(int i, double x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setBigDecimal(int i, BigDecimal x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setString(int i, String x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setNString(int i, String x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setBytes(int i, byte[] x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setDate(int i, java.sql.Date x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setTime(int i, java.sql.Time x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setTimestamp(int i, java.sql.Timestamp x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setObject(int i, Object x) throws SQLException {
        set(i, x);
    }

    @Override
    public void setObject(int i, Object x, int targetSqlType) throws SQLException {
        set(i, x);
    }

    @Override
    public void setObject(int i, Object x, int targetSqlType, int scale) throws SQLException {
        set(i, x instanceof BigDecimal d ? d.setScale(scale, java.math.RoundingMode.HALF_UP) : x);
    }

    @Override
    public java.sql.ResultSetMetaData getMetaData() throws SQLException {
        prepared();
        return current == null ? null : current.getMetaData();
    }

    @Override
    public String toString() {
        return preparedSql == null ? "LibTpStatement" : "LibTpPreparedStatement[" + preparedSql + "]";
    }
}
