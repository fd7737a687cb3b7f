package org.libtp.core.env;

import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.region.FileSpace;
import org.libtp.core.region.RegionHeader;
import org.libtp.core.storage.StorageErrors;
import com.sun.jna.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Set;

/**
 * Where region files go: the environment directory, or a directory of the environment's own in
 * shared memory ({@code <shmDirectory>/libtp-<id>}), and the housekeeping of those directories.
 *
 * <p>The id is the first 128 bits of SHA-256 over the environment directory's real path, device
 * and inode: two environments never get the same one (not even a directory deleted and made
 * again at the same path, which gets a new inode), and every process that resolves the directory
 * the same way computes it. Processes that reach it by another path (a bind mount) need not: they
 * read the directory from the lock file's {@link RegionLocation}.
 */
final class RegionDirectories {
    private static final Logger LOG = LoggerFactory.getLogger(RegionDirectories.class);
    static final String SHM_PREFIX = "libtp-";
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rwx------");
    /** A directory without an environment region (a creator died before building it) is this old before it is swept. */
    private static final long EMPTY_AGE_MILLIS = 10 * 60_000L;
    /**
     * AUTO uses shared memory only with at least this much free there: the default regions take
     * about 70 MiB (a 64 MiB buffer pool), allocated whole, and a container's /dev/shm is often
     * just 64 MiB. SHM, asked for explicitly, takes whatever there is.
     */
    static final long AUTO_MIN_FREE = 128L << 20;

    private RegionDirectories() {
    }

    /** The shared-memory region directory of environment {@code home} (a real path) under {@code shm}. */
    static Path shmDirectory(Path home, Path shm) {
        return shm.resolve(SHM_PREFIX + id(home));
    }

    /**
     * True if {@code regionDir}, recorded in the lock file of {@code home} with
     * {@code placement}, is where {@code home}'s own regions go: a lock file copied along with an
     * environment directory (a {@code cp -r} of a running or crashed environment) names the
     * original's regions, which the copy must neither rebuild nor remove.
     */
    static boolean belongsTo(Path regionDir, RegionPlacement placement, Path home) {
        if (placement == RegionPlacement.SHM) {
            Path name = regionDir.getFileName();
            return name != null && name.toString().equals(SHM_PREFIX + id(home));
        }
        return regionDir.normalize().equals(home.normalize());
    }

    /** The environment's id: 32 hex digits from its real path, device and inode. */
    static String id(Path home) {
        String identity = home.toString();
        try {
            Object dev = Files.getAttribute(home, "unix:dev");
            Object ino = Files.getAttribute(home, "unix:ino");
            identity += "\0" + dev + "\0" + ino;
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            try {
                Object key = Files.readAttributes(home, BasicFileAttributes.class).fileKey();
                if (key != null) {
                    identity += "\0" + key;
                }
            } catch (IOException ignored) {
                // the path alone
            }
        }
        try {
            byte[] h = MessageDigest.getInstance("SHA-256").digest(identity.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(h, 0, 16);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JVM", e);
        }
    }

    /**
     * Null if {@code shm} can hold region directories, else why not. {@code explicit}: the user
     * asked for shared memory (any writable directory will do, with a WARN if it is no tmpfs);
     * otherwise (AUTO) only a tmpfs on Linux.
     */
    static String shmProblem(Path shm, boolean explicit) {
        if (!explicit && !Platform.isLinux()) {
            return "not Linux (" + System.getProperty("os.name") + ")";
        }
        if (!Files.isDirectory(shm)) {
            return shm + " is not a directory";
        }
        if (!Files.isWritable(shm)) {
            return shm + " is not writable";
        }
        String type;
        try {
            type = Files.getFileStore(shm).type();
        } catch (IOException e) {
            return "cannot tell the file system of " + shm + ": " + e;
        }
        boolean memory = type.equals("tmpfs") || type.equals("ramfs") || type.equals("hugetlbfs");
        if (!memory) {
            if (!explicit) {
                return shm + " is on a " + type + " file system, not a tmpfs";
            }
            LOG.warn("shared-memory directory {} is on a {} file system, not a tmpfs: the regions there are "
                    + "written back to it", shm, type);
        }
        if (!explicit) {
            long free = StorageErrors.usableSpace(shm);
            if (free >= 0 && free < AUTO_MIN_FREE) {
                // A container's /dev/shm is often 64 MiB: the default buffer pool alone would not fit.
                return "only " + free + " bytes are free in " + shm + " (AUTO wants " + AUTO_MIN_FREE
                        + "; a container's --shm-size)";
            }
        }
        return null;
    }

    /**
     * Makes the region directory {@code dir} (mode 0700) if it does not exist, and checks that it
     * is a real directory (no symbolic link) of this user: the shared-memory directory is
     * world-writable and the name is predictable.
     *
     * @throws EnvironmentAccessException it cannot be made, or belongs to someone else
     */
    static void prepare(Path dir) {
        try {
            try {
                Files.createDirectory(dir, PosixFilePermissions.asFileAttribute(OWNER_ONLY));
            } catch (UnsupportedOperationException e) {
                Files.createDirectory(dir);
            }
        } catch (FileAlreadyExistsException e) {
            // checked below
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot create the shared region directory " + dir + ": " + e
                    + ". Make " + dir.getParent() + " writable, or set EnvironmentConfig.regionPlacement(ENV_DIR)", e);
        }
        try {
            BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isDirectory()) {
                throw new EnvironmentAccessException("shared region directory " + dir + " exists but is not a directory"
                        + (a.isSymbolicLink() ? " (a symbolic link)" : "") + "; remove it, or set "
                        + "EnvironmentConfig.shmDirectory or regionPlacement(ENV_DIR)");
            }
            int me = FileSpace.currentUid();
            Object owner = uid(dir);
            if (me >= 0 && owner != null && !owner.equals(me)) {
                throw new EnvironmentAccessException("shared region directory " + dir + " belongs to uid " + owner
                        + ", not to this process's uid " + me + ": every process of an environment must run as the "
                        + "same user. Remove the directory if it is a leftover, or set EnvironmentConfig.shmDirectory "
                        + "or regionPlacement(ENV_DIR)");
            }
            try {
                if (!Files.getPosixFilePermissions(dir, LinkOption.NOFOLLOW_LINKS).equals(OWNER_ONLY)) {
                    Files.setPosixFilePermissions(dir, OWNER_ONLY);
                }
            } catch (UnsupportedOperationException ignored) {
                // not a POSIX file system: nothing to tighten
            }
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot use the shared region directory " + dir + ": " + e, e);
        }
    }

    private static Object uid(Path p) {
        try {
            return Files.getAttribute(p, "unix:uid", LinkOption.NOFOLLOW_LINKS);
        } catch (IOException | UnsupportedOperationException | IllegalArgumentException e) {
            return null;
        }
    }

    /** True if {@code name} is a region file (or one being built) of an environment. */
    static boolean isRegionFile(String name) {
        return name.equals(SharedEnvironment.ENV_FILE) || name.equals(SharedEnvironment.ENV_FILE + ".new")
                || name.startsWith(SharedEnvironment.REGION_PREFIX);
    }

    /**
     * Deletes the region files in {@code dir} and, for a shared-memory directory, the directory.
     * {@code release}: punch the files' pages out first, so that the memory returns now rather
     * than when every process's mappings are garbage collected (a mapped file's pages live until
     * the last mapping goes). Failures are logged, not thrown: leftovers are rebuilt by the next
     * open.
     */
    static void remove(Path dir, boolean shm, boolean release) {
        try (DirectoryStream<Path> files = Files.newDirectoryStream(dir)) {
            for (Path p : files) {
                if (isRegionFile(p.getFileName().toString())) {
                    if (release) {
                        FileSpace.release(p);
                    }
                    Files.deleteIfExists(p);
                }
            }
            if (shm) {
                try {
                    Files.deleteIfExists(dir);
                } catch (java.nio.file.DirectoryNotEmptyException e) {
                    if (!hasKeptRegion(dir)) {
                        throw e;
                    }
                    LOG.info("{} keeps a log region for the next open to salvage (__libtp.kept.*)", dir);
                }
            }
        } catch (NoSuchFileException e) {
            // gone already
        } catch (IOException e) {
            LOG.warn("could not remove the region files in {}: {}", dir, e.toString());
        }
    }

    private static boolean hasKeptRegion(Path dir) throws IOException {
        try (DirectoryStream<Path> kept = Files.newDirectoryStream(dir, SharedEnvironment.KEPT_PREFIX + "*")) {
            return kept.iterator().hasNext();
        }
    }

    /**
     * Removes the region directories under {@code shm} (other than {@code mine}) that belong to
     * this user and whose environment is gone: its directory was deleted, or replaced by another
     * (its id no longer matches), so nothing can attach to them any more. They are what processes
     * killed with SIGKILL leave when their environment directory is deleted afterwards (temporary
     * environments, tests). Region directories of environments that still exist are left for
     * their next open to rebuild.
     */
    static void sweep(Path shm, Path mine) {
        int me = FileSpace.currentUid();
        try (DirectoryStream<Path> dirs = Files.newDirectoryStream(shm, SHM_PREFIX + "*")) {
            for (Path d : dirs) {
                try {
                    if (d.equals(mine) || !d.getFileName().toString().matches(SHM_PREFIX + "[0-9a-f]{32}")) {
                        continue;
                    }
                    BasicFileAttributes a = Files.readAttributes(d, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (!a.isDirectory() || me < 0 || !Integer.valueOf(me).equals(uid(d))) {
                        continue;
                    }
                    String why = gone(d, a.lastModifiedTime());
                    if (why != null) {
                        try (DirectoryStream<Path> kept = Files.newDirectoryStream(d, SharedEnvironment.KEPT_PREFIX + "*")) {
                            for (Path k : kept) {
                                Files.deleteIfExists(k); // its environment is gone: nothing to salvage into
                            }
                        }
                        remove(d, true, true);
                        LOG.info("removed leftover shared region directory {} ({})", d, why);
                    }
                } catch (IOException | RuntimeException e) {
                    LOG.debug("not sweeping {}: {}", d, e.toString());
                }
            }
        } catch (IOException e) {
            LOG.debug("cannot list {} for leftover region directories: {}", shm, e.toString());
        }
    }

    /** Why region directory {@code d} can go, or null if it must stay. */
    private static String gone(Path d, FileTime modified) throws IOException {
        Path envFile = d.resolve(SharedEnvironment.ENV_FILE);
        String home = homeOf(envFile);
        if (home == null) {
            // No readable region: a creator that died before building it, or a damaged one. One
            // of another layout (another LibTP version, perhaps running) is left alone.
            boolean old = System.currentTimeMillis() - modified.toMillis() > EMPTY_AGE_MILLIS;
            boolean broken = !Files.exists(envFile) || Files.size(envFile) < RegionHeader.SIZE;
            return old && broken ? "no usable environment region, untouched for 10 minutes" : null;
        }
        if (home.isEmpty()) {
            return null; // path not recorded: cannot tell
        }
        Path h = Path.of(home);
        if (!Files.isDirectory(h)) {
            return "its environment directory " + home + " no longer exists";
        }
        String now = SHM_PREFIX + id(h.toRealPath());
        if (!now.equals(d.getFileName().toString())) {
            return "its environment directory " + home + " was replaced";
        }
        return null;
    }

    /**
     * The environment directory recorded in environment region {@code envFile} ("" if not
     * recorded), or null if the file is missing or not an environment region of this layout.
     */
    static String homeOf(Path envFile) {
        try (FileChannel ch = FileChannel.open(envFile, StandardOpenOption.READ)) {
            ByteBuffer b = ByteBuffer.allocate(EnvLayout.OFF_HOME + EnvLayout.HOME_CAPACITY).order(ByteOrder.nativeOrder());
            while (b.hasRemaining() && ch.read(b, b.position()) > 0) {
                // read on
            }
            if (b.position() < b.capacity()) {
                return null;
            }
            ByteBuffer h = b.duplicate().position(0).limit(RegionHeader.SIZE).slice().order(ByteOrder.nativeOrder());
            if (h.getInt(RegionHeader.OFF_VERSION) != RegionHeader.VERSION
                    || h.getInt(RegionHeader.OFF_KIND) != RegionHeader.KIND_ENV
                    || h.getLong(RegionHeader.OFF_FINGERPRINT) != EnvLayout.FINGERPRINT) {
                return null;
            }
            int n = b.getInt(EnvLayout.OFF_HOME_LENGTH);
            if (n < 0 || n > EnvLayout.HOME_CAPACITY) {
                return null;
            }
            return new String(b.array(), EnvLayout.OFF_HOME, n, StandardCharsets.UTF_8);
        } catch (IOException | RuntimeException e) {
            return null;
        }
    }
}
