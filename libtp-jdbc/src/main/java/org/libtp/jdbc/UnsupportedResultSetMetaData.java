package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.ResultSetMetaData} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedResultSetMetaData implements java.sql.ResultSetMetaData {
    @Override
    public java.lang.String getCatalogName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getCatalogName is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getColumnClassName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnClassName is not supported by LibTP", "0A000");
    }

    @Override
    public int getColumnCount() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnCount is not supported by LibTP", "0A000");
    }

    @Override
    public int getColumnDisplaySize(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnDisplaySize is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getColumnLabel(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnLabel is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getColumnName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnName is not supported by LibTP", "0A000");
    }

    @Override
    public int getColumnType(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnType is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getColumnTypeName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getColumnTypeName is not supported by LibTP", "0A000");
    }

    @Override
    public int getPrecision(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getPrecision is not supported by LibTP", "0A000");
    }

    @Override
    public int getScale(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getScale is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getSchemaName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getSchemaName is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getTableName(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.getTableName is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isAutoIncrement(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isAutoIncrement is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isCaseSensitive(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isCaseSensitive is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isCurrency(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isCurrency is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isDefinitelyWritable(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isDefinitelyWritable is not supported by LibTP", "0A000");
    }

    @Override
    public int isNullable(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isNullable is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isReadOnly(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isReadOnly is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isSearchable(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isSearchable is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isSigned(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isSigned is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isWritable(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSetMetaData.isWritable is not supported by LibTP", "0A000");
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
