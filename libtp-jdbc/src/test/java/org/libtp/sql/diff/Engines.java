package org.libtp.sql.diff;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicLong;

/** A LibTP connection and an H2 (default mode, in memory) connection holding the same tables. */
final class Engines implements AutoCloseable {
    private static final AtomicLong H2_NAMES = new AtomicLong();

    /** A parameter value and the kind it is bound as (for a NULL: setNull with its SQL type). */
    record Param(Object value, Model.Kind kind) {
        @Override
        public String toString() {
            return value instanceof String s ? "'" + s + "'" : String.valueOf(value);
        }
    }

    /**
     * A generated statement. Its text may hold marked operands that render differently for the
     * two engines, so that both compute the same thing:
     * <ul>
     *   <li>{@code \u0001x\u0002}, an integer operand of arithmetic: {@code (x)} for LibTP,
     *       {@code CAST(x AS BIGINT)} for H2. LibTP computes integer arithmetic in BIGINT
     *       (Values: "Long for every integer result of arithmetic"), H2 in the operands' type
     *       (INT + INT overflows at 2^31); the standard leaves the precision to the implementation.</li>
     *   <li>{@code \u0003x\u0004}, an exact operand (DECIMAL, BIGINT) of arithmetic with a DOUBLE:
     *       {@code (x)} for LibTP, {@code CAST(x AS DOUBLE PRECISION)} for H2. The standard makes
     *       such a result approximate (LibTP: DOUBLE), H2 computes it exactly as DECFLOAT.</li>
     * </ul>
     */
    record Stmt(String text, List<Param> params, boolean ordered, String shape) {
        String libtp() {
            return text.replace("\u0001", "(").replace("\u0002", ")").replace("\u0003", "(").replace("\u0004", ")");
        }

        String h2() {
            return text.replace("\u0001", "CAST(").replace("\u0002", " AS BIGINT)")
                    .replace("\u0003", "CAST(").replace("\u0004", " AS DOUBLE PRECISION)");
        }
    }

    /** What a statement did: rows (a query), an update count, or an error. */
    record Outcome(List<List<Object>> rows, int count, SQLException error) {
        @Override
        public String toString() {
            if (error != null) {
                return "error " + error.getSQLState() + ": " + error.getMessage().split("\n")[0];
            }
            return rows != null ? Rows.show(rows, 12) : "update count " + count;
        }
    }

    final Connection lib;
    final Connection h2;

    Engines(Path dir) throws SQLException {
        lib = DriverManager.getConnection("jdbc:libtp:" + dir + ";create=true;durability=no_sync"); // H2 is in memory
        h2 = DriverManager.getConnection("jdbc:h2:mem:diff" + H2_NAMES.incrementAndGet() + "_" + System.nanoTime());
    }

    /** Creates {@code t} in both and fills it with {@code rows}. */
    void create(Model.Table t, List<Object[]> rows) throws SQLException {
        for (Connection c : List.of(lib, h2)) {
            try (Statement s = c.createStatement()) {
                s.execute(t.ddl);
            }
        }
        insert(t, rows);
        t.rows = new ArrayList<>(rows);
    }

    void insert(Model.Table t, List<Object[]> rows) throws SQLException {
        for (Connection c : List.of(lib, h2)) {
            try (PreparedStatement p = c.prepareStatement(t.insertSql())) {
                for (Object[] row : rows) {
                    for (Model.Col col : t.cols) {
                        Object v = row[col.index()];
                        if (v == null) {
                            p.setNull(col.index() + 1, col.kind().sqlType);
                        } else {
                            p.setObject(col.index() + 1, v);
                        }
                    }
                    p.executeUpdate();
                }
            }
        }
    }

    Outcome run(Connection c, String sql, List<Param> params) {
        try (PreparedStatement p = c.prepareStatement(sql)) {
            for (int i = 0; i < params.size(); i++) {
                Param x = params.get(i);
                if (x.value() == null) {
                    p.setNull(i + 1, x.kind().sqlType);
                } else {
                    p.setObject(i + 1, x.value());
                }
            }
            if (p.execute()) {
                try (ResultSet rs = p.getResultSet()) {
                    return new Outcome(Rows.read(rs), -1, null);
                }
            }
            return new Outcome(null, p.getUpdateCount(), null);
        } catch (SQLException e) {
            return new Outcome(null, -1, e);
        } catch (RuntimeException e) {
            return new Outcome(null, -1, new SQLException("unchecked " + e, "XXXXX", e));
        }
    }

    /** The whole table from both engines in key order, and H2's copy kept as the table's rows. */
    Outcome[] contents(Model.Table t) throws SQLException {
        String sql = "SELECT * FROM " + t.name + " ORDER BY " + t.orderByKey();
        Outcome a = run(lib, sql, List.of());
        Outcome b = run(h2, sql, List.of());
        List<Object[]> rows = new ArrayList<>();
        try (Statement s = h2.createStatement(); ResultSet rs = s.executeQuery(sql)) {
            while (rs.next()) {
                Object[] row = new Object[t.cols.size()];
                for (Model.Col col : t.cols) {
                    row[col.index()] = switch (col.kind()) {
                        case DATE -> rs.getObject(col.index() + 1, java.time.LocalDate.class);
                        case INT -> rs.getObject(col.index() + 1, Integer.class);
                        case BIGINT -> rs.getObject(col.index() + 1, Long.class);
                        default -> rs.getObject(col.index() + 1);
                    };
                }
                rows.add(row);
            }
        }
        t.rows = rows;
        return new Outcome[] {a, b};
    }

    void setAutoCommit(boolean on) throws SQLException {
        lib.setAutoCommit(on);
        h2.setAutoCommit(on);
    }

    void rollback() throws SQLException {
        lib.rollback();
        h2.rollback();
    }

    static long seed(String property) {
        String s = System.getProperty(property);
        return s == null || s.isBlank() ? new Random().nextLong() : Long.parseLong(s.trim());
    }

    @Override
    public void close() throws SQLException {
        try {
            lib.close();
        } finally {
            h2.close();
        }
    }
}
