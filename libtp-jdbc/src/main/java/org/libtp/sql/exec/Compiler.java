package org.libtp.sql.exec;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;
import net.sf.jsqlparser.expression.BooleanValue;
import net.sf.jsqlparser.expression.CastExpression;
import net.sf.jsqlparser.expression.DateValue;
import net.sf.jsqlparser.expression.DoubleValue;
import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;
import net.sf.jsqlparser.expression.HexValue;
import net.sf.jsqlparser.expression.JdbcParameter;
import net.sf.jsqlparser.expression.LongValue;
import net.sf.jsqlparser.expression.NotExpression;
import net.sf.jsqlparser.expression.NullValue;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
import net.sf.jsqlparser.expression.TrimFunction;
import net.sf.jsqlparser.expression.operators.arithmetic.Addition;
import net.sf.jsqlparser.expression.operators.arithmetic.Concat;
import net.sf.jsqlparser.expression.operators.arithmetic.Division;
import net.sf.jsqlparser.expression.operators.arithmetic.Modulo;
import net.sf.jsqlparser.expression.operators.arithmetic.Multiplication;
import net.sf.jsqlparser.expression.operators.arithmetic.Subtraction;
import net.sf.jsqlparser.expression.operators.conditional.AndExpression;
import net.sf.jsqlparser.expression.operators.conditional.OrExpression;
import net.sf.jsqlparser.expression.operators.relational.Between;
import net.sf.jsqlparser.expression.operators.relational.ComparisonOperator;
import net.sf.jsqlparser.expression.operators.relational.EqualsTo;
import net.sf.jsqlparser.expression.operators.relational.ExpressionList;
import net.sf.jsqlparser.expression.operators.relational.GreaterThan;
import net.sf.jsqlparser.expression.operators.relational.GreaterThanEquals;
import net.sf.jsqlparser.expression.operators.relational.InExpression;
import net.sf.jsqlparser.expression.operators.relational.IsNullExpression;
import net.sf.jsqlparser.expression.operators.relational.LikeExpression;
import net.sf.jsqlparser.expression.operators.relational.MinorThan;
import net.sf.jsqlparser.expression.operators.relational.MinorThanEquals;
import net.sf.jsqlparser.expression.operators.relational.NotEqualsTo;
import net.sf.jsqlparser.schema.Column;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Compiles a JSqlParser expression into an {@link Expr} over a {@link Scope}: columns resolved
 * to positions once, literals converted once. SQL's three-valued logic: a condition is TRUE,
 * FALSE or unknown (null); WHERE keeps a row only if TRUE. Aggregate calls are compiled by the
 * executor's grouping (see {@link Aggregates}), which hands in the slot of each one's result.
 */
final class Compiler {
    /** Where an aggregate call's value is read from (null: aggregates not allowed here). */
    interface AggregateSlots {
        Expr slot(Function f) throws SQLException;
    }

    private final Scope scope;
    private final AggregateSlots aggregates;

    Compiler(Scope scope, AggregateSlots aggregates) {
        this.scope = scope;
        this.aggregates = aggregates;
    }

    static boolean isAggregate(Function f) {
        String n = f.getName().toUpperCase(Locale.ROOT);
        return n.equals("COUNT") || n.equals("SUM") || n.equals("MIN") || n.equals("MAX") || n.equals("AVG");
    }

    /** Deepest expression nesting compiled; deeper trees are refused rather than risking the stack in eval. */
    static final int MAX_DEPTH = 400;
    private int depth;

    Expr compile(Expression e) throws SQLException {
        if (depth >= MAX_DEPTH) {
            throw SqlErrors.tooComplex("expressions nested deeper than " + MAX_DEPTH);
        }
        depth++;
        try {
            return compileNode(e);
        } finally {
            depth--;
        }
    }

    private Expr compileNode(Expression e) throws SQLException {
        if (e instanceof Column c) {
            if (c.getTable() == null && c.getColumnName().equalsIgnoreCase("TRUE")) {
                return (r, p) -> Boolean.TRUE;
            }
            if (c.getTable() == null && c.getColumnName().equalsIgnoreCase("FALSE")) {
                return (r, p) -> Boolean.FALSE;
            }
            int at = scope.resolve(c);
            return (r, p) -> r[at];
        }
        if (e instanceof LongValue v) {
            Object k = v.getStringValue().length() > 18 ? (Object) new BigDecimal(v.getStringValue()) : (Object) v.getValue();
            return (r, p) -> k;
        }
        if (e instanceof DoubleValue v) {
            // A decimal literal is exact (DECIMAL), as in the standard and H2; 1e3 notation is DOUBLE.
            String text = v.toString();
            Object k = text.contains("e") || text.contains("E") ? (Object) v.getValue() : (Object) new BigDecimal(text);
            return (r, p) -> k;
        }
        if (e instanceof StringValue v) {
            String k = v.getValue().replace("''", "'");
            return (r, p) -> k;
        }
        if (e instanceof NullValue) {
            return (r, p) -> null;
        }
        if (e instanceof BooleanValue v) {
            Boolean k = v.getValue();
            return (r, p) -> k;
        }
        if (e instanceof DateValue v) {
            Object k = v.getValue().toLocalDate();
            return (r, p) -> k;
        }
        if (e instanceof TimeValue v) {
            Object k = v.getValue().toLocalTime();
            return (r, p) -> k;
        }
        if (e instanceof TimestampValue v) {
            Object k = v.getValue().toLocalDateTime();
            return (r, p) -> k;
        }
        if (e instanceof HexValue v) {
            String h = v.getValue();
            String digits = h.startsWith("0x") || h.startsWith("0X") ? h.substring(2) : h.replaceAll("^[xX]'|'$", "");
            byte[] k = java.util.HexFormat.of().parseHex(digits);
            return (r, p) -> k;
        }
        if (e instanceof JdbcParameter j) {
            int at = j.getIndex() - 1;
            return (r, p) -> {
                if (at >= p.length || p[at] == Params.UNSET) {
                    throw new SQLException("parameter " + (at + 1) + " is not set", "07001");
                }
                return p[at];
            };
        }
        if (e instanceof ExpressionList<?> list && list.size() == 1) {
            return compile(list.get(0)); // a parenthesized expression
        }
        if (e instanceof SignedExpression s) {
            Expr x = compile(s.getExpression());
            if (s.getSign() == '-') {
                return (r, p) -> Values.negate(x.eval(r, p));
            }
            return x;
        }
        if (e instanceof Addition a) {
            return arith('+', a.getLeftExpression(), a.getRightExpression());
        }
        if (e instanceof Subtraction a) {
            return arith('-', a.getLeftExpression(), a.getRightExpression());
        }
        if (e instanceof Multiplication a) {
            return arith('*', a.getLeftExpression(), a.getRightExpression());
        }
        if (e instanceof Division a) {
            return arith('/', a.getLeftExpression(), a.getRightExpression());
        }
        if (e instanceof Modulo a) {
            return arith('%', a.getLeftExpression(), a.getRightExpression());
        }
        if (e instanceof Concat a) {
            Expr x = compile(a.getLeftExpression());
            Expr y = compile(a.getRightExpression());
            return (r, p) -> {
                Object u = x.eval(r, p);
                Object v = y.eval(r, p);
                return u == null || v == null ? null : Values.string(u) + Values.string(v);
            };
        }
        if (e instanceof AndExpression a) {
            Expr x = compile(a.getLeftExpression());
            Expr y = compile(a.getRightExpression());
            return (r, p) -> {
                Boolean u = truth(x.eval(r, p));
                if (Boolean.FALSE.equals(u)) {
                    return false;
                }
                Boolean v = truth(y.eval(r, p));
                if (Boolean.FALSE.equals(v)) {
                    return false;
                }
                return u == null || v == null ? null : Boolean.TRUE;
            };
        }
        if (e instanceof OrExpression a) {
            Expr x = compile(a.getLeftExpression());
            Expr y = compile(a.getRightExpression());
            return (r, p) -> {
                Boolean u = truth(x.eval(r, p));
                if (Boolean.TRUE.equals(u)) {
                    return true;
                }
                Boolean v = truth(y.eval(r, p));
                if (Boolean.TRUE.equals(v)) {
                    return true;
                }
                return u == null || v == null ? null : Boolean.FALSE;
            };
        }
        if (e instanceof NotExpression n) {
            Expr x = compile(n.getExpression());
            return (r, p) -> {
                Boolean u = truth(x.eval(r, p));
                return u == null ? null : !u;
            };
        }
        if (e instanceof ComparisonOperator c) {
            return comparison(c);
        }
        if (e instanceof IsNullExpression n) {
            Expr x = compile(n.getLeftExpression());
            boolean not = n.isNot();
            return (r, p) -> (x.eval(r, p) == null) != not;
        }
        if (e instanceof Between b) {
            boolean pad = charColumn(b.getLeftExpression()) || charColumn(b.getBetweenExpressionStart())
                    || charColumn(b.getBetweenExpressionEnd());
            Expr x = padSpace(compile(b.getLeftExpression()), pad);
            Expr lo = padSpace(compile(b.getBetweenExpressionStart()), pad);
            Expr hi = padSpace(compile(b.getBetweenExpressionEnd()), pad);
            boolean not = b.isNot();
            return (r, p) -> {
                Object v = x.eval(r, p);
                Object l = lo.eval(r, p);
                Object h = hi.eval(r, p);
                Boolean ge = v == null || l == null ? null : Values.compare(v, l) >= 0;
                Boolean le = v == null || h == null ? null : Values.compare(v, h) <= 0;
                Boolean in = Boolean.FALSE.equals(ge) || Boolean.FALSE.equals(le) ? Boolean.FALSE
                        : ge == null || le == null ? null : Boolean.TRUE;
                return in == null ? null : in != not;
            };
        }
        if (e instanceof InExpression in) {
            if (!(in.getRightExpression() instanceof ExpressionList<?> list)) {
                if (in.getRightExpression() instanceof net.sf.jsqlparser.expression.BinaryExpression) {
                    // JSqlParser 5.3 reads "x IN (1, 2) AND y = 3" as "x IN ((1, 2) AND y = 3)".
                    throw SqlErrors.syntax("the SQL parser misreads an IN list followed by AND or OR (" + in
                            + "); put the IN condition in parentheses: (x IN (...)) AND ...");
                }
                throw SqlErrors.unsupported("IN with a subquery");
            }
            boolean pad = charColumn(in.getLeftExpression());
            for (Expression item : list) {
                pad |= charColumn(item);
            }
            Expr x = padSpace(compile(in.getLeftExpression()), pad);
            List<Expr> items = new ArrayList<>();
            for (Expression item : list) {
                items.add(padSpace(compile(item), pad));
            }
            boolean not = in.isNot();
            return (r, p) -> {
                Object v = x.eval(r, p);
                if (v == null) {
                    return null;
                }
                boolean unknown = false;
                for (Expr item : items) {
                    Object w = item.eval(r, p);
                    if (w == null) {
                        unknown = true;
                    } else if (Values.compare(v, w) == 0) {
                        return !not;
                    }
                }
                return unknown ? null : not;
            };
        }
        if (e instanceof LikeExpression l) {
            if (l.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) { // ILIKE, RLIKE, REGEXP, SIMILAR TO
                throw SqlErrors.unsupported(l.getLikeKeyWord() + " (only LIKE)");
            }
            Expr x = compile(l.getLeftExpression());
            Expr pat = compile(l.getRightExpression());
            Expr esc = l.getEscape() == null ? null : compile(l.getEscape());
            boolean not = l.isNot();
            return (r, p) -> {
                Object v = x.eval(r, p);
                Object q = pat.eval(r, p);
                Object es = esc == null ? null : esc.eval(r, p);
                if (v == null || q == null || esc != null && es == null) {
                    return null;
                }
                return like(Values.string(v), Values.string(q), es == null ? null : Values.string(es)) != not;
            };
        }
        if (e instanceof CastExpression c) {
            ColumnType t = Types.of(c.getColDataType());
            Expr x = compile(c.getLeftExpression());
            return (r, p) -> Values.convert(x.eval(r, p), t, "CAST");
        }
        if (e instanceof Function f) {
            return function(f);
        }
        if (e instanceof TrimFunction t) {
            return trim(t);
        }
        throw SqlErrors.unsupported("the expression " + e + " (" + e.getClass().getSimpleName() + ")");
    }

    private Expr arith(char op, Expression a, Expression b) throws SQLException {
        Expr x = compile(a);
        Expr y = compile(b);
        return (r, p) -> Values.arith(op, x.eval(r, p), y.eval(r, p));
    }

    /**
     * Whether {@code e} is a column of type CHAR: its comparisons follow the standard's PAD SPACE
     * rule (trailing spaces do not count), since a CHAR value is stored padded to its length.
     */
    private boolean charColumn(Expression e) throws SQLException {
        while (e instanceof ExpressionList<?> p && p.size() == 1) { // "(c)"
            e = p.get(0);
        }
        if (!(e instanceof Column c) || c.getTable() == null && (c.getColumnName().equalsIgnoreCase("TRUE")
                || c.getColumnName().equalsIgnoreCase("FALSE"))) {
            return false;
        }
        int at = scope.resolve(c);
        for (Scope.Entry en : scope.entries()) {
            int i = at - en.offset();
            if (i >= 0 && i < en.table().columns().size()) {
                return en.table().columns().get(i).type().type() == SqlType.CHAR;
            }
        }
        return false;
    }

    /** {@code x} with trailing spaces of string values removed (PAD SPACE comparison), or {@code x} itself. */
    private static Expr padSpace(Expr x, boolean pad) {
        if (!pad) {
            return x;
        }
        return (r, p) -> {
            Object v = x.eval(r, p);
            if (v instanceof String s) {
                int end = s.length();
                while (end > 0 && s.charAt(end - 1) == ' ') {
                    end--;
                }
                return end == s.length() ? s : s.substring(0, end);
            }
            return v;
        };
    }

    private Expr comparison(ComparisonOperator c) throws SQLException {
        boolean pad = charColumn(c.getLeftExpression()) || charColumn(c.getRightExpression());
        Expr x = padSpace(compile(c.getLeftExpression()), pad);
        Expr y = padSpace(compile(c.getRightExpression()), pad);
        int kind = c instanceof EqualsTo ? 0 : c instanceof NotEqualsTo ? 1 : c instanceof GreaterThan ? 2
                : c instanceof GreaterThanEquals ? 3 : c instanceof MinorThan ? 4 : c instanceof MinorThanEquals ? 5 : -1;
        if (kind < 0) {
            throw SqlErrors.unsupported("the operator " + c.getStringExpression());
        }
        return (r, p) -> {
            Object u = x.eval(r, p);
            Object v = y.eval(r, p);
            if (u == null || v == null) {
                return null;
            }
            int k = Values.compare(u, v);
            return switch (kind) {
                case 0 -> k == 0;
                case 1 -> k != 0;
                case 2 -> k > 0;
                case 3 -> k >= 0;
                case 4 -> k < 0;
                default -> k <= 0;
            };
        };
    }

    private Expr function(Function f) throws SQLException {
        if (isAggregate(f)) {
            if (aggregates == null) {
                throw SqlErrors.syntax("aggregate " + f + " is not allowed here");
            }
            return aggregates.slot(f);
        }
        String name = f.getName().toUpperCase(Locale.ROOT);
        List<Expr> args = new ArrayList<>();
        if (f.getParameters() != null) {
            for (Expression a : f.getParameters()) {
                args.add(compile(a));
            }
        }
        switch (name) {
            case "UPPER", "UCASE", "LOWER", "LCASE", "LENGTH", "CHAR_LENGTH", "CHARACTER_LENGTH", "ABS", "TRIM" -> {
                arity(name, args, 1);
                Expr a = args.get(0);
                return (r, p) -> {
                    Object v = a.eval(r, p);
                    if (v == null) {
                        return null;
                    }
                    return switch (name) {
                        case "UPPER", "UCASE" -> Values.string(v).toUpperCase(Locale.ROOT);
                        case "LOWER", "LCASE" -> Values.string(v).toLowerCase(Locale.ROOT);
                        case "TRIM" -> trim(Values.string(v), " ", true, true);
                        case "ABS" -> Values.compare(v, 0L) < 0 ? Values.negate(v) : Values.number(v);
                        default -> (long) Values.string(v).length();
                    };
                };
            }
            case "COALESCE", "IFNULL", "NVL" -> {
                if (args.isEmpty()) {
                    throw SqlErrors.syntax(name + " needs arguments");
                }
                return (r, p) -> {
                    for (Expr a : args) {
                        Object v = a.eval(r, p);
                        if (v != null) {
                            return v;
                        }
                    }
                    return null;
                };
            }
            case "MOD" -> {
                arity(name, args, 2);
                return (r, p) -> Values.arith('%', args.get(0).eval(r, p), args.get(1).eval(r, p));
            }
            default -> throw SqlErrors.unsupported("the function " + name);
        }
    }

    /**
     * {@code TRIM([LEADING | TRAILING | BOTH] [chars] FROM s)} and {@code TRIM([spec] s)}: removes
     * spaces (only U+0020, as the standard and H2 say; not tabs or other white space), or the
     * characters of {@code chars}, from one or both ends.
     */
    private Expr trim(TrimFunction t) throws SQLException {
        if (t.getFromExpression() != null && !t.isUsingFromKeyword()) {
            throw SqlErrors.unsupported("TRIM(s, chars) (TRIM([LEADING | TRAILING | BOTH] chars FROM s) is)");
        }
        Expr src = compile(t.isUsingFromKeyword() ? t.getFromExpression() : t.getExpression());
        Expr chars = t.isUsingFromKeyword() && t.getExpression() != null ? compile(t.getExpression()) : null;
        TrimFunction.TrimSpecification spec = t.getTrimSpecification();
        boolean leading = spec != TrimFunction.TrimSpecification.TRAILING;
        boolean trailing = spec != TrimFunction.TrimSpecification.LEADING;
        return (r, p) -> {
            Object v = src.eval(r, p);
            Object c = chars == null ? " " : chars.eval(r, p);
            return v == null || c == null ? null : trim(Values.string(v), Values.string(c), leading, trailing);
        };
    }

    static String trim(String s, String chars, boolean leading, boolean trailing) {
        int from = 0;
        int to = s.length();
        while (leading && from < to && chars.indexOf(s.charAt(from)) >= 0) {
            from++;
        }
        while (trailing && to > from && chars.indexOf(s.charAt(to - 1)) >= 0) {
            to--;
        }
        return s.substring(from, to);
    }

    private static void arity(String name, List<Expr> args, int n) throws SQLException {
        if (args.size() != n) {
            throw SqlErrors.syntax(name + " takes " + n + " argument" + (n == 1 ? "" : "s") + ", not " + args.size());
        }
    }

    /** TRUE, FALSE or unknown (null) of a condition's value. */
    static Boolean truth(Object v) throws SQLException {
        return v == null ? null : Values.asBoolean(v);
    }

    /**
     * SQL LIKE: % matches any run of characters, _ exactly one, {@code escape} (one character, or
     * null for none) makes the next character literal. (The standard refuses an escape before
     * anything but %, _ and itself; H2, PostgreSQL and MySQL take that character literally, and
     * so does LibTP.) A character is a UTF-16 char, as for LENGTH and in H2: an emoji outside the
     * BMP is two, so '_' does not match it but '__' does.
     */
    static boolean like(String s, String pattern, String escape) throws SQLException {
        if (escape != null && escape.length() != 1) {
            throw SqlErrors.data("LIKE ESCAPE must be one character, not '" + escape + "'");
        }
        // The pattern as tokens: a char to match literally, or ANY_ONE (_) / ANY_RUN (%).
        int[] tokens = new int[pattern.length()];
        int n = 0;
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape.charAt(0)) {
                if (++i >= pattern.length()) {
                    throw invalidEscape(pattern);
                }
                tokens[n++] = pattern.charAt(i);
            } else if (c == '%') {
                if (n == 0 || tokens[n - 1] != ANY_RUN) { // %% is %
                    tokens[n++] = ANY_RUN;
                }
            } else if (c == '_') {
                tokens[n++] = ANY_ONE;
            } else {
                tokens[n++] = c;
            }
        }
        // Greedy matching that backtracks to the last % only: linear in most cases, O(|s| |p|) at worst.
        int si = 0;
        int ti = 0;
        int starT = -1;
        int starS = 0;
        while (si < s.length()) {
            if (ti < n && tokens[ti] == ANY_RUN) {
                starT = ti++;
                starS = si;
            } else if (ti < n && (tokens[ti] == ANY_ONE || tokens[ti] == s.charAt(si))) {
                ti++;
                si++;
            } else if (starT >= 0) {
                ti = starT + 1;
                si = ++starS;
            } else {
                return false;
            }
        }
        while (ti < n && tokens[ti] == ANY_RUN) {
            ti++;
        }
        return ti == n;
    }

    private static final int ANY_ONE = -1;
    private static final int ANY_RUN = -2;

    private static SQLException invalidEscape(String pattern) {
        return new java.sql.SQLDataException("LIKE pattern '" + pattern + "' ends with its escape character", "22025");
    }
}
