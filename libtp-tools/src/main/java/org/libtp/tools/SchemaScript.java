package org.libtp.tools;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * SQL text for a schema and its rows, from standard JDBC metadata: the CREATE TABLE and CREATE
 * INDEX statements that make a table again (for {@code .schema} and {@code dump --sql}), and
 * literals that read back as the same values.
 */
final class SchemaScript {
    private static final Set<String> RESERVED = Set.of("ALL", "AND", "AS", "ASC", "BETWEEN", "BY", "CASE", "CHECK",
            "COLUMN", "CONSTRAINT", "CREATE", "CROSS", "CURRENT_DATE", "CURRENT_TIME", "CURRENT_TIMESTAMP", "DEFAULT",
            "DELETE", "DESC", "DISTINCT", "DROP", "ELSE", "END", "EXISTS", "FALSE", "FETCH", "FOR", "FOREIGN", "FROM",
            "FULL", "GROUP", "HAVING", "IN", "INDEX", "INNER", "INSERT", "INTERSECT", "INTO", "IS", "JOIN", "KEY", "LEFT",
            "LIKE", "LIMIT", "MINUS", "NATURAL", "NOT", "NULL", "OFFSET", "ON", "OR", "ORDER", "OUTER", "PRIMARY",
            "REFERENCES", "RIGHT", "ROW", "ROWS", "SELECT", "SET", "TABLE", "THEN", "TO", "TRUE", "UNION", "UNIQUE",
            "UPDATE", "USING", "VALUE", "VALUES", "WHEN", "WHERE", "WITH");

    private SchemaScript() {
    }

    /** An identifier as SQL must write it: bare if it reads back the same, else quoted. */
    static String identifier(String name) {
        if (name.matches("[A-Z][A-Z0-9_]*") && !RESERVED.contains(name)) {
            return name;
        }
        return "\"" + name.replace("\"", "\"\"") + "\"";
    }

    /** The tables, in the metadata's order. */
    static List<String> tables(DatabaseMetaData md) throws SQLException {
        List<String> out = new ArrayList<>();
        try (ResultSet rs = md.getTables(null, null, "%", new String[] {"TABLE"})) {
            while (rs.next()) {
                out.add(rs.getString("TABLE_NAME"));
            }
        }
        return out;
    }

    /** CREATE TABLE, then a CREATE INDEX per secondary index, for {@code table}. */
    static List<String> create(DatabaseMetaData md, String table) throws SQLException {
        StringBuilder b = new StringBuilder("CREATE TABLE ").append(identifier(table)).append(" (");
        boolean first = true;
        try (ResultSet rs = md.getColumns(null, null, table, "%")) {
            while (rs.next()) {
                b.append(first ? "" : ",").append("\n  ").append(identifier(rs.getString("COLUMN_NAME"))).append(' ')
                        .append(type(rs));
                first = false;
                if ("YES".equals(rs.getString("IS_AUTOINCREMENT"))) {
                    b.append(" AUTO_INCREMENT");
                }
                String dflt = rs.getString("COLUMN_DEF");
                if (dflt != null) {
                    b.append(" DEFAULT ").append(dflt);
                }
                if ("NO".equals(rs.getString("IS_NULLABLE"))) {
                    b.append(" NOT NULL");
                }
            }
        }
        Map<String, List<String>> indexes = new LinkedHashMap<>();
        Map<String, Boolean> unique = new LinkedHashMap<>();
        try (ResultSet rs = md.getIndexInfo(null, null, table, false, false)) {
            while (rs.next()) {
                String name = rs.getString("INDEX_NAME");
                String col = identifier(rs.getString("COLUMN_NAME")) + ("D".equals(rs.getString("ASC_OR_DESC")) ? " DESC" : "");
                indexes.computeIfAbsent(name, k -> new ArrayList<>()).add(col);
                unique.put(name, !rs.getBoolean("NON_UNIQUE"));
            }
        }
        List<String> pk = indexes.remove("PRIMARY_KEY");
        if (pk != null) {
            b.append(",\n  PRIMARY KEY (").append(String.join(", ", pk)).append(')');
        }
        b.append("\n)");
        List<String> out = new ArrayList<>();
        out.add(b.toString());
        indexes.forEach((name, cols) -> out.add("CREATE " + (unique.get(name) ? "UNIQUE " : "") + "INDEX "
                + identifier(name) + " ON " + identifier(table) + " (" + String.join(", ", cols) + ")"));
        return out;
    }

    private static String type(ResultSet rs) throws SQLException {
        String t = rs.getString("TYPE_NAME").toUpperCase(Locale.ROOT);
        return switch (t) {
            case "CHAR", "VARCHAR", "VARBINARY" -> t + "(" + rs.getInt("COLUMN_SIZE") + ")";
            case "DECIMAL", "NUMERIC" -> t + "(" + rs.getInt("COLUMN_SIZE") + "," + rs.getInt("DECIMAL_DIGITS") + ")";
            default -> t;
        };
    }

    /** A literal that reads back as {@code v}: NULL, numbers, TRUE/FALSE, '...', X'..', DATE '...'. */
    static String literal(Object v) {
        if (v == null) {
            return "NULL";
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (v instanceof java.math.BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof Double d) {
            if (d.isNaN() || d.isInfinite()) {
                throw new Tools.ToolException("the value " + d + " has no SQL literal");
            }
            return Double.toString(d);
        }
        if (v instanceof Float f) {
            if (f.isNaN() || f.isInfinite()) {
                throw new Tools.ToolException("the value " + f + " has no SQL literal");
            }
            return Float.toString(f);
        }
        if (v instanceof Number n) {
            return n.toString();
        }
        if (v instanceof byte[] bytes) {
            return "X'" + java.util.HexFormat.of().formatHex(bytes) + "'";
        }
        if (v instanceof java.time.LocalDate || v instanceof java.sql.Date) {
            return "DATE '" + v + "'";
        }
        if (v instanceof java.time.LocalTime t) {
            return "TIME '" + t.format(java.time.format.DateTimeFormatter.ofPattern("HH:mm:ss")) + "'";
        }
        if (v instanceof java.sql.Time t) {
            return "TIME '" + t + "'";
        }
        if (v instanceof java.time.LocalDateTime t) {
            return "TIMESTAMP '" + t.format(java.time.format.DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSSSSSSSS"))
                    + "'";
        }
        if (v instanceof java.sql.Timestamp t) {
            return "TIMESTAMP '" + t + "'";
        }
        return "'" + v.toString().replace("'", "''") + "'";
    }
}
