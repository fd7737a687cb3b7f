package org.libtp.sql.exec;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.SelfDeadlockException;
import java.sql.SQLDataException;
import java.sql.SQLException;
import java.sql.SQLFeatureNotSupportedException;
import java.sql.SQLIntegrityConstraintViolationException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLSyntaxErrorException;
import java.sql.SQLTransactionRollbackException;
import java.sql.SQLTransientException;

/**
 * The SQL layer's errors as the {@link SQLException} subclasses and SQLStates that pools,
 * frameworks and retry loops understand, and the mapping of the engine's exceptions to them.
 * Checked here once: no engine exception reaches a JDBC caller unmapped.
 */
public final class SqlErrors {
    private SqlErrors() {
    }

    /** 54001 (program limit exceeded): a statement nested too deeply to compile or run. */
    public static SQLException tooComplex(String what) {
        return new SQLException("statement too complex: " + what + "; simplify it (for example, a long OR chain "
                + "as IN (...), nested expressions split into steps)", "54001");
    }

    public static SQLSyntaxErrorException syntax(String msg) {
        return new SQLSyntaxErrorException(msg, "42000");
    }

    public static SQLSyntaxErrorException noTable(String name) {
        return new SQLSyntaxErrorException("table " + name + " does not exist", "42S02");
    }

    public static SQLSyntaxErrorException noColumn(String name) {
        return new SQLSyntaxErrorException("column " + name + " does not exist", "42S22");
    }

    public static SQLSyntaxErrorException tableExists(String name) {
        return new SQLSyntaxErrorException("table " + name + " already exists", "42S01");
    }

    public static SQLFeatureNotSupportedException unsupported(String what) {
        return new SQLFeatureNotSupportedException(what + " is not supported by LibTP's SQL subset (see docs/sql.md)",
                "0A000");
    }

    public static SQLDataException data(String msg) {
        return new SQLDataException(msg, "22000");
    }

    public static SQLDataException outOfRange(String msg) {
        return new SQLDataException(msg, "22003");
    }

    public static SQLDataException divisionByZero() {
        return new SQLDataException("division by zero", "22012");
    }

    public static SQLDataException badValue(String msg) {
        return new SQLDataException(msg, "22018");
    }

    public static SQLIntegrityConstraintViolationException duplicate(String msg) {
        return new SQLIntegrityConstraintViolationException(msg, "23505");
    }

    public static SQLIntegrityConstraintViolationException notNull(String column) {
        return new SQLIntegrityConstraintViolationException("NULL not allowed for column " + column, "23502");
    }

    /**
     * The engine's exception as a JDBC one: deadlock victims and lock timeouts are
     * {@code SQLTransactionRollbackException} 40001 (retry the transaction), and so is a transaction
     * rolled back by a transparent reopen of a failed environment (08007 if it failed in its
     * commit: it may have committed); damage and a failed environment that could not be reopened
     * are {@code SQLNonTransientConnectionException} (08xxx: reopen); a full disk is
     * a transient error (53100); misuse is 42000/HY000 with the engine's message.
     */
    public static SQLException map(RuntimeException e) {
        if (e instanceof SelfDeadlockException) {
            // The engine's advice is the record API's (pass the transaction instead of null); over
            // JDBC the other transaction is another connection's, used by the same thread.
            String m = e.getMessage();
            int advice = m == null ? -1 : m.indexOf(". Do this in transaction");
            if (advice > 0) {
                m = m.substring(0, advice);
            }
            return new SQLTransactionRollbackException(m + ". Over JDBC: another connection this thread uses has "
                    + "that transaction open (auto-commit off); commit or roll it back first, or do both in one "
                    + "connection: retried as it is, this statement fails the same way", "40001", e);
        }
        if (e instanceof DeadlockException || e instanceof LockTimeoutException) {
            return new SQLTransactionRollbackException(e.getMessage(), "40001", e);
        }
        if (e instanceof org.libtp.core.EnvironmentReopenedException r) {
            // The environment failed and was reopened under the connection: the transaction was
            // rolled back (retry it), unless it failed in its commit (it may have committed).
            return r.commitInDoubt()
                    ? new java.sql.SQLTransientConnectionException(e.getMessage(), "08007", e)
                    : new SQLTransactionRollbackException(e.getMessage(), "40001", e);
        }
        if (e instanceof RunRecoveryException) {
            return new SQLNonTransientConnectionException(e.getMessage(), "08006", e);
        }
        if (e instanceof CorruptionException) {
            return new SQLNonTransientConnectionException(e.getMessage(), "08001", e);
        }
        if (e instanceof OutOfSpaceException) {
            return new SQLTransientException(e.getMessage(), "53100", e);
        }
        if (e instanceof DatabaseNotFoundException) {
            return new SQLSyntaxErrorException(e.getMessage(), "42S02", e);
        }
        if (e instanceof CapacityExceededException) {
            String m = e.getMessage();
            if (m != null && m.startsWith("lock table full")) {
                // The engine names its configuration; a JDBC user sets it in the URL.
                m += "; over JDBC: the URL option max_locks. A transaction holds a read lock on every page it"
                        + " reads until it ends: keep the ranges it reads short";
            }
            return new SQLTransientException(m, "53000", e);
        }
        return new SQLException(e.getMessage() == null ? e.toString() : e.getMessage(), "HY000", e);
    }
}
