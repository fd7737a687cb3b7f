package org.libtp.core.storage;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

/**
 * All file I/O of the library's durable files (log files, data files) goes through this
 * interface, so tests can inject torn writes, short writes, failed forces and crashes — as
 * SQLite's crash VFS and Lucene's MockDirectoryWrapper do. Region files (shared memory) are not
 * durable and are mapped directly.
 *
 * <p>Names are file names inside one directory (the environment home).
 */
public interface Storage {

    /** The directory this storage works in. */
    Path directory();

    /**
     * Opens {@code name}, creating it if {@code create} and absent.
     *
     * @throws java.nio.file.NoSuchFileException if absent and not {@code create}
     */
    StorageFile open(String name, boolean create) throws IOException;

    boolean exists(String name) throws IOException;

    /** File names in the directory starting with {@code prefix}, sorted. */
    List<String> list(String prefix) throws IOException;

    void delete(String name) throws IOException;

    /** Atomically renames {@code from} to {@code to}, replacing it. */
    void rename(String from, String to) throws IOException;

    /** Forces the directory itself, so created, renamed and deleted entries survive a crash. */
    void forceDirectory() throws IOException;

    /**
     * Replaces {@code name} with {@code content} atomically and durably: written to
     * {@code name.new}, forced, renamed over {@code name}, directory forced. A crash leaves either
     * the old file or the new one, never a mix. A failure before the rename deletes
     * {@code name.new}.
     */
    default void replaceFile(String name, java.nio.ByteBuffer content) throws IOException {
        String tmp = name + ".new";
        delete(tmp);
        try {
            try (StorageFile f = open(tmp, true)) {
                f.write(content, 0);
                f.force();
            }
            rename(tmp, name);
        } catch (IOException | RuntimeException e) {
            try {
                delete(tmp); // a failed replacement leaves the old file and nothing else
            } catch (IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        forceDirectory();
    }
}
