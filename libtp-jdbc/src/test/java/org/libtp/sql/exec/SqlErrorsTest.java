package org.libtp.sql.exec;

import org.junit.jupiter.api.Test;
import org.libtp.core.CapacityExceededException;

import java.sql.SQLException;
import java.sql.SQLTransientException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** What a JDBC user reads for an engine capacity error: 53000, and the setting by its URL name. */
class SqlErrorsTest {
    @Test
    void aFullLockTableNamesTheUrlOption() {
        SQLException e = SqlErrors.map(new CapacityExceededException("lock table full (20000 locks); raise"
                + " LockConfig.maxLocks (takes effect when the environment is next created)"));
        assertInstanceOf(SQLTransientException.class, e);
        assertEquals("53000", e.getSQLState());
        assertTrue(e.getMessage().contains("max_locks"), e.getMessage());
        SQLException t = SqlErrors.map(new CapacityExceededException("transaction table full (256 transactions)"));
        assertEquals("53000", t.getSQLState());
        assertTrue(!t.getMessage().contains("max_locks"), t.getMessage());
    }
}
