package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.Connection} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedConnection implements java.sql.Connection {
    @Override
    public void abort(java.util.concurrent.Executor a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.abort is not supported by LibTP", "0A000");
    }

    @Override
    public void clearWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.clearWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public void close() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.close is not supported by LibTP", "0A000");
    }

    @Override
    public void commit() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.commit is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Array createArrayOf(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createArrayOf is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Blob createBlob() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createBlob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Clob createClob() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createClob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.NClob createNClob() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createNClob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLXML createSQLXML() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Statement createStatement() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Statement createStatement(int a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Struct createStruct(java.lang.String a0, java.lang.Object[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.createStruct is not supported by LibTP", "0A000");
    }

    @Override
    public boolean getAutoCommit() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getAutoCommit is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getCatalog() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getCatalog is not supported by LibTP", "0A000");
    }

    @Override
    public java.util.Properties getClientInfo() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getClientInfo is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getClientInfo(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getClientInfo is not supported by LibTP", "0A000");
    }

    @Override
    public int getHoldability() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getHoldability is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.DatabaseMetaData getMetaData() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getMetaData is not supported by LibTP", "0A000");
    }

    @Override
    public int getNetworkTimeout() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getNetworkTimeout is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getSchema() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getSchema is not supported by LibTP", "0A000");
    }

    @Override
    public int getTransactionIsolation() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getTransactionIsolation is not supported by LibTP", "0A000");
    }

    @Override
    public java.util.Map<java.lang.String, java.lang.Class<?>> getTypeMap() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getTypeMap is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.getWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isClosed() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.isClosed is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isReadOnly() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.isReadOnly is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isValid(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.isValid is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String nativeSQL(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.nativeSQL is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareCall is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareCall is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.CallableStatement prepareCall(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareCall is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, java.lang.String[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2, int a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.PreparedStatement prepareStatement(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.prepareStatement is not supported by LibTP", "0A000");
    }

    @Override
    public void releaseSavepoint(java.sql.Savepoint a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.releaseSavepoint is not supported by LibTP", "0A000");
    }

    @Override
    public void rollback() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.rollback is not supported by LibTP", "0A000");
    }

    @Override
    public void rollback(java.sql.Savepoint a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.rollback is not supported by LibTP", "0A000");
    }

    @Override
    public void setAutoCommit(boolean a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setAutoCommit is not supported by LibTP", "0A000");
    }

    @Override
    public void setCatalog(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setCatalog is not supported by LibTP", "0A000");
    }

    @Override
    public void setClientInfo(java.lang.String a0, java.lang.String a1) throws java.sql.SQLClientInfoException {
        // nothing to do
    }

    @Override
    public void setClientInfo(java.util.Properties a0) throws java.sql.SQLClientInfoException {
        // nothing to do
    }

    @Override
    public void setHoldability(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setHoldability is not supported by LibTP", "0A000");
    }

    @Override
    public void setNetworkTimeout(java.util.concurrent.Executor a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setNetworkTimeout is not supported by LibTP", "0A000");
    }

    @Override
    public void setReadOnly(boolean a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setReadOnly is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Savepoint setSavepoint() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setSavepoint is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Savepoint setSavepoint(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setSavepoint is not supported by LibTP", "0A000");
    }

    @Override
    public void setSchema(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setSchema is not supported by LibTP", "0A000");
    }

    @Override
    public void setTransactionIsolation(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setTransactionIsolation is not supported by LibTP", "0A000");
    }

    @Override
    public void setTypeMap(java.util.Map<java.lang.String, java.lang.Class<?>> a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("Connection.setTypeMap is not supported by LibTP", "0A000");
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
