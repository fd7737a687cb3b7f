package org.libtp.sql.exec;

import java.util.Locale;

/** SQL identifiers: unquoted ones are upper-cased (as H2, Oracle, the standard), quoted ones kept. */
final class Names {
    private Names() {
    }

    static String identifier(String raw) {
        if (raw == null) {
            return null;
        }
        if (raw.length() >= 2 && (raw.startsWith("\"") && raw.endsWith("\"") || raw.startsWith("`") && raw.endsWith("`"))) {
            return raw.substring(1, raw.length() - 1);
        }
        return raw.toUpperCase(Locale.ROOT);
    }
}
