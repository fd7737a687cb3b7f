package org.libtp.sql.exec;

import org.libtp.sql.codec.ColumnType;

import java.util.List;

/**
 * What a statement produced: rows (a query, materialized) or an update count, and the keys
 * generated for identity columns or row ids of an INSERT.
 *
 * @param labels        column labels of a query (null for an update)
 * @param types         column types of a query (null entries: inferred from the values)
 * @param rows          the rows of a query
 * @param updateCount   rows changed by DML, 0 for DDL, -1 for a query
 * @param generatedKeys one single-value row per inserted row with a generated key
 */
public record Result(List<String> labels, List<ColumnType> types, List<Object[]> rows, long updateCount,
                     List<Object[]> generatedKeys) {
    public static Result update(long n) {
        return new Result(null, null, List.of(), n, List.of());
    }

    public boolean isQuery() {
        return labels != null;
    }
}
