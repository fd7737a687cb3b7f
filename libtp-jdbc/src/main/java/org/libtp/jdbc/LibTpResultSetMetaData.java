package org.libtp.jdbc;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.exec.Result;

import java.sql.SQLException;

/** Column labels and types of a result. */
final class LibTpResultSetMetaData extends UnsupportedResultSetMetaData {
    private final Result result;

    LibTpResultSetMetaData(Result result) {
        this.result = result;
    }

    private ColumnType type(int c) throws SQLException {
        if (c < 1 || c > result.labels().size()) {
            throw new SQLException("column index " + c + " not in 1.." + result.labels().size(), "07009");
        }
        return result.types().get(c - 1);
    }

    @Override
    public int getColumnCount() {
        return result.labels().size();
    }

    @Override
    public String getColumnLabel(int c) throws SQLException {
        type(c);
        return result.labels().get(c - 1);
    }

    @Override
    public String getColumnName(int c) throws SQLException {
        return getColumnLabel(c);
    }

    @Override
    public int getColumnType(int c) throws SQLException {
        ColumnType t = type(c);
        return t == null ? java.sql.Types.VARCHAR : t.type().jdbcType();
    }

    @Override
    public String getColumnTypeName(int c) throws SQLException {
        ColumnType t = type(c);
        return t == null ? "VARCHAR" : t.type().name();
    }

    @Override
    public String getColumnClassName(int c) throws SQLException {
        ColumnType t = type(c);
        if (t == null) {
            return String.class.getName();
        }
        return switch (t.type()) {
            case DATE -> java.sql.Date.class.getName();
            case TIME -> java.sql.Time.class.getName();
            case TIMESTAMP -> java.sql.Timestamp.class.getName();
            default -> t.type().javaClass().getName();
        };
    }

    @Override
    public int getPrecision(int c) throws SQLException {
        ColumnType t = type(c);
        if (t == null) {
            return 0;
        }
        return switch (t.type()) {
            case CHAR, VARCHAR, VARBINARY, DECIMAL -> t.length();
            case BOOLEAN -> 1;
            case SMALLINT -> 5;
            case INTEGER -> 10;
            case BIGINT -> 19;
            case REAL -> 7;
            case DOUBLE -> 15;
            case DATE -> 10;
            case TIME -> 18;
            case TIMESTAMP -> 29;
        };
    }

    @Override
    public int getScale(int c) throws SQLException {
        ColumnType t = type(c);
        return t == null ? 0 : t.scale();
    }

    @Override
    public int isNullable(int c) throws SQLException {
        type(c);
        return columnNullableUnknown;
    }

    @Override
    public boolean isSigned(int c) throws SQLException {
        ColumnType t = type(c);
        return t != null && switch (t.type()) {
            case SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL -> true;
            default -> false;
        };
    }

    @Override
    public int getColumnDisplaySize(int c) throws SQLException {
        return Math.max(getPrecision(c), getColumnLabel(c).length());
    }

    @Override
    public boolean isCaseSensitive(int c) throws SQLException {
        ColumnType t = type(c);
        return t == null || t.type() == SqlType.CHAR || t.type() == SqlType.VARCHAR;
    }

    @Override
    public boolean isSearchable(int c) throws SQLException {
        type(c);
        return true;
    }

    @Override
    public boolean isReadOnly(int c) throws SQLException {
        type(c);
        return true;
    }

    @Override
    public String getTableName(int c) throws SQLException {
        type(c);
        return "";
    }

    @Override
    public String getSchemaName(int c) throws SQLException {
        type(c);
        return "";
    }

    @Override
    public String getCatalogName(int c) throws SQLException {
        type(c);
        return "";
    }
}
