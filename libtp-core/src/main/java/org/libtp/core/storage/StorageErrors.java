package org.libtp.core.storage;

import java.io.IOException;

/** Classifies the I/O errors the storage layer passes up. */
public final class StorageErrors {
    private StorageErrors() {
    }

    /**
     * True if {@code e} (or a cause) reports a file system without room: ENOSPC ("No space left on
     * device") or EDQUOT ("Disk quota exceeded"), as the JDK words them.
     */
    public static boolean isNoSpace(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            String m = t.getMessage();
            if (t instanceof IOException && m != null
                    && (m.contains("No space left on device") || m.contains("Disk quota exceeded"))) {
                return true;
            }
        }
        return false;
    }

    /** Free bytes of the file system holding {@code path} for an unprivileged user, or -1 if unknown. */
    public static long usableSpace(java.nio.file.Path path) {
        try {
            return java.nio.file.Files.getFileStore(path).getUsableSpace();
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
