package org.libtp.core;

/**
 * A fixed-size shared table is full (process slots, region directory, and later locks or
 * transactions). Shared tables are sized at environment creation; the message names the
 * configuration setting to raise. The operation changed nothing.
 */
public class CapacityExceededException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public CapacityExceededException(String message) {
        super(message);
    }
}
