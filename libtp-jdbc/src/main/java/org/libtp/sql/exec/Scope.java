package org.libtp.sql.exec;

import net.sf.jsqlparser.schema.Column;
import org.libtp.sql.schema.TableDef;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The tables a statement reads, side by side in one row array: table i's columns start at
 * {@code offset(i)}. Resolves column references (qualified by table name or alias, or not) to
 * positions in that array.
 */
final class Scope {
    record Entry(String alias, TableDef table, int offset) {
    }

    private final List<Entry> entries = new ArrayList<>();
    private int width;

    int add(String alias, TableDef table) {
        entries.add(new Entry(alias, table, width));
        width += table.columns().size();
        return entries.size() - 1;
    }

    int width() {
        return width;
    }

    List<Entry> entries() {
        return entries;
    }

    /** Position of {@code c} in the row array. */
    int resolve(Column c) throws SQLException {
        String name = Names.identifier(c.getColumnName());
        String qualifier = c.getTable() == null || c.getTable().getName() == null ? null
                : Names.identifier(c.getTable().getName());
        int found = -1;
        // A qualifier names an alias; only if no entry has that alias, a table by its name.
        boolean byAlias = qualifier != null && entries.stream().anyMatch(e -> qualifier.equals(e.alias));
        for (Entry e : entries) {
            if (qualifier != null && !(byAlias ? qualifier.equals(e.alias) : qualifier.equals(e.table.name()))) {
                continue;
            }
            int p = e.table.column(name);
            if (p >= 0) {
                if (found >= 0) {
                    throw SqlErrors.syntax("column " + name + " is ambiguous; qualify it with its table");
                }
                found = e.offset + p;
            }
        }
        if (found < 0) {
            throw SqlErrors.noColumn((qualifier == null ? "" : qualifier + ".") + name);
        }
        return found;
    }
}
