package org.libtp.core;

/**
 * Tier one: the operation failed and its transaction must be aborted, but the environment is
 * still usable (deadlock victim, lock timeout, full table...).
 */
public abstract class OperationFailureException extends LibTpException {
    private static final long serialVersionUID = 1L;

    protected OperationFailureException(String message) {
        super(message);
    }

    protected OperationFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
