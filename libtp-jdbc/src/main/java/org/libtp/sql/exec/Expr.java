package org.libtp.sql.exec;

import java.sql.SQLException;

/** A compiled expression: evaluated over the statement's row array and its parameters. */
@FunctionalInterface
interface Expr {
    Object eval(Object[] row, Object[] params) throws SQLException;
}
