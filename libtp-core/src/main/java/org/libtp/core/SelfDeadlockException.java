package org.libtp.core;

/**
 * A lock request waits for a transaction that the requesting thread itself last used (for
 * example an auto-commit call made while the same thread's explicit transaction holds the
 * page): it could only be granted after that transaction ends, which the waiting thread cannot
 * do. Refused at once instead of hanging. Use that transaction for the call, or end it first;
 * retrying as it is cannot succeed.
 */
public class SelfDeadlockException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public SelfDeadlockException(String message) {
        super(message);
    }
}
