package org.libtp.core;

/**
 * The database named does not exist, or the handle used refers to a database that was removed
 * or renamed (by this or another process) after the handle was opened. Open it again by its
 * current name (with {@code allowCreate} to create it). The operation changed nothing.
 */
public class DatabaseNotFoundException extends OperationFailureException {
    private static final long serialVersionUID = 1L;

    public DatabaseNotFoundException(String message) {
        super(message);
    }
}
