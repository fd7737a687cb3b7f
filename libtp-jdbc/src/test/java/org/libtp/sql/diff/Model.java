package org.libtp.sql.diff;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

/**
 * The tables of the differential tests and their seeded random content: the same DDL and rows go
 * to LibTP and to H2. {@code T} has an INT primary key, {@code U} a composite one (VARCHAR, INT),
 * {@code V} the same columns as U keyed by {@code (k2 DESC, k1)} (the planner's descending paths).
 */
final class Model {
    private Model() {
    }

    /** The value kinds the generator types its expressions with. */
    enum Kind {
        INT(java.sql.Types.INTEGER), BIGINT(java.sql.Types.BIGINT), DEC(java.sql.Types.DECIMAL),
        DBL(java.sql.Types.DOUBLE), STR(java.sql.Types.VARCHAR), BOOL(java.sql.Types.BOOLEAN), DATE(java.sql.Types.DATE);

        final int sqlType;

        Kind(int sqlType) {
            this.sqlType = sqlType;
        }

        boolean integral() {
            return this == INT || this == BIGINT;
        }

        boolean numeric() {
            return integral() || this == DEC || this == DBL;
        }

        /** Kinds that compare with each other without a conversion that H2 could refuse. */
        boolean comparableWith(Kind o) {
            return this == o || numeric() && o.numeric();
        }
    }

    record Col(String name, Kind kind, int index, boolean key, int maxLength) {
    }

    /** A table: its columns, primary key (in key order) and current rows (as the engines store them). */
    static final class Table {
        final String name;
        final String ddl;
        final List<Col> cols;
        final List<String> pk;
        List<Object[]> rows = new ArrayList<>();

        Table(String name, String ddl, List<Col> cols, List<String> pk) {
            this.name = name;
            this.ddl = ddl;
            this.cols = cols;
            this.pk = pk;
        }

        Col col(String n) {
            for (Col c : cols) {
                if (c.name().equals(n)) {
                    return c;
                }
            }
            throw new IllegalArgumentException(n);
        }

        String insertSql() {
            return "INSERT INTO " + name + " VALUES (" + "?, ".repeat(cols.size() - 1) + "?)";
        }

        String orderByKey() {
            return String.join(", ", pk);
        }
    }

    static Table t(String name) {
        List<Col> c = List.of(new Col("id", Kind.INT, 0, true, 0), new Col("a", Kind.INT, 1, false, 0),
                new Col("b", Kind.BIGINT, 2, false, 0), new Col("c", Kind.STR, 3, false, 20),
                new Col("d", Kind.DBL, 4, false, 0), new Col("e", Kind.DEC, 5, false, 0),
                new Col("f", Kind.BOOL, 6, false, 0), new Col("g", Kind.DATE, 7, false, 0));
        return new Table(name, "CREATE TABLE " + name + " (id INT PRIMARY KEY, a INT, b BIGINT, c VARCHAR(20), d DOUBLE,"
                + " e DECIMAL(10,2), f BOOLEAN, g DATE)", c, List.of("id"));
    }

    static Table u(String name, boolean descending) {
        List<Col> c = List.of(new Col("k1", Kind.STR, 0, true, 10), new Col("k2", Kind.INT, 1, true, 0),
                new Col("x", Kind.INT, 2, false, 0), new Col("y", Kind.STR, 3, false, 20),
                new Col("z", Kind.DEC, 4, false, 0));
        String key = descending ? "PRIMARY KEY (k2 DESC, k1)" : "PRIMARY KEY (k1, k2)";
        return new Table(name, "CREATE TABLE " + name + " (k1 VARCHAR(10), k2 INT, x INT, y VARCHAR(20), z DECIMAL(12,3), "
                + key + ")", c, descending ? List.of("k2", "k1") : List.of("k1", "k2"));
    }

    // ------------------------------------------------------------------ values

    /**
     * Strings for VARCHAR(20) columns: accents, CJK, an emoji (a surrogate pair), halfwidth
     * katakana and U+FFFD (above the surrogates in UTF-16 but below the emoji in code points, so
     * an order by code points or UTF-8 would differ from the UTF-16 order both engines use),
     * LIKE's % and _, a quote, a backslash (H2's default LIKE escape), padding, a tab.
     */
    static final String[] STRINGS = {"", "a", "b", "ab", "abc", "ABC", "Abc", "abd", "a%b", "a_b", "%", "_", "100%",
        "x_y_z", "éclair", "Ébène", "naïve", "日本語", "中文", "😀", "a😀b", "ｶﾀｶﾅ", "\uFFFD", " pad ", "tab\t", "ß",
        "straße", "İstanbul", "O'Brien", "zz", "Z", "a\\b", "!x", "  ", "Ab%_c"};

    /** Strings for the VARCHAR(10) key column k1. */
    static final String[] KEYS = {"", "a", "ab", "abc", "B", "é", "日本", "😀", "ｶ", "a%", "_x", "zz", "\uFFFD", "O'B", " a"};

    static final double[] DOUBLES = {0.0, 1.0, -1.0, 0.5, -2.25, 0.1, 1e300, 1e15, 123.456, -7.0, 3.0, 1.0 / 3, 2.5e-8,
        -1e-300};

    static String randomString(Random r, int max) {
        if (r.nextInt(3) > 0) {
            String s = STRINGS[r.nextInt(STRINGS.length)];
            return s.length() <= max ? s : s.substring(0, max);
        }
        String alphabet = "abcAB%_é😀 z";
        StringBuilder b = new StringBuilder();
        int n = r.nextInt(Math.min(max, 7));
        while (b.length() < n) {
            int cp = alphabet.codePointAt(alphabet.offsetByCodePoints(0, r.nextInt(alphabet.codePointCount(0, alphabet.length()))));
            if (b.length() + Character.charCount(cp) <= max) {
                b.appendCodePoint(cp);
            } else {
                break;
            }
        }
        return b.toString();
    }

    static Object value(Random r, Col c, boolean nulls) {
        if (nulls && !c.key() && r.nextInt(100) < 15) {
            return null;
        }
        return switch (c.kind()) {
            case INT -> switch (r.nextInt(14)) {
                case 0 -> Integer.MIN_VALUE;
                case 1 -> Integer.MAX_VALUE;
                case 2 -> 0;
                default -> r.nextInt(41) - 20;
            };
            case BIGINT -> switch (r.nextInt(14)) {
                case 0 -> Long.MIN_VALUE;
                case 1 -> Long.MAX_VALUE;
                case 2 -> 0L;
                case 3 -> r.nextLong();
                default -> (long) (r.nextInt(2001) - 1000);
            };
            case DEC -> switch (r.nextInt(12)) {
                case 0 -> new BigDecimal("99999999.99");
                case 1 -> new BigDecimal("-99999999.99");
                case 2 -> new BigDecimal("0.01");
                case 3 -> new BigDecimal("-0.01");
                case 4 -> BigDecimal.ZERO.setScale(2);
                default -> BigDecimal.valueOf(r.nextInt(200_001) - 100_000, 2);
            };
            case DBL -> r.nextInt(3) == 0 ? (r.nextInt(81) - 40) / 4.0 : DOUBLES[r.nextInt(DOUBLES.length)];
            case STR -> c.key() ? KEYS[r.nextInt(KEYS.length)] : randomString(r, c.maxLength());
            case BOOL -> r.nextBoolean();
            case DATE -> switch (r.nextInt(14)) {
                case 0 -> LocalDate.of(1, 1, 1);
                case 1 -> LocalDate.of(9999, 12, 31);
                case 2 -> LocalDate.of(1970, 1, 1);
                case 3 -> LocalDate.of(2000, 2, 29);
                default -> LocalDate.of(2020, 1, 1).plusDays(r.nextInt(800));
            };
        };
    }

    /** An id for table T: mostly small, sometimes an INT extreme. */
    static int id(Random r) {
        return switch (r.nextInt(25)) {
            case 0 -> Integer.MIN_VALUE + r.nextInt(2);
            case 1 -> Integer.MAX_VALUE - r.nextInt(2);
            default -> r.nextInt(141) - 30;
        };
    }

    /** {@code n} rows for {@code t} with keys not in {@code taken} (which receives them). */
    static List<Object[]> rows(Random r, Table t, int n, Set<List<Object>> taken, List<Object[]> keySource) {
        List<Object[]> out = new ArrayList<>();
        int guard = 0;
        while (out.size() < n && guard++ < n * 50) {
            Object[] row = new Object[t.cols.size()];
            for (Col c : t.cols) {
                row[c.index()] = value(r, c, true);
            }
            if (t.pk.size() == 1) {
                row[0] = id(r);
            } else {
                row[1] = r.nextInt(12) == 0 ? (r.nextBoolean() ? Integer.MIN_VALUE : Integer.MAX_VALUE) : r.nextInt(21) - 5;
                if (keySource != null && !keySource.isEmpty() && r.nextBoolean()) { // V shares keys with U
                    Object[] k = keySource.get(r.nextInt(keySource.size()));
                    row[0] = k[0];
                    row[1] = k[1];
                }
                if (row[2] != null && r.nextInt(10) < 7) {
                    row[2] = r.nextInt(141) - 30; // x: often an id of T, for joins
                }
            }
            List<Object> key = new ArrayList<>();
            for (String p : t.pk) {
                key.add(row[t.col(p).index()]);
            }
            if (taken.add(key)) {
                out.add(row);
            }
        }
        return out;
    }

    static Set<List<Object>> keys(Table t) {
        Set<List<Object>> s = new HashSet<>();
        for (Object[] row : t.rows) {
            List<Object> key = new ArrayList<>();
            for (String p : t.pk) {
                key.add(row[t.col(p).index()]);
            }
            s.add(key);
        }
        return s;
    }
}
