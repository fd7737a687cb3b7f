package org.libtp.sql.schema;

import org.libtp.sql.codec.ColumnType;

/**
 * A table column.
 *
 * @param name       upper-case unless it was quoted
 * @param type       its SQL type
 * @param notNull    NOT NULL (primary key columns always are)
 * @param defaultSql the DEFAULT expression as SQL text, or null (NULL)
 * @param identity   an IDENTITY / AUTO_INCREMENT column: a BIGINT, INTEGER or SMALLINT whose value an
 *                   INSERT that leaves it out (or gives NULL) takes from the table's sequence
 */
public record Column(String name, ColumnType type, boolean notNull, String defaultSql, boolean identity) {
    public Column {
        if (name == null || name.isEmpty() || type == null) {
            throw new IllegalArgumentException("a column needs a name and a type");
        }
    }
}
