package org.libtp.sql.exec;

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
import net.sf.jsqlparser.expression.Parenthesis;
import net.sf.jsqlparser.expression.SignedExpression;
import net.sf.jsqlparser.expression.StringValue;
import net.sf.jsqlparser.expression.TimeValue;
import net.sf.jsqlparser.expression.TimestampValue;
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
import org.libtp.sql.codec.ColumnType;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Pattern;

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

    Expr compile(Expression e) throws SQLException {
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
        if (e instanceof Parenthesis par) {
            return compile(par.getExpression());
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
            Expr x = compile(b.getLeftExpression());
            Expr lo = compile(b.getBetweenExpressionStart());
            Expr hi = compile(b.getBetweenExpressionEnd());
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
                throw SqlErrors.unsupported("IN with a subquery");
            }
            Expr x = compile(in.getLeftExpression());
            List<Expr> items = new ArrayList<>();
            for (Expression item : list) {
                items.add(compile(item));
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
            if (l.isCaseInsensitive() || l.getLikeKeyWord() != LikeExpression.KeyWord.LIKE) {
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
        throw SqlErrors.unsupported("the expression " + e + " (" + e.getClass().getSimpleName() + ")");
    }

    private Expr arith(char op, Expression a, Expression b) throws SQLException {
        Expr x = compile(a);
        Expr y = compile(b);
        return (r, p) -> Values.arith(op, x.eval(r, p), y.eval(r, p));
    }

    private Expr comparison(ComparisonOperator c) throws SQLException {
        Expr x = compile(c.getLeftExpression());
        Expr y = compile(c.getRightExpression());
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
                        case "TRIM" -> Values.string(v).strip();
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

    private static void arity(String name, List<Expr> args, int n) throws SQLException {
        if (args.size() != n) {
            throw SqlErrors.syntax(name + " takes " + n + " argument" + (n == 1 ? "" : "s") + ", not " + args.size());
        }
    }

    /** TRUE, FALSE or unknown (null) of a condition's value. */
    static Boolean truth(Object v) throws SQLException {
        return v == null ? null : Values.asBoolean(v);
    }

    /** SQL LIKE: % any run, _ one character, {@code escape} makes the next one literal. */
    static boolean like(String s, String pattern, String escape) throws SQLException {
        if (escape != null && escape.length() != 1) {
            throw SqlErrors.data("LIKE ESCAPE must be one character, not '" + escape + "'");
        }
        StringBuilder re = new StringBuilder();
        for (int i = 0; i < pattern.length(); i++) {
            char c = pattern.charAt(i);
            if (escape != null && c == escape.charAt(0)) {
                if (++i >= pattern.length()) {
                    throw SqlErrors.data("LIKE pattern '" + pattern + "' ends with its escape character");
                }
                re.append(Pattern.quote(String.valueOf(pattern.charAt(i))));
            } else if (c == '%') {
                re.append(".*");
            } else if (c == '_') {
                re.append('.');
            } else {
                re.append(Pattern.quote(String.valueOf(c)));
            }
        }
        return Pattern.compile(re.toString(), Pattern.DOTALL).matcher(s).matches();
    }
}
