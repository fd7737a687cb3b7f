package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.LogManager;
import org.libtp.core.memory.Memory;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageErrors;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The buffer manager's data files: the shared file registry (entries in the buffer region, made
 * durable in {@code __libtp.files} first, under the registry latch), each file's page count and
 * generation, the data file headers checked at load, and this process's file handles.
 */
final class DataFileTable {
    private static final Logger LOG = LoggerFactory.getLogger(SharedBufferPool.class);

    private final RegionEnvironment env;
    private final Storage storage;
    private final LogManager log;
    private final Layout lay;
    private final Memory mem;
    private final Latch registryLatch;
    private final int pageSize;
    /** The pool's check that it is open. */
    private final Runnable checkOpen;
    private final Map<Integer, StorageFile> files = new ConcurrentHashMap<>();

    DataFileTable(RegionEnvironment env, Storage storage, LogManager log, Layout lay, Memory mem, Latch registryLatch,
                  Runnable checkOpen) {
        this.env = env;
        this.storage = storage;
        this.log = log;
        this.lay = lay;
        this.mem = mem;
        this.registryLatch = registryLatch;
        this.pageSize = lay.pageSize();
        this.checkOpen = checkOpen;
    }

    long fileEntry(int fileId) {
        return lay.offFiles() + (long) FILE_ENTRY * (fileId - 1);
    }

    void loadRegistry() {
        try {
            if (!storage.exists(FileRegistryCodec.FILE)) {
                List<String> orphans = DataFiles.withHeaders(storage);
                if (!orphans.isEmpty()) {
                    throw new CorruptionException("the file registry " + where(FileRegistryCodec.FILE) + " is missing "
                            + "but data files exist (" + String.join(", ", orphans) + "): log records name files by "
                            + "id, so they cannot be used without it. Rebuild it from the data files' headers "
                            + "(Environment.rebuildFileRegistry, org.libtp.db; libtp repair --rebuild-registry); nothing was changed");
                }
                return;
            }
            byte[] bytes;
            try (StorageFile f = storage.open(FileRegistryCodec.FILE, false)) {
                long size = f.size();
                if (size > 64L << 20) {
                    throw new CorruptionException(storage.directory().resolve(FileRegistryCodec.FILE)
                            + " is implausibly large (" + size + " bytes)");
                }
                bytes = new byte[(int) size];
                f.readFully(ByteBuffer.wrap(bytes), 0);
            }
            Map<Integer, String> reg;
            try {
                reg = FileRegistryCodec.decode(bytes, where(FileRegistryCodec.FILE));
            } catch (CorruptionException e) {
                throw new CorruptionException(e.getMessage() + "; or rebuild it from the data files' headers "
                        + "(Environment.rebuildFileRegistry, org.libtp.db; libtp repair --rebuild-registry). Nothing was changed", e);
            }
            for (Map.Entry<Integer, String> e : reg.entrySet()) {
                int id = e.getKey();
                if (id < 1 || id > lay.maxFiles()) {
                    throw new IllegalArgumentException("the file registry of " + env.home() + " uses file id " + id
                            + " but BufferConfig.maxFiles is " + lay.maxFiles() + "; raise it");
                }
                writeEntry(id, e.getValue());
            }
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot read the file registry of " + env.home() + ": " + e, e);
        }
    }

    private void writeEntry(int id, String name) throws IOException {
        long at = fileEntry(id);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        long pages;
        if (!storage.exists(name)) {
            throw new CorruptionException("data file " + where(name) + " is registered in " + FileRegistryCodec.FILE
                    + " as file id " + id + " but is missing: restore it from a backup (its database cannot be read "
                    + "without it); nothing was changed");
        }
        try (StorageFile f = storage.open(name, false)) {
            checkHeader(f, name, id);
            pages = Math.max(0, (f.size() - pageSize + pageSize - 1) / pageSize);
        }
        mem.putInt(at + F_NAME_LEN, n.length);
        mem.putBytes(at + F_NAME, n, 0, n.length);
        mem.putLongVolatile(at + F_PAGES, pages);
        mem.putIntVolatile(at + F_NEEDS_FORCE, 0);
        mem.putIntVolatile(at + F_STATE, 1);
    }

    long generation(int fileId) {
        checkFile(fileId);
        return mem.getLongVolatile(fileEntry(fileId) + F_GENERATION);
    }

    void raiseGeneration(int fileId) {
        checkFile(fileId);
        mem.getAndAddLong(fileEntry(fileId) + F_GENERATION, 1);
    }

    String describe(int fileId) {
        if (fileId >= 1 && fileId <= lay.maxFiles() && mem.getIntVolatile(fileEntry(fileId) + F_STATE) == 1) {
            return "data file " + nameAt(fileId) + " (file id " + fileId + ") in " + env.home();
        }
        return "file id " + fileId + " in " + env.home();
    }

    String where(String name) {
        return storage.directory().resolve(name).toString();
    }

    /**
     * Checks the header page of data file {@code f}: a LibTP data file of this environment,
     * registered as {@code id}, with this pool's page size.
     */
    private void checkHeader(StorageFile f, String name, int id) throws IOException {
        byte[] h = new byte[DataFileHeader.SIZE];
        if (f.size() < DataFileHeader.SIZE) {
            throw new CorruptionException("data file " + where(name) + " is " + f.size() + " bytes, shorter than its "
                    + "header: it was cut short; restore it from a backup");
        }
        f.readFully(ByteBuffer.wrap(h), 0);
        DataFileHeader dh = DataFileHeader.decode(where(name), h);
        long envId = log == null ? 0 : log.environmentId();
        if (envId != 0 && dh.envId() != envId) {
            throw new CorruptionException("data file " + where(name) + " belongs to another environment (id "
                    + Long.toHexString(dh.envId()) + ", this one " + Long.toHexString(envId) + "): it was copied from "
                    + "elsewhere. Restore this environment's file, or adopt the file: Environment.rebuildFileRegistry "
                    + "then Environment.resetLog (org.libtp.db; libtp repair --rebuild-registry, then --reset-log)");
        }
        if (dh.fileId() != id || !dh.name().equals(name)) {
            throw new CorruptionException("data file " + where(name) + " says it is file id " + dh.fileId() + " '"
                    + dh.name() + "', but " + FileRegistryCodec.FILE + " registers it as file id " + id
                    + ": the registry or the file was replaced. Rebuild the registry from the data files' headers "
                    + "(Environment.rebuildFileRegistry, org.libtp.db; libtp repair --rebuild-registry) or restore from a backup");
        }
        if (dh.pageSize() != pageSize) {
            throw new CorruptionException("data file " + where(name) + " has " + dh.pageSize() + "-byte pages, but the "
                    + "environment's buffer pool uses " + pageSize + "-byte pages; open the environment with page size "
                    + dh.pageSize());
        }
    }

    int open(String name) {
        checkOpen.run();
        checkName(name);
        env.checkValid();
        int id = fileId(name);
        if (id > 0) {
            return id;
        }
        registryLatch.acquire();
        try {
            id = fileId(name);
            if (id > 0) {
                return id;
            }
            int free = -1;
            for (int i = 1; i <= lay.maxFiles() && free < 0; i++) {
                if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 0) {
                    free = i;
                }
            }
            if (free < 0) {
                throw new CapacityExceededException("the file registry of " + env.home() + " is full ("
                        + lay.maxFiles() + " files); raise BufferConfig.maxFiles");
            }
            Map<Integer, String> all = registered();
            all.put(free, name);
            try {
                try (StorageFile f = storage.open(name, true)) {
                    // The header first, forced; its directory entry is made durable with the registry's.
                    // A file with at most a header is a registration a crash cut short: taken over.
                    if (f.size() > pageSize) {
                        throw new CorruptionException("data file " + where(name) + " exists but is not registered in "
                                + FileRegistryCodec.FILE + ": the registry lost it. Rebuild the registry from the data "
                                + "files' headers (Environment.rebuildFileRegistry, org.libtp.db; libtp repair --rebuild-registry); nothing was changed");
                    }
                    long envId = log == null ? 0 : log.environmentId();
                    f.write(new DataFileHeader(pageSize, envId, free, name, System.currentTimeMillis()).encode(), 0);
                    f.force();
                }
                storage.replaceFile(FileRegistryCodec.FILE, FileRegistryCodec.encode(all));
                writeEntry(free, name);
            } catch (IOException e) {
                if (StorageErrors.isNoSpace(e)) {
                    throw new OutOfSpaceException("no space to register data file " + name + " in " + env.home()
                            + " (" + e.getMessage() + "): nothing was registered; free space on that file system "
                            + "and retry", e);
                }
                throw new EnvironmentAccessException("cannot register data file " + name + " in " + env.home()
                        + ": " + e, e);
            }
            LOG.debug("registered data file {} as file id {} in {}", name, free, env.home());
            return free;
        } finally {
            registryLatch.release();
        }
    }

    private static void checkName(String name) {
        // '+' is allowed here but not in database names: the catalog uses it for the new file of
        // a re-created database, which then cannot clash with another database's file.
        if (name == null || name.isEmpty() || !name.matches("[A-Za-z0-9_.+-]+")
                || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME
                || name.startsWith("__libtp") || name.startsWith("log.") || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("data file name '" + name + "' must be 1.." + MAX_NAME
                    + " characters of [A-Za-z0-9_.+-], not '.', '..', nor start with '__libtp' or 'log.'");
        }
    }

    List<String> registeredNames() {
        checkOpen.run();
        return new java.util.ArrayList<>(registered().values());
    }

    private Map<Integer, String> registered() {
        Map<Integer, String> out = new TreeMap<>();
        for (int i = 1; i <= lay.maxFiles(); i++) {
            if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 1) {
                out.put(i, nameAt(i));
            }
        }
        return out;
    }

    String nameAt(int id) {
        long at = fileEntry(id);
        int len = mem.getInt(at + F_NAME_LEN);
        if (len < 0 || len > MAX_NAME) {
            throw new CorruptionException("buffer region of " + env.home() + ": file entry " + id + " has name length " + len);
        }
        byte[] b = new byte[len];
        mem.getBytes(at + F_NAME, b, 0, len);
        return new String(b, StandardCharsets.UTF_8);
    }

    int fileId(String name) {
        checkOpen.run();
        checkName(name);
        for (int i = 1; i <= lay.maxFiles(); i++) {
            if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 1 && nameAt(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    String fileName(int fileId) {
        checkOpen.run();
        checkFile(fileId);
        return nameAt(fileId);
    }

    void checkFile(int fileId) {
        if (fileId < 1 || fileId > lay.maxFiles() || mem.getIntVolatile(fileEntry(fileId) + F_STATE) != 1) {
            throw new IllegalArgumentException("file id " + fileId + " is not registered in " + env.home()
                    + "; open the file first");
        }
    }

    StorageFile file(int fileId) {
        StorageFile f = files.get(fileId);
        if (f != null) {
            return f;
        }
        return files.computeIfAbsent(fileId, id -> {
            try {
                return storage.open(nameAt(id), false);
            } catch (IOException e) {
                throw new EnvironmentAccessException("cannot open data file " + nameAt(id) + " in " + env.home()
                        + ": " + e, e);
            }
        });
    }

    long pageCount(int fileId) {
        checkOpen.run();
        checkFile(fileId);
        return mem.getLongVolatile(fileEntry(fileId) + F_PAGES);
    }

    void extendTo(int fileId, long pages) {
        long at = fileEntry(fileId) + F_PAGES;
        while (true) {
            long n = mem.getLongVolatile(at);
            if (n >= pages || mem.compareAndSetLong(at, n, pages)) {
                return;
            }
        }
    }

    /** Closes this process's handles on the data files. */
    void closeFiles() {
        for (StorageFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                LOG.warn("closing data file {} of {}: {}", f.name(), env.home(), e.toString());
            }
        }
        files.clear();
    }
}
