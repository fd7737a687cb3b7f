package org.libtp.jdbc;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertThrows;

/** A connection to a new environment per test, and the small helpers the SQL tests share. */
abstract class SqlTestBase {
    @TempDir
    Path dir;
    Connection c;

    @BeforeEach
    void connect() throws SQLException {
        c = DriverManager.getConnection("jdbc:libtp:" + dir.resolve("db") + ";create=true");
    }

    @AfterEach
    void disconnect() throws SQLException {
        c.close();
    }

    /** The rows of a query, each its columns' getString joined by '|'. */
    List<String> rows(String sql) throws SQLException {
        try (Statement s = c.createStatement(); ResultSet r = s.executeQuery(sql)) {
            return rows(r);
        }
    }

    /** The rows of a prepared query, as {@link #rows(String)}. */
    static List<String> rows(java.sql.PreparedStatement p) throws SQLException {
        try (ResultSet r = p.executeQuery()) {
            return rows(r);
        }
    }

    private static List<String> rows(ResultSet r) throws SQLException {
        List<String> out = new ArrayList<>();
        int n = r.getMetaData().getColumnCount();
        while (r.next()) {
            StringBuilder b = new StringBuilder();
            for (int i = 1; i <= n; i++) {
                b.append(i > 1 ? "|" : "").append(r.getString(i));
            }
            out.add(b.toString());
        }
        return out;
    }

    /** Executes any statement; returns its update count (-1 for a query). */
    int run(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.execute(sql) ? -1 : s.getUpdateCount();
        }
    }

    int update(String sql) throws SQLException {
        try (Statement s = c.createStatement()) {
            return s.executeUpdate(sql);
        }
    }

    SQLException fails(String sql) {
        return assertThrows(SQLException.class, () -> run(sql));
    }

    String state(String sql) {
        return fails(sql).getSQLState();
    }
}
