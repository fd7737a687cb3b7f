package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.ResultSet} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedResultSet extends UnsupportedResultSetUpdates {
    @Override
    public boolean absolute(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.absolute is not supported by LibTP", "0A000");
    }

    @Override
    public void afterLast() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.afterLast is not supported by LibTP", "0A000");
    }

    @Override
    public void beforeFirst() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.beforeFirst is not supported by LibTP", "0A000");
    }

    @Override
    public void clearWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.clearWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public void close() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.close is not supported by LibTP", "0A000");
    }

    @Override
    public int findColumn(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.findColumn is not supported by LibTP", "0A000");
    }

    @Override
    public boolean first() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.first is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Array getArray(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getArray is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Array getArray(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getArray is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getAsciiStream(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getAsciiStream(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public java.math.BigDecimal getBigDecimal(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getBinaryStream(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getBinaryStream(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Blob getBlob(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBlob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Blob getBlob(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBlob is not supported by LibTP", "0A000");
    }

    @Override
    public boolean getBoolean(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBoolean is not supported by LibTP", "0A000");
    }

    @Override
    public boolean getBoolean(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBoolean is not supported by LibTP", "0A000");
    }

    @Override
    public byte getByte(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getByte is not supported by LibTP", "0A000");
    }

    @Override
    public byte getByte(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getByte is not supported by LibTP", "0A000");
    }

    @Override
    public byte[] getBytes(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBytes is not supported by LibTP", "0A000");
    }

    @Override
    public byte[] getBytes(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getBytes is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.Reader getCharacterStream(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.Reader getCharacterStream(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Clob getClob(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getClob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Clob getClob(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getClob is not supported by LibTP", "0A000");
    }

    @Override
    public int getConcurrency() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getConcurrency is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getCursorName() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getCursorName is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Date getDate(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDate is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Date getDate(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDate is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Date getDate(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDate is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Date getDate(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDate is not supported by LibTP", "0A000");
    }

    @Override
    public double getDouble(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDouble is not supported by LibTP", "0A000");
    }

    @Override
    public double getDouble(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getDouble is not supported by LibTP", "0A000");
    }

    @Override
    public int getFetchDirection() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getFetchDirection is not supported by LibTP", "0A000");
    }

    @Override
    public int getFetchSize() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getFetchSize is not supported by LibTP", "0A000");
    }

    @Override
    public float getFloat(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getFloat is not supported by LibTP", "0A000");
    }

    @Override
    public float getFloat(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getFloat is not supported by LibTP", "0A000");
    }

    @Override
    public int getHoldability() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getHoldability is not supported by LibTP", "0A000");
    }

    @Override
    public int getInt(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getInt is not supported by LibTP", "0A000");
    }

    @Override
    public int getInt(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getInt is not supported by LibTP", "0A000");
    }

    @Override
    public long getLong(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getLong is not supported by LibTP", "0A000");
    }

    @Override
    public long getLong(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getLong is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSetMetaData getMetaData() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getMetaData is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.Reader getNCharacterStream(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.Reader getNCharacterStream(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.NClob getNClob(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNClob is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.NClob getNClob(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNClob is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getNString(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNString is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getNString(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getNString is not supported by LibTP", "0A000");
    }

    @Override
    public <T> T getObject(java.lang.String a0, java.lang.Class<T> a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.Object getObject(java.lang.String a0, java.util.Map<java.lang.String, java.lang.Class<?>> a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.Object getObject(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public <T> T getObject(int a0, java.lang.Class<T> a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.Object getObject(int a0, java.util.Map<java.lang.String, java.lang.Class<?>> a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.Object getObject(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getObject is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Ref getRef(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getRef is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Ref getRef(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getRef is not supported by LibTP", "0A000");
    }

    @Override
    public int getRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getRow is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.RowId getRowId(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getRowId is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.RowId getRowId(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getRowId is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLXML getSQLXML(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLXML getSQLXML(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public short getShort(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getShort is not supported by LibTP", "0A000");
    }

    @Override
    public short getShort(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getShort is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Statement getStatement() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getStatement is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getString(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getString is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getString(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getString is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Time getTime(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTime is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Time getTime(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTime is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Time getTime(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTime is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Time getTime(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTime is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Timestamp getTimestamp(java.lang.String a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Timestamp getTimestamp(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0, java.util.Calendar a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Timestamp getTimestamp(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public int getType() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getType is not supported by LibTP", "0A000");
    }

    @Override
    public java.net.URL getURL(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getURL is not supported by LibTP", "0A000");
    }

    @Override
    public java.net.URL getURL(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getURL is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getUnicodeStream(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getUnicodeStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.io.InputStream getUnicodeStream(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getUnicodeStream is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.SQLWarning getWarnings() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.getWarnings is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isAfterLast() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.isAfterLast is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isBeforeFirst() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.isBeforeFirst is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isClosed() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.isClosed is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isFirst() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.isFirst is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isLast() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.isLast is not supported by LibTP", "0A000");
    }

    @Override
    public boolean last() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.last is not supported by LibTP", "0A000");
    }

    @Override
    public boolean next() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.next is not supported by LibTP", "0A000");
    }

    @Override
    public boolean previous() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.previous is not supported by LibTP", "0A000");
    }

    @Override
    public boolean relative(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.relative is not supported by LibTP", "0A000");
    }

    @Override
    public void setFetchDirection(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.setFetchDirection is not supported by LibTP", "0A000");
    }

    @Override
    public void setFetchSize(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.setFetchSize is not supported by LibTP", "0A000");
    }

    @Override
    public boolean wasNull() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.wasNull is not supported by LibTP", "0A000");
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
