package org.libtp.jdbc;

import org.junit.jupiter.api.Test;

import java.sql.DatabaseMetaData;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DatabaseMetaData as tools (schema browsers, ORMs' validators) read it. */
class MetaDataTest extends SqlTestBase {
    private static List<String> col(ResultSet r, String... labels) throws SQLException {
        List<String> out = new ArrayList<>();
        try (r) {
            while (r.next()) {
                StringBuilder b = new StringBuilder();
                for (String l : labels) {
                    b.append(b.length() == 0 ? "" : "|").append(r.getString(l));
                }
                out.add(b.toString());
            }
        }
        return out;
    }

    @Test
    void tablesColumnsKeysAndIndexes() throws SQLException {
        run("CREATE TABLE emp (id INT PRIMARY KEY, name VARCHAR(20) NOT NULL, dept INT, email VARCHAR(40) UNIQUE)");
        run("CREATE INDEX emp_dept ON emp (dept DESC, name)");
        DatabaseMetaData m = c.getMetaData();
        assertTrue(col(m.getTables(null, null, "%", null), "TABLE_NAME").contains("EMP"));
        assertEquals(List.of("ID|INTEGER|NO", "NAME|VARCHAR|NO", "DEPT|INTEGER|YES", "EMAIL|VARCHAR|YES"),
                col(m.getColumns(null, null, "EMP", "%"), "COLUMN_NAME", "TYPE_NAME", "IS_NULLABLE"));
        assertEquals(List.of("ID|1"), col(m.getPrimaryKeys(null, null, "EMP"), "COLUMN_NAME", "KEY_SEQ"));
        List<String> idx = col(m.getIndexInfo(null, null, "EMP", false, true), "INDEX_NAME", "COLUMN_NAME",
                "NON_UNIQUE", "ASC_OR_DESC", "ORDINAL_POSITION");
        assertTrue(idx.contains("PRIMARY_KEY|ID|FALSE|A|1"), idx.toString());
        assertTrue(idx.contains("EMP_DEPT|DEPT|TRUE|D|1") && idx.contains("EMP_DEPT|NAME|TRUE|A|2"), idx.toString());
        assertTrue(idx.stream().anyMatch(s -> s.endsWith("|EMAIL|FALSE|A|1")), idx.toString());
        List<String> unique = col(m.getIndexInfo(null, null, "EMP", true, true), "INDEX_NAME");
        assertTrue(!unique.contains("EMP_DEPT"), unique.toString());
        assertTrue(!col(m.getTypeInfo(), "TYPE_NAME").isEmpty());
        assertEquals("LibTP", m.getDatabaseProductName());
        assertTrue(m.getDriverVersion() != null && !m.getDriverVersion().isEmpty());
    }
}
