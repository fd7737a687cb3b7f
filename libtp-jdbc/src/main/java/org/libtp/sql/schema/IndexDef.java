package org.libtp.sql.schema;

import java.util.Arrays;

/**
 * A secondary index: a B-tree whose keys are the memcomparable encoding of (index columns,
 * primary key columns) — unique for a UNIQUE index only in its index columns, which the
 * executor checks — and whose data is empty.
 *
 * @param name       upper-case unless quoted
 * @param indexId    the number in its database's name ({@code sql.t<table>.i<index>})
 * @param unique     UNIQUE (NULLs do not collide, as in SQL)
 * @param columns    positions of the indexed columns in the table
 * @param descending per indexed column
 */
public record IndexDef(String name, int indexId, boolean unique, int[] columns, boolean[] descending) {
    public IndexDef {
        if (columns.length == 0 || columns.length != descending.length) {
            throw new IllegalArgumentException("an index needs columns, each with a direction");
        }
        columns = columns.clone();
        descending = descending.clone();
    }

    @Override
    public int[] columns() {
        return columns.clone();
    }

    @Override
    public boolean[] descending() {
        return descending.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof IndexDef i && i.name.equals(name) && i.indexId == indexId && i.unique == unique
                && Arrays.equals(i.columns, columns) && Arrays.equals(i.descending, descending);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + indexId;
    }
}
