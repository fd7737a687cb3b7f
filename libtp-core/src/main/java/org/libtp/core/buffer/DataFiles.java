package org.libtp.core.buffer;

import org.libtp.core.CorruptionException;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Offline work on the data files of an environment that no process has open: which files the
 * registry names, and resetting their page LSNs (Berkeley DB's {@code db_load -r lsn}) so that
 * the files can start over with a new log — after the log was lost, or to move them into
 * another environment.
 */
public final class DataFiles {
    /** Name of the durable file registry ({@code __libtp.files}). */
    public static final String REGISTRY = FileRegistryCodec.FILE;

    private DataFiles() {
    }

    /**
     * Checks page {@code pageNo}'s image as read from its data file: null if it is good or was
     * never written (all zeros), else what is wrong (a torn or damaged page).
     */
    public static String checkPage(byte[] page, int pageSize, long pageNo) {
        return PageHeader.check(page, pageSize, pageNo);
    }

    /** Names of the files in the directory that start with a data file header, sorted. */
    public static List<String> withHeaders(Storage storage) throws IOException {
        List<String> out = new ArrayList<>();
        for (String name : storage.list("")) {
            if (name.startsWith("__libtp") || name.startsWith("log.")) {
                continue;
            }
            byte[] h = new byte[DataFileHeader.SIZE];
            try (StorageFile f = storage.open(name, false)) {
                if (f.size() < DataFileHeader.SIZE) {
                    continue;
                }
                f.readFully(ByteBuffer.wrap(h), 0);
            } catch (IOException notAFile) {
                continue; // a directory, or gone meanwhile
            }
            if (DataFileHeader.hasMagic(h)) {
                out.add(name);
            }
        }
        return out;
    }

    /**
     * Rewrites the durable registry from the headers of the data files in the directory (which
     * file id each has), with the environment id {@code envId} (0: keep each header's). Returns
     * the registry written.
     *
     * @throws CorruptionException if two files claim one id, or a header is damaged
     */
    public static Map<Integer, String> rebuildRegistry(Storage storage, long envId) throws IOException {
        Map<Integer, String> reg = new TreeMap<>();
        for (String name : withHeaders(storage)) {
            DataFileHeader h;
            try (StorageFile f = storage.open(name, false)) {
                byte[] b = new byte[DataFileHeader.SIZE];
                f.readFully(ByteBuffer.wrap(b), 0);
                h = DataFileHeader.decode(storage.directory().resolve(name).toString(), b);
                if (!h.name().equals(name) || envId != 0 && h.envId() != envId) {
                    // renamed by hand, or adopted from another environment: the header follows the registry
                    h = new DataFileHeader(h.pageSize(), envId != 0 ? envId : h.envId(), h.fileId(), name, h.createdMillis());
                    f.write(h.encode(), 0);
                    f.force();
                }
            }
            String other = reg.put(h.fileId(), name);
            if (other != null) {
                throw new CorruptionException("data files " + other + " and " + name + " in " + storage.directory()
                        + " both say they are file id " + h.fileId() + "; move the one that does not belong here away");
            }
        }
        storage.replaceFile(FileRegistryCodec.FILE, FileRegistryCodec.encode(reg));
        return reg;
    }

    /**
     * The page size of the environment's data files (their header pages say), or 0 if it has none
     * or their headers cannot be read.
     */
    public static int pageSize(Storage storage) {
        try {
            for (String name : registered(storage).values()) {
                try (StorageFile f = storage.open(name, false)) {
                    if (f.size() < DataFileHeader.SIZE) {
                        continue;
                    }
                    byte[] b = new byte[DataFileHeader.SIZE];
                    f.readFully(ByteBuffer.wrap(b), 0);
                    return DataFileHeader.decode(storage.directory().resolve(name).toString(), b).pageSize();
                } catch (IOException | RuntimeException unreadable) {
                    // the open reports it, naming the file
                }
            }
        } catch (IOException | RuntimeException unreadable) {
            // likewise
        }
        return 0;
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
     * forces the file. The page size is the header's. Returns the pages rewritten.
     *
     * @throws CorruptionException if a page fails its check (nothing after it is changed)
     */
    public static long resetLsns(Storage storage, String name) throws IOException {
        try (StorageFile f = storage.open(name, false)) {
            long size = f.size();
            if (size == 0) {
                return 0;
            }
            byte[] hb = new byte[DataFileHeader.SIZE];
            f.readFully(ByteBuffer.wrap(hb), 0);
            int pageSize = DataFileHeader.decode(storage.directory().resolve(name).toString(), hb).pageSize();
            byte[] page = new byte[pageSize];
            long changed = 0;
            for (long p = 0; (p + 1) * pageSize < size; p++) {
                ByteBuffer bb = ByteBuffer.wrap(page);
                int n = 0;
                while (bb.hasRemaining()) {
                    int r = f.read(bb, (p + 1) * pageSize + n);
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
                f.write(ByteBuffer.wrap(page, 0, pageSize), (p + 1) * pageSize);
                changed++;
            }
            f.force();
            return changed;
        }
    }

}
