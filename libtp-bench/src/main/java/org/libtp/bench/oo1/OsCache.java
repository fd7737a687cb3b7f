package org.libtp.bench.oo1;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.concurrent.TimeUnit;

/**
 * Dropping the OS page cache for the cold runs (the paper: "all caches are cleared before each
 * test"): {@code sync}, then "1" into {@code /proc/sys/vm/drop_caches}, which needs root and a
 * writable /proc/sys (not in most containers). Dirty pages cannot be dropped, hence the sync
 * first. This drops the cache of the whole machine, not just the benchmark's files.
 */
final class OsCache {
    static final Path DROP_CACHES = Path.of("/proc/sys/vm/drop_caches");

    private OsCache() {
    }

    /** True if the page cache was dropped; false if this system does not let us. */
    static boolean drop() {
        try {
            Process p = new ProcessBuilder("sync").redirectErrorStream(true).start();
            p.getInputStream().transferTo(OutputStream.nullOutputStream());
            if (!p.waitFor(60, TimeUnit.SECONDS)) {
                p.destroyForcibly();
            }
        } catch (IOException e) {
            // no sync(1): the drop below still evicts every clean page
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            Files.write(DROP_CACHES, "1".getBytes(StandardCharsets.US_ASCII), StandardOpenOption.WRITE);
            return true;
        } catch (IOException | SecurityException e) {
            return false;
        }
    }
}
