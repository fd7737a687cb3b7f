package org.libtp.core;

/**
 * A lock request waited longer than its timeout. Abort the transaction (and retry, or raise
 * the timeout: {@code LockConfig.lockTimeoutMillis}).
 */
public class LockTimeoutException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public LockTimeoutException(String message) {
        super(message);
    }
}
