package org.libtp.core;

/**
 * A file system had no room for a write LibTP had to make: a shared region at open, a log file or
 * the next stretch of one, a data page written back or a data file growing. The message names the
 * file, the size asked for and what to do. Nothing was half-done: the operation that needed the
 * space failed cleanly (its transaction must abort; anything created for it was removed), and the
 * environment keeps working: retry once space has been freed on that file system. Space problems
 * that leave the environment in doubt (a failed log force, a rollback that cannot be logged) are
 * {@link RunRecoveryException}s instead, with this as their cause.
 */
public class OutOfSpaceException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public OutOfSpaceException(String message) {
        super(message);
    }

    public OutOfSpaceException(String message, Throwable cause) {
        super(message, cause);
    }
}
