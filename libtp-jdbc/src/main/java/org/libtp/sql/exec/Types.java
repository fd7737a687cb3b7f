package org.libtp.sql.exec;

import net.sf.jsqlparser.statement.create.table.ColDataType;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;

import java.sql.SQLException;
import java.util.List;
import java.util.Locale;

/** SQL type names (as written in CREATE TABLE and CAST) to column types. */
final class Types {
    private Types() {
    }

    static ColumnType of(ColDataType d) throws SQLException {
        String n = d.getDataType().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ").trim();
        List<String> args = d.getArgumentsStringList() == null ? List.of() : d.getArgumentsStringList();
        int paren = n.indexOf('(');
        if (paren >= 0) { // some forms keep "(20)" in the type name
            String inside = n.substring(paren + 1, n.lastIndexOf(')') > paren ? n.lastIndexOf(')') : n.length());
            if (args.isEmpty() && !inside.isBlank()) {
                args = List.of(inside.split(","));
            }
            n = n.substring(0, paren).trim();
        }
        try {
            return switch (n) {
                case "BOOLEAN", "BOOL", "BIT" -> ColumnType.of(SqlType.BOOLEAN);
                case "SMALLINT", "INT2", "TINYINT" -> ColumnType.of(SqlType.SMALLINT);
                case "INT", "INTEGER", "INT4", "MEDIUMINT" -> ColumnType.of(SqlType.INTEGER);
                case "BIGINT", "INT8" -> ColumnType.of(SqlType.BIGINT);
                case "REAL", "FLOAT4" -> ColumnType.of(SqlType.REAL);
                case "DOUBLE", "DOUBLE PRECISION", "FLOAT", "FLOAT8" -> ColumnType.of(SqlType.DOUBLE);
                case "DECIMAL", "NUMERIC", "DEC" -> new ColumnType(SqlType.DECIMAL, arg(args, 0, 18), arg(args, 1, 0));
                case "CHAR", "CHARACTER" -> new ColumnType(SqlType.CHAR, arg(args, 0, 1), 0);
                case "VARCHAR", "CHARACTER VARYING", "VARCHAR2", "NVARCHAR", "TEXT", "CLOB", "CHAR VARYING" ->
                        new ColumnType(SqlType.VARCHAR, arg(args, 0, 1_000_000), 0);
                case "VARBINARY", "BINARY VARYING", "BLOB", "BYTEA", "BINARY" ->
                        new ColumnType(SqlType.VARBINARY, arg(args, 0, 1_000_000), 0);
                case "DATE" -> ColumnType.of(SqlType.DATE);
                case "TIME" -> ColumnType.of(SqlType.TIME);
                case "TIMESTAMP", "DATETIME" -> ColumnType.of(SqlType.TIMESTAMP);
                default -> throw SqlErrors.unsupported("the type " + d.getDataType());
            };
        } catch (IllegalArgumentException e) {
            throw SqlErrors.syntax("type " + d + ": " + e.getMessage());
        }
    }

    private static int arg(List<String> args, int i, int dflt) throws SQLException {
        if (args.size() <= i) {
            return dflt;
        }
        try {
            return Integer.parseInt(args.get(i).trim());
        } catch (NumberFormatException e) {
            throw SqlErrors.syntax("type argument '" + args.get(i) + "' is not a number");
        }
    }
}
