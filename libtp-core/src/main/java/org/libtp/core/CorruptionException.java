package org.libtp.core;

/**
 * A file's content failed a check (checksum, truncated file, impossible value). The message
 * names the file and the position. Nothing was changed by the call that found it.
 */
public class CorruptionException extends EnvironmentFailureException {
    private static final long serialVersionUID = 1L;

    public CorruptionException(String message) {
        super(message);
    }

    public CorruptionException(String message, Throwable cause) {
        super(message, cause);
    }
}
