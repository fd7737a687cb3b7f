package org.libtp.core;

/**
 * The environment failed while this transaction (or auto-committed operation) was in flight — a
 * process died where its work could not be repaired in place — and the handle reopens it
 * transparently: the recovery of the reopen rolls the transaction back. The handles stay valid;
 * abort the transaction (a no-op now) and retry it in a new one, as after a deadlock.
 *
 * <p>{@link #commitInDoubt()}: the failure came during the commit itself, after its commit record
 * may have reached the log; the transaction may have committed or not. Retrying it blindly could
 * apply it twice: read to find out (JDBC: SQLState 08007, "transaction resolution unknown").
 */
public class EnvironmentReopenedException extends OperationFailureException {
    private static final long serialVersionUID = 1L;
    private final boolean commitInDoubt;

    public EnvironmentReopenedException(String message, boolean commitInDoubt, Throwable cause) {
        super(message, cause);
        this.commitInDoubt = commitInDoubt;
    }

    /** True if the transaction failed during its commit: it may have committed. */
    public boolean commitInDoubt() {
        return commitInDoubt;
    }
}
