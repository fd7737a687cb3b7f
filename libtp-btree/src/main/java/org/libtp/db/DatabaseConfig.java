package org.libtp.db;

/**
 * How to open a {@link Database}. Immutable; build with {@link #builder()}.
 *
 * @param type        the access method (default BTREE); opening an existing database as another
 *                    type is an IllegalArgumentException
 * @param allowCreate create the database if it does not exist (default false)
 * @param readOnly    refuse writes through this handle (default false)
 * @param keyOrder    BTREE: the name of a key order registered in the {@link EnvironmentConfig}
 *                    (null, the default: unsigned lexicographic, as memcmp). Fixed when the
 *                    database is created (it is recorded in the database); opening it with
 *                    another order is an IllegalArgumentException. Orders must agree with byte
 *                    equality (rollback finds keys by their bytes)
 * @param recordLength RECNO: the length of every record, fixed at creation (default 100)
 */
public record DatabaseConfig(DatabaseType type, boolean allowCreate, boolean readOnly, String keyOrder,
                             int recordLength) {
    public DatabaseConfig {
        if (type == null) {
            throw new IllegalArgumentException("type must not be null");
        }
        if (recordLength < 1) {
            throw new IllegalArgumentException("recordLength " + recordLength + " < 1");
        }
        if (keyOrder != null) {
            checkOrderName(keyOrder);
            if (type != DatabaseType.BTREE) {
                throw new IllegalArgumentException("a key order orders B-tree keys; " + type + " databases have none");
            }
        }
    }

    static void checkOrderName(String name) {
        if (name == null || name.isEmpty() || name.length() > 64 || !name.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("key order name '" + name + "' must be 1..64 characters of [A-Za-z0-9_.-]");
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
        private String keyOrder;
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

        /** The name of a key order registered with {@link EnvironmentConfig.Builder#keyOrder}. */
        public Builder keyOrder(String v) {
            keyOrder = v;
            return this;
        }

        public DatabaseConfig build() {
            return new DatabaseConfig(type, allowCreate, readOnly, keyOrder, recordLength);
        }
    }
}
