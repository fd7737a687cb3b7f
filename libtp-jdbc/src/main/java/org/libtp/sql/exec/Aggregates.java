package org.libtp.sql.exec;

import net.sf.jsqlparser.expression.Expression;
import net.sf.jsqlparser.expression.Function;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * GROUP BY and the aggregates COUNT(*), COUNT(x), COUNT(DISTINCT x), SUM, MIN, MAX, AVG. A group
 * is represented by its first row (where the group-by columns are read) followed by the values
 * of the aggregate calls: the select list and HAVING are compiled against that extended row,
 * aggregate call i at position {@code base + i}. NULLs are ignored by every aggregate but
 * COUNT(*); over no rows COUNT is 0 and the others NULL.
 */
final class Aggregates implements Compiler.AggregateSlots {
    private final int base;
    private final List<Function> calls = new ArrayList<>();
    private final List<String> texts = new ArrayList<>();

    Aggregates(int base) {
        this.base = base;
    }

    @Override
    public Expr slot(Function f) throws SQLException {
        String text = f.toString();
        int i = texts.indexOf(text);
        if (i < 0) {
            i = calls.size();
            calls.add(f);
            texts.add(text);
        }
        int at = base + i;
        return (r, p) -> r[at];
    }

    private static final class State {
        Object[] first;
        long count;
        Object acc;
        TreeSet<Object> distinct;
        boolean inexact; // SUM/AVG: a value that is not an integer was added
    }

    List<Object[]> group(List<Object[]> rows, List<Expr> groupBy, Object[] params, Compiler plain) throws SQLException {
        int n = calls.size();
        Expr[] args = new Expr[n];
        String[] kinds = new String[n];
        boolean[] star = new boolean[n];
        boolean[] distinct = new boolean[n];
        for (int i = 0; i < n; i++) {
            Function f = calls.get(i);
            kinds[i] = f.getName().toUpperCase(Locale.ROOT);
            distinct[i] = f.isDistinct();
            star[i] = f.isAllColumns() || f.getParameters() == null || f.getParameters().isEmpty()
                    || f.getParameters().size() == 1 && f.getParameters().get(0) instanceof net.sf.jsqlparser.statement.select.AllColumns;
            if (star[i] && !kinds[i].equals("COUNT")) {
                throw SqlErrors.syntax(kinds[i] + " needs an argument");
            }
            if (!star[i]) {
                if (f.getParameters().size() != 1) {
                    throw SqlErrors.syntax(kinds[i] + " takes one argument");
                }
                Expression a = (Expression) f.getParameters().get(0);
                if (Query.containsAggregate(a)) {
                    throw SqlErrors.syntax("aggregates cannot be nested: " + f);
                }
                args[i] = plain.compile(a);
            }
        }
        TreeMap<Object[], State[]> groups = new TreeMap<>(Query::compareRows);
        for (Object[] row : rows) {
            Object[] key = new Object[groupBy.size()];
            for (int g = 0; g < key.length; g++) {
                key[g] = groupBy.get(g).eval(row, params);
            }
            State[] st = groups.get(key);
            if (st == null) {
                st = new State[n];
                for (int i = 0; i < n; i++) {
                    st[i] = new State();
                    if (distinct[i]) {
                        st[i].distinct = new TreeSet<>(Query::sqlCompare);
                    }
                }
                groups.put(key, st);
                if (n == 0) {
                    st = new State[] {new State()};
                    groups.put(key, st);
                }
                st[0].first = row;
            }
            for (int i = 0; i < n; i++) {
                Object v = star[i] ? Boolean.TRUE : args[i].eval(row, params);
                if (v == null) {
                    continue;
                }
                State s = st[i];
                if (s.distinct != null && !s.distinct.add(v)) {
                    continue;
                }
                s.count++;
                switch (kinds[i]) {
                    case "SUM", "AVG" -> {
                        Object x = Values.number(v);
                        s.inexact |= !Values.integral(x);
                        s.acc = s.acc == null ? x : add(s.acc, x);
                    }
                    case "MIN" -> s.acc = s.acc == null || Values.compare(v, s.acc) < 0 ? v : s.acc;
                    case "MAX" -> s.acc = s.acc == null || Values.compare(v, s.acc) > 0 ? v : s.acc;
                    default -> {
                    }
                }
            }
        }
        if (groups.isEmpty() && groupBy.isEmpty()) {
            State[] st = new State[Math.max(1, n)];
            for (int i = 0; i < st.length; i++) {
                st[i] = new State();
            }
            st[0].first = new Object[base];
            groups.put(new Object[0], st);
        }
        List<Object[]> out = new ArrayList<>(groups.size());
        for (State[] st : groups.values()) {
            Object[] r = java.util.Arrays.copyOf(st[0].first, base + n);
            for (int i = 0; i < n; i++) {
                State s = st[i];
                r[base + i] = switch (kinds[i]) {
                    case "COUNT" -> s.count;
                    case "AVG" -> s.count == 0 ? null : avg(s.acc, s.count);
                    case "SUM" -> s.inexact ? s.acc : narrow(s.acc);
                    default -> s.acc;
                };
            }
            out.add(r);
        }
        return out;
    }

    /**
     * {@code acc + v} for SUM and AVG. Integers add as BIGINT while the sum fits and exactly
     * (DECIMAL) beyond: a SUM of BIGINTs is not limited to BIGINT (H2 and PostgreSQL make it
     * NUMERIC), so SUM(b) over 2^63 - 1 and 1 is 2^63, not an overflow error.
     */
    static Object add(Object acc, Object v) throws SQLException {
        if (Values.integral(acc) && Values.integral(v)) {
            long a = ((Number) acc).longValue();
            long b = ((Number) v).longValue();
            long sum = a + b;
            if (((a ^ sum) & (b ^ sum)) < 0) { // overflow
                return BigDecimal.valueOf(a).add(BigDecimal.valueOf(b));
            }
            return sum;
        }
        return Values.arith('+', acc, v);
    }

    /** A SUM of integers that went past BIGINT and came back is a BIGINT again. */
    private static Object narrow(Object sum) {
        if (sum instanceof BigDecimal d && d.scale() == 0 && d.unscaledValue().bitLength() < 64) {
            return d.longValueExact();
        }
        return sum;
    }

    private static Object avg(Object sum, long count) throws SQLException {
        if (sum instanceof Double d) {
            return d / count;
        }
        if (sum instanceof Float f) {
            return (double) f / count;
        }
        BigDecimal s = Values.decimal(sum);
        return s.divide(BigDecimal.valueOf(count), Math.max(s.scale(), 10), RoundingMode.HALF_UP);
    }
}
