package org.libtp.core;

/**
 * The environment directory or one of its files cannot be used: missing, not a directory, not
 * writable, or an I/O error while opening. The message names the path; nothing was changed.
 */
public class EnvironmentAccessException extends LibTpException {
    private static final long serialVersionUID = 1L;

    public EnvironmentAccessException(String message) {
        super(message);
    }

    public EnvironmentAccessException(String message, Throwable cause) {
        super(message, cause);
    }
}
