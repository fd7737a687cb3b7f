package org.libtp.sql.exec;

import org.libtp.db.KeyRange;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.KeyCodec;
import org.libtp.sql.codec.SqlType;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.TableDef;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.schema.Column;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * The access path of a single-table read, chosen from the WHERE clause: a point lookup when
 * every primary key column is equal to a constant or parameter, a key range when a leading part
 * of the primary key is (and the next column may be bounded by &lt;, &lt;=, &gt;, &gt;= or
 * BETWEEN), an index range when a leading part of a secondary index is (each entry then leads
 * to its row by primary key), else a full scan. The range is conservative: the whole WHERE is still applied to
 * every row it yields. Bounds are computed per execution, from the parameters.
 */
final class Access {
    enum Kind { POINT, RANGE, FULL }

    final Kind kind;
    /** The index read, or null for the table's own key. */
    final IndexDef index;
    private final TableDef table;
    private final List<ColumnType> keyTypes;  // of the B-tree read (index: index columns, then the table key)
    private final boolean[] keyDesc;
    private final List<Expr> equal;      // values of the leading equal key columns
    private final Expr lower;            // bound on the next key column, or null
    private final boolean lowerInclusive;
    private final Expr upper;
    private final boolean upperInclusive;
    private final String description;

    private Access(Kind kind, TableDef table, IndexDef index, List<Expr> equal, Expr lower, boolean li, Expr upper,
                   boolean ui, String description) {
        this.kind = kind;
        this.table = table;
        this.index = index;
        this.keyTypes = index == null ? table.keyTypes() : Indexes.types(table, index);
        this.keyDesc = index == null ? table.keyDescending() : Indexes.descending(table, index);
        this.equal = equal;
        this.lower = lower;
        this.lowerInclusive = li;
        this.upper = upper;
        this.upperInclusive = ui;
        this.description = description;
    }

    private static Access full(TableDef t) {
        return new Access(Kind.FULL, t, null, List.of(), null, false, null, false, "full scan of " + t.name());
    }

    /**
     * The plan for {@code where} (may be null) on table {@code t}: by the primary key if a leading
     * part of it is constrained, else by the index with the most leading columns constrained
     * (equalities, then one range), else a full scan.
     */
    static Access plan(TableDef t, String alias, Expression where, Compiler compiler) throws SQLException {
        return plan(t, alias, where, compiler, Access::constant);
    }

    /**
     * As above, where {@code known} tells which expressions are known before this table is read:
     * literals and parameters for a single table; for the inner table of a join, also expressions
     * over the tables before it (an index nested-loop join evaluates them per outer row).
     */
    static Access plan(TableDef t, String alias, Expression where, Compiler compiler,
                       java.util.function.Predicate<Expression> known) throws SQLException {
        if (where == null) {
            return full(t);
        }
        List<Expression> conj = new ArrayList<>();
        conjuncts(where, conj);
        Access best = t.hasRowId() ? null : planOn(t, alias, null, t.primaryKey(), conj, compiler, known);
        if (best != null && best.kind == Kind.POINT) {
            return best;
        }
        int bestScore = best == null ? 0 : best.score();
        for (IndexDef x : t.indexes()) {
            Access a = planOn(t, alias, x, x.columns(), conj, compiler, known);
            if (a != null && a.score() > bestScore) {
                best = a;
                bestScore = a.score();
            }
        }
        return best == null ? full(t) : best;
    }

    /**
     * The table columns of the B-tree key read, in key order: the primary key's (none for a
     * hidden row id), or the index's followed by the primary key's.
     */
    int[] keyColumns() {
        int[] pk = table.primaryKey();
        if (index == null) {
            return pk;
        }
        int[] xc = index.columns();
        int[] out = java.util.Arrays.copyOf(xc, xc.length + pk.length);
        System.arraycopy(pk, 0, out, xc.length, pk.length);
        return out;
    }

    /** Per column of {@link #keyColumns()}: stored descending. */
    boolean[] keyDescending() {
        return keyDesc.clone();
    }

    /** How many leading key columns the path holds equal to one value each. */
    int equalColumns() {
        return kind == Kind.FULL ? 0 : equal.size();
    }

    private int score() {
        return 2 * equal.size() + (lower != null || upper != null ? 1 : 0);
    }

    /** The plan over key columns {@code cols} (the primary key's, or index {@code x}'s), or null if none is constrained. */
    private static Access planOn(TableDef t, String alias, IndexDef x, int[] cols, List<Expression> conj,
                                 Compiler compiler, java.util.function.Predicate<Expression> known) throws SQLException {
        List<Expr> eq = new ArrayList<>();
        List<String> eqNames = new ArrayList<>();
        for (int p : cols) {
            Expression v = find(conj, t, alias, p, known);
            if (v == null) {
                break;
            }
            eq.add(compiler.compile(v));
            eqNames.add(t.columns().get(p).name());
        }
        String what = x == null ? "primary key" : "index " + x.name();
        if (x == null && eq.size() == cols.length) {
            return new Access(Kind.POINT, t, null, eq, null, false, null, false,
                    "primary key lookup of " + t.name() + " (" + String.join(", ", eqNames) + ")");
        }
        Expr lo = null;
        Expr hi = null;
        boolean li = false;
        boolean ui = false;
        if (eq.size() < cols.length) {
            int next = cols[eq.size()];
            for (Expression e : conj) {
                if (e instanceof Between b && !b.isNot() && isColumn(b.getLeftExpression(), t, alias, next)
                        && known.test(b.getBetweenExpressionStart()) && known.test(b.getBetweenExpressionEnd())) {
                    lo = compiler.compile(b.getBetweenExpressionStart());
                    hi = compiler.compile(b.getBetweenExpressionEnd());
                    li = ui = true;
                    continue;
                }
                if (!(e instanceof ComparisonOperator c) || e instanceof EqualsTo) {
                    continue;
                }
                boolean leftCol = isColumn(c.getLeftExpression(), t, alias, next) && known.test(c.getRightExpression());
                boolean rightCol = isColumn(c.getRightExpression(), t, alias, next) && known.test(c.getLeftExpression());
                if (!leftCol && !rightCol) {
                    continue;
                }
                Expr v = compiler.compile(leftCol ? c.getRightExpression() : c.getLeftExpression());
                boolean gt = c instanceof GreaterThan || c instanceof GreaterThanEquals;
                boolean lt = c instanceof MinorThan || c instanceof MinorThanEquals;
                boolean incl = c instanceof GreaterThanEquals || c instanceof MinorThanEquals;
                if (rightCol) { // v < col is col > v
                    boolean g = gt;
                    gt = lt;
                    lt = g;
                }
                if (gt && lo == null) {
                    lo = v;
                    li = incl;
                } else if (lt && hi == null) {
                    hi = v;
                    ui = incl;
                }
            }
        }
        if (eq.isEmpty() && lo == null && hi == null) {
            return null;
        }
        String bounded = lo != null || hi != null ? t.columns().get(cols[eq.size()]).name() + " bounded" : "";
        String detail = (eq.isEmpty() ? "" : String.join(", ", eqNames) + " equal") + (!eq.isEmpty() && !bounded.isEmpty()
                ? ", " : "") + bounded;
        return new Access(Kind.RANGE, t, x, eq, lo, li, hi, ui, what + " range of " + t.name() + " (" + detail + ")");
    }

    String describe() {
        return description;
    }

    static void conjuncts(Expression e, List<Expression> out) {
        if (e instanceof AndExpression a) {
            conjuncts(a.getLeftExpression(), out);
            conjuncts(a.getRightExpression(), out);
        } else if (e instanceof net.sf.jsqlparser.expression.operators.relational.ParenthesedExpressionList<?> l
                && l.size() == 1) {
            conjuncts(l.get(0), out); // "(id = ?)": how JSqlParser reads a parenthesized condition
        } else {
            out.add(e);
        }
    }

    private static Expression find(List<Expression> conj, TableDef t, String alias, int column,
                                   java.util.function.Predicate<Expression> known) {
        for (Expression e : conj) {
            if (e instanceof EqualsTo eq) {
                if (isColumn(eq.getLeftExpression(), t, alias, column) && known.test(eq.getRightExpression())) {
                    return eq.getRightExpression();
                }
                if (isColumn(eq.getRightExpression(), t, alias, column) && known.test(eq.getLeftExpression())) {
                    return eq.getLeftExpression();
                }
            }
        }
        return null;
    }

    static boolean isColumn(Expression e, TableDef t, String alias, int column) {
        if (!(e instanceof Column c)) {
            return false;
        }
        if (c.getTable() != null && c.getTable().getName() != null) {
            String q = Names.identifier(c.getTable().getName());
            if (!q.equals(alias) && !q.equals(t.name())) {
                return false;
            }
        }
        return Names.identifier(c.getColumnName()).equals(t.columns().get(column).name());
    }

    /** A literal or a parameter (possibly signed): known before the scan. */
    static boolean constant(Expression e) {
        if (e instanceof net.sf.jsqlparser.expression.SignedExpression s) {
            return constant(s.getExpression());
        }
        return e instanceof JdbcParameter || e instanceof net.sf.jsqlparser.expression.LongValue
                || e instanceof net.sf.jsqlparser.expression.DoubleValue || e instanceof net.sf.jsqlparser.expression.StringValue
                || e instanceof net.sf.jsqlparser.expression.DateValue || e instanceof net.sf.jsqlparser.expression.TimeValue
                || e instanceof net.sf.jsqlparser.expression.TimestampValue;
    }

    /** The point key, or null if a value is NULL (nothing can match) . */
    byte[] pointKey(Object[] row, Object[] params) throws SQLException {
        Object[] v = values(equal.size(), row, params);
        return v == null ? null : KeyCodec.encode(keyTypes, keyDesc, v);
    }

    /** The key range to scan (null: nothing can match), for a RANGE or FULL access. */
    KeyRange range(Object[] row, Object[] params) throws SQLException {
        if (kind == Kind.FULL) {
            return KeyRange.all();
        }
        List<ColumnType> types = keyTypes;
        boolean[] desc = keyDesc;
        int m = equal.size();
        Object[] v = values(m + 1, row, params);
        if (v == null) {
            return null;
        }
        byte[] prefix = KeyCodec.encodePrefix(types, desc, v, m);
        byte[] from = prefix;
        boolean fromIncl = true;
        byte[] to = m == 0 ? null : prefixEnd(prefix);
        boolean toIncl = false;
        Object loRaw = lower == null ? null : lower.eval(row, params);
        Object hiRaw = upper == null ? null : upper.eval(row, params);
        if (lower != null && loRaw == null || upper != null && hiRaw == null) {
            return null; // a comparison with NULL is never true
        }
        Object lo = bound(loRaw, types.get(m));
        Object hi = bound(hiRaw, types.get(m));
        // An inexact bound (2.5 for an INTEGER column) is rounded and made inclusive: the range
        // only has to hold every match, the WHERE clause decides.
        boolean loIncl = lowerInclusive || lo != null && Values.compare(lo, loRaw) != 0;
        boolean hiIncl = upperInclusive || hi != null && Values.compare(hi, hiRaw) != 0;
        if (desc[m]) { // the encoding runs backwards: a lower bound limits from the end
            Object x = lo;
            lo = hi;
            hi = x;
            boolean y = loIncl;
            loIncl = hiIncl;
            hiIncl = y;
        }
        if (lo != null) {
            v[m] = lo;
            byte[] p = KeyCodec.encodePrefix(types, desc, v, m + 1);
            from = loIncl ? p : prefixEnd(p);
            fromIncl = true;
        }
        if (hi != null) {
            v[m] = hi;
            byte[] p = KeyCodec.encodePrefix(types, desc, v, m + 1);
            to = hiIncl ? prefixEnd(p) : p;
            toIncl = false;
        }
        if (from != null && from.length == 0) {
            from = null; // unbounded below
        }
        if (from != null && to != null && java.util.Arrays.compareUnsigned(from, to) >= 0) {
            return null;
        }
        if (from == null) {
            return to == null ? KeyRange.all() : KeyRange.lessThan(to);
        }
        return to == null ? KeyRange.atLeast(from) : KeyRange.of(from, fromIncl, to, toIncl);
    }

    private static final Object NOTHING = new Object();

    /** A bound converted to the key column's type, or null (no bound) if it has no such value. */
    private static Object bound(Object v, ColumnType t) {
        if (v == null) {
            return null;
        }
        if (t.type() == SqlType.CHAR && v instanceof String s) {
            v = rtrim(s);
        }
        try {
            return Values.convert(v, t, "key");
        } catch (SQLException e) {
            return null; // out of the type's range: scan without this bound
        }
    }

    /** The equal values converted to key types (array of {@code size}), or null if one is NULL. */
    private Object[] values(int size, Object[] row, Object[] params) throws SQLException {
        List<ColumnType> types = keyTypes;
        Object[] v = new Object[Math.min(size, types.size())];
        for (int i = 0; i < equal.size(); i++) {
            Object x = equal.get(i).eval(row, params);
            if (x == null) {
                return null;
            }
            Object c = exactKeyValue(x, types.get(i));
            if (c == NOTHING) {
                return null;
            }
            v[i] = c;
        }
        return v;
    }

    /**
     * {@code x} as a value of key type {@code t} that compares equal to it, or NOTHING if no such
     * value exists (2.5 for an INTEGER column): then no row can be equal.
     */
    private static Object exactKeyValue(Object x, ColumnType t) throws SQLException {
        if (t.type() == SqlType.CHAR && x instanceof String s) {
            x = rtrim(s); // PAD SPACE: CHAR values compare without trailing spaces, and are stored padded
        }
        Object c;
        try {
            c = Values.convert(x, t, "key");
        } catch (java.sql.SQLDataException e) {
            if ("22018".equals(e.getSQLState())) {
                throw e; // not a value of the column's kind at all ('x' for a number): an error, as the filter would give
            }
            return NOTHING; // out of the column's range: nothing stored can equal it
        }
        Object cmp = t.type() == SqlType.CHAR && c instanceof String cs ? rtrim(cs) : c;
        return Values.compare(cmp, x) == 0 ? c : NOTHING;
    }

    private static String rtrim(String s) {
        int end = s.length();
        while (end > 0 && s.charAt(end - 1) == ' ') {
            end--;
        }
        return s.substring(0, end);
    }

    /** The smallest byte string greater than every string that starts with {@code p}. */
    static byte[] prefixEnd(byte[] p) {
        byte[] e = p.clone();
        for (int i = e.length - 1; i >= 0; i--) {
            if (e[i] != (byte) 0xFF) {
                e[i]++;
                return java.util.Arrays.copyOf(e, i + 1);
            }
        }
        return null; // all 0xFF: no end
    }

    /** True if {@code e} reads a column of table {@code t} (known as {@code alias}) or holds a subquery or aggregate. */
    static boolean mentions(Expression e, TableDef t, String alias) {
        boolean[] found = {false};
        e.accept(new net.sf.jsqlparser.expression.ExpressionVisitorAdapter<Void>() {
            @Override
            public <S> Void visit(Column c, S context) {
                String q = c.getTable() == null || c.getTable().getName() == null ? null : Names.identifier(c.getTable().getName());
                if (q == null ? t.column(Names.identifier(c.getColumnName())) >= 0 : q.equals(alias) || q.equals(t.name())) {
                    found[0] = true;
                }
                return null;
            }

            @Override
            public <S> Void visit(net.sf.jsqlparser.expression.Function f, S context) {
                if (Compiler.isAggregate(f)) {
                    found[0] = true;
                }
                return super.visit(f, context);
            }

            @Override
            public <S> Void visit(net.sf.jsqlparser.statement.select.ParenthesedSelect s, S context) {
                found[0] = true;
                return null;
            }
        }, null);
        return found[0];
    }
}
