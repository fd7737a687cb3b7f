package org.libtp.sql.codec;

import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The parameter rules of {@link ColumnType} and the value rules of {@link ColumnType#check}. */
class ColumnTypeTest {

    private static void assertRefused(ColumnType t, Object v, String messagePart) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> t.check(v));
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    private static void assertBadType(SqlType s, int length, int scale, String messagePart) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new ColumnType(s, length, scale));
        assertTrue(e.getMessage().contains(messagePart), e.getMessage());
    }

    @Test
    void sqlTypes() {
        assertEquals(Boolean.class, SqlType.BOOLEAN.javaClass());
        assertEquals(Short.class, SqlType.SMALLINT.javaClass());
        assertEquals(Integer.class, SqlType.INTEGER.javaClass());
        assertEquals(Long.class, SqlType.BIGINT.javaClass());
        assertEquals(Float.class, SqlType.REAL.javaClass());
        assertEquals(Double.class, SqlType.DOUBLE.javaClass());
        assertEquals(BigDecimal.class, SqlType.DECIMAL.javaClass());
        assertEquals(String.class, SqlType.CHAR.javaClass());
        assertEquals(String.class, SqlType.VARCHAR.javaClass());
        assertEquals(byte[].class, SqlType.VARBINARY.javaClass());
        assertEquals(LocalDate.class, SqlType.DATE.javaClass());
        assertEquals(LocalTime.class, SqlType.TIME.javaClass());
        assertEquals(LocalDateTime.class, SqlType.TIMESTAMP.javaClass());
        assertEquals(Types.VARBINARY, SqlType.VARBINARY.jdbcType());
        assertEquals(Types.DECIMAL, SqlType.DECIMAL.jdbcType());
        assertEquals(Types.REAL, SqlType.REAL.jdbcType());
        assertEquals(Types.TIMESTAMP, SqlType.TIMESTAMP.jdbcType());
        assertEquals(Types.CHAR, SqlType.CHAR.jdbcType());
        assertEquals(Types.BOOLEAN, SqlType.BOOLEAN.jdbcType());
    }

    @Test
    void parameters() {
        assertBadType(null, 0, 0, "null");
        assertBadType(SqlType.VARCHAR, 0, 0, "length 0");
        assertBadType(SqlType.CHAR, -3, 0, "length -3");
        assertBadType(SqlType.VARBINARY, 4, 1, "scale 1");
        assertBadType(SqlType.DECIMAL, 0, 0, "precision 0");
        assertBadType(SqlType.DECIMAL, 39, 0, "precision 39");
        assertBadType(SqlType.DECIMAL, 5, 6, "scale 6");
        assertBadType(SqlType.DECIMAL, 5, -1, "scale -1");
        assertBadType(SqlType.INTEGER, 4, 0, "length 4");
        assertBadType(SqlType.TIMESTAMP, 0, 9, "scale 9");
        assertThrows(IllegalArgumentException.class, () -> ColumnType.of(SqlType.VARCHAR));
        assertEquals(new ColumnType(SqlType.DECIMAL, 38, 38), ColumnType.decimal(38, 38));
        assertEquals(new ColumnType(SqlType.BIGINT, 0, 0), ColumnType.of(SqlType.BIGINT));
        assertEquals("DECIMAL(10,2)", ColumnType.decimal(10, 2).toString());
        assertEquals("VARCHAR(7)", ColumnType.varchar(7).toString());
        assertEquals("CHAR(1)", ColumnType.character(1).toString());
        assertEquals("VARBINARY(3)", ColumnType.varbinary(3).toString());
        assertEquals("DATE", ColumnType.of(SqlType.DATE).toString());
    }

    @Test
    void nullAndClass() {
        for (SqlType s : SqlType.values()) {
            ColumnType t = s.hasLength() ? new ColumnType(s, 5, 0) : ColumnType.of(s);
            assertNull(t.check(null));
            assertRefused(t, new Object(), "java.lang.Object");
        }
        assertRefused(ColumnType.of(SqlType.BIGINT), 1, "java.lang.Integer");
        assertRefused(ColumnType.of(SqlType.INTEGER), (short) 1, "java.lang.Short");
        assertRefused(ColumnType.of(SqlType.DOUBLE), 1.0f, "java.lang.Float");
        assertRefused(ColumnType.decimal(5, 0), 1L, "java.lang.Long");
        assertRefused(ColumnType.varchar(5), 'c', "java.lang.Character");
        assertRefused(ColumnType.of(SqlType.TIMESTAMP), LocalDate.EPOCH, "java.time.LocalDate");
        Long v = 5L;
        assertSame(v, ColumnType.of(SqlType.BIGINT).check(v));
    }

    @Test
    void strings() {
        ColumnType vc = ColumnType.varchar(3);
        assertEquals("", vc.check(""));
        assertEquals("abc", vc.check("abc"));
        assertEquals("\ud83d\ude00", vc.check("\ud83d\ude00"));
        assertRefused(vc, "abcd", "4 characters");
        assertRefused(vc, "ab\ud83d\ude00", "VARCHAR(3)");
        ColumnType ch = ColumnType.character(4);
        assertEquals("ab  ", ch.check("ab"));
        assertEquals("    ", ch.check(""));
        assertEquals("abcd", ch.check("abcd"));
        assertEquals("\0   ", ch.check("\0"));
        assertRefused(ch, "abcde", "CHAR(4)");
        ColumnType vb = ColumnType.varbinary(2);
        byte[] two = {0, -1};
        assertSame(two, vb.check(two));
        assertEquals(0, ((byte[]) vb.check(new byte[0])).length);
        assertRefused(vb, new byte[3], "3 bytes");
    }

    @Test
    void decimals() {
        ColumnType d = ColumnType.decimal(5, 2);
        assertEquals(new BigDecimal("1.00"), d.check(BigDecimal.ONE));
        assertEquals(new BigDecimal("1.24"), d.check(new BigDecimal("1.235")));
        assertEquals(new BigDecimal("-1.24"), d.check(new BigDecimal("-1.235")));
        assertEquals(new BigDecimal("1.23"), d.check(new BigDecimal("1.2349999")));
        assertEquals(new BigDecimal("999.99"), d.check(new BigDecimal("999.99")));
        assertEquals(new BigDecimal("-999.99"), d.check(new BigDecimal("-999.994")));
        assertRefused(d, new BigDecimal("999.995"), "DECIMAL(5,2)");
        assertRefused(d, new BigDecimal("1000"), "DECIMAL(5,2)");
        assertRefused(d, new BigDecimal("-1000"), "DECIMAL(5,2)");
        assertRefused(d, new BigDecimal("1E+999999999"), "DECIMAL(5,2)");
        assertEquals(new BigDecimal("0.00"), d.check(new BigDecimal("1E-999999999")));
        assertEquals(new BigDecimal("0.00"), d.check(new BigDecimal("-0.004")));
        assertEquals(new BigDecimal("0.01"), d.check(new BigDecimal("0.005")));
        assertEquals(new BigDecimal("0.00"), d.check(new BigDecimal("0E+5")));
        assertEquals(new BigDecimal("100.00"), d.check(new BigDecimal("1E+2")));
        ColumnType wide = ColumnType.decimal(38, 0);
        BigDecimal max = new BigDecimal("99999999999999999999999999999999999999");
        assertEquals(max, wide.check(max));
        assertEquals(max.negate(), wide.check(max.negate()));
        assertRefused(wide, max.add(BigDecimal.ONE), "DECIMAL(38,0)");
        assertRefused(wide, new BigDecimal("99999999999999999999999999999999999999.5"), "DECIMAL(38,0)");
        ColumnType frac = ColumnType.decimal(3, 3);
        assertEquals(new BigDecimal("0.999"), frac.check(new BigDecimal("0.9994")));
        assertRefused(frac, new BigDecimal("0.9995"), "DECIMAL(3,3)");
        assertRefused(frac, BigDecimal.ONE, "DECIMAL(3,3)");
        assertEquals(2, ((BigDecimal) d.check(BigDecimal.ZERO)).scale());
    }

    @Test
    void floatingPointAndTimesPassThrough() {
        ColumnType dbl = ColumnType.of(SqlType.DOUBLE);
        assertEquals(Long.MIN_VALUE, Double.doubleToRawLongBits((Double) dbl.check(-0.0)));
        assertTrue(((Double) dbl.check(Double.NaN)).isNaN());
        assertEquals(Double.NEGATIVE_INFINITY, dbl.check(Double.NEGATIVE_INFINITY));
        ColumnType real = ColumnType.of(SqlType.REAL);
        assertEquals(0x8000_0000, Float.floatToRawIntBits((Float) real.check(-0.0f)));
        assertEquals(Float.POSITIVE_INFINITY, real.check(Float.POSITIVE_INFINITY));
        assertEquals(LocalTime.MAX, ColumnType.of(SqlType.TIME).check(LocalTime.MAX));
        assertEquals(LocalDateTime.MIN, ColumnType.of(SqlType.TIMESTAMP).check(LocalDateTime.MIN));
        assertEquals(true, ColumnType.of(SqlType.BOOLEAN).check(true));
    }
}
