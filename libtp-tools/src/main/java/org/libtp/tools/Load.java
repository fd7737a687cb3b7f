package org.libtp.tools;

import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.DatabaseType;
import org.libtp.db.Environment;

/** Opening an existing database whatever its type. */
final class Load {
    private Load() {
    }

    /** Opens database {@code name} read-only as the type it was created with (B-tree or recno). */
    static Database open(Environment env, String name) {
        DatabaseType type = env.databaseType(name);
        return env.openDatabase(null, name, DatabaseConfig.builder().type(type == null ? DatabaseType.BTREE : type)
                .readOnly(true).build());
    }
}
