package org.libtp.sql.exec;

import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.Transaction;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.schema.Column;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.TableDef;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.drop.Drop;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * CREATE TABLE, DROP TABLE, CREATE [UNIQUE] INDEX, DROP INDEX and ALTER TABLE ADD COLUMN, in the
 * statement's transaction (so they commit and roll back with it).
 */
final class Ddl {
    private Ddl() {
    }

    static Result createTable(Engine engine, Transaction t, CreateTable c) throws SQLException {
        if (c.getSelect() != null || c.getLikeTable() != null) {
            throw SqlErrors.unsupported("CREATE TABLE ... AS SELECT / LIKE");
        }
        String name = Names.identifier(c.getTable().getName());
        if (engine.table(t, name) != null) {
            if (c.isIfNotExists()) {
                return Result.update(0);
            }
            throw SqlErrors.tableExists(name);
        }
        List<Column> cols = new ArrayList<>();
        List<List<String>> uniques = new ArrayList<>();
        List<List<String>> plainIndexes = new ArrayList<>();
        List<String> pk = new ArrayList<>();
        List<Boolean> pkDesc = new ArrayList<>();
        if (c.getColumnDefinitions() == null || c.getColumnDefinitions().isEmpty()) {
            throw SqlErrors.syntax("CREATE TABLE " + name + " needs columns");
        }
        for (ColumnDefinition d : c.getColumnDefinitions()) {
            String cn = Names.identifier(d.getColumnName());
            for (Column other : cols) {
                if (other.name().equals(cn)) {
                    throw SqlErrors.syntax("column " + cn + " appears twice in " + name);
                }
            }
            ColumnType type = Types.of(d.getColDataType());
            List<String> specs = d.getColumnSpecs() == null ? List.of() : d.getColumnSpecs();
            String joined = " " + String.join(" ", specs).toUpperCase(Locale.ROOT) + " ";
            boolean notNull = joined.contains(" NOT NULL ");
            boolean primary = joined.contains(" PRIMARY KEY ");
            boolean identity = joined.contains(" AUTO_INCREMENT ") || joined.contains(" IDENTITY ")
                    || joined.contains(" AUTOINCREMENT ") || joined.matches(".* GENERATED .* AS IDENTITY .*")
                    || d.getColDataType().getDataType().equalsIgnoreCase("IDENTITY");
            if (joined.contains(" UNIQUE ")) {
                uniques.add(List.of(cn));
            }
            if (joined.contains(" REFERENCES ") || joined.contains(" CHECK ")) {
                throw SqlErrors.unsupported("foreign keys and CHECK constraints");
            }
            String dflt = defaultOf(specs);
            if (identity && type.type() != SqlType.BIGINT && type.type() != SqlType.INTEGER
                    && type.type() != SqlType.SMALLINT) {
                throw SqlErrors.syntax("identity column " + cn + " must be SMALLINT, INTEGER or BIGINT");
            }
            if (primary) {
                if (!pk.isEmpty()) {
                    throw SqlErrors.syntax("table " + name + " has two primary keys (" + pk.get(0) + " and " + cn
                            + "); a key of several columns is PRIMARY KEY (a, b) after the columns");
                }
                pk.add(cn);
                pkDesc.add(false);
            }
            cols.add(new Column(cn, type, notNull || primary, dflt, identity));
        }
        if (c.getIndexes() != null) {
            for (Index i : c.getIndexes()) {
                String kind = i.getType() == null ? "" : i.getType().toUpperCase(Locale.ROOT).trim();
                if (kind.startsWith("UNIQUE") || kind.equals("INDEX") || kind.equals("KEY")) {
                    List<String> names = new ArrayList<>();
                    for (Index.ColumnParams p : i.getColumns()) {
                        names.add(Names.identifier(p.getColumnName()));
                    }
                    (kind.startsWith("UNIQUE") ? uniques : plainIndexes).add(names);
                    continue;
                }
                if (!kind.equals("PRIMARY KEY")) {
                    throw SqlErrors.unsupported(kind + " constraints");
                }
                if (!pk.isEmpty()) {
                    throw SqlErrors.syntax("table " + name + " has two primary keys");
                }
                for (Index.ColumnParams p : i.getColumns()) {
                    pk.add(Names.identifier(p.getColumnName()));
                    List<String> ps = p.getParams() == null ? List.of() : p.getParams();
                    pkDesc.add(ps.stream().anyMatch(s -> s.equalsIgnoreCase("DESC")));
                }
            }
        }
        if (pk.size() > 1 && cols.stream().filter(x -> pk.contains(x.name())).count() != pk.size()) {
            throw SqlErrors.syntax("a primary key column of " + name + " is not a column of it");
        }
        int[] pkPos = new int[pk.size()];
        boolean[] pkD = new boolean[pk.size()];
        for (int i = 0; i < pk.size(); i++) {
            int p = -1;
            for (int j = 0; j < cols.size(); j++) {
                if (cols.get(j).name().equals(pk.get(i))) {
                    p = j;
                }
            }
            if (p < 0) {
                throw SqlErrors.noColumn(pk.get(i));
            }
            pkPos[i] = p;
            pkD[i] = pkDesc.get(i);
            Column x = cols.get(p);
            cols.set(p, new Column(x.name(), x.type(), true, x.defaultSql(), x.identity()));
        }
        if (cols.stream().filter(Column::identity).count() > 1) {
            throw SqlErrors.syntax("table " + name + " has more than one identity column");
        }
        TableDef def = new TableDef(name, engine.nextId(t), 1, cols, pkPos, pkD, List.of());
        for (Column col : cols) {
            if (col.defaultSql() != null) {
                Dml.constant(col.defaultSql(), col); // checked now, not at the first INSERT
            }
        }
        engine.database(t, def.dataName(), true);
        engine.putTable(t, def);
        int n = 0;
        for (List<String> u : uniques) {
            def = addIndex(engine, t, def, "UK_" + name + "_" + (++n), u, null, true);
        }
        for (List<String> u : plainIndexes) {
            def = addIndex(engine, t, def, "IX_" + name + "_" + (++n), u, null, false);
        }
        return Result.update(0);
    }

    static Result createIndex(Engine engine, Transaction t, net.sf.jsqlparser.statement.create.index.CreateIndex c)
            throws SQLException {
        Index i = c.getIndex();
        TableDef def = Dml.table(engine, t, c.getTable());
        String name = Names.identifier(i.getName());
        for (TableDef other : engine.tables(t)) {
            if (other.index(name) != null) {
                if (c.isUsingIfNotExists()) {
                    return Result.update(0);
                }
                throw new java.sql.SQLSyntaxErrorException("index " + name + " already exists (on table " + other.name()
                        + ")", "42S11");
            }
        }
        List<String> cols = new ArrayList<>();
        List<Boolean> desc = new ArrayList<>();
        for (Index.ColumnParams p : i.getColumns()) {
            cols.add(Names.identifier(p.getColumnName()));
            desc.add(p.getParams() != null && p.getParams().stream().anyMatch(x -> x.equalsIgnoreCase("DESC")));
        }
        String kind = i.getType() == null ? "" : i.getType().toUpperCase(Locale.ROOT);
        addIndex(engine, t, def, name, cols, desc, kind.contains("UNIQUE"));
        return Result.update(0);
    }

    /** Adds an index to {@code def}: its database, its entries for every row (checked if unique), the schema. */
    static TableDef addIndex(Engine engine, Transaction t, TableDef def, String name, List<String> cols, List<Boolean> desc,
                             boolean unique) throws SQLException {
        int[] pos = new int[cols.size()];
        boolean[] d = new boolean[cols.size()];
        for (int k = 0; k < pos.length; k++) {
            pos[k] = def.column(cols.get(k));
            if (pos[k] < 0) {
                throw SqlErrors.noColumn(def.name() + "." + cols.get(k));
            }
            d[k] = desc != null && desc.get(k);
        }
        IndexDef x = new IndexDef(name, engine.nextId(t), unique, pos, d);
        List<IndexDef> all = new ArrayList<>(def.indexes());
        all.add(x);
        TableDef with = def.withIndexes(all);
        Database idx = engine.database(t, with.indexName(x), true);
        Database data = engine.database(t, def.dataName(), false);
        List<Object[]> rows = new ArrayList<>();
        List<byte[]> keys = new ArrayList<>();
        try (Cursor cur = data.openCursor(t)) {
            for (boolean ok = cur.first(); ok; ok = cur.next()) {
                keys.add(cur.key());
                rows.add(Tables.decode(def, cur.data()));
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            Indexes.checkUnique(t, idx, with, x, rows.get(r), keys.get(r));
            idx.put(t, Indexes.entry(with, x, rows.get(r), keys.get(r)), Indexes.EMPTY);
        }
        engine.putTable(t, with);
        return with;
    }

    static Result dropIndex(Engine engine, Transaction t, Drop d) throws SQLException {
        String name = Names.identifier(d.getName().getName());
        for (TableDef def : engine.tables(t)) {
            IndexDef x = def.index(name);
            if (x != null) {
                List<IndexDef> rest = new ArrayList<>(def.indexes());
                rest.remove(x);
                engine.forget(def.indexName(x));
                engine.environment().removeDatabase(t, def.indexName(x));
                engine.putTable(t, def.withIndexes(rest));
                return Result.update(0);
            }
        }
        if (d.isIfExists()) {
            return Result.update(0);
        }
        throw new java.sql.SQLSyntaxErrorException("index " + name + " does not exist", "42S12");
    }

    static Result alter(Engine engine, Transaction t, net.sf.jsqlparser.statement.alter.Alter a) throws SQLException {
        TableDef def = Dml.table(engine, t, a.getTable());
        for (net.sf.jsqlparser.statement.alter.AlterExpression e : a.getAlterExpressions()) {
            if (e.getOperation() != net.sf.jsqlparser.statement.alter.AlterOperation.ADD || e.getColDataTypeList() == null
                    || e.getColDataTypeList().isEmpty()) {
                throw SqlErrors.unsupported("ALTER TABLE " + e.getOperation() + " (only ADD COLUMN)");
            }
            for (ColumnDefinition cd : e.getColDataTypeList()) {
                String cn = Names.identifier(cd.getColumnName());
                if (def.column(cn) >= 0) {
                    throw SqlErrors.syntax("table " + def.name() + " already has a column " + cn);
                }
                List<String> specs = cd.getColumnSpecs() == null ? List.of() : cd.getColumnSpecs();
                String joined = " " + String.join(" ", specs).toUpperCase(Locale.ROOT) + " ";
                if (joined.contains(" PRIMARY KEY ") || joined.contains(" UNIQUE ") || joined.contains(" AUTO_INCREMENT ")
                        || joined.contains(" IDENTITY ")) {
                    throw SqlErrors.unsupported("ADD COLUMN with PRIMARY KEY, UNIQUE or IDENTITY");
                }
                Column col = new Column(cn, Types.of(cd.getColDataType()), joined.contains(" NOT NULL "), defaultOf(specs),
                        false);
                Object dflt = col.defaultSql() == null ? null : Dml.constant(col.defaultSql(), col);
                if (col.notNull() && dflt == null) {
                    Database data = engine.database(t, def.dataName(), false);
                    try (Cursor cur = data.openCursor(t)) {
                        if (cur.first()) {
                            throw SqlErrors.notNull(def.name() + "." + cn + " (the table has rows; give it a DEFAULT)");
                        }
                    }
                }
                def = def.withColumn(col);
            }
        }
        engine.putTable(t, def);
        return Result.update(0);
    }

    /** The text after DEFAULT in a column's specs (up to the next constraint keyword), or null. */
    private static String defaultOf(List<String> specs) throws SQLException {
        for (int i = 0; i < specs.size(); i++) {
            if (specs.get(i).equalsIgnoreCase("DEFAULT")) {
                StringBuilder b = new StringBuilder();
                for (int j = i + 1; j < specs.size(); j++) {
                    String s = specs.get(j).toUpperCase(Locale.ROOT);
                    if (b.length() > 0 && java.util.Set.of("NOT", "PRIMARY", "UNIQUE", "CHECK", "REFERENCES",
                            "AUTO_INCREMENT", "AUTOINCREMENT", "IDENTITY", "GENERATED").contains(s)) {
                        break;
                    }
                    b.append(specs.get(j)).append(' ');
                }
                String text = b.toString().trim();
                if (text.isEmpty()) {
                    throw SqlErrors.syntax("DEFAULT without a value");
                }
                try {
                    CCJSqlParserUtil.parseExpression(text);
                } catch (Exception e) {
                    throw SqlErrors.syntax("DEFAULT " + text + " is not an expression");
                }
                return text;
            }
        }
        return null;
    }

    static Result drop(Engine engine, Transaction t, Drop d) throws SQLException {
        if (d.getType().equalsIgnoreCase("INDEX")) {
            return dropIndex(engine, t, d);
        }
        if (!d.getType().equalsIgnoreCase("TABLE")) {
            throw SqlErrors.unsupported("DROP " + d.getType());
        }
        String name = Names.identifier(d.getName().getName());
        TableDef def = engine.table(t, name);
        if (def == null) {
            if (d.isIfExists()) {
                return Result.update(0);
            }
            throw SqlErrors.noTable(name);
        }
        for (IndexDef x : def.indexes()) {
            engine.forget(def.indexName(x));
            engine.environment().removeDatabase(t, def.indexName(x));
        }
        engine.forget(def.dataName());
        engine.environment().removeDatabase(t, def.dataName());
        engine.removeTable(t, name);
        engine.forgetSequence(def.tableId());
        return Result.update(0);
    }
}
