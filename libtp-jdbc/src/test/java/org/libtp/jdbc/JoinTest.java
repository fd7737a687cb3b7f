package org.libtp.jdbc;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import java.sql.SQLException;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** INNER and LEFT joins: by key or index lookups per outer row where the ON condition allows, else by reading whole. */
class JoinTest extends SqlTestBase {

    @BeforeEach
    void tables() throws SQLException {
        run("CREATE TABLE dept (id INT PRIMARY KEY, name VARCHAR(10))");
        run("CREATE TABLE emp (id INT PRIMARY KEY, dept INT, name VARCHAR(10))");
        run("CREATE INDEX emp_dept ON emp (dept)");
        run("INSERT INTO dept VALUES (1, 'eng'), (2, 'ops'), (3, 'empty')");
        run("INSERT INTO emp VALUES (10, 1, 'ann'), (11, 1, 'bob'), (12, 2, 'cy'), (13, NULL, 'dee'), (14, 9, 'eve')");
    }

    @Test
    void innerAndLeftJoinsByLookup() throws SQLException {
        String inner = "SELECT e.name, d.name FROM emp e JOIN dept d ON d.id = e.dept ORDER BY e.id";
        assertEquals(List.of("ann|eng", "bob|eng", "cy|ops"), rows(inner));
        assertTrue(rows("EXPLAIN " + inner).get(0).contains("join by primary key lookup of DEPT (ID) per row"),
                rows("EXPLAIN " + inner).toString());
        String left = "SELECT d.name, e.name FROM dept d LEFT JOIN emp e ON e.dept = d.id ORDER BY d.id, e.id";
        assertEquals(List.of("eng|ann", "eng|bob", "ops|cy", "empty|null"), rows(left));
        assertTrue(rows("EXPLAIN " + left).get(0).contains("left join by index EMP_DEPT range of EMP (DEPT equal) per row"),
                rows("EXPLAIN " + left).toString());
        String whole = "SELECT d.name, e.name FROM dept d JOIN emp e ON e.name > d.name ORDER BY d.id, e.id";
        assertTrue(rows("EXPLAIN " + whole).get(0).contains("join by reading EMP whole"));
        assertEquals(rows("SELECT d.name, e.name FROM dept d, emp e WHERE e.name > d.name ORDER BY d.id, e.id"), rows(whole));
        assertEquals(List.of("eng|2", "ops|1", "empty|0"),
                rows("SELECT d.name, COUNT(e.id) FROM dept d LEFT JOIN emp e ON e.dept = d.id GROUP BY d.id, d.name ORDER BY d.id"));
    }
}
