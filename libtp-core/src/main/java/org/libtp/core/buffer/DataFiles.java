package org.libtp.core.buffer;

import org.libtp.core.CorruptionException;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.Map;

/**
 * Offline work on the data files of an environment that no process has open: which files the
 * registry names, and resetting their page LSNs (Berkeley DB's {@code db_load -r lsn}) so that
 * the files can start over with a new log — after the log was lost, or to move them into
 * another environment.
 */
public final class DataFiles {
    private DataFiles() {
    }

    /** The data files the durable registry names, by file id (empty if there is no registry). */
    public static Map<Integer, String> registered(Storage storage) throws IOException {
        if (!storage.exists(FileRegistryCodec.FILE)) {
            return Map.of();
        }
        try (StorageFile f = storage.open(FileRegistryCodec.FILE, false)) {
            byte[] b = new byte[(int) f.size()];
            f.readFully(ByteBuffer.wrap(b), 0);
            return FileRegistryCodec.decode(b, storage.directory().resolve(FileRegistryCodec.FILE).toString());
        }
    }

    /**
     * Sets the LSN of every page of data file {@code name} to 0 and reseals it (checksum), then
     * forces the file. The page size is found from page 0, whose checksum only one size passes.
     * Returns the pages rewritten.
     *
     * @throws CorruptionException if a page fails its check (nothing after it is changed)
     */
    public static long resetLsns(Storage storage, String name) throws IOException {
        try (StorageFile f = storage.open(name, false)) {
            long size = f.size();
            if (size == 0) {
                return 0;
            }
            int pageSize = pageSizeOf(f, name, storage);
            byte[] page = new byte[pageSize];
            long changed = 0;
            for (long p = 0; p * pageSize < size; p++) {
                ByteBuffer bb = ByteBuffer.wrap(page);
                int n = 0;
                while (bb.hasRemaining()) {
                    int r = f.read(bb, p * pageSize + n);
                    if (r < 0) {
                        break;
                    }
                    n += r;
                }
                java.util.Arrays.fill(page, n, pageSize, (byte) 0);
                if (PageHeader.isZero(page, pageSize)) {
                    continue;
                }
                String bad = PageHeader.check(page, pageSize, p);
                if (bad != null) {
                    throw new CorruptionException("page " + p + " of data file " + storage.directory().resolve(name)
                            + " is corrupt: " + bad + "; its LSNs were reset up to page " + (p - 1)
                            + ". Restore the file from a backup");
                }
                if (PageHeader.getLong(page, PageHeader.OFF_LSN) == 0) {
                    continue;
                }
                PageHeader.putLong(page, PageHeader.OFF_LSN, 0);
                PageHeader.seal(page, pageSize, p);
                f.write(ByteBuffer.wrap(page, 0, Math.max(n, pageSize)), p * pageSize);
                changed++;
            }
            f.force();
            return changed;
        }
    }

    private static int pageSizeOf(StorageFile f, String name, Storage storage) throws IOException {
        long size = f.size();
        for (int ps = 512; ps <= 65536; ps <<= 1) {
            if (size < ps) {
                break;
            }
            byte[] page = new byte[ps];
            f.readFully(ByteBuffer.wrap(page), 0);
            if (!PageHeader.isZero(page, ps) && PageHeader.check(page, ps, 0) == null) {
                return ps;
            }
        }
        throw new CorruptionException("data file " + storage.directory().resolve(name) + ": page 0 passes its "
                + "checksum at no page size from 512 to 65536; the file is damaged or not a LibTP data file");
    }
}
