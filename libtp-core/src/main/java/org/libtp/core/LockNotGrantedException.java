package org.libtp.core;

/**
 * A lock request made with NOWAIT could not be granted at once. The transaction may go on
 * (it holds what it held before) or abort.
 */
public class LockNotGrantedException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public LockNotGrantedException(String message) {
        super(message);
    }
}
