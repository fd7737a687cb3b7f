package org.libtp.sql.diff;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * Result rows read into comparable values, and their comparison. A cell is null, a
 * {@link Num}, a String, a Boolean, a LocalDate or a LocalDateTime (from getObject, whatever
 * Java class each driver chose for the column's type). Numbers compare by value: exactly if both
 * are exact; within a relative 1e-9 (absolute 1e-12 near zero, where a sum of doubles that
 * cancels out leaves rounding residue) if either is approximate (DOUBLE, REAL), because H2 and
 * LibTP may sum doubles in different orders and H2 computes AVG of INTEGER as DOUBLE while
 * LibTP's is an exact DECIMAL; and two exact values of scale 10 or more (quotients: AVG) are
 * compared at the smaller of their scales, since both engines round a quotient to a scale of
 * their own choosing (H2: the argument's scale + 10; LibTP: at least 10).
 */
final class Rows {
    private Rows() {
    }

    /** A number: its exact value (null if it is a DOUBLE/REAL) and its double value. */
    record Num(BigDecimal exact, double approx) {
        static Num of(Object o) {
            if (o instanceof Double || o instanceof Float) {
                return new Num(null, ((Number) o).doubleValue());
            }
            BigDecimal d = o instanceof BigDecimal b ? b : new BigDecimal(o.toString());
            return new Num(d, d.doubleValue());
        }

        @Override
        public String toString() {
            return exact == null ? approx + "d" : exact.toPlainString();
        }
    }

    static List<List<Object>> read(ResultSet rs) throws SQLException {
        ResultSetMetaData m = rs.getMetaData();
        int n = m.getColumnCount();
        List<List<Object>> out = new ArrayList<>();
        while (rs.next()) {
            List<Object> row = new ArrayList<>(n);
            for (int i = 1; i <= n; i++) {
                Object o = rs.getObject(i);
                if (o instanceof java.sql.Date) { // not via java.util.Date: its Julian calendar shifts year 1
                    o = rs.getObject(i, LocalDate.class);
                } else if (o instanceof java.sql.Timestamp) {
                    o = rs.getObject(i, LocalDateTime.class);
                }
                row.add(norm(o));
            }
            out.add(row);
        }
        return out;
    }

    static Object norm(Object o) {
        if (o == null) {
            return null;
        }
        if (o instanceof Number) {
            return Num.of(o);
        }
        if (o instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (o instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (o instanceof String || o instanceof Boolean || o instanceof LocalDate || o instanceof LocalDateTime) {
            return o;
        }
        if (o instanceof byte[] b) {
            return java.util.HexFormat.of().formatHex(b);
        }
        return o.getClass().getSimpleName() + ":" + o;
    }

    static boolean same(Object x, Object y) {
        if (x == null || y == null) {
            return x == y;
        }
        if (x instanceof Num a && y instanceof Num b) {
            if (a.exact != null && b.exact != null) {
                if (a.exact.compareTo(b.exact) == 0) {
                    return true;
                }
                int scale = Math.min(a.exact.scale(), b.exact.scale());
                return scale >= 10 && a.exact.setScale(scale, RoundingMode.HALF_UP)
                        .compareTo(b.exact.setScale(scale, RoundingMode.HALF_UP)) == 0;
            }
            double p = a.approx;
            double q = b.approx;
            if (p == q || Double.isNaN(p) && Double.isNaN(q)) {
                return true;
            }
            // relative, or absolute near 0: a sum of doubles that cancels out leaves rounding residue
            return Math.abs(p - q) <= Math.max(1e-9 * Math.max(Math.abs(p), Math.abs(q)), 1e-12);
        }
        return x.equals(y);
    }

    static boolean sameRows(List<List<Object>> a, List<List<Object>> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!sameRow(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /**
     * True if every approximate (DOUBLE, REAL) cell of {@code a} has exactly the value of the
     * cell of {@code b} at its place, where {@link #sameRows} allows rounding residue: a stored
     * value one unit in the last place apart (H2 adds a DOUBLE and an exact number in decimal,
     * LibTP in binary floating point) compares equal there but not to an equality predicate later.
     */
    static boolean sameApproximateBits(List<List<Object>> a, List<List<Object>> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            for (int j = 0; j < Math.min(a.get(i).size(), b.get(i).size()); j++) {
                if (a.get(i).get(j) instanceof Num x && b.get(i).get(j) instanceof Num y && x.exact == null && y.exact == null
                        && Double.doubleToLongBits(x.approx) != Double.doubleToLongBits(y.approx)) {
                    return false;
                }
            }
        }
        return true;
    }

    static boolean sameRow(List<Object> a, List<Object> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            if (!same(a.get(i), b.get(i))) {
                return false;
            }
        }
        return true;
    }

    /** A total order on normalized cells, for comparing results as sorted multisets. */
    static int compareCells(Object x, Object y) {
        int rx = rank(x);
        int ry = rank(y);
        if (rx != ry) {
            return Integer.compare(rx, ry);
        }
        return switch (rx) {
            case 0 -> 0;
            // Fractions quantized to 9 significant digits (residue below 1e-12 to 0), as same()
            // compares: near-equal sums of doubles must sort alike in both engines' results (a
            // total order, unlike a tolerance); whole numbers exactly.
            case 1 -> Double.compare(quantized(((Num) x).approx), quantized(((Num) y).approx));
            case 2 -> ((String) x).compareTo((String) y);
            case 3 -> Boolean.compare((Boolean) x, (Boolean) y);
            case 4 -> ((LocalDate) x).compareTo((LocalDate) y);
            case 5 -> ((LocalDateTime) x).compareTo((LocalDateTime) y);
            default -> x.toString().compareTo(y.toString());
        };
    }

    private static double quantized(double v) {
        if (Double.isNaN(v) || Double.isInfinite(v) || v == Math.rint(v)) {
            return v + 0.0; // whole numbers sort exactly (2147483644 and 2147483642 differ); -0.0 as 0.0
        }
        if (Math.abs(v) < 1e-12) {
            return 0.0; // -0.0 too
        }
        return new java.math.BigDecimal(v).round(new java.math.MathContext(9)).doubleValue();
    }

    private static int rank(Object o) {
        return o == null ? 0 : o instanceof Num ? 1 : o instanceof String ? 2 : o instanceof Boolean ? 3
                : o instanceof LocalDate ? 4 : o instanceof LocalDateTime ? 5 : 6;
    }

    /**
     * Rows by their quantized cells, then, among rows equal at that precision, by their numbers'
     * full values: 99999999.980 and 100000000.000 (exact DECIMALs) are equal at 9 digits, and a
     * tie would leave their order to each engine's row order.
     */
    static final Comparator<List<Object>> ROW_ORDER = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = compareCells(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        int c = Integer.compare(a.size(), b.size());
        for (int i = 0; c == 0 && i < a.size(); i++) {
            if (a.get(i) instanceof Num x && b.get(i) instanceof Num y) {
                c = x.exact != null && y.exact != null ? x.exact.compareTo(y.exact) : Double.compare(x.approx, y.approx);
            }
        }
        return c;
    };

    static List<List<Object>> sorted(List<List<Object>> rows) {
        List<List<Object>> s = new ArrayList<>(rows);
        s.sort(ROW_ORDER);
        return s;
    }

    static String show(List<List<Object>> rows, int max) {
        StringBuilder b = new StringBuilder();
        b.append(rows.size()).append(" rows");
        for (int i = 0; i < Math.min(max, rows.size()); i++) {
            b.append("\n      ").append(showRow(rows.get(i)));
        }
        if (rows.size() > max) {
            b.append("\n      ...");
        }
        return b.toString();
    }

    /** Where two results part: the first differing row of each, or the counts. */
    static String firstDifference(List<List<Object>> a, List<List<Object>> b) {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            if (!sameRow(a.get(i), b.get(i))) {
                return "row " + i + ": LibTP " + showRow(a.get(i)) + " vs H2 " + showRow(b.get(i));
            }
        }
        return "LibTP has " + a.size() + " rows, H2 " + b.size();
    }

    static String showRow(List<Object> row) {
        StringBuilder b = new StringBuilder("(");
        for (int i = 0; i < row.size(); i++) {
            if (i > 0) {
                b.append(", ");
            }
            Object o = row.get(i);
            b.append(o instanceof String s ? "'" + s.replace("\t", "\\t") + "'" : String.valueOf(o));
        }
        return b.append(')').toString();
    }
}
