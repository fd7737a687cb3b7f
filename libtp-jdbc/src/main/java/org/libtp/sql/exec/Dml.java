package org.libtp.sql.exec;

import org.libtp.db.Database;
import org.libtp.db.Transaction;
import org.libtp.sql.schema.Column;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.TableDef;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Select;

import net.sf.jsqlparser.statement.update.Update;
import net.sf.jsqlparser.statement.update.UpdateSet;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * INSERT, UPDATE and DELETE. Rows to change are collected first and changed after the scan
 * (an UPDATE that moves a row forward in key order must not meet it again). A primary key
 * collision is 23505, a NULL in a NOT NULL column 23502.
 */
final class Dml {
    private Dml() {
    }

    /** The value of DEFAULT expression {@code sql} for column {@code c}. */
    static Object constant(String sql, Column c) throws SQLException {
        String k = c.type() + "\u0000" + sql;
        Object v = DEFAULTS.get(k);
        if (v == null) {
            v = Values.convert(Tables.compileConstant(sql), c.type(), c.name());
            if (DEFAULTS.size() > 4096) {
                DEFAULTS.clear(); // only a bound: the values are recomputed when needed
            }
            DEFAULTS.put(k, v == null ? NULL_DEFAULT : v);
        } else if (v == NULL_DEFAULT) {
            v = null;
        }
        return v instanceof byte[] b ? b.clone() : v;
    }

    /** DEFAULT values by type and text: parsed once, not per inserted row (they are constants). */
    private static final java.util.Map<String, Object> DEFAULTS = new java.util.concurrent.ConcurrentHashMap<>();
    private static final Object NULL_DEFAULT = new Object();

    static TableDef table(Engine engine, Transaction t, net.sf.jsqlparser.schema.Table name) throws SQLException {
        String n = Names.identifier(name.getName());
        TableDef d = engine.table(t, n);
        if (d == null) {
            throw SqlErrors.noTable(n);
        }
        return d;
    }

    static Result insert(Engine engine, Transaction t, Insert ins, Object[] params) throws SQLException {
        return insert(engine, t, ins, params, new Prepared(ins));
    }

    /** The compiled part of an INSERT: target columns and, for VALUES, each row's compiled values (null: a SELECT). */
    record InsertPlan(TableDef d, String name, int[] target, List<Expr[]> values) implements Prepared.TablePlan {
    }

    static Result insert(Engine engine, Transaction t, Insert ins, Object[] params, Prepared cache) throws SQLException {
        InsertPlan plan = cache.plan(InsertPlan.class, engine, t, () -> planInsert(engine, t, ins));
        TableDef d = plan.d();
        int[] target = plan.target();
        int n = d.columns().size();
        List<Object[]> sources = new ArrayList<>();
        if (plan.values() != null) {
            Object[] none = new Object[0];
            for (Expr[] r : plan.values()) {
                Object[] vals = new Object[r.length];
                for (int i = 0; i < vals.length; i++) {
                    vals[i] = r[i].eval(none, params);
                }
                sources.add(vals);
            }
        } else {
            Result q = Query.run(engine, t, ins.getSelect(), params, false);
            if (q.labels().size() != target.length) {
                throw SqlErrors.syntax("INSERT into " + d.name() + " selects " + q.labels().size() + " columns for "
                        + target.length);
            }
            sources.addAll(q.rows());
        }
        Database db = engine.database(t, d.dataName(), false);
        List<Object[]> generated = new ArrayList<>();
        List<byte[]> keys = new ArrayList<>();
        List<Object[]> rows = new ArrayList<>();
        int identity = d.identityColumn();
        for (Object[] src : sources) {
            Object[] row = new Object[n];
            boolean[] given = new boolean[n];
            for (int i = 0; i < target.length; i++) {
                Column c = d.columns().get(target[i]);
                row[target[i]] = Values.convert(src[i], c.type(), c.name());
                given[target[i]] = true;
            }
            for (int i = 0; i < n; i++) {
                Column c = d.columns().get(i);
                if (!given[i] && c.defaultSql() != null) {
                    row[i] = constant(c.defaultSql(), c);
                }
            }
            if (identity >= 0) {
                Column c = d.columns().get(identity);
                if (row[identity] == null) {
                    row[identity] = Values.convert(engine.nextValue(d.tableId(), 1), c.type(), c.name());
                    generated.add(new Object[] {row[identity]});
                } else {
                    engine.nextValue(d.tableId(), ((Number) row[identity]).longValue() + 1); // later ones go past it
                }
            }
            long rowId = 0;
            if (d.hasRowId()) {
                rowId = engine.nextValue(d.tableId(), 1);
                if (identity < 0) {
                    generated.add(new Object[] {rowId});
                }
            }
            checkNotNull(d, row);
            keys.add(Tables.key(d, row, rowId));
            rows.add(row);
        }
        for (int i = 0; i < keys.size(); i++) {
            checkKeyLength(d, db, keys.get(i), rows.get(i));
        }
        if (ins.getConflictAction() != null) {
            return upsert(engine, t, ins, d, db, rows, keys, generated, params);
        }
        if (keys.size() == 1 && !d.hasRowId() && d.indexes().isEmpty()) {
            // One row, nothing else to check: the existence test and the write are one descent.
            if (!db.putIfAbsent(t, keys.get(0), Tables.encode(d, rows.get(0)))) {
                throw SqlErrors.duplicate("duplicate primary key " + keyText(d, rows.get(0)) + " in table " + d.name());
            }
            return new Result(null, null, List.of(), 1, generated);
        }
        // Every check before the first write: a failed statement leaves its transaction as it was.
        java.util.Set<java.nio.ByteBuffer> seen = new java.util.HashSet<>();
        for (int i = 0; i < keys.size(); i++) {
            if (!seen.add(java.nio.ByteBuffer.wrap(keys.get(i))) || !d.hasRowId() && db.getForUpdate(t, keys.get(i)) != null) {
                throw SqlErrors.duplicate("duplicate primary key " + keyText(d, rows.get(i)) + " in table " + d.name());
            }
        }
        uniqueWithin(d, rows, keys);
        for (int i = 0; i < keys.size(); i++) {
            Indexes.checkAll(t, engine, d, rows.get(i), keys.get(i));
        }
        for (int i = 0; i < keys.size(); i++) {
            db.put(t, keys.get(i), Tables.encode(d, rows.get(i)));
            Indexes.add(t, engine, d, rows.get(i), keys.get(i));
        }
        return new Result(null, null, List.of(), sources.size(), generated);
    }

    private static InsertPlan planInsert(Engine engine, Transaction t, Insert ins) throws SQLException {
        if (ins.getDuplicateUpdateSets() != null || ins.getSetUpdateSets() != null || ins.getReturningClause() != null) {
            throw SqlErrors.unsupported("INSERT ... ON DUPLICATE KEY / SET / RETURNING (the upsert form is ON CONFLICT)");
        }
        TableDef d = table(engine, t, ins.getTable());
        int n = d.columns().size();
        int[] target;
        if (ins.getColumns() == null || ins.getColumns().isEmpty()) {
            target = new int[n];
            for (int i = 0; i < n; i++) {
                target[i] = i;
            }
        } else {
            target = new int[ins.getColumns().size()];
            for (int i = 0; i < target.length; i++) {
                String cn = Names.identifier(ins.getColumns().get(i).getColumnName());
                target[i] = d.column(cn);
                if (target[i] < 0) {
                    throw SqlErrors.noColumn(d.name() + "." + cn);
                }
                for (int j = 0; j < i; j++) {
                    if (target[j] == target[i]) {
                        throw SqlErrors.syntax("column " + cn + " is listed twice");
                    }
                }
            }
        }
        List<Expr[]> compiled = new ArrayList<>();
        Select sel = ins.getSelect();
        if (sel instanceof net.sf.jsqlparser.statement.select.Values v) {
            Compiler k = new Compiler(new Scope(), null);
            ExpressionList<?> rows = v.getExpressions();
            boolean multi = !rows.isEmpty() && rows.stream().allMatch(e -> e instanceof ExpressionList<?>);
            List<List<Expression>> list = new ArrayList<>();
            if (multi) {
                for (Expression e : rows) {
                    list.add(new ArrayList<>((ExpressionList<?>) e));
                }
            } else {
                list.add(new ArrayList<>(rows));
            }
            for (List<Expression> r : list) {
                if (r.size() != target.length) {
                    throw SqlErrors.syntax("INSERT into " + d.name() + " gives " + r.size() + " values for "
                            + target.length + " columns");
                }
                Expr[] vals = new Expr[r.size()];
                for (int i = 0; i < vals.length; i++) {
                    vals[i] = k.compile(r.get(i));
                }
                compiled.add(vals);
            }
        } else if (sel != null) {
            compiled = null;
        } else {
            throw SqlErrors.unsupported("this form of INSERT");
        }
        return new InsertPlan(d, d.name(), target, compiled == null ? null : List.copyOf(compiled));
    }

    /**
     * {@code INSERT ... ON CONFLICT [(primary key columns)] DO NOTHING | DO UPDATE SET col = expr,
     * ... [WHERE cond]}: a row whose primary key exists is skipped, or that row is updated, where
     * the expressions read the existing row's columns and the proposed one's as {@code EXCLUDED.col}
     * (PostgreSQL's and SQLite's form). The conflict is on the primary key only. Rows are handled
     * one after another, so a failure after the first write ends the transaction (rolled back).
     */
    private static Result upsert(Engine engine, Transaction t, Insert ins, TableDef d, Database db, List<Object[]> rows,
                                 List<byte[]> keys, List<Object[]> generated, Object[] params) throws SQLException {
        if (d.hasRowId()) {
            throw SqlErrors.syntax("ON CONFLICT needs a table with a primary key (" + d.name() + " has none)");
        }
        net.sf.jsqlparser.statement.insert.InsertConflictTarget target = ins.getConflictTarget();
        if (target != null) {
            if (target.getIndexExpression() != null || target.getConstraintName() != null
                    || target.getWhereExpression() != null) {
                throw SqlErrors.unsupported("ON CONFLICT on an expression, a constraint or with WHERE");
            }
            java.util.Set<String> named = new java.util.HashSet<>();
            for (String n : target.getIndexColumnNames()) {
                named.add(Names.identifier(n));
            }
            java.util.Set<String> pk = new java.util.HashSet<>();
            for (int p : d.primaryKey()) {
                pk.add(d.columns().get(p).name());
            }
            if (!named.equals(pk)) {
                throw SqlErrors.unsupported("ON CONFLICT " + named + ": the conflict target must be the primary key " + pk);
            }
        }
        net.sf.jsqlparser.statement.insert.InsertConflictAction action = ins.getConflictAction();
        boolean update = action.getConflictActionType() == net.sf.jsqlparser.statement.insert.ConflictActionType.DO_UPDATE;
        Scope scope = new Scope();
        scope.add(d.name(), d);
        scope.add("EXCLUDED", d);
        Compiler k = new Compiler(scope, null);
        List<Integer> cols = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        if (update) {
            for (UpdateSet us : action.getUpdateSets()) {
                for (int i = 0; i < us.getColumns().size(); i++) {
                    String cn = Names.identifier(us.getColumns().get(i).getColumnName());
                    int c = d.column(cn);
                    if (c < 0) {
                        throw SqlErrors.noColumn(d.name() + "." + cn);
                    }
                    for (int p : d.primaryKey()) {
                        if (p == c) {
                            throw SqlErrors.unsupported("ON CONFLICT DO UPDATE of a primary key column");
                        }
                    }
                    cols.add(c);
                    values.add(k.compile(us.getValues().get(i)));
                }
            }
        }
        Expr where = update && action.getWhereExpression() != null ? k.compile(action.getWhereExpression()) : null;
        long changed = 0;
        boolean wrote = false;
        int n = d.columns().size();
        try {
            for (int r = 0; r < rows.size(); r++) {
                Object[] row = rows.get(r);
                byte[] key = keys.get(r);
                byte[] existing = db.getForUpdate(t, key);
                if (existing == null) {
                    Indexes.checkAll(t, engine, d, row, key);
                    wrote = true;
                    db.put(t, key, Tables.encode(d, row));
                    Indexes.add(t, engine, d, row, key);
                    changed++;
                    continue;
                }
                if (!update) {
                    continue;
                }
                Object[] old = Tables.decode(d, existing);
                Object[] both = new Object[2 * n];
                System.arraycopy(old, 0, both, 0, n);
                System.arraycopy(row, 0, both, n, n);
                if (where != null && !Boolean.TRUE.equals(Compiler.truth(where.eval(both, params)))) {
                    continue;
                }
                Object[] next = old.clone();
                for (int i = 0; i < cols.size(); i++) {
                    Column c = d.columns().get(cols.get(i));
                    next[cols.get(i)] = Values.convert(values.get(i).eval(both, params), c.type(), c.name());
                }
                checkNotNull(d, next);
                Indexes.checkAll(t, engine, d, next, key);
                wrote = true;
                Indexes.remove(t, engine, d, old, key);
                db.put(t, key, Tables.encode(d, next));
                Indexes.add(t, engine, d, next, key);
                changed++;
            }
        } catch (SQLException e) {
            if (!wrote) {
                throw e;
            }
            throw new java.sql.SQLTransactionRollbackException(e.getMessage() + " (after the statement had changed rows: "
                    + "the transaction was rolled back)", "40003", e);
        }
        return new Result(null, null, List.of(), changed, generated);
    }

    /** 23505 if two of the statement's new rows have the same values in a unique index (NULLs never collide). */
    static void uniqueWithin(TableDef d, List<Object[]> rows, List<byte[]> keys) throws SQLException {
        for (IndexDef x : d.indexes()) {
            if (!x.unique()) {
                continue;
            }
            java.util.Set<List<Object>> seen = new java.util.TreeSet<>((a, b) -> Query.compareRows(a.toArray(), b.toArray()));
            for (Object[] row : rows) {
                List<Object> v = new ArrayList<>();
                boolean hasNull = false;
                for (int c : x.columns()) {
                    v.add(row[c]);
                    hasNull |= row[c] == null;
                }
                if (!hasNull && !seen.add(v)) {
                    throw SqlErrors.duplicate("duplicate value " + v + " in unique index " + x.name() + " of table "
                            + d.name());
                }
            }
        }
    }

    /** 22001 if a primary key is longer than the B-tree takes (a quarter page, about). */
    static void checkKeyLength(TableDef d, Database db, byte[] key, Object[] row) throws SQLException {
        if (key.length > db.maxKeyLength()) {
            throw new java.sql.SQLDataException("primary key " + keyText(d, row).substring(0, Math.min(80,
                    keyText(d, row).length())) + " of table " + d.name() + " takes " + key.length + " bytes encoded; keys "
                    + "may take at most " + db.maxKeyLength() + " (a larger pageSize allows longer ones)", "22001");
        }
    }

    static void checkNotNull(TableDef d, Object[] row) throws SQLException {
        for (int i = 0; i < row.length; i++) {
            if (row[i] == null && d.columns().get(i).notNull()) {
                throw SqlErrors.notNull(d.name() + "." + d.columns().get(i).name());
            }
        }
    }

    static String keyText(TableDef d, Object[] row) {
        StringBuilder b = new StringBuilder("(");
        for (int p : d.primaryKey()) {
            if (b.length() > 1) {
                b.append(", ");
            }
            b.append(Values.describe(row[p]));
        }
        return b.append(')').toString();
    }

    static Result update(Engine engine, Transaction t, Update u, Object[] params) throws SQLException {
        return update(engine, t, u, params, new Prepared(u));
    }

    /** The compiled part of an UPDATE. */
    record UpdatePlan(TableDef d, String name, List<Integer> cols, List<Expr> values, Expr where, Access a) implements Prepared.TablePlan {

        /**
         * One row by its whole primary key, which the SET list leaves alone, in a table without
         * secondary indexes: read, changed and written back in one B-tree descent.
         */
        boolean inPlace() {
            if (a.kind != Access.Kind.POINT || !d.indexes().isEmpty()) {
                return false;
            }
            for (int i = 0; i < d.primaryKeyLength(); i++) {
                if (cols.contains(d.primaryKeyColumn(i))) {
                    return false;
                }
            }
            return true;
        }
    }

    /** Carries a statement's SQLException out of a record change (which takes no checked exception). */
    private static final class Failed extends RuntimeException {
        private static final long serialVersionUID = 1L;

        Failed(SQLException e) {
            super(e.getMessage(), e, false, false);
        }
    }

    /** The row matched its key but not the rest of WHERE: nothing is written. */
    private static final class NotMatched extends RuntimeException {
        private static final long serialVersionUID = 1L;

        NotMatched() {
            super(null, null, false, false);
        }
    }

    private static Result updateInPlace(Engine engine, Transaction t, UpdatePlan plan, Object[] params)
            throws SQLException {
        TableDef d = plan.d();
        byte[] key = plan.a().pointKey(new Object[0], params);
        Database db = engine.database(t, d.dataName(), false);
        if (key == null || key.length > db.maxKeyLength()) {
            return Result.update(0); // no stored key is that long
        }
        List<Integer> cols = plan.cols();
        List<Expr> values = plan.values();
        Expr where = plan.where();
        try {
            // The change runs while the page is latched: decoding, expressions and encoding only,
            // no call into the database. An exception thrown from it changes nothing.
            byte[] written = db.update(t, key, data -> {
                try {
                    Object[] old = Tables.decode(d, data);
                    if (where != null && !Boolean.TRUE.equals(Compiler.truth(where.eval(old, params)))) {
                        throw new NotMatched();
                    }
                    Object[] row = old.clone();
                    for (int i = 0; i < cols.size(); i++) {
                        Column c = d.columns().get(cols.get(i));
                        row[cols.get(i)] = Values.convert(values.get(i).eval(old, params), c.type(), c.name());
                    }
                    checkNotNull(d, row);
                    return Tables.encode(d, row);
                } catch (SQLException e) {
                    throw new Failed(e);
                }
            });
            return Result.update(written == null ? 0 : 1);
        } catch (NotMatched e) {
            return Result.update(0);
        } catch (Failed e) {
            throw (SQLException) e.getCause();
        }
    }

    static Result update(Engine engine, Transaction t, Update u, Object[] params, Prepared cache) throws SQLException {
        UpdatePlan plan = cache.plan(UpdatePlan.class, engine, t, () -> planUpdate(engine, t, u));
        if (plan.inPlace()) {
            return updateInPlace(engine, t, plan, params);
        }
        TableDef d = plan.d();
        List<Integer> cols = plan.cols();
        List<Expr> values = plan.values();
        Expr where = plan.where();
        Access a = plan.a();
        Database db = engine.database(t, d.dataName(), false);
        List<byte[]> keys = new ArrayList<>();
        List<Object[]> rows = new ArrayList<>();
        Tables.scan(engine, t, db, d, a, params, false, true, (key, row) -> {
            if (where == null || Boolean.TRUE.equals(Compiler.truth(where.eval(row, params)))) {
                keys.add(key);
                rows.add(row);
            }
            return true;
        });
        List<byte[]> newKeys = new ArrayList<>();
        List<Object[]> newRows = new ArrayList<>();
        for (int r = 0; r < rows.size(); r++) {
            Object[] old = rows.get(r);
            Object[] row = old.clone();
            for (int i = 0; i < cols.size(); i++) {
                Column c = d.columns().get(cols.get(i));
                row[cols.get(i)] = Values.convert(values.get(i).eval(old, params), c.type(), c.name());
            }
            checkNotNull(d, row);
            newRows.add(row);
            newKeys.add(d.hasRowId() ? keys.get(r) : Tables.key(d, row, 0));
        }
        // Checks first: no new key twice, none taken by a row this statement does not move away.
        java.util.Set<java.nio.ByteBuffer> moving = new java.util.HashSet<>();
        java.util.Set<java.nio.ByteBuffer> taken = new java.util.HashSet<>();
        for (int r = 0; r < rows.size(); r++) {
            if (!Arrays.equals(keys.get(r), newKeys.get(r))) {
                moving.add(java.nio.ByteBuffer.wrap(keys.get(r)));
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            java.nio.ByteBuffer nk = java.nio.ByteBuffer.wrap(newKeys.get(r));
            boolean moved = !Arrays.equals(keys.get(r), newKeys.get(r));
            if (!taken.add(nk) || moved && !moving.contains(nk) && db.getForUpdate(t, newKeys.get(r)) != null) {
                throw SqlErrors.duplicate("duplicate primary key " + keyText(d, newRows.get(r)) + " in table " + d.name());
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            checkKeyLength(d, db, newKeys.get(r), newRows.get(r));
        }
        if (!d.indexes().isEmpty()) {
            uniqueWithin(d, newRows, newKeys);
            java.util.Set<java.nio.ByteBuffer> leaving = new java.util.HashSet<>();
            for (int r = 0; r < rows.size(); r++) {
                for (IndexDef x : d.indexes()) {
                    leaving.add(java.nio.ByteBuffer.wrap(Indexes.entry(d, x, rows.get(r), keys.get(r))));
                }
            }
            for (int r = 0; r < rows.size(); r++) {
                Indexes.checkAll(t, engine, d, newRows.get(r), newKeys.get(r), leaving);
            }
        }
        // Rows whose key changes are removed first, then every row written: a swap of two keys works.
        for (int r = 0; r < rows.size(); r++) {
            Indexes.remove(t, engine, d, rows.get(r), keys.get(r));
            if (!Arrays.equals(keys.get(r), newKeys.get(r))) {
                db.delete(t, keys.get(r));
            }
        }
        for (int r = 0; r < rows.size(); r++) {
            db.put(t, newKeys.get(r), Tables.encode(d, newRows.get(r)));
            Indexes.add(t, engine, d, newRows.get(r), newKeys.get(r));
        }
        return Result.update(rows.size());
    }

    static Result delete(Engine engine, Transaction t, Delete del, Object[] params) throws SQLException {
        return delete(engine, t, del, params, new Prepared(del));
    }

    /** The compiled part of a DELETE. */
    record DeletePlan(TableDef d, String name, Expr where, Access a) implements Prepared.TablePlan {
    }

    static Result delete(Engine engine, Transaction t, Delete del, Object[] params, Prepared cache) throws SQLException {
        DeletePlan plan = cache.plan(DeletePlan.class, engine, t, () -> planDelete(engine, t, del));
        TableDef d = plan.d();
        Expr where = plan.where();
        Access a = plan.a();
        Database db = engine.database(t, d.dataName(), false);
        List<byte[]> keys = new ArrayList<>();
        List<Object[]> rows = new ArrayList<>();
        Tables.scan(engine, t, db, d, a, params, false, true, (key, row) -> {
            if (where == null || Boolean.TRUE.equals(Compiler.truth(where.eval(row, params)))) {
                keys.add(key);
                rows.add(row);
            }
            return true;
        });
        for (int r = 0; r < keys.size(); r++) {
            Indexes.remove(t, engine, d, rows.get(r), keys.get(r));
            db.delete(t, keys.get(r));
        }
        return Result.update(keys.size());
    }

    private static UpdatePlan planUpdate(Engine engine, Transaction t, Update u) throws SQLException {
        if (u.getJoins() != null && !u.getJoins().isEmpty() || u.getFromItem() != null) {
            throw SqlErrors.unsupported("UPDATE with FROM or JOIN");
        }
        TableDef d = table(engine, t, u.getTable());
        String alias = u.getTable().getAlias() == null ? d.name() : Names.identifier(u.getTable().getAlias().getName());
        Scope scope = new Scope();
        scope.add(alias, d);
        Compiler k = new Compiler(scope, null);
        List<Integer> cols = new ArrayList<>();
        List<Expr> values = new ArrayList<>();
        for (UpdateSet s : u.getUpdateSets()) {
            if (s.getColumns().size() != s.getValues().size()) {
                throw SqlErrors.syntax("UPDATE SET lists " + s.getColumns().size() + " columns and " + s.getValues().size()
                        + " values");
            }
            for (int i = 0; i < s.getColumns().size(); i++) {
                cols.add(scope.resolve(s.getColumns().get(i)));
                values.add(k.compile(s.getValues().get(i)));
            }
        }
        Expr where = u.getWhere() == null ? null : k.compile(u.getWhere());
        Access a = Access.plan(d, alias, u.getWhere(), k);
        return new UpdatePlan(d, d.name(), List.copyOf(cols), List.copyOf(values), where, a);
    }

    private static DeletePlan planDelete(Engine engine, Transaction t, Delete del) throws SQLException {
        if (del.getJoins() != null && !del.getJoins().isEmpty() || del.getUsingList() != null && !del.getUsingList().isEmpty()
                || del.getTables() != null && del.getTables().size() > 1 || del.getLimit() != null) {
            throw SqlErrors.unsupported("DELETE with JOIN, USING, several tables or LIMIT");
        }
        TableDef d = table(engine, t, del.getTable());
        String alias = del.getTable().getAlias() == null ? d.name() : Names.identifier(del.getTable().getAlias().getName());
        Scope scope = new Scope();
        scope.add(alias, d);
        Compiler k = new Compiler(scope, null);
        Expr where = del.getWhere() == null ? null : k.compile(del.getWhere());
        Access a = Access.plan(d, alias, del.getWhere(), k);
        return new DeletePlan(d, d.name(), where, a);
    }
}
