package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.ResultSet} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedResultSet implements java.sql.ResultSet {
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
    public void cancelRowUpdates() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.cancelRowUpdates is not supported by LibTP", "0A000");
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
    public void deleteRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.deleteRow is not supported by LibTP", "0A000");
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
    public void insertRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.insertRow is not supported by LibTP", "0A000");
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
    public void moveToCurrentRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.moveToCurrentRow is not supported by LibTP", "0A000");
    }

    @Override
    public void moveToInsertRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.moveToInsertRow is not supported by LibTP", "0A000");
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
    public void refreshRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.refreshRow is not supported by LibTP", "0A000");
    }

    @Override
    public boolean relative(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.relative is not supported by LibTP", "0A000");
    }

    @Override
    public boolean rowDeleted() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.rowDeleted is not supported by LibTP", "0A000");
    }

    @Override
    public boolean rowInserted() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.rowInserted is not supported by LibTP", "0A000");
    }

    @Override
    public boolean rowUpdated() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.rowUpdated is not supported by LibTP", "0A000");
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
    public void updateArray(java.lang.String a0, java.sql.Array a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateArray is not supported by LibTP", "0A000");
    }

    @Override
    public void updateArray(int a0, java.sql.Array a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateArray is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateAsciiStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateAsciiStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBigDecimal(java.lang.String a0, java.math.BigDecimal a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBigDecimal(int a0, java.math.BigDecimal a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBigDecimal is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBinaryStream(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBinaryStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(java.lang.String a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(java.lang.String a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(java.lang.String a0, java.sql.Blob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(int a0, java.io.InputStream a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(int a0, java.io.InputStream a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBlob(int a0, java.sql.Blob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBlob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBoolean(java.lang.String a0, boolean a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBoolean is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBoolean(int a0, boolean a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBoolean is not supported by LibTP", "0A000");
    }

    @Override
    public void updateByte(java.lang.String a0, byte a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateByte is not supported by LibTP", "0A000");
    }

    @Override
    public void updateByte(int a0, byte a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateByte is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBytes(java.lang.String a0, byte[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBytes is not supported by LibTP", "0A000");
    }

    @Override
    public void updateBytes(int a0, byte[] a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateBytes is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(java.lang.String a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(java.lang.String a0, java.sql.Clob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateClob(int a0, java.sql.Clob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateDate(java.lang.String a0, java.sql.Date a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateDate is not supported by LibTP", "0A000");
    }

    @Override
    public void updateDate(int a0, java.sql.Date a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateDate is not supported by LibTP", "0A000");
    }

    @Override
    public void updateDouble(java.lang.String a0, double a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateDouble is not supported by LibTP", "0A000");
    }

    @Override
    public void updateDouble(int a0, double a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateDouble is not supported by LibTP", "0A000");
    }

    @Override
    public void updateFloat(java.lang.String a0, float a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateFloat is not supported by LibTP", "0A000");
    }

    @Override
    public void updateFloat(int a0, float a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateFloat is not supported by LibTP", "0A000");
    }

    @Override
    public void updateInt(java.lang.String a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateInt is not supported by LibTP", "0A000");
    }

    @Override
    public void updateInt(int a0, int a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateInt is not supported by LibTP", "0A000");
    }

    @Override
    public void updateLong(java.lang.String a0, long a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateLong is not supported by LibTP", "0A000");
    }

    @Override
    public void updateLong(int a0, long a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateLong is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNCharacterStream(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNCharacterStream(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNCharacterStream(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNCharacterStream(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNCharacterStream is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(java.lang.String a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(java.lang.String a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(java.lang.String a0, java.sql.NClob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(int a0, java.io.Reader a1, long a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(int a0, java.io.Reader a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNClob(int a0, java.sql.NClob a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNClob is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNString is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNString is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNull(java.lang.String a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNull is not supported by LibTP", "0A000");
    }

    @Override
    public void updateNull(int a0) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateNull is not supported by LibTP", "0A000");
    }

    @Override
    public void updateObject(java.lang.String a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateObject is not supported by LibTP", "0A000");
    }

    @Override
    public void updateObject(java.lang.String a0, java.lang.Object a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateObject is not supported by LibTP", "0A000");
    }

    @Override
    public void updateObject(int a0, java.lang.Object a1, int a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateObject is not supported by LibTP", "0A000");
    }

    @Override
    public void updateObject(int a0, java.lang.Object a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateObject is not supported by LibTP", "0A000");
    }

    @Override
    public void updateRef(java.lang.String a0, java.sql.Ref a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateRef is not supported by LibTP", "0A000");
    }

    @Override
    public void updateRef(int a0, java.sql.Ref a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateRef is not supported by LibTP", "0A000");
    }

    @Override
    public void updateRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateRow is not supported by LibTP", "0A000");
    }

    @Override
    public void updateRowId(java.lang.String a0, java.sql.RowId a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateRowId is not supported by LibTP", "0A000");
    }

    @Override
    public void updateRowId(int a0, java.sql.RowId a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateRowId is not supported by LibTP", "0A000");
    }

    @Override
    public void updateSQLXML(java.lang.String a0, java.sql.SQLXML a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public void updateSQLXML(int a0, java.sql.SQLXML a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateSQLXML is not supported by LibTP", "0A000");
    }

    @Override
    public void updateShort(java.lang.String a0, short a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateShort is not supported by LibTP", "0A000");
    }

    @Override
    public void updateShort(int a0, short a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateShort is not supported by LibTP", "0A000");
    }

    @Override
    public void updateString(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateString is not supported by LibTP", "0A000");
    }

    @Override
    public void updateString(int a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateString is not supported by LibTP", "0A000");
    }

    @Override
    public void updateTime(java.lang.String a0, java.sql.Time a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateTime is not supported by LibTP", "0A000");
    }

    @Override
    public void updateTime(int a0, java.sql.Time a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateTime is not supported by LibTP", "0A000");
    }

    @Override
    public void updateTimestamp(java.lang.String a0, java.sql.Timestamp a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateTimestamp is not supported by LibTP", "0A000");
    }

    @Override
    public void updateTimestamp(int a0, java.sql.Timestamp a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.updateTimestamp is not supported by LibTP", "0A000");
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
