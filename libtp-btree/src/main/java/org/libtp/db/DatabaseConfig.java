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
 */
public record DatabaseConfig(DatabaseType type, boolean allowCreate, boolean readOnly, Comparator<byte[]> comparator) {
    public DatabaseConfig {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
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
            return new DatabaseConfig(type, allowCreate, readOnly, comparator);
        }
    }
}
