package org.libtp.jdbc;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;

/** Conversions of SQL values (the engine's Java objects) to what JDBC getters return. */
final class Convert {
    private Convert() {
    }

    static SQLDataException cannot(Object v, String to) {
        return new SQLDataException("cannot convert " + (v == null ? "NULL" : v.getClass().getSimpleName() + " " + text(v))
                + " to " + to, "22018");
    }

    static String text(Object v) {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d.toPlainString();
        }
        if (v instanceof byte[] b) {
            return java.util.HexFormat.of().formatHex(b);
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate() + " " + t.toLocalTime();
        }
        if (v instanceof Boolean b) {
            return b ? "TRUE" : "FALSE"; // as SQL writes them (and as CAST to VARCHAR gives)
        }
        return v.toString();
    }

    static long toLong(Object v, long min, long max, String to) throws SQLException {
        if (v == null) {
            return 0;
        }
        long l;
        if (v instanceof Long || v instanceof Integer || v instanceof Short || v instanceof Byte) {
            l = ((Number) v).longValue();
        } else if (v instanceof Boolean b) {
            l = b ? 1 : 0;
        } else {
            BigDecimal d;
            try {
                d = v instanceof BigDecimal b ? b : v instanceof Number n ? BigDecimal.valueOf(n.doubleValue())
                        : new BigDecimal(v.toString().trim());
            } catch (NumberFormatException e) {
                throw cannot(v, to);
            }
            d = d.setScale(0, RoundingMode.DOWN);
            if (d.compareTo(BigDecimal.valueOf(min)) < 0 || d.compareTo(BigDecimal.valueOf(max)) > 0) {
                throw new SQLDataException(text(v) + " is out of range for " + to, "22003");
            }
            l = d.longValue();
        }
        if (l < min || l > max) {
            throw new SQLDataException(text(v) + " is out of range for " + to, "22003");
        }
        return l;
    }

    static double toDouble(Object v) throws SQLException {
        if (v == null) {
            return 0;
        }
        if (v instanceof Number n) {
            return n.doubleValue();
        }
        if (v instanceof Boolean b) {
            return b ? 1 : 0;
        }
        try {
            return Double.parseDouble(v.toString().trim());
        } catch (NumberFormatException e) {
            throw cannot(v, "double");
        }
    }

    static BigDecimal toDecimal(Object v) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof BigDecimal d) {
            return d;
        }
        if (v instanceof Long || v instanceof Integer || v instanceof Short) {
            return BigDecimal.valueOf(((Number) v).longValue());
        }
        if (v instanceof Number n) {
            return BigDecimal.valueOf(n.doubleValue());
        }
        try {
            return new BigDecimal(v.toString().trim());
        } catch (NumberFormatException e) {
            throw cannot(v, "BigDecimal");
        }
    }

    static boolean toBoolean(Object v) throws SQLException {
        if (v == null) {
            return false;
        }
        if (v instanceof Boolean b) {
            return b;
        }
        if (v instanceof Number n) {
            return n.doubleValue() != 0;
        }
        String s = v.toString().trim();
        if (s.equalsIgnoreCase("true") || s.equals("1")) {
            return true;
        }
        if (s.equalsIgnoreCase("false") || s.equals("0")) {
            return false;
        }
        throw cannot(v, "boolean");
    }

    static byte[] toBytes(Object v) throws SQLException {
        if (v == null) {
            return null;
        }
        if (v instanceof byte[] b) {
            return b.clone();
        }
        if (v instanceof String s) {
            return s.getBytes(StandardCharsets.UTF_8);
        }
        throw cannot(v, "byte[]");
    }

    static LocalDate toLocalDate(Object v) throws SQLException {
        if (v == null || v instanceof LocalDate) {
            return (LocalDate) v;
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalDate();
        }
        try {
            return LocalDate.parse(v.toString().trim());
        } catch (RuntimeException e) {
            throw cannot(v, "date");
        }
    }

    static LocalTime toLocalTime(Object v) throws SQLException {
        if (v == null || v instanceof LocalTime) {
            return (LocalTime) v;
        }
        if (v instanceof LocalDateTime t) {
            return t.toLocalTime();
        }
        try {
            return LocalTime.parse(v.toString().trim());
        } catch (RuntimeException e) {
            throw cannot(v, "time");
        }
    }

    static LocalDateTime toLocalDateTime(Object v) throws SQLException {
        if (v == null || v instanceof LocalDateTime) {
            return (LocalDateTime) v;
        }
        if (v instanceof LocalDate d) {
            return d.atStartOfDay();
        }
        try {
            return LocalDateTime.parse(v.toString().trim().replace(' ', 'T'));
        } catch (RuntimeException e) {
            throw cannot(v, "timestamp");
        }
    }

    /** {@code getObject(i, type)}. */
    @SuppressWarnings("unchecked")
    static <T> T to(Object v, Class<T> type) throws SQLException {
        if (type == null) {
            throw new SQLException("type must not be null", "HY009");
        }
        if (v == null) {
            return null;
        }
        Object r;
        if (type.isInstance(v) && !(v instanceof byte[])) {
            r = v;
        } else if (type == String.class) {
            r = text(v);
        } else if (type == Long.class) {
            r = toLong(v, Long.MIN_VALUE, Long.MAX_VALUE, "Long");
        } else if (type == Integer.class) {
            r = (int) toLong(v, Integer.MIN_VALUE, Integer.MAX_VALUE, "Integer");
        } else if (type == Short.class) {
            r = (short) toLong(v, Short.MIN_VALUE, Short.MAX_VALUE, "Short");
        } else if (type == Byte.class) {
            r = (byte) toLong(v, Byte.MIN_VALUE, Byte.MAX_VALUE, "Byte");
        } else if (type == Double.class) {
            r = toDouble(v);
        } else if (type == Float.class) {
            r = (float) toDouble(v);
        } else if (type == BigDecimal.class) {
            r = toDecimal(v);
        } else if (type == java.math.BigInteger.class) {
            r = toDecimal(v).toBigInteger();
        } else if (type == Boolean.class) {
            r = toBoolean(v);
        } else if (type == byte[].class) {
            r = toBytes(v);
        } else if (type == LocalDate.class) {
            r = toLocalDate(v);
        } else if (type == LocalTime.class) {
            r = toLocalTime(v);
        } else if (type == LocalDateTime.class) {
            r = toLocalDateTime(v);
        } else if (type == OffsetDateTime.class) {
            r = toLocalDateTime(v).atOffset(ZoneOffset.UTC);
        } else if (type == java.time.Instant.class) {
            r = toLocalDateTime(v).toInstant(ZoneOffset.UTC);
        } else if (type == java.sql.Date.class) {
            r = java.sql.Date.valueOf(toLocalDate(v));
        } else if (type == java.sql.Time.class) {
            r = java.sql.Time.valueOf(toLocalTime(v));
        } else if (type == java.sql.Timestamp.class) {
            r = java.sql.Timestamp.valueOf(toLocalDateTime(v));
        } else {
            throw cannot(v, type.getName());
        }
        return (T) r;
    }

    /** A parameter value from a JDBC setter as an engine value. */
    static Object param(Object x) throws SQLException {
        if (x == null || x instanceof String || x instanceof Long || x instanceof Integer || x instanceof Short
                || x instanceof Double || x instanceof Float || x instanceof BigDecimal || x instanceof Boolean
                || x instanceof LocalDate || x instanceof LocalTime || x instanceof LocalDateTime) {
            return x;
        }
        if (x instanceof byte[] b) {
            return b.clone();
        }
        if (x instanceof Byte b) {
            return (short) b;
        }
        if (x instanceof java.math.BigInteger b) {
            return new BigDecimal(b);
        }
        if (x instanceof java.sql.Date d) {
            return d.toLocalDate();
        }
        if (x instanceof java.sql.Time t) {
            return t.toLocalTime();
        }
        if (x instanceof java.sql.Timestamp t) {
            return t.toLocalDateTime();
        }
        if (x instanceof java.util.Date d) {
            return LocalDateTime.ofInstant(d.toInstant(), ZoneOffset.UTC);
        }
        if (x instanceof OffsetDateTime o) {
            return o.withOffsetSameInstant(ZoneOffset.UTC).toLocalDateTime();
        }
        if (x instanceof java.time.Instant i) {
            return LocalDateTime.ofInstant(i, ZoneOffset.UTC);
        }
        if (x instanceof Character c) {
            return c.toString();
        }
        throw new SQLDataException("parameters of type " + x.getClass().getName() + " are not supported", "22018");
    }
}
