package org.libtp.core;

/**
 * This process asked to open an environment with settings that differ from those it is running
 * with in other processes (open mode, page size, cache size, table sizes). The message names
 * each setting with the running value and this process's. Open with the running values, or close
 * the environment in every process first. Nothing was changed.
 */
public class ConfigMismatchException extends LibTpException {
    private static final long serialVersionUID = 1L;

    public ConfigMismatchException(String message) {
        super(message);
    }
}
