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
 * Immutable: the SQL layer caches a definition per table and reuses it while the schema
 * entry it was decoded from is unchanged.
 */
public final class TableDef {
    /** The key type of a table without a primary key. */
    public static final ColumnType ROW_ID = ColumnType.of(SqlType.BIGINT);

    private final String name;
    private final int tableId;
    private final int version;
    private final List<Column> columns;
    private final int[] primaryKey;
    private final boolean[] pkDescending;
    private final List<IndexDef> indexes;
    // Derived once: a definition is immutable and read by every statement that uses the table.
    private final List<ColumnType> types;
    private final List<ColumnType> keyTypes;
    private final boolean[] keyDescending;
    private final String dataName;
    private final int identityColumn;

    public TableDef(String name, int tableId, int version, List<Column> columns, int[] primaryKey,
                    boolean[] pkDescending, List<IndexDef> indexes) {
        this.name = name;
        this.tableId = tableId;
        this.version = version;
        this.columns = List.copyOf(columns);
        this.primaryKey = primaryKey.clone();
        this.pkDescending = pkDescending.clone();
        this.indexes = List.copyOf(indexes);
        if (primaryKey.length != pkDescending.length) {
            throw new IllegalArgumentException("a direction per primary key column");
        }
        List<ColumnType> ts = new ArrayList<>(columns.size());
        int identity = -1;
        for (int i = 0; i < this.columns.size(); i++) {
            ts.add(this.columns.get(i).type());
            if (identity < 0 && this.columns.get(i).identity()) {
                identity = i;
            }
        }
        this.types = List.copyOf(ts);
        this.identityColumn = identity;
        if (primaryKey.length == 0) {
            this.keyTypes = List.of(ROW_ID);
            this.keyDescending = new boolean[1];
        } else {
            List<ColumnType> kt = new ArrayList<>(primaryKey.length);
            for (int p : primaryKey) {
                kt.add(this.columns.get(p).type());
            }
            this.keyTypes = List.copyOf(kt);
            this.keyDescending = pkDescending.clone();
        }
        this.dataName = "sql.t" + tableId;
    }

    /** Upper-case unless it was quoted. */
    public String name() {
        return name;
    }

    /** The number in its database's name. */
    public int tableId() {
        return tableId;
    }

    /** Schema version, 1 at CREATE TABLE. */
    public int version() {
        return version;
    }

    /** In declaration order. */
    public List<Column> columns() {
        return columns;
    }

    /** Secondary indexes. */
    public List<IndexDef> indexes() {
        return indexes;
    }

    /** Positions of the primary key columns (empty: a hidden row id). */
    public int[] primaryKey() {
        return primaryKey.clone();
    }

    /** Per primary key column. */
    public boolean[] pkDescending() {
        return pkDescending.clone();
    }

    /** The number of primary key columns (0: a hidden row id). */
    public int primaryKeyLength() {
        return primaryKey.length;
    }

    /** Position of primary key column {@code i}. */
    public int primaryKeyColumn(int i) {
        return primaryKey[i];
    }

    public boolean hasRowId() {
        return primaryKey.length == 0;
    }

    /** The database that holds the rows. */
    public String dataName() {
        return dataName;
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

    /** The column types (unmodifiable). */
    public List<ColumnType> types() {
        return types;
    }

    /** Types of the primary key (the row id's if none). */
    public List<ColumnType> keyTypes() {
        return keyTypes;
    }

    /** Per key column (the row id's if none); shared: read it, do not change it. */
    public boolean[] keyDescending() {
        return keyDescending;
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
        return identityColumn;
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

    @Override
    public String toString() {
        return "TableDef[" + name + ", id " + tableId + ", version " + version + ", " + columns + "]";
    }
}
