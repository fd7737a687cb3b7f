package org.libtp.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

/** The upsert form: INSERT ... ON CONFLICT (primary key) DO NOTHING | DO UPDATE SET ... EXCLUDED.col. */
class UpsertTest extends SqlTestBase {

    @BeforeEach
    void tables() throws SQLException {
        run("CREATE TABLE kv (k VARCHAR(10) PRIMARY KEY, v INT, hits INT DEFAULT 0, tag VARCHAR(5) UNIQUE)");
    }

    @Test
    void insertsUpdatesOrSkips() throws SQLException {
        try (PreparedStatement p = c.prepareStatement("INSERT INTO kv (k, v) VALUES (?, ?) "
                + "ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v, hits = kv.hits + 1")) {
            for (String[] kv : new String[][] {{"a", "1"}, {"b", "2"}, {"a", "3"}, {"a", "4"}}) {
                p.setString(1, kv[0]);
                p.setInt(2, Integer.parseInt(kv[1]));
                assertEquals(1, p.executeUpdate());
            }
        }
        assertEquals(List.of("a|4|2|null", "b|2|0|null"), rows("SELECT * FROM kv ORDER BY k"));
        assertEquals(1, run("INSERT INTO kv (k, v) VALUES ('b', 9), ('c', 3) ON CONFLICT DO NOTHING"));
        assertEquals(List.of("a|4|2|null", "b|2|0|null", "c|3|0|null"), rows("SELECT * FROM kv ORDER BY k"));
        assertEquals(0, run("INSERT INTO kv (k, v) VALUES ('a', 100) ON CONFLICT (k) DO UPDATE SET v = EXCLUDED.v WHERE kv.v > 10"));
        run("UPDATE kv SET tag = 'x' WHERE k = 'a'");
        assertEquals("23505", assertThrows(SQLException.class,
                () -> run("INSERT INTO kv (k, v, tag) VALUES ('b', 1, 'x') ON CONFLICT (k) DO UPDATE SET tag = EXCLUDED.tag"))
                .getSQLState(), "a unique index still holds");
        assertEquals("0A000", assertThrows(SQLException.class,
                () -> run("INSERT INTO kv (k, v) VALUES ('a', 1) ON CONFLICT (v) DO NOTHING")).getSQLState());
    }
}
