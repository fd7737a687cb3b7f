package org.libtp.tools;

import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.DatabaseType;
import org.libtp.db.Environment;

/** Opening an existing database whatever its type. */
final class Load {
    private Load() {
    }

    /** Opens database {@code name} read-only as a B-tree, or as a recno file if it is one. */
    static Database open(Environment env, String name) {
        try {
            return env.openDatabase(null, name, DatabaseConfig.builder().readOnly(true).build());
        } catch (IllegalArgumentException e) {
            if (e.getMessage() == null || !e.getMessage().contains("RECNO")) {
                throw e;
            }
            return env.openDatabase(null, name, DatabaseConfig.builder().type(DatabaseType.RECNO).readOnly(true).build());
        }
    }
}
