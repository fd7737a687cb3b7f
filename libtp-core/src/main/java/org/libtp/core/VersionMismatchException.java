package org.libtp.core;

/**
 * A file does not carry the magic number, format version or layout fingerprint this version of
 * LibTP expects. The message names the file and both values. Nothing was changed: the file was
 * written by another program or another LibTP version.
 */
public class VersionMismatchException extends EnvironmentFailureException {
    private static final long serialVersionUID = 1L;

    public VersionMismatchException(String message) {
        super(message);
    }
}
