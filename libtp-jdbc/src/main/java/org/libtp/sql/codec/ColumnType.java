package org.libtp.sql.codec;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.Arrays;

/**
 * The type of a column: a {@link SqlType} with its parameters.
 *
 * <ul>
 *   <li>{@code length}: for CHAR and VARCHAR the (maximum) length in characters, counted as
 *       UTF-16 chars ({@link String#length()}, as H2 counts them); for VARBINARY the maximum
 *       length in bytes; for DECIMAL the precision, 1..{@link #MAX_DECIMAL_PRECISION}; 0 for
 *       every other type.</li>
 *   <li>{@code scale}: for DECIMAL the number of digits after the decimal point,
 *       0..precision; 0 for every other type. TIME and TIMESTAMP always keep nanoseconds.</li>
 * </ul>
 *
 * <p>{@link #check(Object)} turns a value into the canonical value the codecs store.
 *
 * @param type   the SQL type
 * @param length length, maximum length or precision (see above)
 * @param scale  DECIMAL scale, else 0
 */
public record ColumnType(SqlType type, int length, int scale) {
    /** The largest DECIMAL precision: every unscaled value fits in 16 bytes. */
    public static final int MAX_DECIMAL_PRECISION = 38;

    /**
     * Validates the parameters.
     *
     * @throws IllegalArgumentException if {@code type} is null or a parameter is out of range
     */
    public ColumnType {
        if (type == null) {
            throw new IllegalArgumentException("column type: SQL type is null");
        }
        switch (type) {
            case CHAR, VARCHAR, VARBINARY -> {
                if (length < 1) {
                    throw new IllegalArgumentException(type + " length " + length + " is not positive");
                }
                if (scale != 0) {
                    throw new IllegalArgumentException(type + " takes no scale, got scale " + scale);
                }
            }
            case DECIMAL -> {
                if (length < 1 || length > MAX_DECIMAL_PRECISION) {
                    throw new IllegalArgumentException("DECIMAL precision " + length
                            + " is not in 1.." + MAX_DECIMAL_PRECISION);
                }
                if (scale < 0 || scale > length) {
                    throw new IllegalArgumentException("DECIMAL(" + length + ") scale " + scale
                            + " is not in 0.." + length);
                }
            }
            default -> {
                if (length != 0) {
                    throw new IllegalArgumentException(type + " takes no length, got length " + length);
                }
                if (scale != 0) {
                    throw new IllegalArgumentException(type + " takes no scale, got scale " + scale);
                }
            }
        }
    }

    /**
     * A type without parameters (BOOLEAN, the integers, REAL, DOUBLE, DATE, TIME, TIMESTAMP).
     *
     * @param type the SQL type
     * @return the column type
     * @throws IllegalArgumentException for CHAR, VARCHAR, VARBINARY and DECIMAL, which need
     *                                  {@link #character}, {@link #varchar}, {@link #varbinary}
     *                                  or {@link #decimal}
     */
    public static ColumnType of(SqlType type) {
        if (type != null && type.hasLength()) {
            throw new IllegalArgumentException(type + " needs a length; use the factory taking one");
        }
        return new ColumnType(type, 0, 0);
    }

    /**
     * {@code CHAR(n)}.
     *
     * @param n the length in characters, at least 1
     * @return the column type
     */
    public static ColumnType character(int n) {
        return new ColumnType(SqlType.CHAR, n, 0);
    }

    /**
     * {@code VARCHAR(n)}.
     *
     * @param n the maximum length in characters, at least 1
     * @return the column type
     */
    public static ColumnType varchar(int n) {
        return new ColumnType(SqlType.VARCHAR, n, 0);
    }

    /**
     * {@code VARBINARY(n)}.
     *
     * @param n the maximum length in bytes, at least 1
     * @return the column type
     */
    public static ColumnType varbinary(int n) {
        return new ColumnType(SqlType.VARBINARY, n, 0);
    }

    /**
     * {@code DECIMAL(p, s)}.
     *
     * @param p the precision, 1..38
     * @param s the scale, 0..p
     * @return the column type
     */
    public static ColumnType decimal(int p, int s) {
        return new ColumnType(SqlType.DECIMAL, p, s);
    }

    /**
     * The canonical value of {@code v} for this column, or an exception if it does not fit.
     *
     * <ul>
     *   <li>null is returned as null;</li>
     *   <li>a value not of {@link SqlType#javaClass()} is refused (no conversion here);</li>
     *   <li>CHAR: refused if longer than {@code length}, else padded with spaces to it;</li>
     *   <li>VARCHAR, VARBINARY: refused if longer than {@code length};</li>
     *   <li>DECIMAL: rounded to {@code scale} digits ({@link RoundingMode#HALF_UP}); refused if it
     *       then has more than {@code length} digits; returned with scale exactly
     *       {@code scale};</li>
     *   <li>REAL, DOUBLE: returned as is (NaN, infinities and -0.0 included).</li>
     * </ul>
     *
     * @param v a value or null
     * @return the canonical value (the same object when nothing changes)
     * @throws IllegalArgumentException if {@code v} is of the wrong class or too long or large
     */
    public Object check(Object v) {
        if (v == null) {
            return null;
        }
        if (!type.javaClass().isInstance(v)) {
            throw new IllegalArgumentException("a " + this + " value must be a "
                    + type.javaClass().getSimpleName() + ", not a " + v.getClass().getName());
        }
        switch (type) {
            case CHAR -> {
                String s = (String) v;
                if (s.length() > length) {
                    throw new IllegalArgumentException("string of " + s.length()
                            + " characters is too long for " + this);
                }
                if (s.length() == length) {
                    return s;
                }
                char[] padded = new char[length];
                s.getChars(0, s.length(), padded, 0);
                Arrays.fill(padded, s.length(), length, ' ');
                return new String(padded);
            }
            case VARCHAR -> {
                String s = (String) v;
                if (s.length() > length) {
                    throw new IllegalArgumentException("string of " + s.length()
                            + " characters is too long for " + this);
                }
                return s;
            }
            case VARBINARY -> {
                byte[] b = (byte[]) v;
                if (b.length > length) {
                    throw new IllegalArgumentException("binary string of " + b.length
                            + " bytes is too long for " + this);
                }
                return b;
            }
            case DECIMAL -> {
                return checkDecimal((BigDecimal) v);
            }
            default -> {
                return v;
            }
        }
    }

    private BigDecimal checkDecimal(BigDecimal d) {
        if (d.signum() == 0) {
            return d.scale() == scale ? d : BigDecimal.valueOf(0, scale);
        }
        // |d| is in [10^(intDigits-1), 10^intDigits). Decide the extreme cases before rescaling,
        // which would otherwise build a huge BigInteger for, say, 1E+999999999 or 1E-999999999.
        long intDigits = (long) d.precision() - d.scale();
        if (intDigits > length - scale) {
            throw new IllegalArgumentException(d.toString().length() > 60
                    ? "value of " + intDigits + " integer digits does not fit " + this
                    : "value " + d + " does not fit " + this);
        }
        if (intDigits < -(long) scale - 1) {
            return BigDecimal.valueOf(0, scale); // |d| < 10^-(scale+2): rounds to zero
        }
        BigDecimal r = d.setScale(scale, RoundingMode.HALF_UP);
        if (r.precision() > length) {
            throw new IllegalArgumentException("value " + d + " has " + r.precision()
                    + " digits at scale " + scale + ", too many for " + this);
        }
        return r;
    }

    /**
     * The SQL spelling of this type, e.g. {@code VARCHAR(20)} or {@code DECIMAL(10,2)}.
     *
     * @return the type as SQL writes it
     */
    @Override
    public String toString() {
        return switch (type) {
            case CHAR, VARCHAR, VARBINARY -> type + "(" + length + ")";
            case DECIMAL -> "DECIMAL(" + length + "," + scale + ")";
            default -> type.toString();
        };
    }
}
