package org.libtp.core;

/**
 * Tier two: the environment can no longer be trusted. Every later call on it fails fast. Close
 * every handle in every process and reopen the environment, which runs recovery.
 */
public abstract class EnvironmentFailureException extends LibTpException {
    private static final long serialVersionUID = 1L;

    protected EnvironmentFailureException(String message) {
        super(message);
    }

    protected EnvironmentFailureException(String message, Throwable cause) {
        super(message, cause);
    }
}
