package org.libtp.jdbc;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.exec.Result;
import org.libtp.sql.exec.SqlErrors;
import org.libtp.sql.schema.Column;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.TableDef;

import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.regex.Pattern;

/** What tools ask about the database: product, capabilities, tables, columns, keys, types. */
final class LibTpDatabaseMetaData extends UnsupportedDatabaseMetaData {
    static final String VERSION = "0.1.0";
    private final LibTpConnection connection;

    LibTpDatabaseMetaData(LibTpConnection connection) {
        this.connection = connection;
    }

    private static ColumnType vc() {
        return new ColumnType(SqlType.VARCHAR, 1000, 0);
    }

    private static ColumnType in() {
        return ColumnType.of(SqlType.INTEGER);
    }

    private ResultSet rs(List<String> labels, List<ColumnType> types, List<Object[]> rows) throws SQLException {
        connection.checkOpen();
        return new LibTpResultSet(null, new Result(labels, types, rows, -1, List.of()));
    }

    private List<TableDef> tables(String pattern) throws SQLException {
        connection.checkOpen();
        List<TableDef> all;
        try {
            all = connection.engine().tables();
        } catch (RuntimeException e) {
            throw SqlErrors.map(e);
        }
        List<TableDef> out = new ArrayList<>();
        Pattern p = like(pattern);
        for (TableDef t : all) {
            if (p.matcher(t.name()).matches()) {
                out.add(t);
            }
        }
        out.sort((a, b) -> a.name().compareTo(b.name()));
        return out;
    }

    /** A JDBC name pattern (% and _, null = all) as a regex. */
    private static Pattern like(String pattern) {
        if (pattern == null) {
            return Pattern.compile(".*", Pattern.DOTALL);
        }
        StringBuilder b = new StringBuilder();
        for (char c : pattern.toCharArray()) {
            b.append(c == '%' ? ".*" : c == '_' ? "." : Pattern.quote(String.valueOf(c)));
        }
        return Pattern.compile(b.toString(), Pattern.DOTALL);
    }

    @Override
    public ResultSet getTables(String catalog, String schema, String pattern, String[] types) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        if (types == null || Arrays.stream(types).anyMatch(t -> t.equalsIgnoreCase("TABLE"))) {
            for (TableDef t : tables(pattern)) {
                rows.add(new Object[] {null, null, t.name(), "TABLE", "", null, null, null, null, null});
            }
        }
        return rs(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "TABLE_TYPE", "REMARKS", "TYPE_CAT", "TYPE_SCHEM",
                "TYPE_NAME", "SELF_REFERENCING_COL_NAME", "REF_GENERATION"), List.of(vc(), vc(), vc(), vc(), vc(), vc(), vc(),
                vc(), vc(), vc()), rows);
    }

    @Override
    public ResultSet getTableTypes() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        rows.add(new Object[] {"TABLE"});
        return rs(List.of("TABLE_TYPE"), List.of(vc()), rows);
    }

    @Override
    public ResultSet getSchemas() throws SQLException {
        return rs(List.of("TABLE_SCHEM", "TABLE_CATALOG"), List.of(vc(), vc()), List.of());
    }

    @Override
    public ResultSet getCatalogs() throws SQLException {
        return rs(List.of("TABLE_CAT"), List.of(vc()), List.of());
    }

    @Override
    public ResultSet getColumns(String catalog, String schema, String tablePattern, String columnPattern) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        Pattern cp = like(columnPattern);
        for (TableDef t : tables(tablePattern)) {
            for (int i = 0; i < t.columns().size(); i++) {
                Column c = t.columns().get(i);
                if (!cp.matcher(c.name()).matches()) {
                    continue;
                }
                ColumnType ct = c.type();
                int size = switch (ct.type()) {
                    case CHAR, VARCHAR, VARBINARY, DECIMAL -> ct.length();
                    case SMALLINT -> 5;
                    case INTEGER -> 10;
                    case BIGINT -> 19;
                    case REAL -> 7;
                    case DOUBLE -> 15;
                    case BOOLEAN -> 1;
                    case DATE -> 10;
                    case TIME -> 18;
                    case TIMESTAMP -> 29;
                };
                rows.add(new Object[] {null, null, t.name(), c.name(), ct.type().jdbcType(), ct.type().name(), size, null,
                        ct.scale(), 10, c.notNull() ? columnNoNulls : columnNullable, "", c.defaultSql(), null, null,
                        ct.type() == SqlType.CHAR || ct.type() == SqlType.VARCHAR ? ct.length() : null, i + 1,
                        c.notNull() ? "NO" : "YES", null, null, null, null, c.identity() ? "YES" : "NO", "NO"});
            }
        }
        return rs(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "DATA_TYPE", "TYPE_NAME", "COLUMN_SIZE",
                "BUFFER_LENGTH", "DECIMAL_DIGITS", "NUM_PREC_RADIX", "NULLABLE", "REMARKS", "COLUMN_DEF", "SQL_DATA_TYPE",
                "SQL_DATETIME_SUB", "CHAR_OCTET_LENGTH", "ORDINAL_POSITION", "IS_NULLABLE", "SCOPE_CATALOG", "SCOPE_SCHEMA",
                "SCOPE_TABLE", "SOURCE_DATA_TYPE", "IS_AUTOINCREMENT", "IS_GENERATEDCOLUMN"),
                List.of(vc(), vc(), vc(), vc(), in(), vc(), in(), in(), in(), in(), in(), vc(), vc(), in(), in(), in(), in(), vc(),
                        vc(), vc(), vc(), ColumnType.of(SqlType.SMALLINT), vc(), vc()), rows);
    }

    @Override
    public ResultSet getPrimaryKeys(String catalog, String schema, String table) throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (TableDef t : tables(null)) {
            if (table != null && !t.name().equals(table)) {
                continue;
            }
            int[] pk = t.primaryKey();
            for (int i = 0; i < pk.length; i++) {
                rows.add(new Object[] {null, null, t.name(), t.columns().get(pk[i]).name(), (short) (i + 1), "PRIMARY_KEY"});
            }
        }
        return rs(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "COLUMN_NAME", "KEY_SEQ", "PK_NAME"),
                List.of(vc(), vc(), vc(), vc(), ColumnType.of(SqlType.SMALLINT), vc()), rows);
    }

    @Override
    public ResultSet getIndexInfo(String catalog, String schema, String table, boolean unique, boolean approximate)
            throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (TableDef t : tables(null)) {
            if (table != null && !t.name().equals(table)) {
                continue;
            }
            int[] pk = t.primaryKey();
            for (int i = 0; i < pk.length; i++) {
                rows.add(new Object[] {null, null, t.name(), false, null, "PRIMARY_KEY", tableIndexOther, (short) (i + 1),
                        t.columns().get(pk[i]).name(), t.pkDescending()[i] ? "D" : "A", 0L, 0L, null});
            }
            for (IndexDef x : t.indexes()) {
                if (unique && !x.unique()) {
                    continue;
                }
                int[] cs = x.columns();
                boolean[] desc = x.descending();
                for (int i = 0; i < cs.length; i++) {
                    rows.add(new Object[] {null, null, t.name(), !x.unique(), null, x.name(), tableIndexOther,
                            (short) (i + 1), t.columns().get(cs[i]).name(), desc[i] ? "D" : "A", 0L, 0L, null});
                }
            }
        }
        return rs(List.of("TABLE_CAT", "TABLE_SCHEM", "TABLE_NAME", "NON_UNIQUE", "INDEX_QUALIFIER", "INDEX_NAME", "TYPE",
                "ORDINAL_POSITION", "COLUMN_NAME", "ASC_OR_DESC", "CARDINALITY", "PAGES", "FILTER_CONDITION"),
                List.of(vc(), vc(), vc(), ColumnType.of(SqlType.BOOLEAN), vc(), vc(), ColumnType.of(SqlType.SMALLINT),
                        ColumnType.of(SqlType.SMALLINT), vc(), vc(), ColumnType.of(SqlType.BIGINT),
                        ColumnType.of(SqlType.BIGINT), vc()), rows);
    }

    @Override
    public ResultSet getTypeInfo() throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        for (SqlType t : SqlType.values()) {
            boolean text = t == SqlType.CHAR || t == SqlType.VARCHAR;
            rows.add(new Object[] {t.name(), t.jdbcType(), t == SqlType.DECIMAL ? 38 : text ? 1_000_000 : 0,
                    text ? "'" : null, text ? "'" : null, t == SqlType.DECIMAL ? "precision,scale" : text ? "length" : null,
                    (short) typeNullable, text, (short) typeSearchable, false, false, false, t.name(), (short) 0,
                    (short) (t == SqlType.DECIMAL ? 38 : 0), null, null, 10});
        }
        return rs(List.of("TYPE_NAME", "DATA_TYPE", "PRECISION", "LITERAL_PREFIX", "LITERAL_SUFFIX", "CREATE_PARAMS",
                "NULLABLE", "CASE_SENSITIVE", "SEARCHABLE", "UNSIGNED_ATTRIBUTE", "FIXED_PREC_SCALE", "AUTO_INCREMENT",
                "LOCAL_TYPE_NAME", "MINIMUM_SCALE", "MAXIMUM_SCALE", "SQL_DATA_TYPE", "SQL_DATETIME_SUB", "NUM_PREC_RADIX"),
                List.of(vc(), in(), in(), vc(), vc(), vc(), ColumnType.of(SqlType.SMALLINT), ColumnType.of(SqlType.BOOLEAN),
                        ColumnType.of(SqlType.SMALLINT), ColumnType.of(SqlType.BOOLEAN), ColumnType.of(SqlType.BOOLEAN),
                        ColumnType.of(SqlType.BOOLEAN), vc(), ColumnType.of(SqlType.SMALLINT),
                        ColumnType.of(SqlType.SMALLINT), in(), in(), in()), rows);
    }

    @Override
    public String getDatabaseProductName() {
        return "LibTP";
    }

    @Override
    public String getDatabaseProductVersion() {
        return VERSION;
    }

    @Override
    public String getDriverName() {
        return "LibTP JDBC";
    }

    @Override
    public String getDriverVersion() {
        return VERSION;
    }

    @Override
    public int getDriverMajorVersion() {
        return 0;
    }

    @Override
    public int getDriverMinorVersion() {
        return 1;
    }

    @Override
    public int getDatabaseMajorVersion() {
        return 0;
    }

    @Override
    public int getDatabaseMinorVersion() {
        return 1;
    }

    @Override
    public int getJDBCMajorVersion() {
        return 4;
    }

    @Override
    public int getJDBCMinorVersion() {
        return 2;
    }

    @Override
    public String getURL() {
        return connection.url().url();
    }

    @Override
    public String getUserName() {
        return "";
    }

    @Override
    public Connection getConnection() {
        return connection;
    }

    @Override
    public boolean isReadOnly() throws SQLException {
        return connection.isReadOnly();
    }

    @Override
    public boolean supportsTransactions() {
        return true;
    }

    @Override
    public int getDefaultTransactionIsolation() {
        return Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean supportsTransactionIsolationLevel(int level) {
        return level == Connection.TRANSACTION_SERIALIZABLE;
    }

    @Override
    public boolean supportsDataDefinitionAndDataManipulationTransactions() {
        return true;
    }

    @Override
    public boolean supportsGetGeneratedKeys() {
        return true;
    }

    @Override
    public boolean supportsBatchUpdates() {
        return true;
    }

    @Override
    public boolean supportsResultSetType(int type) {
        return type == ResultSet.TYPE_FORWARD_ONLY;
    }

    @Override
    public boolean supportsResultSetConcurrency(int type, int concurrency) {
        return type == ResultSet.TYPE_FORWARD_ONLY && concurrency == ResultSet.CONCUR_READ_ONLY;
    }

    @Override
    public String getIdentifierQuoteString() {
        return "\"";
    }

    @Override
    public boolean storesUpperCaseIdentifiers() {
        return true;
    }

    @Override
    public boolean supportsMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean storesMixedCaseQuotedIdentifiers() {
        return true;
    }

    @Override
    public boolean nullsAreSortedLow() {
        return true;
    }

    @Override
    public boolean supportsOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsLimitedOuterJoins() {
        return true;
    }

    @Override
    public boolean supportsGroupBy() {
        return true;
    }

    @Override
    public boolean supportsOrderByUnrelated() {
        return true;
    }

    @Override
    public boolean supportsLikeEscapeClause() {
        return true;
    }

    @Override
    public boolean supportsNonNullableColumns() {
        return true;
    }

    @Override
    public boolean supportsMinimumSQLGrammar() {
        return true;
    }

    @Override
    public boolean supportsColumnAliasing() {
        return true;
    }

    @Override
    public boolean supportsConvert() {
        return false;
    }

    @Override
    public boolean allTablesAreSelectable() {
        return true;
    }

    @Override
    public String getSearchStringEscape() {
        return "\\";
    }

    @Override
    public String getSQLKeywords() {
        return "";
    }

    @Override
    public int getResultSetHoldability() {
        return ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public boolean supportsResultSetHoldability(int h) {
        return h == ResultSet.CLOSE_CURSORS_AT_COMMIT;
    }

    @Override
    public int getSQLStateType() {
        return sqlStateSQL;
    }

    @Override
    public boolean locatorsUpdateCopy() {
        return true;
    }
}
