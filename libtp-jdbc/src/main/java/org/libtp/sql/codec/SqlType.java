package org.libtp.sql.codec;

import java.math.BigDecimal;
import java.sql.Types;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * The SQL data types of the SQL layer, each with the one Java class its values have once
 * canonical ({@link ColumnType#check(Object)}) and the {@link java.sql.Types} constant JDBC
 * metadata reports for it.
 *
 * <pre>
 *  type       Java class                 java.sql.Types   parameters (ColumnType)
 *  ---------  -------------------------  ---------------  ------------------------------
 *  BOOLEAN    Boolean                    BOOLEAN          -
 *  SMALLINT   Short                      SMALLINT         -
 *  INTEGER    Integer                    INTEGER          -
 *  BIGINT     Long                       BIGINT           -
 *  REAL       Float                      REAL             -
 *  DOUBLE     Double                     DOUBLE           -
 *  DECIMAL    java.math.BigDecimal       DECIMAL          precision 1..38, scale 0..precision
 *  CHAR       String (space-padded)      CHAR             length in UTF-16 chars
 *  VARCHAR    String                     VARCHAR          max length in UTF-16 chars
 *  VARBINARY  byte[]                     VARBINARY        max length in bytes
 *  DATE       java.time.LocalDate        DATE             -
 *  TIME       java.time.LocalTime        TIME             - (nanosecond resolution)
 *  TIMESTAMP  java.time.LocalDateTime    TIMESTAMP        - (nanosecond resolution)
 * </pre>
 */
public enum SqlType {
    BOOLEAN(Boolean.class, Types.BOOLEAN),
    SMALLINT(Short.class, Types.SMALLINT),
    INTEGER(Integer.class, Types.INTEGER),
    BIGINT(Long.class, Types.BIGINT),
    REAL(Float.class, Types.REAL),
    DOUBLE(Double.class, Types.DOUBLE),
    DECIMAL(BigDecimal.class, Types.DECIMAL),
    CHAR(String.class, Types.CHAR),
    VARCHAR(String.class, Types.VARCHAR),
    VARBINARY(byte[].class, Types.VARBINARY),
    DATE(LocalDate.class, Types.DATE),
    TIME(LocalTime.class, Types.TIME),
    TIMESTAMP(LocalDateTime.class, Types.TIMESTAMP);

    private final Class<?> javaClass;
    private final int jdbcType;

    SqlType(Class<?> javaClass, int jdbcType) {
        this.javaClass = javaClass;
        this.jdbcType = jdbcType;
    }

    /**
     * The canonical Java class of a non-null value of this type.
     *
     * @return e.g. {@code Integer.class} for INTEGER, {@code byte[].class} for VARBINARY
     */
    public Class<?> javaClass() {
        return javaClass;
    }

    /**
     * The JDBC type code of this type.
     *
     * @return a {@link java.sql.Types} constant
     */
    public int jdbcType() {
        return jdbcType;
    }

    /**
     * Whether a {@link ColumnType} of this type takes a length (CHAR, VARCHAR, VARBINARY) or a
     * precision (DECIMAL).
     *
     * @return true for CHAR, VARCHAR, VARBINARY and DECIMAL
     */
    public boolean hasLength() {
        return this == CHAR || this == VARCHAR || this == VARBINARY || this == DECIMAL;
    }
}
