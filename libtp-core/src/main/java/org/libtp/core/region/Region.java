package org.libtp.core.region;

import org.libtp.core.CorruptionException;
import org.libtp.core.memory.Memory;
import org.libtp.core.memory.MemoryFactory;
import org.libtp.core.memory.MemoryImpl;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.libtp.core.region.RegionHeader.*;

/**
 * One memory-mapped region file: a {@link RegionHeader} followed by a manager's structures.
 *
 * <p>Regions are created by the first process that opens an environment and attached by the
 * later ones; the environment serializes both under its creation lock, so this class does no
 * locking of its own. A region is created as a new file renamed over the old one, never
 * truncated: a process that still maps the old file keeps a valid mapping of the old inode
 * instead of getting SIGBUS.
 */
public final class Region implements AutoCloseable {
    private final Path file;
    private final Memory memory;
    /** While being created: the temporary file that {@link #markReady()} renames to {@link #file}. */
    private Path pending;

    private Region(Path file, Memory memory) {
        this.file = file;
        this.memory = memory;
    }

    /**
     * Creates a region of {@code size} bytes, header in state
     * {@link RegionHeader#STATE_INITIALIZING}, payload zero. It is built in {@code file + ".new"}
     * and {@link #markReady()} renames it over {@code file} atomically, so at every instant
     * {@code file} is either the old region or the complete new one: a creator killed half-way
     * leaves the old file (and its flags) in place. Every block of the file is allocated before
     * it is mapped ({@link FileSpace}).
     *
     * @throws org.libtp.core.OutOfSpaceException the file system has no room for {@code size}
     *         bytes; the temporary file is removed
     */
    public static Region create(Path file, int kind, long size, long fingerprint, byte[] config,
                                long envGeneration, MemoryImpl impl) throws IOException {
        if (size < SIZE) {
            throw new IllegalArgumentException("region " + file + " of " + size + " bytes has no room for its header");
        }
        if (config.length > CONFIG_CAPACITY) {
            throw new IllegalArgumentException("region config of " + config.length + " bytes exceeds "
                    + CONFIG_CAPACITY);
        }
        Path tmp = file.resolveSibling(file.getFileName() + ".new");
        Files.deleteIfExists(tmp);
        Memory m;
        try (FileChannel ch = FileChannel.open(tmp, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            // Every block allocated before the mapping: a page of a sparse file that the file
            // system cannot supply later faults (SIGBUS) at whichever access first touches it.
            FileSpace.allocate(tmp, ch, size);
            if (ch.size() < size) {
                ch.write(ByteBuffer.allocate(1), size - 1);
            }
            m = MemoryFactory.map(ch, file.toString(), size, impl);
        } catch (IOException | RuntimeException | Error e) {
            try {
                Files.deleteIfExists(tmp); // nothing half-created is left behind
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        long magic = magic();
        m.putLong(OFF_MAGIC, magic);
        m.putInt(OFF_VERSION, VERSION);
        m.putInt(OFF_HEADER_SIZE, SIZE);
        m.putLong(OFF_FINGERPRINT, fingerprint);
        m.putLong(OFF_REGION_SIZE, size);
        m.putInt(OFF_KIND, kind);
        m.putInt(OFF_FLAGS, 0);
        m.putInt(OFF_CONFIG_LENGTH, config.length);
        m.putLong(OFF_CREATED, System.currentTimeMillis());
        m.putLong(OFF_ENV_GENERATION, envGeneration);
        m.putBytes(OFF_CONFIG, config, 0, config.length);
        m.putIntVolatile(OFF_STATE, STATE_INITIALIZING);
        Region r = new Region(file, m);
        r.pending = tmp;
        return r;
    }

    /**
     * Attaches an existing region after validating its header (magic, version, kind,
     * fingerprint, size, ready state).
     *
     * @throws org.libtp.core.VersionMismatchException wrong magic, version or fingerprint
     * @throws CorruptionException truncated file, wrong kind, never finished initializing
     */
    public static Region attach(Path file, int kind, long fingerprint, MemoryImpl impl) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            ByteBuffer h = readHeader(file, ch, kind, fingerprint);
            if (h.getInt(OFF_STATE) != STATE_READY) {
                throw new CorruptionException("region file " + file + " was never completely "
                        + "initialized (its creator died?). Close every process and reopen.");
            }
            return new Region(file, MemoryFactory.map(ch, file.toString(), ch.size(), impl));
        }
    }

    /**
     * Reads and validates only the header of {@code file}, without mapping it. Returns the
     * header bytes (native order).
     */
    public static ByteBuffer readHeader(Path file, int kind, long fingerprint) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            return readHeader(file, ch, kind, fingerprint);
        }
    }

    private static ByteBuffer readHeader(Path file, FileChannel ch, int kind, long fingerprint) throws IOException {
        long fileSize = ch.size();
        if (fileSize < SIZE) {
            throw new CorruptionException("region file " + file + " is truncated: " + fileSize
                    + " bytes, its header alone needs " + SIZE
                    + ". Close every process and remove the __libtp region files.");
        }
        ByteBuffer h = ByteBuffer.allocate(SIZE);
        while (h.hasRemaining()) {
            if (ch.read(h, h.position()) < 0) {
                throw new CorruptionException("region file " + file + " ended while reading its header");
            }
        }
        RegionHeader.validate(file, h, fileSize, kind, fingerprint);
        return h;
    }

    public Path file() {
        return file;
    }

    public Memory memory() {
        return memory;
    }

    public long size() {
        return memory.size();
    }

    public long fingerprint() {
        return memory.getLong(OFF_FINGERPRINT);
    }

    public long envGeneration() {
        return memory.getLong(OFF_ENV_GENERATION);
    }

    public long createdMillis() {
        return memory.getLong(OFF_CREATED);
    }

    /** The creation config as written by the creator. */
    public byte[] config() {
        byte[] b = new byte[memory.getInt(OFF_CONFIG_LENGTH)];
        memory.getBytes(OFF_CONFIG, b, 0, b.length);
        return b;
    }

    /**
     * Marks the region initialized and, for a region just created, renames it into place
     * (replacing an old file, whose inode stays valid for anyone still mapping it).
     */
    public void markReady() throws IOException {
        memory.putIntVolatile(OFF_STATE, STATE_READY);
        if (pending != null) {
            Files.move(pending, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            pending = null;
        }
    }

    /**
     * Gives up a region being created (after {@link #create}, before {@link #markReady}): unmaps
     * it and deletes its temporary file, leaving nothing behind.
     */
    public void abandon() {
        memory.close();
        if (pending != null) {
            try {
                Files.deleteIfExists(pending);
            } catch (IOException e) {
                org.slf4j.LoggerFactory.getLogger(Region.class).warn("could not delete {}: {}", pending, e.toString());
            }
            pending = null;
        }
    }

    public int flags() {
        return memory.getIntVolatile(OFF_FLAGS);
    }

    /** Atomically sets {@code bits}; returns the previous flags. */
    public int setFlags(int bits) {
        while (true) {
            int f = memory.getIntVolatile(OFF_FLAGS);
            if ((f & bits) == bits || memory.compareAndSetInt(OFF_FLAGS, f, f | bits)) {
                return f;
            }
        }
    }

    /** Atomically clears {@code bits}; returns the previous flags. */
    public int clearFlags(int bits) {
        while (true) {
            int f = memory.getIntVolatile(OFF_FLAGS);
            if ((f & bits) == 0 || memory.compareAndSetInt(OFF_FLAGS, f, f & ~bits)) {
                return f;
            }
        }
    }

    @Override
    public void close() {
        memory.close();
    }

    @Override
    public String toString() {
        return "Region[" + file + ", " + size() + " bytes]";
    }
}
