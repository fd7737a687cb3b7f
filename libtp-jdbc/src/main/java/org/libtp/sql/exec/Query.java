package org.libtp.sql.exec;

import org.libtp.db.Database;
import org.libtp.db.Transaction;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.schema.TableDef;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.schema.Column;
import net.sf.jsqlparser.statement.select.AllColumns;
import net.sf.jsqlparser.statement.select.AllTableColumns;
import net.sf.jsqlparser.statement.select.FromItem;
import net.sf.jsqlparser.statement.select.Join;
import net.sf.jsqlparser.statement.select.OrderByElement;
import net.sf.jsqlparser.statement.select.PlainSelect;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.select.SelectItem;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * SELECT: one table read along its {@link Access} (or none: {@code SELECT 1}), further tables
 * joined by nested loops over their rows (INNER and LEFT), WHERE, grouping and aggregates,
 * DISTINCT, ORDER BY (skipped when the scan already delivers the order of the primary key),
 * OFFSET and LIMIT / FETCH FIRST. Results are materialized.
 */
final class Query {
    private Query() {
    }

    record Source(String alias, TableDef table) {
    }

    static Result run(Engine engine, Transaction t, Select s, Object[] params, boolean explain) throws SQLException {
        Plan plan = plan(engine, t, s);
        return explain ? plan.explain() : plan.run(engine, t, params);
    }

    /**
     * Runs {@code s} along the plan cached in {@code cache} if every table it reads still has the
     * definition it was compiled against (read in {@code t}, so this holds for the whole
     * statement), else compiles it anew and caches that.
     */
    static Result run(Engine engine, Transaction t, Select s, Object[] params, boolean explain, Prepared cache)
            throws SQLException {
        Plan plan = cache.plan() instanceof Plan p && p.holds(engine, t) ? p : null;
        if (plan == null) {
            plan = plan(engine, t, s);
            cache.plan(plan);
        }
        return explain ? plan.explain() : plan.run(engine, t, params);
    }

    /**
     * A compiled SELECT: sources resolved, expressions compiled, the access path chosen. It holds
     * no state of an execution, so one plan serves every execution of a prepared statement while
     * the definitions of its tables are unchanged.
     */
    static final class Plan {
        private final PlainSelect p;
        private final List<Source> sources;
        private final List<String> names;
        private final Scope scope;
        private final List<Join> joins;
        private final Aggregates aggs;
        private final boolean grouped;
        private final Compiler plain;
        private final Expr where;
        private final List<Expr> joinOn;
        private final List<Access> joinAccess;
        private final List<String> labels;
        private final List<ColumnType> types;
        private final boolean typesKnown;
        private final List<Expr> out;
        private final List<OrderByElement> order;
        private final List<Expr> sortExprs;
        private final List<Integer> sortOut;
        private final Expr havingExpr;
        private final List<Expr> groupBy;
        private final Access access;
        private final boolean reverse;
        private final boolean sorted;
        /** Scope position of the column a lone MIN or MAX reads when the scan stops at its first non-null value, else -1. */
        private final int seekColumn;

        private Plan(PlainSelect p, List<Source> sources, List<String> names, Scope scope, List<Join> joins,
                     Aggregates aggs, boolean grouped, Compiler plain, Expr where, List<Expr> joinOn,
                     List<Access> joinAccess, List<String> labels, List<ColumnType> types, List<Expr> out,
                     List<OrderByElement> order, List<Expr> sortExprs, List<Integer> sortOut, Expr havingExpr,
                     List<Expr> groupBy, Access access, boolean reverse, boolean sorted, int seekColumn) {
            this.p = p;
            this.sources = sources;
            this.names = names;
            this.scope = scope;
            this.joins = joins;
            this.aggs = aggs;
            this.grouped = grouped;
            this.plain = plain;
            this.where = where;
            this.joinOn = joinOn;
            this.joinAccess = joinAccess;
            this.labels = List.copyOf(labels);
            this.types = java.util.Collections.unmodifiableList(new ArrayList<>(types));
            this.typesKnown = !types.contains(null);
            this.out = out;
            this.order = order;
            this.sortExprs = sortExprs;
            this.sortOut = sortOut;
            this.havingExpr = havingExpr;
            this.groupBy = groupBy;
            this.access = access;
            this.reverse = reverse;
            this.sorted = sorted;
            this.seekColumn = seekColumn;
        }

        /** Whether every table read still has the definition this plan was compiled against (read in {@code t}). */
        boolean holds(Engine engine, Transaction t) {
            for (int i = 0; i < sources.size(); i++) {
                if (engine.table(t, names.get(i)) != sources.get(i).table()) {
                    return false;
                }
            }
            return true;
        }

        Result explain() {
            StringBuilder jp = new StringBuilder();
            for (int i = 1; i < sources.size(); i++) {
                Source src = sources.get(i);
                Join j = joins.get(i - 1);
                Access ja = joinAccess.get(i - 1);
                jp.append("; ").append(j.isLeft() ? "left join " : "join ").append(ja == null || ja.kind == Access.Kind.FULL
                        ? "by reading " + src.table().name() + " whole" : "by " + ja.describe() + " per row");
            }
            String plan = access == null ? "no table" : access.describe() + (reverse ? ", backwards" : "")
                    + (seekColumn >= 0 ? ", first value only" : "")
                    + (sorted || order.isEmpty() ? "" : ", then sort") + jp;
            List<Object[]> rows = new ArrayList<>();
            rows.add(new Object[] {plan});
            return new Result(List.of("PLAN"), java.util.Arrays.asList((ColumnType) null), rows, -1, List.of());
        }

        Result run(Engine engine, Transaction t, Object[] params) throws SQLException {
            // Read, join, filter.
            List<Object[]> joined = new ArrayList<>();
            int width = scope.width();
            boolean forUpdate = p.getForMode() != null;
            if (sources.isEmpty()) {
                Object[] row = new Object[0];
                if (where == null || Boolean.TRUE.equals(Compiler.truth(where.eval(row, params)))) {
                    joined.add(row);
                }
            } else {
                // Each inner table: looked up per outer row when its ON condition constrains its key or
                // an index with values of the tables before it (index nested loop), else read whole once.
                List<Inner> inner = new ArrayList<>();
                for (int i = 1; i < sources.size(); i++) {
                    Source src = sources.get(i);
                    Join j = joins.get(i - 1);
                    Access ja = joinAccess.get(i - 1);
                    Database idb = engine.database(t, src.table().dataName(), false);
                    inner.add(ja != null && ja.kind != Access.Kind.FULL ? new Inner(src.table(), idb, ja, null)
                            : new Inner(src.table(), idb, null, all(engine, t, src.table(), params, forUpdate)));
                }
                TableDef first = sources.get(0).table();
                Database db = engine.database(t, first.dataName(), false);
                // The scan stops as soon as the rest cannot change the result: a LIMIT of rows already
                // in their final order, or the first value of a lone MIN/MAX along its key column.
                // It then holds read locks only on what it read, as a shorter range would.
                long enough = !grouped && sorted && p.getDistinct() == null ? end(window(p, params)) : Long.MAX_VALUE;
                int seek = seekColumn;
                Tables.scan(engine, t, db, first, access, params, reverse, forUpdate, (key, row) -> {
                    Object[] r = new Object[width];
                    System.arraycopy(row, 0, r, 0, row.length);
                    int before = joined.size();
                    join(engine, t, forUpdate, r, 1, scope, joins, joinOn, inner, params, where, joined);
                    if (seek >= 0) {
                        return joined.size() == before || joined.get(joined.size() - 1)[seek] == null;
                    }
                    return joined.size() < enough;
                });
            }

            // Group, project.
            List<Object[]> rows;
            List<Object[]> sortBase;
            if (grouped) {
                sortBase = aggs.group(joined, groupBy, params, plain);
                Expr having = havingExpr;
                if (having != null) {
                    List<Object[]> kept = new ArrayList<>();
                    for (Object[] g : sortBase) {
                        if (Boolean.TRUE.equals(Compiler.truth(having.eval(g, params)))) {
                            kept.add(g);
                        }
                    }
                    sortBase = kept;
                }
            } else {
                sortBase = joined;
            }
            rows = new ArrayList<>(sortBase.size());
            for (Object[] src : sortBase) {
                Object[] o = new Object[out.size()];
                for (int i = 0; i < o.length; i++) {
                    o[i] = out.get(i).eval(src, params);
                }
                rows.add(o);
            }
            if (p.getDistinct() != null) {
                java.util.TreeSet<Object[]> seen = new java.util.TreeSet<>(Query::compareRows);
                List<Object[]> d = new ArrayList<>();
                List<Object[]> db = new ArrayList<>();
                for (int i = 0; i < rows.size(); i++) {
                    if (seen.add(rows.get(i))) {
                        d.add(rows.get(i));
                        db.add(sortBase.get(i));
                    }
                }
                rows = d;
                sortBase = db;
            }
            if (!sorted) {
                List<Object[][]> pairs = new ArrayList<>(rows.size());
                for (int i = 0; i < rows.size(); i++) {
                    Object[] keys = new Object[order.size()];
                    for (int k = 0; k < keys.length; k++) {
                        keys[k] = sortOut.get(k) >= 0 ? rows.get(i)[sortOut.get(k)] : sortExprs.get(k).eval(sortBase.get(i), params);
                    }
                    pairs.add(new Object[][] {rows.get(i), keys});
                }
                Comparator<Object[][]> cmp = (x, y) -> {
                    for (int k = 0; k < order.size(); k++) {
                        OrderByElement o = order.get(k);
                        Object a = x[1][k];
                        Object b = y[1][k];
                        boolean nullsFirst = o.getNullOrdering() == null ? o.isAsc()
                                : o.getNullOrdering() == OrderByElement.NullOrdering.NULLS_FIRST;
                        int c;
                        if (a == null || b == null) {
                            c = a == b ? 0 : (a == null) == nullsFirst ? -1 : 1;
                        } else {
                            c = sqlCompare(a, b);
                            if (!o.isAsc()) {
                                c = -c;
                            }
                        }
                        if (c != 0) {
                            return c;
                        }
                    }
                    return 0;
                };
                pairs.sort(cmp);
                rows = new ArrayList<>(pairs.size());
                for (Object[][] pr : pairs) {
                    rows.add(pr[0]);
                }
            }
            rows = limit(p, rows, params);
            List<ColumnType> ts = types;
            if (!typesKnown) {
                ts = new ArrayList<>(types);
                for (int i = 0; i < ts.size(); i++) {
                    if (ts.get(i) == null) {
                        ts.set(i, inferred(rows, i));
                    }
                }
            }
            return new Result(labels, ts, rows, -1, List.of());
        }
        }

    /** Compiles {@code s}, reading the definitions of its tables in {@code t}. */
    static Plan plan(Engine engine, Transaction t, Select s) throws SQLException {
        if (!(s instanceof PlainSelect p)) {
            throw SqlErrors.unsupported("UNION, INTERSECT, EXCEPT, VALUES and WITH queries");
        }
        if (p.getWithItemsList() != null && !p.getWithItemsList().isEmpty()) {
            throw SqlErrors.unsupported("WITH");
        }
        Scope scope = new Scope();
        List<Source> sources = new ArrayList<>();
        List<String> names = new ArrayList<>();
        if (p.getFromItem() != null) {
            sources.add(source(engine, t, p.getFromItem()));
            names.add(sources.get(0).table().name());
            scope.add(sources.get(0).alias(), sources.get(0).table());
        }
        List<Join> joins = p.getJoins() == null ? List.of() : p.getJoins();
        for (Join j : joins) {
            if (j.isRight() || j.isFull() || j.isNatural() || j.isApply() || j.isSemi()
                    || j.getUsingColumns() != null && !j.getUsingColumns().isEmpty()) {
                throw SqlErrors.unsupported("RIGHT, FULL, NATURAL joins and USING (INNER and LEFT ... ON are)");
            }
            Source src = source(engine, t, j.getRightItem());
            sources.add(src);
            names.add(src.table().name());
            scope.add(src.alias(), src.table());
        }
        Aggregates aggs = new Aggregates(scope.width());
        boolean grouped = p.getGroupBy() != null || hasAggregate(p);
        Compiler plain = new Compiler(scope, null);
        Compiler post = grouped ? new Compiler(scope, aggs) : plain;

        Expr where = p.getWhere() == null ? null : plain.compile(p.getWhere());
        List<Expr> joinOn = new ArrayList<>();
        for (Join j : joins) {
            Expression on = j.getOnExpressions() == null || j.getOnExpressions().isEmpty() ? null
                    : j.getOnExpressions().iterator().next();
            if (on == null && !j.isSimple() && !j.isCross() && (j.isInner() || j.isLeft() || j.isOuter())) {
                throw SqlErrors.syntax("JOIN needs ON");
            }
            joinOn.add(on == null ? null : plain.compile(on));
        }

        // Output columns.
        List<String> labels = new ArrayList<>();
        List<ColumnType> types = new ArrayList<>();
        List<Expr> out = new ArrayList<>();
        List<Integer> outColumn = new ArrayList<>(); // scope position of an output that is a plain column, else -1
        for (SelectItem<?> item : p.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllTableColumns all) {
                String q = Names.identifier(all.getTable().getName());
                boolean found = false;
                for (Scope.Entry en : scope.entries()) {
                    if (q.equals(en.alias()) || q.equals(en.table().name())) {
                        addAll(en, labels, types, out, outColumn);
                        found = true;
                    }
                }
                if (!found) {
                    throw SqlErrors.noTable(q);
                }
            } else if (e instanceof AllColumns) {
                if (scope.entries().isEmpty()) {
                    throw SqlErrors.syntax("SELECT * needs FROM");
                }
                for (Scope.Entry en : scope.entries()) {
                    addAll(en, labels, types, out, outColumn);
                }
            } else {
                out.add(post.compile(e));
                outColumn.add(e instanceof Column col ? scope.resolve(col) : -1);
                labels.add(item.getAlias() != null ? Names.identifier(item.getAlias().getName())
                        : e instanceof Column c ? Names.identifier(c.getColumnName()) : e.toString());
                types.add(e instanceof Column c ? typeOf(scope, c) : null);
            }
        }

        // ORDER BY keys: a position, an output alias, or an expression over the sources.
        List<Expr> sortExprs = new ArrayList<>();
        List<Integer> sortOut = new ArrayList<>();
        List<OrderByElement> order = p.getOrderByElements() == null ? List.of() : p.getOrderByElements();
        for (OrderByElement o : order) {
            Expression e = o.getExpression();
            int at = -1;
            if (e instanceof LongValue v) {
                at = (int) v.getValue() - 1;
                if (at < 0 || at >= out.size()) {
                    throw SqlErrors.syntax("ORDER BY " + v.getValue() + " is not a column of the result");
                }
            } else if (e instanceof Column c && c.getTable() == null) {
                at = labels.indexOf(Names.identifier(c.getColumnName())); // an output column or alias
            }
            sortOut.add(at);
            sortExprs.add(at >= 0 ? null : post.compile(e));
        }

        // HAVING is compiled before the grouping runs: its aggregates must be among those computed.
        Expr havingExpr = grouped && p.getHaving() != null ? post.compile(p.getHaving()) : null;
        if (grouped) {
            checkGrouped(p, scope, order, sortOut);
        }
        if (p.getDistinct() != null) {
            for (int k = 0; k < order.size(); k++) {
                if (sortOut.get(k) < 0 && !selectedText(p, order.get(k).getExpression())) {
                    throw SqlErrors.syntax("ORDER BY " + order.get(k).getExpression() + " must be in the select list of a "
                            + "SELECT DISTINCT");
                }
            }
        }
        Access access = null;
        boolean reverse = false;
        boolean sorted = order.isEmpty();
        if (!sources.isEmpty()) {
            TableDef first = sources.get(0).table();
            access = Access.plan(first, sources.get(0).alias(), p.getWhere(), plain);
            if (!grouped && !order.isEmpty() && joins.isEmpty()) {
                int dir = keyOrder(first, sources.get(0).alias(), access, order, sortOut, outColumn);
                if (dir != 0) {
                    sorted = true;
                    reverse = dir < 0;
                }
            }
        }
        int seekColumn = -1;
        if (grouped && p.getGroupBy() == null && p.getHaving() == null && joins.isEmpty() && access != null) {
            // SELECT MIN(c) / MAX(c) where c is the key column after those held equal: the first
            // row along the key, from the right end, holds the answer (SQLite and H2 do the same).
            int[] lone = loneMinMax(p, scope);
            int[] kc = access.keyColumns();
            int e = access.equalColumns();
            if (lone != null && e < kc.length && kc[e] == lone[0]) {
                seekColumn = lone[0];
                reverse = (lone[1] > 0) != access.keyDescending()[e];
            }
        }
        List<Access> joinAccess = new ArrayList<>();
        for (int i = 1; i < sources.size(); i++) {
            joinAccess.add(joinAccess(sources, joins, i, plain));
        }
        List<Expr> groupBy = new ArrayList<>();
        if (grouped) {
            if (p.getGroupBy() != null) {
                for (Object g : p.getGroupBy().getGroupByExpressionList()) {
                    groupBy.add(plain.compile((Expression) g));
                }
            }
        } else if (p.getHaving() != null) {
            throw SqlErrors.syntax("HAVING without GROUP BY or aggregates");
        }
        if (p.getDistinct() != null && p.getDistinct().getOnSelectItems() != null) {
            throw SqlErrors.unsupported("DISTINCT ON");
        }
        return new Plan(p, sources, names, scope, joins, aggs, grouped, plain, where, joinOn, joinAccess, labels, types,
                out, order, sortExprs, sortOut, havingExpr, groupBy, access, reverse, sorted, seekColumn);
    }

    /**
     * The access path of inner table {@code i} from its ON condition, where the values of the
     * tables before it are known (none of the later ones); null without ON.
     */
    private static Access joinAccess(List<Source> sources, List<Join> joins, int i, Compiler plain) throws SQLException {
        Join j = joins.get(i - 1);
        Expression on = j.getOnExpressions() == null || j.getOnExpressions().isEmpty() ? null
                : j.getOnExpressions().iterator().next();
        if (on == null) {
            return null;
        }
        Source src = sources.get(i);
        return Access.plan(src.table(), src.alias(), on, plain, e -> {
            for (int k = i; k < sources.size(); k++) {
                if (Access.mentions(e, sources.get(k).table(), sources.get(k).alias())) {
                    return false;
                }
            }
            return true;
        });
    }

    /** An inner table of a join: looked up along {@code access} per outer row, or its {@code rows} read once. */
    record Inner(TableDef table, Database db, Access access, List<Object[]> rows) {
    }

    private static void join(Engine engine, Transaction t, boolean forUpdate, Object[] r, int i, Scope scope,
                             List<Join> joins, List<Expr> on, List<Inner> inner, Object[] params, Expr where,
                             List<Object[]> outRows) throws SQLException {
        if (i == scope.entries().size()) {
            if (where == null || Boolean.TRUE.equals(Compiler.truth(where.eval(r, params)))) {
                outRows.add(r.clone());
            }
            return;
        }
        Scope.Entry en = scope.entries().get(i);
        int n = en.table().columns().size();
        boolean matched = false;
        Expr cond = on.get(i - 1);
        Inner in = inner.get(i - 1);
        List<Object[]> candidates = in.rows();
        if (candidates == null) {
            List<Object[]> found = new ArrayList<>();
            Tables.scan(engine, t, in.db(), in.table(), in.access(), r, params, false, forUpdate, (k, row) -> found.add(row));
            candidates = found;
        }
        for (Object[] row : candidates) {
            System.arraycopy(row, 0, r, en.offset(), n);
            if (cond == null || Boolean.TRUE.equals(Compiler.truth(cond.eval(r, params)))) {
                matched = true;
                join(engine, t, forUpdate, r, i + 1, scope, joins, on, inner, params, where, outRows);
            }
        }
        if (!matched && joins.get(i - 1).isLeft()) {
            java.util.Arrays.fill(r, en.offset(), en.offset() + n, null);
            join(engine, t, forUpdate, r, i + 1, scope, joins, on, inner, params, where, outRows);
        }
    }

    private static List<Object[]> all(Engine engine, Transaction t, TableDef d, Object[] params, boolean forUpdate)
            throws SQLException {
        List<Object[]> rows = new ArrayList<>();
        Database db = engine.database(t, d.dataName(), false);
        Tables.scan(engine, t, db, d, Access.plan(d, d.name(), null, null), params, false, forUpdate, (k, row) -> rows.add(row));
        return rows;
    }

    private static Source source(Engine engine, Transaction t, FromItem f) throws SQLException {
        if (!(f instanceof net.sf.jsqlparser.schema.Table tb)) {
            throw SqlErrors.unsupported("subqueries in FROM");
        }
        TableDef d = Dml.table(engine, t, tb);
        String alias = tb.getAlias() == null ? d.name() : Names.identifier(tb.getAlias().getName());
        return new Source(alias, d);
    }

    private static void addAll(Scope.Entry en, List<String> labels, List<ColumnType> types, List<Expr> out,
                               List<Integer> outColumn) {
        for (int c = 0; c < en.table().columns().size(); c++) {
            int at = en.offset() + c;
            outColumn.add(at);
            labels.add(en.table().columns().get(c).name());
            types.add(en.table().columns().get(c).type());
            out.add((r, p) -> r[at]);
        }
    }

    private static ColumnType typeOf(Scope scope, Column c) throws SQLException {
        int at = scope.resolve(c);
        for (Scope.Entry en : scope.entries()) {
            if (at >= en.offset() && at < en.offset() + en.table().columns().size()) {
                return en.table().columns().get(at - en.offset()).type();
            }
        }
        return null;
    }

    /** A type for a computed column from its first non-null value (VARCHAR if all are NULL). */
    static ColumnType inferred(List<Object[]> rows, int i) {
        for (Object[] r : rows) {
            Object v = r[i];
            if (v != null) {
                SqlType t = v instanceof Long ? SqlType.BIGINT
                        : v instanceof Integer ? SqlType.INTEGER
                        : v instanceof Short ? SqlType.SMALLINT
                        : v instanceof Double ? SqlType.DOUBLE
                        : v instanceof Float ? SqlType.REAL
                        : v instanceof java.math.BigDecimal ? SqlType.DECIMAL
                        : v instanceof Boolean ? SqlType.BOOLEAN
                        : v instanceof byte[] ? SqlType.VARBINARY
                        : v instanceof java.time.LocalDate ? SqlType.DATE
                        : v instanceof java.time.LocalTime ? SqlType.TIME
                        : v instanceof java.time.LocalDateTime ? SqlType.TIMESTAMP
                        : SqlType.VARCHAR;
                return switch (t) {
                    case DECIMAL -> new ColumnType(t, 38, Math.max(0, Math.min(38, ((java.math.BigDecimal) v).scale())));
                    case VARCHAR -> new ColumnType(t, 1_000_000, 0);
                    case VARBINARY -> new ColumnType(t, 1_000_000, 0);
                    default -> ColumnType.of(t);
                };
            }
        }
        return new ColumnType(SqlType.VARCHAR, 1_000_000, 0);
    }

    /**
     * 1 if ORDER BY is the primary key's order (a leading part of it, each column in its own
     * direction), -1 if it is exactly the reverse, 0 otherwise (NULLS FIRST/LAST given: 0).
     */
    /**
     * Whether the B-tree read along {@code a} already delivers ORDER BY's order: 1 forward, -1
     * backward, 0 no (sort). It does when the ORDER BY columns are the key's columns in key order,
     * from the first or from the first after those the path holds equal (WHERE a = ? ORDER BY b
     * on an index (a, b)), all in the key's directions or all in the opposite ones. NULLs sort
     * lowest in the key, as in SQL's default order, so an explicit NULLS FIRST/LAST means a sort.
     */
    private static int keyOrder(TableDef t, String alias, Access a, List<OrderByElement> order, List<Integer> sortOut,
                                List<Integer> outColumn) {
        int[] cols = a.keyColumns();
        boolean[] desc = a.keyDescending();
        int dir = keyOrderFrom(t, alias, cols, desc, 0, order, sortOut, outColumn);
        return dir != 0 || a.equalColumns() == 0 ? dir
                : keyOrderFrom(t, alias, cols, desc, a.equalColumns(), order, sortOut, outColumn);
    }

    private static int keyOrderFrom(TableDef t, String alias, int[] cols, boolean[] desc, int start,
                                    List<OrderByElement> order, List<Integer> sortOut, List<Integer> outColumn) {
        if (order.size() > cols.length - start) {
            return 0;
        }
        int dir = 0;
        for (int i = 0; i < order.size(); i++) {
            OrderByElement o = order.get(i);
            int col = cols[start + i];
            // An ORDER BY name may be an output alias: then it is the key column only if that output is.
            boolean isKey = sortOut.get(i) >= 0 ? outColumn.get(sortOut.get(i)) == col
                    : Access.isColumn(o.getExpression(), t, alias, col);
            if (o.getNullOrdering() != null || !isKey) {
                return 0;
            }
            int d = o.isAsc() != desc[start + i] ? 1 : -1;
            if (dir != 0 && d != dir) {
                return 0;
            }
            dir = d;
        }
        return dir;
    }

    /**
     * In a grouped query every column read outside an aggregate must be grouped by (or appear in
     * a GROUP BY expression): otherwise its value would be an arbitrary row's (H2 and the
     * standard refuse it too).
     */
    private static void checkGrouped(PlainSelect p, Scope scope, List<OrderByElement> order, List<Integer> sortOut)
            throws SQLException {
        java.util.Set<Integer> grouped = new java.util.HashSet<>();
        java.util.Set<String> groupTexts = new java.util.HashSet<>();
        if (p.getGroupBy() != null) {
            for (Object g : p.getGroupBy().getGroupByExpressionList()) {
                Expression ge = (Expression) g;
                groupTexts.add(ge.toString());
                for (Column c : columnsOutsideAggregates(ge)) {
                    grouped.add(scope.resolve(c));
                }
            }
        }
        List<Expression> checked = new ArrayList<>();
        for (SelectItem<?> item : p.getSelectItems()) {
            Expression e = item.getExpression();
            if (e instanceof AllColumns || e instanceof AllTableColumns) {
                for (Scope.Entry en : scope.entries()) {
                    for (int c = 0; c < en.table().columns().size(); c++) {
                        if (!grouped.contains(en.offset() + c) && (e instanceof AllColumns
                                || Names.identifier(((AllTableColumns) e).getTable().getName()).equals(en.alias()))) {
                            throw SqlErrors.syntax("column " + en.table().columns().get(c).name() + " must be in GROUP BY "
                                    + "or in an aggregate function");
                        }
                    }
                }
                continue;
            }
            checked.add(e);
        }
        if (p.getHaving() != null) {
            checked.add(p.getHaving());
        }
        for (int k = 0; k < order.size(); k++) {
            if (sortOut.get(k) < 0) {
                checked.add(order.get(k).getExpression());
            }
        }
        for (Expression e : checked) {
            if (groupTexts.contains(e.toString())) {
                continue;
            }
            for (Column c : columnsOutsideAggregates(e)) {
                if (groupTexts.contains(c.toString())) {
                    continue;
                }
                if (!grouped.contains(scope.resolve(c))) {
                    throw SqlErrors.syntax("column " + c + " must be in GROUP BY or in an aggregate function");
                }
            }
        }
    }

    /** The column references of {@code e} that are not inside an aggregate call. */
    static List<Column> columnsOutsideAggregates(Expression e) {
        List<Column> out = new ArrayList<>();
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column c, S context) {
                if (!(c.getTable() == null && (c.getColumnName().equalsIgnoreCase("TRUE")
                        || c.getColumnName().equalsIgnoreCase("FALSE")))) {
                    out.add(c);
                }
                return null;
            }

            @Override
            public <S> Void visit(Function f, S context) {
                return Compiler.isAggregate(f) ? null : super.visit(f, context);
            }
        }, null);
        return out;
    }

    /** True if {@code e} is written as one of the select list's expressions. */
    private static boolean selectedText(PlainSelect p, Expression e) {
        for (SelectItem<?> item : p.getSelectItems()) {
            if (item.getExpression() instanceof AllColumns || item.getExpression() instanceof AllTableColumns
                    || item.getExpression().toString().equalsIgnoreCase(e.toString())) {
                return true;
            }
        }
        return false;
    }

    private static boolean hasAggregate(PlainSelect p) {
        for (SelectItem<?> item : p.getSelectItems()) {
            if (containsAggregate(item.getExpression())) {
                return true;
            }
        }
        return p.getHaving() != null && containsAggregate(p.getHaving());
    }

    static boolean containsAggregate(Expression e) {
        if (e == null) {
            return false;
        }
        String s = e.toString().toUpperCase(java.util.Locale.ROOT);
        if (!(s.contains("COUNT(") || s.contains("SUM(") || s.contains("MIN(") || s.contains("MAX(") || s.contains("AVG("))) {
            return false;
        }
        boolean[] found = {false};
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Function f, S context) {
                if (Compiler.isAggregate(f)) {
                    found[0] = true;
                }
                return super.visit(f, context);
            }
        }, null);
        return found[0];
    }

    /**
     * {scope position of c, +1 for MAX or -1 for MIN} when every output is MIN(c), or every
     * output is MAX(c), of one plain column c; else null.
     */
    private static int[] loneMinMax(PlainSelect p, Scope scope) throws SQLException {
        int column = -1;
        int kind = 0;
        for (SelectItem<?> item : p.getSelectItems()) {
            if (!(item.getExpression() instanceof Function f) || f.getParameters() == null || f.getParameters().size() != 1
                    || !(f.getParameters().get(0) instanceof Column c)) {
                return null;
            }
            String n = f.getName().toUpperCase(java.util.Locale.ROOT);
            int k = n.equals("MAX") ? 1 : n.equals("MIN") ? -1 : 0;
            int at = scope.resolve(c);
            if (k == 0 || kind != 0 && (k != kind || at != column)) {
                return null;
            }
            kind = k;
            column = at;
        }
        return column < 0 ? null : new int[] {column, kind};
    }

    /** One past the last row LIMIT/OFFSET/FETCH keep; Long.MAX_VALUE without a limit. */
    private static long end(long[] window) {
        return window[1] == Long.MAX_VALUE ? Long.MAX_VALUE : Math.min(Long.MAX_VALUE - window[1], window[0]) + window[1];
    }

    private static List<Object[]> limit(PlainSelect p, List<Object[]> rows, Object[] params) throws SQLException {
        long[] w = window(p, params);
        long offset = w[0];
        long count = w[1];
        if (offset == 0 && count >= rows.size()) {
            return rows;
        }
        int from = (int) Math.min(offset, rows.size());
        int to = (int) Math.min(rows.size(), from + Math.min(count, Integer.MAX_VALUE));
        return new ArrayList<>(rows.subList(from, to));
    }

    /** {OFFSET, row count} of {@code p}: {0, Long.MAX_VALUE} without them. */
    private static long[] window(PlainSelect p, Object[] params) throws SQLException {
        long offset = 0;
        long count = Long.MAX_VALUE;
        Compiler k = new Compiler(new Scope(), null);
        if (p.getOffset() != null) {
            offset = count(k.compile(p.getOffset().getOffset()).eval(new Object[0], params), "OFFSET");
        }
        if (p.getLimit() != null) {
            if (p.getLimit().getOffset() != null) {
                offset = count(k.compile(p.getLimit().getOffset()).eval(new Object[0], params), "OFFSET");
            }
            Expression rowCount = p.getLimit().getRowCount();
            // LIMIT ALL and LIMIT NULL: no limit
            if (rowCount != null && !(rowCount instanceof net.sf.jsqlparser.expression.AllValue)
                    && !(rowCount instanceof net.sf.jsqlparser.expression.NullValue)) {
                count = count(k.compile(p.getLimit().getRowCount()).eval(new Object[0], params), "LIMIT");
            }
        }
        if (p.getFetch() != null) {
            // FETCH FIRST ROW ONLY, without a count, is one row (the standard's default)
            count = p.getFetch().getExpression() != null
                    ? count(k.compile(p.getFetch().getExpression()).eval(new Object[0], params), "FETCH")
                    : 1;
        }
        return new long[] {offset, count};
    }

    private static long count(Object v, String what) throws SQLException {
        if (v == null) {
            return Long.MAX_VALUE;
        }
        Object n = Values.number(v);
        if (!Values.integral(n) || ((Number) n).longValue() < 0) {
            throw SqlErrors.data(what + " must be a non-negative integer, not " + v);
        }
        return ((Number) n).longValue();
    }

    static int sqlCompare(Object a, Object b) {
        try {
            return Values.compare(a, b);
        } catch (SQLException e) {
            throw new IllegalStateException(e.getMessage(), e); // values of one column: comparable
        }
    }

    static int compareRows(Object[] a, Object[] b) {
        for (int i = 0; i < a.length; i++) {
            if (a[i] == null || b[i] == null) {
                if (a[i] != b[i]) {
                    return a[i] == null ? -1 : 1;
                }
                continue;
            }
            int c = sqlCompare(a[i], b[i]);
            if (c != 0) {
                return c;
            }
        }
        return 0;
    }
}
