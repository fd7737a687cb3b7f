package org.libtp.sql.schema;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A table: its columns, primary key and secondary indexes. Rows live in the B-tree database
 * {@code sql.t<tableId>}, keyed by the memcomparable encoding of the primary key columns (or,
 * without a primary key, of a hidden BIGINT row id taken from the table's sequence); the data is
 * the row encoding of every column (the key columns included, so a row reads back whole from
 * its data). {@code version} counts schema changes (ADD COLUMN): a row records the version it
 * was written in, and a row with fewer columns reads the newer ones as their defaults.
 *
 * @param name       upper-case unless it was quoted
 * @param tableId    the number in its database's name
 * @param version    schema version, 1 at CREATE TABLE
 * @param columns    in declaration order
 * @param primaryKey positions of the primary key columns (empty: a hidden row id)
 * @param pkDescending per primary key column
 * @param indexes    secondary indexes
 */
public record TableDef(String name, int tableId, int version, List<Column> columns, int[] primaryKey,
                       boolean[] pkDescending, List<IndexDef> indexes) {
    /** The key type of a table without a primary key. */
    public static final ColumnType ROW_ID = ColumnType.of(SqlType.BIGINT);

    public TableDef {
        columns = List.copyOf(columns);
        primaryKey = primaryKey.clone();
        pkDescending = pkDescending.clone();
        indexes = List.copyOf(indexes);
        if (primaryKey.length != pkDescending.length) {
            throw new IllegalArgumentException("a direction per primary key column");
        }
    }

    @Override
    public int[] primaryKey() {
        return primaryKey.clone();
    }

    @Override
    public boolean[] pkDescending() {
        return pkDescending.clone();
    }

    public boolean hasRowId() {
        return primaryKey.length == 0;
    }

    /** The database that holds the rows. */
    public String dataName() {
        return "sql.t" + tableId;
    }

    /** The database that holds index {@code i}. */
    public String indexName(IndexDef i) {
        return "sql.t" + tableId + ".i" + i.indexId();
    }

    /** Position of column {@code n} (exact name), or -1. */
    public int column(String n) {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).name().equals(n)) {
                return i;
            }
        }
        return -1;
    }

    public List<ColumnType> types() {
        List<ColumnType> t = new ArrayList<>(columns.size());
        for (Column c : columns) {
            t.add(c.type());
        }
        return t;
    }

    /** Types of the primary key (the row id's if none). */
    public List<ColumnType> keyTypes() {
        if (hasRowId()) {
            return List.of(ROW_ID);
        }
        List<ColumnType> t = new ArrayList<>(primaryKey.length);
        for (int p : primaryKey) {
            t.add(columns.get(p).type());
        }
        return t;
    }

    public boolean[] keyDescending() {
        return hasRowId() ? new boolean[1] : pkDescending.clone();
    }

    /** The index named {@code n}, or null. */
    public IndexDef index(String n) {
        for (IndexDef i : indexes) {
            if (i.name().equals(n)) {
                return i;
            }
        }
        return null;
    }

    /** The identity column's position, or -1. */
    public int identityColumn() {
        for (int i = 0; i < columns.size(); i++) {
            if (columns.get(i).identity()) {
                return i;
            }
        }
        return -1;
    }

    public TableDef withIndexes(List<IndexDef> newIndexes) {
        return new TableDef(name, tableId, version, columns, primaryKey, pkDescending, newIndexes);
    }

    public TableDef withColumn(Column c) {
        List<Column> cs = new ArrayList<>(columns);
        cs.add(c);
        return new TableDef(name, tableId, version + 1, cs, primaryKey, pkDescending, indexes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TableDef t && t.name.equals(name) && t.tableId == tableId && t.version == version
                && t.columns.equals(columns) && Arrays.equals(t.primaryKey, primaryKey)
                && Arrays.equals(t.pkDescending, pkDescending) && t.indexes.equals(indexes);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + tableId;
    }
}
