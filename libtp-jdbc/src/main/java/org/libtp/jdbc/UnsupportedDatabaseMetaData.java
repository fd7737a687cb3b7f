package org.libtp.jdbc;

/**
 * Every method of {@link java.sql.DatabaseMetaData} that LibTP does not support: each throws
 * {@link java.sql.SQLFeatureNotSupportedException} naming itself (or, where JDBC asks for a
 * plain answer, gives the neutral one). Generated from the interface; the driver's classes
 * extend it and override what they implement.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedDatabaseMetaData extends UnsupportedDatabaseCapabilities {
    @Override
    public java.sql.ResultSet getAttributes(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getAttributes is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getBestRowIdentifier(java.lang.String a0, java.lang.String a1, java.lang.String a2, int a3, boolean a4) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getBestRowIdentifier is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getCatalogSeparator() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.lang.String getCatalogTerm() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getCatalogs() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getCatalogs is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getClientInfoProperties() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getClientInfoProperties is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getColumnPrivileges(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getColumnPrivileges is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getColumns(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getColumns is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.Connection getConnection() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getConnection is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getCrossReference(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3, java.lang.String a4, java.lang.String a5) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getCrossReference is not supported by LibTP", "0A000");
    }

    @Override
    public int getDatabaseMajorVersion() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getDatabaseMinorVersion() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public java.lang.String getDatabaseProductName() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.lang.String getDatabaseProductVersion() throws java.sql.SQLException {
        return "";
    }

    @Override
    public int getDefaultTransactionIsolation() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getDriverMajorVersion() {
        return 0;
    }

    @Override
    public int getDriverMinorVersion() {
        return 0;
    }

    @Override
    public java.lang.String getDriverName() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.lang.String getDriverVersion() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getExportedKeys(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getExportedKeys is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getExtraNameCharacters() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getFunctionColumns(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getFunctionColumns is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getFunctions(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getFunctions is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getIdentifierQuoteString() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getImportedKeys(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getImportedKeys is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getIndexInfo(java.lang.String a0, java.lang.String a1, java.lang.String a2, boolean a3, boolean a4) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getIndexInfo is not supported by LibTP", "0A000");
    }

    @Override
    public int getJDBCMajorVersion() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getJDBCMinorVersion() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxBinaryLiteralLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxCatalogNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxCharLiteralLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInGroupBy() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInIndex() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInOrderBy() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInSelect() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxColumnsInTable() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxConnections() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxCursorNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxIndexLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxProcedureNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxRowSize() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxSchemaNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxStatementLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxStatements() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxTableNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxTablesInSelect() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public int getMaxUserNameLength() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public java.lang.String getNumericFunctions() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getPrimaryKeys(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getPrimaryKeys is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getProcedureColumns(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getProcedureColumns is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getProcedureTerm() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getProcedures(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getProcedures is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getPseudoColumns(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getPseudoColumns is not supported by LibTP", "0A000");
    }

    @Override
    public int getResultSetHoldability() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public java.sql.RowIdLifetime getRowIdLifetime() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getRowIdLifetime is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getSQLKeywords() throws java.sql.SQLException {
        return "";
    }

    @Override
    public int getSQLStateType() throws java.sql.SQLException {
        return 0;
    }

    @Override
    public java.lang.String getSchemaTerm() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getSchemas() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getSchemas is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getSchemas(java.lang.String a0, java.lang.String a1) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getSchemas is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getSearchStringEscape() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.lang.String getStringFunctions() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getSuperTables(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getSuperTables is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getSuperTypes(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getSuperTypes is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getSystemFunctions() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getTablePrivileges(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getTablePrivileges is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getTableTypes() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getTableTypes is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getTables(java.lang.String a0, java.lang.String a1, java.lang.String a2, java.lang.String[] a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getTables is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getTimeDateFunctions() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getTypeInfo() throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getTypeInfo is not supported by LibTP", "0A000");
    }

    @Override
    public java.sql.ResultSet getUDTs(java.lang.String a0, java.lang.String a1, java.lang.String a2, int[] a3) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getUDTs is not supported by LibTP", "0A000");
    }

    @Override
    public java.lang.String getURL() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.lang.String getUserName() throws java.sql.SQLException {
        return "";
    }

    @Override
    public java.sql.ResultSet getVersionColumns(java.lang.String a0, java.lang.String a1, java.lang.String a2) throws java.sql.SQLException {
        throw new java.sql.SQLFeatureNotSupportedException("DatabaseMetaData.getVersionColumns is not supported by LibTP", "0A000");
    }

    @Override
    public boolean isReadOnly() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean nullPlusNonNullIsNull() throws java.sql.SQLException {
        return false; // LibTP does not support it
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
