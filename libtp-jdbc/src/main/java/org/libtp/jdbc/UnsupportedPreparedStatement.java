package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.PreparedStatement} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedPreparedStatement implements java.sql.PreparedStatement {
    @Override
    public void addBatch() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.addBatch is not supported by LibTP", "0A000");
    }

    @Override
    public void addBatch(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.addBatch is not supported by LibTP", "0A000");
    }

    @Override
    public void cancel() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.cancel is not supported by LibTP", "0A000");
    }

    @Override
    public void clearBatch() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.clearBatch is not supported by LibTP", "0A000");
    }

    @Override
    public void clearParameters() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.clearParameters is not supported by LibTP", "0A000");
    }

    @Override
    public void clearWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.clearWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public void close() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.close is not supported by LibTP", "0A000");
    }

    @Override
    public void closeOnCompletion() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.closeOnCompletion is not supported by LibTP", "0A000");
    }

    @Override
    public boolean execute() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.execute is not supported by LibTP", "0A000");
    }

    @Override
    public boolean execute(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.execute is not supported by LibTP", "0A000");
    }

    @Override
    public boolean execute(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.execute is not supported by LibTP", "0A000");
    }

    @Override
    public boolean execute(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.execute is not supported by LibTP", "0A000");
    }

    @Override
    public boolean execute(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.execute is not supported by LibTP", "0A000");
    }

    @Override
    public int[] executeBatch() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeBatch is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet executeQuery() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeQuery is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet executeQuery(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeQuery is not supported by LibTP", "0A000");
    }

    @Override
    public int executeUpdate() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeUpdate is not supported by LibTP", "0A000");
    }

    @Override
    public int executeUpdate(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeUpdate is not supported by LibTP", "0A000");
    }

    @Override
    public int executeUpdate(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeUpdate is not supported by LibTP", "0A000");
    }

    @Override
    public int executeUpdate(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeUpdate is not supported by LibTP", "0A000");
    }

    @Override
    public int executeUpdate(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.executeUpdate is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Connection getConnection() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getConnection is not supported by LibTP", "0A000");
    }

    @Override
    public int getFetchDirection() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getFetchDirection is not supported by LibTP", "0A000");
    }

    @Override
    public int getFetchSize() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getFetchSize is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getGeneratedKeys() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getGeneratedKeys is not supported by LibTP", "0A000");
    }

    @Override
    public int getMaxFieldSize() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getMaxFieldSize is not supported by LibTP", "0A000");
    }

    @Override
    public int getMaxRows() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getMaxRows is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSetMetaData getMetaData() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getMetaData is not supported by LibTP", "0A000");
    }

    @Override
    public boolean getMoreResults() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getMoreResults is not supported by LibTP", "0A000");
    }

    @Override
    public boolean getMoreResults(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getMoreResults is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ParameterMetaData getParameterMetaData() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getParameterMetaData is not supported by LibTP", "0A000");
    }

    @Override
    public int getQueryTimeout() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getQueryTimeout is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getResultSet() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getResultSet is not supported by LibTP", "0A000");
    }

    @Override
    public int getResultSetConcurrency() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getResultSetConcurrency is not supported by LibTP", "0A000");
    }

    @Override
    public int getResultSetHoldability() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getResultSetHoldability is not supported by LibTP", "0A000");
    }

    @Override
    public int getResultSetType() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getResultSetType is not supported by LibTP", "0A000");
    }

    @Override
    public int getUpdateCount() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getUpdateCount is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.getWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isCloseOnCompletion() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.isCloseOnCompletion is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isClosed() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.isClosed is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isPoolable() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.isPoolable is not supported by LibTP", "0A000");
    }

    @Override
    public void setArray(int a0, java.sql.Array a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setArray is not supported by LibTP", "0A000");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setAsciiStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setBigDecimal(int a0, java.math.BigDecimal a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setBinaryStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void setBlob(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void setBlob(int a0, java.sql.Blob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void setBoolean(int a0, boolean a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBoolean is not supported by LibTP", "0A000");
    }

    @Override
    public void setByte(int a0, byte a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setByte is not supported by LibTP", "0A000");
    }

    @Override
    public void setBytes(int a0, byte[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setBytes is not supported by LibTP", "0A000");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setClob(int a0, java.sql.Clob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setCursorName(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setCursorName is not supported by LibTP", "0A000");
    }

    @Override
    public void setDate(int a0, java.sql.Date a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setDate is not supported by LibTP", "0A000");
    }

    @Override
    public void setDate(int a0, java.sql.Date a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setDate is not supported by LibTP", "0A000");
    }

    @Override
    public void setDouble(int a0, double a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setDouble is not supported by LibTP", "0A000");
    }

    @Override
    public void setEscapeProcessing(boolean a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setEscapeProcessing is not supported by LibTP", "0A000");
    }

    @Override
    public void setFetchDirection(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setFetchDirection is not supported by LibTP", "0A000");
    }

    @Override
    public void setFetchSize(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setFetchSize is not supported by LibTP", "0A000");
    }

    @Override
    public void setFloat(int a0, float a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setFloat is not supported by LibTP", "0A000");
    }

    @Override
    public void setInt(int a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setInt is not supported by LibTP", "0A000");
    }

    @Override
    public void setLong(int a0, long a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setLong is not supported by LibTP", "0A000");
    }

    @Override
    public void setMaxFieldSize(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setMaxFieldSize is not supported by LibTP", "0A000");
    }

    @Override
    public void setMaxRows(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setMaxRows is not supported by LibTP", "0A000");
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setNCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setNClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setNClob(int a0, java.sql.NClob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void setNString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNString is not supported by LibTP", "0A000");
    }

    @Override
    public void setNull(int a0, int a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNull is not supported by LibTP", "0A000");
    }

    @Override
    public void setNull(int a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setNull is not supported by LibTP", "0A000");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, int a2, int a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setObject is not supported by LibTP", "0A000");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setObject is not supported by LibTP", "0A000");
    }

    @Override
    public void setObject(int a0, java.lang.Object a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setObject is not supported by LibTP", "0A000");
    }

    @Override
    public void setPoolable(boolean a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setPoolable is not supported by LibTP", "0A000");
    }

    @Override
    public void setQueryTimeout(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setQueryTimeout is not supported by LibTP", "0A000");
    }

    @Override
    public void setRef(int a0, java.sql.Ref a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setRef is not supported by LibTP", "0A000");
    }

    @Override
    public void setRowId(int a0, java.sql.RowId a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setRowId is not supported by LibTP", "0A000");
    }

    @Override
    public void setSQLXML(int a0, java.sql.SQLXML a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public void setShort(int a0, short a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setShort is not supported by LibTP", "0A000");
    }

    @Override
    public void setString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setString is not supported by LibTP", "0A000");
    }

    @Override
    public void setTime(int a0, java.sql.Time a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setTime is not supported by LibTP", "0A000");
    }

    @Override
    public void setTime(int a0, java.sql.Time a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setTime is not supported by LibTP", "0A000");
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1, java.util.Calendar a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public void setTimestamp(int a0, java.sql.Timestamp a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public void setURL(int a0, java.net.URL a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setURL is not supported by LibTP", "0A000");
    }

    @Override
    public void setUnicodeStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("PreparedStatement.setUnicodeStream is not supported by LibTP", "0A000");
    }

    @Override
    public <T> T unwrap(Class<T> iface) throws java.sql.SQLException {
        if (iface.isInstance(this)) {
            return iface.cast(this);
        }
        throw new java.sql.SQLException(getClass().getName() + " does not wrap " + iface.getName(), "HY000");
    }

    @Override
    public boolean isWrapperFor(Class<?> iface) {
        return iface.isInstance(this);
    }
}
