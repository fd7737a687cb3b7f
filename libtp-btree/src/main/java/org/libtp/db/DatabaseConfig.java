package org.libtp.db;

import java.util.Comparator;

/**
 * How to open a {@link Database}. Immutable; build with {@link #builder()}.
 *
 * @param type        the access method (default BTREE); opening an existing database as another
 *                    type is an IllegalArgumentException
 * @param allowCreate create the database if it does not exist (default false)
 * @param readOnly    refuse writes through this handle (default false)
 * @param comparator  key order (default: unsigned lexicographic, as memcmp). A database must
 *                    always be opened with the same order. Recovery and rollback find keys by
 *                    their bytes and re-insert by the default order, so a custom comparator
 *                    must agree with unsigned lexicographic order on equality and is, for now,
 *                    refused in TP mode
 * @param recordLength RECNO: the length of every record, fixed at creation (default 100)
 */
public record DatabaseConfig(DatabaseType type, boolean allowCreate, boolean readOnly, Comparator<byte[]> comparator,
                             int recordLength) {
    public DatabaseConfig {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
        }
        if (recordLength < 1) {
            throw new IllegalArgumentException("recordLength " + recordLength + " < 1");
        }
        if (comparator != null && type != DatabaseType.BTREE) {
            throw new IllegalArgumentException("a comparator orders B-tree keys; " + type + " databases have none");
        }
    }

    public static DatabaseConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    /** Mutable builder. */
    public static final class Builder {
        private DatabaseType type = DatabaseType.BTREE;
        private boolean allowCreate;
        private boolean readOnly;
        private Comparator<byte[]> comparator;
        private int recordLength = 100;

        public Builder recordLength(int v) {
            recordLength = v;
            return this;
        }

        public Builder type(DatabaseType v) {
            type = v;
            return this;
        }

        public Builder allowCreate(boolean v) {
            allowCreate = v;
            return this;
        }

        public Builder readOnly(boolean v) {
            readOnly = v;
            return this;
        }

        public Builder comparator(Comparator<byte[]> v) {
            comparator = v;
            return this;
        }

        public DatabaseConfig build() {
            return new DatabaseConfig(type, allowCreate, readOnly, comparator, recordLength);
        }
    }
}
