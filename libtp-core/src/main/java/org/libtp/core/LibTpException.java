package org.libtp.core;

/**
 * Root of every exception LibTP throws. All are unchecked and fall in two tiers:
 * <ul>
 *   <li>{@link OperationFailureException}: this operation failed; the transaction (if any) must
 *       abort, the environment is still good.</li>
 *   <li>{@link EnvironmentFailureException}: the environment can no longer be trusted; every
 *       later call fails fast until all processes close it and it is reopened (recovery).</li>
 * </ul>
 * Open-time problems that are the caller's to fix (bad directory, wrong file format) have their
 * own subclasses and leave nothing changed.
 */
public abstract class LibTpException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    protected LibTpException(String message) {
        super(message);
    }

    protected LibTpException(String message, Throwable cause) {
        super(message, cause);
    }
}
