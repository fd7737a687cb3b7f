package org.libtp.core;

/**
 * The environment was marked failed (for example a process died while holding a latch, so the
 * shared structures that latch guarded may be half-updated). Berkeley DB's DB_RUNRECOVERY.
 * Close every handle in every process, then reopen the environment: the first process to open
 * it alone rebuilds the shared regions (and runs recovery).
 */
public class RunRecoveryException extends EnvironmentFailureException {
    private static final long serialVersionUID = 1L;

    public RunRecoveryException(String message) {
        super(message);
    }

    public RunRecoveryException(String message, Throwable cause) {
        super(message, cause);
    }
}
