package org.libtp.jdbc;

/**
 * The updating half of {@link java.sql.ResultSet} that LibTP does not support (result sets are
 * read-only): each {@code update*} and row-change method throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself. Generated from the interface;
 * {@link UnsupportedResultSet} adds the reading half.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedResultSetUpdates implements java.sql.ResultSet {
    @Override
    public void cancelRowUpdates() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.cancelRowUpdates is not supported by LibTP", "0A000");
    }

    @Override
    public void deleteRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.deleteRow is not supported by LibTP", "0A000");
    }

    @Override
    public void insertRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.insertRow is not supported by LibTP", "0A000");
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
    public void refreshRow() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("ResultSet.refreshRow is not supported by LibTP", "0A000");
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
}
