package org.libtp.sql.schema;

import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The stored table definition: round trip, frozen type ids (they are on disk), damage refused, docs in step. */
class SchemaCodecTest {
    static TableDef sample() {
        return new TableDef("T", 7, 2, List.of(
                new Column("ID", ColumnType.of(SqlType.BIGINT), true, null, true),
                new Column("NAME", new ColumnType(SqlType.VARCHAR, 20, 0), false, "'x'", false),
                new Column("AMOUNT", new ColumnType(SqlType.DECIMAL, 12, 2), false, null, false)),
                new int[] {0}, new boolean[] {false},
                List.of(new IndexDef("T_NAME", 9, true, new int[] {1, 2}, new boolean[] {false, true})));
    }

    @Test
    void roundTrip() {
        TableDef t = sample();
        assertEquals(t, SchemaCodec.decode(SchemaCodec.encode(t), "T"));
    }

    @Test
    void typeIdsAreFrozenAndDocumented() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        String line = "0 BOOLEAN,\n1 SMALLINT, 2 INTEGER, 3 BIGINT, 4 REAL, 5 DOUBLE, 6 DECIMAL, 7 CHAR, 8 VARCHAR, 9 VARBINARY,\n"
                + "10 DATE, 11 TIME, 12 TIMESTAMP";
        assertTrue(doc.contains(line), "docs/formats.md lacks the SqlType ids");
        SqlType[] t = SqlType.values();
        assertEquals(List.of("BOOLEAN", "SMALLINT", "INTEGER", "BIGINT", "REAL", "DOUBLE", "DECIMAL", "CHAR", "VARCHAR",
                "VARBINARY", "DATE", "TIME", "TIMESTAMP"), java.util.Arrays.stream(t).map(Enum::name).toList());
    }

    @Test
    void damageIsACorruptionException() {
        byte[] b = SchemaCodec.encode(sample());
        for (int cut = 0; cut < b.length; cut++) {
            byte[] part = java.util.Arrays.copyOf(b, cut);
            assertThrows(CorruptionException.class, () -> SchemaCodec.decode(part, "T"));
        }
        byte[] extra = java.util.Arrays.copyOf(b, b.length + 1);
        assertThrows(CorruptionException.class, () -> SchemaCodec.decode(extra, "T"));
        byte[] format = b.clone();
        format[1] = 9;
        assertThrows(CorruptionException.class, () -> SchemaCodec.decode(format, "T"));
    }
}
