package org.libtp.jdbc;

/**
 * The capability questions of {@link java.sql.DatabaseMetaData} ({@code supports*},
 * {@code stores*}, {@code nulls*}, visibility of changes...) that LibTP does not answer itself:
 * each throws {@link java.sql.SQLFeatureNotSupportedException} naming itself or gives the
 * neutral answer. Generated from the interface; {@link UnsupportedDatabaseMetaData} adds the
 * rest.
 */
@SuppressWarnings({"deprecation", "unused"})
abstract class UnsupportedDatabaseCapabilities implements java.sql.DatabaseMetaData {
    @Override
    public boolean allProceduresAreCallable() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean allTablesAreSelectable() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean autoCommitFailureClosesAllResultSets() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean dataDefinitionCausesTransactionCommit() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean dataDefinitionIgnoredInTransactions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean deletesAreDetected(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean doesMaxRowSizeIncludeBlobs() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean generatedKeyAlwaysReturned() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean insertsAreDetected(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean isCatalogAtStart() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean locatorsUpdateCopy() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean nullsAreSortedAtEnd() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean nullsAreSortedAtStart() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean nullsAreSortedHigh() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean nullsAreSortedLow() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean othersDeletesAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean othersInsertsAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean othersUpdatesAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean ownDeletesAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean ownInsertsAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean ownUpdatesAreVisible(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesLowerCaseIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesLowerCaseQuotedIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesMixedCaseIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesUpperCaseIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean storesUpperCaseQuotedIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsANSI92EntryLevelSQL() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsANSI92FullSQL() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsANSI92IntermediateSQL() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsAlterTableWithAddColumn() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsAlterTableWithDropColumn() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsBatchUpdates() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCatalogsInDataManipulation() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCatalogsInIndexDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCatalogsInPrivilegeDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCatalogsInProcedureCalls() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCatalogsInTableDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsColumnAliasing() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsConvert() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsConvert(int a0, int a1) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCoreSQLGrammar() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsCorrelatedSubqueries() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsDataManipulationTransactionsOnly() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsDifferentTableCorrelationNames() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsExpressionsInOrderBy() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsExtendedSQLGrammar() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsFullOuterJoins() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsGetGeneratedKeys() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsGroupBy() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsGroupByBeyondSelect() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsGroupByUnrelated() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsIntegrityEnhancementFacility() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsLikeEscapeClause() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsLimitedOuterJoins() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMinimumSQLGrammar() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMixedCaseIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMultipleOpenResults() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMultipleResultSets() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsMultipleTransactions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsNamedParameters() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsNonNullableColumns() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOpenCursorsAcrossCommit() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOpenCursorsAcrossRollback() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOpenStatementsAcrossCommit() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOpenStatementsAcrossRollback() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOrderByUnrelated() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsOuterJoins() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsPositionedDelete() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsPositionedUpdate() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsResultSetConcurrency(int a0, int a1) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsResultSetHoldability(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsResultSetType(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSavepoints() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSchemasInDataManipulation() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSchemasInIndexDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSchemasInPrivilegeDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSchemasInProcedureCalls() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSchemasInTableDefinitions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSelectForUpdate() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsStatementPooling() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsStoredFunctionsUsingCallSyntax() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsStoredProcedures() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSubqueriesInComparisons() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSubqueriesInExists() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSubqueriesInIns() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsSubqueriesInQuantifieds() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsTableCorrelationNames() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsTransactions() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsUnion() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean supportsUnionAll() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean updatesAreDetected(int a0) throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean usesLocalFilePerTable() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }

    @Override
    public boolean usesLocalFiles() throws java.sql.SQLException {
        return false; // LibTP does not support it
    }
}
