package org.libtp.sql.exec;

import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.create.table.ColumnDefinition;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.create.table.Index;
import net.sf.jsqlparser.statement.drop.Drop;
import org.libtp.db.Transaction;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.schema.Column;
import org.libtp.sql.schema.TableDef;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** CREATE TABLE and DROP TABLE, in the statement's transaction (so they commit and roll back). */
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
                throw SqlErrors.unsupported("UNIQUE (secondary indexes are not built yet)");
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
                pk.add(cn);
                pkDesc.add(false);
            }
            cols.add(new Column(cn, type, notNull || primary, dflt, identity));
        }
        if (c.getIndexes() != null) {
            for (Index i : c.getIndexes()) {
                String kind = i.getType() == null ? "" : i.getType().toUpperCase(Locale.ROOT);
                if (!kind.equals("PRIMARY KEY")) {
                    throw SqlErrors.unsupported(kind + " constraints (secondary indexes are not built yet)");
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
        engine.forget(def.dataName());
        engine.environment().removeDatabase(t, def.dataName());
        engine.removeTable(t, name);
        engine.forgetSequence(def.tableId());
        return Result.update(0);
    }
}
