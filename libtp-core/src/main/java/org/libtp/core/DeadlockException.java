package org.libtp.core;

/**
 * This transaction was chosen as the victim of a deadlock (a cycle in the waits-for graph): its
 * blocked lock request was refused. Abort the transaction and retry it.
 */
public class DeadlockException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public DeadlockException(String message) {
        super(message);
    }
}
