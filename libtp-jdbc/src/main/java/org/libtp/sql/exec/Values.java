package org.libtp.sql.exec;

import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.format.DateTimeParseException;
import java.util.Arrays;

/**
 * SQL values at run time: the canonical Java objects of {@link SqlType#javaClass()}, with
 * {@code Long} for every integer result of arithmetic, and null for SQL NULL. Comparison,
 * arithmetic and conversion to a column's type, with SQL's NULL rules (an operation on NULL is
 * NULL; a comparison with NULL is unknown, null here).
 */
public final class Values {
    private Values() {
    }

    static boolean integral(Object v) {
        return v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte;
    }

    static boolean approximate(Object v) {
        return v instanceof Double || v instanceof Float;
    }

    static BigDecimal decimal(Object v) {
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (integral(v)) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        return new BigDecimal(v.toString());
    }

    /**
     * Compares two non-null values; numbers across types, strings with numbers by parsing. Numbers
     * compare by their values (the standard's "algebraic values"): a DOUBLE with an exact number
     * (BIGINT, DECIMAL) as the decimal its shortest representation denotes (Double.toString,
     * as H2 does), so DOUBLE 0.1 = 0.1 but DOUBLE 2^53 &lt; BIGINT 2^53 + 1, which rounding the
     * BIGINT to a double would call equal.
     */
    public static int compare(Object a, Object b) throws SQLException {
        if (a instanceof Number || b instanceof Number) {
            Object x = a instanceof Number ? a : number(a);
            Object y = b instanceof Number ? b : number(b);
            if (integral(x) && integral(y)) {
                return Long.compare(((Number) x).longValue(), ((Number) y).longValue());
            }
            if (approximate(x) || approximate(y)) {
                double p = ((Number) x).doubleValue();
                double q = ((Number) y).doubleValue();
                if (approximate(x) && approximate(y) || !Double.isFinite(approximate(x) ? p : q)) {
                    return Double.compare(norm(p), norm(q)); // NaN and the infinities beyond every exact value
                }
                return approximateDecimal(x).compareTo(approximateDecimal(y));
            }
            return decimal(x).compareTo(decimal(y));
        }
        if (a instanceof String s && b instanceof String t) {
            return s.compareTo(t);
        }
        if (a instanceof byte[] s && b instanceof byte[] t) {
            return Arrays.compareUnsigned(s, t);
        }
        if (a instanceof Boolean s && b instanceof Boolean t) {
            return Boolean.compare(s, t);
        }
        if (a instanceof LocalDate || b instanceof LocalDate) {
            return asDate(a).compareTo(asDate(b));
        }
        if (a instanceof LocalDateTime || b instanceof LocalDateTime) {
            return asTimestamp(a).compareTo(asTimestamp(b));
        }
        if (a instanceof LocalTime || b instanceof LocalTime) {
            return asTime(a).compareTo(asTime(b));
        }
        if (a instanceof Boolean || b instanceof Boolean) {
            return Boolean.compare(asBoolean(a), asBoolean(b));
        }
        throw SqlErrors.badValue("cannot compare " + describe(a) + " with " + describe(b));
    }

    /** An exact number as is, a finite DOUBLE or REAL as the decimal of its shortest representation. */
    private static BigDecimal approximateDecimal(Object v) {
        if (v instanceof Double d) {
            return BigDecimal.valueOf(d);
        }
        if (v instanceof Float f) {
            return new BigDecimal(Float.toString(f));
        }
        return decimal(v);
    }

    private static double norm(double d) {
        return d == 0.0 ? 0.0 : d; // -0.0 = 0.0 in SQL
    }

    static String describe(Object v) {
        return v == null ? "NULL" : v.getClass().getSimpleName() + " " + (v instanceof byte[] b ? b.length + " bytes" : v);
    }

    /** A number from a string (or the number itself). */
    static Object number(Object v) throws SQLException {
        if (v instanceof Number) {
            return v;
        }
        if (v instanceof String s) {
            String t = s.trim();
            try {
                if (t.matches("[+-]?\\d{1,18}")) {
                    return Long.parseLong(t);
                }
                return new BigDecimal(t);
            } catch (NumberFormatException e) {
                throw SqlErrors.badValue("'" + s + "' is not a number");
            }
        }
        if (v instanceof Boolean b) {
            return b ? 1L : 0L;
        }
        throw SqlErrors.badValue(describe(v) + " is not a number");
    }

    static boolean asBoolean(Object v) throws SQLException {
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        if (v instanceof String s) {
            String t = s.trim().toUpperCase(java.util.Locale.ROOT);
            if (t.equals("TRUE") || t.equals("1") || t.equals("T") || t.equals("Y") || t.equals("YES")) {
                return true;
            }
            if (t.equals("FALSE") || t.equals("0") || t.equals("F") || t.equals("N") || t.equals("NO")) {
                return false;
            }
        }
        throw SqlErrors.badValue(describe(v) + " is not a boolean");
    }

    static LocalDate asDate(Object v) throws SQLException {
        try {
            if (v instanceof LocalDate d) {
                return d;
            }
            if (v instanceof LocalDateTime t) {
                return t.toLocalDate();
            }
            if (v instanceof java.sql.Date d) {
                return d.toLocalDate();
            }
            if (v instanceof String s) {
                return LocalDate.parse(s.trim());
            }
        } catch (DateTimeParseException e) {
            throw SqlErrors.badValue("'" + v + "' is not a date (yyyy-mm-dd)");
        }
        throw SqlErrors.badValue(describe(v) + " is not a date");
    }

    static LocalTime asTime(Object v) throws SQLException {
        try {
            if (v instanceof LocalTime t) {
                return t;
            }
            if (v instanceof LocalDateTime t) {
                return t.toLocalTime();
            }
            if (v instanceof java.sql.Time t) {
                return t.toLocalTime();
            }
            if (v instanceof String s) {
                return LocalTime.parse(s.trim());
            }
        } catch (DateTimeParseException e) {
            throw SqlErrors.badValue("'" + v + "' is not a time (hh:mm:ss)");
        }
        throw SqlErrors.badValue(describe(v) + " is not a time");
    }

    static LocalDateTime asTimestamp(Object v) throws SQLException {
        try {
            if (v instanceof LocalDateTime t) {
                return t;
            }
            if (v instanceof LocalDate d) {
                return d.atStartOfDay();
            }
            if (v instanceof java.sql.Timestamp t) {
                return t.toLocalDateTime();
            }
            if (v instanceof String s) {
                return LocalDateTime.parse(s.trim().replace(' ', 'T'));
            }
        } catch (DateTimeParseException e) {
            throw SqlErrors.badValue("'" + v + "' is not a timestamp (yyyy-mm-dd hh:mm:ss)");
        }
        throw SqlErrors.badValue(describe(v) + " is not a timestamp");
    }

    /** {@code v} converted to a value of column type {@code t} (assignment: INSERT, UPDATE, CAST). */
    public static Object convert(Object v, ColumnType t, String column) throws SQLException {
        if (v == null) {
            return null;
        }
        Object c;
        try {
            c = switch (t.type()) {
                case BOOLEAN -> asBoolean(v);
                case SMALLINT -> (short) exact(v, Short.MIN_VALUE, Short.MAX_VALUE, column);
                case INTEGER -> (int) exact(v, Integer.MIN_VALUE, Integer.MAX_VALUE, column);
                case BIGINT -> exact(v, Long.MIN_VALUE, Long.MAX_VALUE, column);
                case REAL -> ((Number) number(v)).floatValue();
                case DOUBLE -> ((Number) number(v)).doubleValue();
                case DECIMAL -> decimal(number(v));
                case CHAR, VARCHAR -> v instanceof byte[] ? new String((byte[]) v, java.nio.charset.StandardCharsets.UTF_8)
                        : string(v);
                case VARBINARY -> v instanceof byte[] b ? b : v instanceof String s ? hex(s, column) : fail(v, t);
                case DATE -> asDate(v);
                case TIME -> asTime(v);
                case TIMESTAMP -> asTimestamp(v);
            };
            return t.check(c);
        } catch (IllegalArgumentException e) {
            // 22001 string data too long; a number that does not fit its type is 22003 (out of range)
            boolean numeric = switch (t.type()) {
                case SMALLINT, INTEGER, BIGINT, REAL, DOUBLE, DECIMAL -> true;
                default -> false;
            };
            throw new java.sql.SQLDataException("value for column " + column + ": " + e.getMessage(),
                    numeric ? "22003" : "22001");
        }
    }

    private static Object fail(Object v, ColumnType t) throws SQLException {
        throw SqlErrors.badValue("cannot convert " + describe(v) + " to " + t.type());
    }

    private static byte[] hex(String s, String column) throws SQLException {
        try {
            return java.util.HexFormat.of().parseHex(s);
        } catch (IllegalArgumentException e) {
            throw SqlErrors.badValue("'" + s + "' is not hexadecimal bytes for column " + column);
        }
    }

    /** A value as a character string (CAST to VARCHAR, ||, LIKE): TRUE and FALSE as the standard spells them. */
    static String string(Object v) {
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE";
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof LocalDateTime t) {
            return t.toString().replace('T', ' ');
        }
        if (v instanceof byte[] b) {
            return java.util.HexFormat.of().formatHex(b);
        }
        return v.toString();
    }

    private static long exact(Object v, long min, long max, String column) throws SQLException {
        Object n = number(v);
        long l;
        if (integral(n)) {
            l = ((Number) n).longValue();
        } else {
            BigDecimal d = decimal(n instanceof Double || n instanceof Float ? BigDecimal.valueOf(((Number) n).doubleValue()) : n)
                    .setScale(0, java.math.RoundingMode.HALF_UP);
            if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
                throw SqlErrors.outOfRange("value " + v + " out of range for column " + column);
            }
            l = d.longValueExact();
        }
        if (l < min || l > max) {
            throw SqlErrors.outOfRange("value " + v + " out of range for column " + column);
        }
        return l;
    }

    // ------------------------------------------------------------------ arithmetic

    static Object arith(char op, Object a, Object b) throws SQLException {
        if (a == null || b == null) {
            return null;
        }
        Object x = number(a);
        Object y = number(b);
        if (integral(x) && integral(y)) {
            long p = ((Number) x).longValue();
            long q = ((Number) y).longValue();
            try {
                return switch (op) {
                    case '+' -> Math.addExact(p, q);
                    case '-' -> Math.subtractExact(p, q);
                    case '*' -> Math.multiplyExact(p, q);
                    case '/' -> {
                        if (q == 0) {
                            throw SqlErrors.divisionByZero();
                        }
                        if (p == Long.MIN_VALUE && q == -1) {
                            throw new ArithmeticException(); // -2^63 / -1 = 2^63: Java's / wraps it silently
                        }
                        yield p / q;
                    }
                    default -> {
                        if (q == 0) {
                            throw SqlErrors.divisionByZero();
                        }
                        yield p % q;
                    }
                };
            } catch (ArithmeticException e) {
                throw SqlErrors.outOfRange("numeric overflow in " + p + " " + op + " " + q);
            }
        }
        if (approximate(x) || approximate(y)) {
            double p = ((Number) x).doubleValue();
            double q = ((Number) y).doubleValue();
            if ((op == '/' || op == '%') && q == 0) {
                throw SqlErrors.divisionByZero(); // for DOUBLE too (the standard, H2), not Infinity or NaN
            }
            return switch (op) {
                case '+' -> p + q;
                case '-' -> p - q;
                case '*' -> p * q;
                case '/' -> p / q;
                default -> p % q;
            };
        }
        BigDecimal p = decimal(x);
        BigDecimal q = decimal(y);
        return switch (op) {
            case '+' -> p.add(q);
            case '-' -> p.subtract(q);
            case '*' -> p.multiply(q);
            case '/' -> {
                if (q.signum() == 0) {
                    throw SqlErrors.divisionByZero();
                }
                yield p.divide(q, Math.max(p.scale(), 10), java.math.RoundingMode.HALF_UP);
            }
            default -> {
                if (q.signum() == 0) {
                    throw SqlErrors.divisionByZero();
                }
                yield p.remainder(q);
            }
        };
    }

    static Object negate(Object v) throws SQLException {
        if (v == null) {
            return null;
        }
        Object n = number(v);
        if (integral(n)) {
            long l = ((Number) n).longValue();
            if (l == Long.MIN_VALUE) {
                throw SqlErrors.outOfRange("numeric overflow negating " + l);
            }
            return -l;
        }
        if (n instanceof Double d) {
            return -d;
        }
        if (n instanceof Float f) {
            return -f;
        }
        return decimal(n).negate();
    }

}
