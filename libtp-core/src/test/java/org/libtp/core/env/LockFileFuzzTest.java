package org.libtp.core.env;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.statistics.Statistics;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.core.LibTpException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.testkit.FuzzTries;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Arrays;
import java.util.Comparator;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the lock file {@code __libtp.lock}, whose content records where the shared regions are
 * ({@link RegionLocation}), jqwik: {@link RegionLocation#decode} of random bytes and of valid
 * records with bits flipped, bytes or fields set to edge values (path length, version, state,
 * placement), the path replaced (relative, empty, another directory, a file, a NUL, bytes that are
 * no UTF-8, the longest allowed), cut short or extended, the checksum left stale or recomputed;
 * {@link LockFile#readLocation} of such files; and {@link RegionEnvironment#open} of an
 * environment whose lock file was so damaged after its last run (none, a clean close, a crash
 * that left its regions), in each placement, alone or with another process attached.
 *
 * <p>A record decodes to what its bytes say, or to nothing (a damaged record describes no
 * directory), or is refused with a {@link VersionMismatchException} naming the file. An open
 * either works (it rebuilt the regions and rewrote the record: the file then names them) or
 * throws a {@link LibTpException} naming the lock file or the environment, within a time limit;
 * never another exception or an {@link Error}.
 *
 * <p>Tries: as below in {@code mvn verify} (each open maps the environment region, 10-30 ms, so
 * those tries are few), 100 times more under {@code -Pstress} ({@link FuzzTries}). jqwik prints
 * the seed of a failing run; replay with {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class LockFileFuzzTest {
    static final String WHERE = "/env/" + LockFile.NAME;

    private static Path root;
    /** A private shared-memory directory (on /dev/shm when it is a tmpfs), removed at the end. */
    private static Path shm;
    private static boolean shmIsTmpfs;
    private static final AtomicInteger TRY = new AtomicInteger();
    /** Files this JVM had open before the tries (Linux; -1 elsewhere): a refused open must not add to them. */
    private static int openFiles;

    static int openFiles() {
        String[] fds = new java.io.File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    @BeforeContainer
    static void setUp() throws IOException {
        root = Files.createTempDirectory("lockfile-fuzz");
        Path devShm = RegionEnvironmentConfig.DEFAULT_SHM_DIRECTORY;
        shmIsTmpfs = RegionDirectories.shmProblem(devShm, false) == null;
        shm = shmIsTmpfs ? Files.createTempDirectory(devShm, "lockfile-fuzz") : Files.createDirectory(root.resolve("shm"));
        openFiles = openFiles();
    }

    @AfterContainer
    static void cleanUp() {
        deleteTree(shm);
        deleteTree(root);
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ------------------------------------------------------------------ the record

    /** Recomputes the checksum over the header and the path length it states, where that fits the bytes. */
    static void fixCrc(byte[] b) {
        if (b.length < RegionLocation.OFF_PATH) {
            return;
        }
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        int n = le.getInt(RegionLocation.OFF_PATH_LENGTH);
        CRC32C c = new CRC32C();
        c.update(b, 0, RegionLocation.OFF_CRC);
        if (n > 0 && n <= RegionLocation.PATH_CAPACITY && RegionLocation.OFF_PATH + n <= b.length) {
            c.update(b, RegionLocation.OFF_PATH, n);
        }
        le.putInt(RegionLocation.OFF_CRC, (int) c.getValue());
    }

    /**
     * Decodes {@code b} as the lock file reads it (a {@link RegionLocation#MAX_SIZE} buffer, the
     * bytes the file has): nothing, a record that says what its bytes say, or a
     * VersionMismatchException naming the file.
     */
    static RegionLocation decode(String where, byte[] b) {
        int length = Math.min(b.length, RegionLocation.MAX_SIZE);
        byte[] buffer = Arrays.copyOf(b, RegionLocation.MAX_SIZE);
        try {
            RegionLocation l = RegionLocation.decode(where, buffer, length);
            if (l != null) {
                ByteBuffer le = ByteBuffer.wrap(buffer).order(ByteOrder.LITTLE_ENDIAN);
                assertEquals(RegionLocation.MAGIC, new String(buffer, 0, 8, StandardCharsets.US_ASCII));
                assertEquals(RegionLocation.VERSION, le.getInt(RegionLocation.OFF_VERSION));
                int n = le.getInt(RegionLocation.OFF_PATH_LENGTH);
                assertTrue(n >= 1 && n <= RegionLocation.PATH_CAPACITY && RegionLocation.OFF_PATH + n <= length);
                assertEquals(Path.of(new String(buffer, RegionLocation.OFF_PATH, n, StandardCharsets.UTF_8)), l.directory());
                assertEquals(le.getInt(RegionLocation.OFF_STATE) == RegionLocation.STATE_OPEN, l.open());
                assertEquals(le.getInt(RegionLocation.OFF_PLACEMENT) == RegionLocation.PLACEMENT_SHM ? RegionPlacement.SHM
                        : RegionPlacement.ENV_DIR, l.placement());
                assertEquals(le.getLong(RegionLocation.OFF_INCARNATION), l.incarnation());
            }
            return l;
        } catch (VersionMismatchException e) {
            assertTrue(e.getMessage().contains(where), () -> "does not name the lock file: " + e);
            return null;
        } catch (Throwable t) {
            return fail("not a VersionMismatchException for " + Arrays.toString(b) + ": " + t, t);
        }
    }

    @Property(tries = 2000)
    void randomBytes(@ForAll @Size(max = 200) byte[] b, @ForAll boolean magic, @ForAll @IntRange(max = 140) int pathLength,
                     @ForAll boolean crc) {
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (magic && b.length >= 8) {
            System.arraycopy(RegionLocation.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
        }
        if (pathLength > 0 && b.length >= RegionLocation.OFF_PATH) {
            le.putInt(RegionLocation.OFF_PATH_LENGTH, pathLength);
            if (b.length % 2 == 0) {
                le.putInt(RegionLocation.OFF_VERSION, RegionLocation.VERSION);
            }
        }
        if (crc) {
            fixCrc(b);
        }
        decode(WHERE, b);
    }

    /** Paths a damaged or foreign record may name, for the environment {@code home}. */
    static String[] paths(Path home) {
        String id = RegionDirectories.SHM_PREFIX + RegionDirectories.id(home);
        return new String[] {
            home.toString(), shm.resolve(id).toString(), // where its regions go
            home + "/../" + home.getFileName(), shm + "/./" + id, // the same, spelled otherwise
            "/", "", "relative", id, "./" + id, // relative: a bare name as the SHM directory's
            root.resolve("elsewhere").resolve(id).toString(), "/nonexistent/" + id, // SHM names of other parents
            home.resolve(LockFile.NAME).toString(), home.resolve(LockFile.NAME) + "/" + id, // a file, below a file
            shm.toString(), root.toString(), // existing directories of others
            "/a\0b", home + "\0", // no path
            "/" + "x".repeat(RegionLocation.PATH_CAPACITY - 1), // longest allowed
            "/\u00e9\u4e2d\ud83d\ude00", // not ASCII
        };
    }

    /** One mutation of a record image (see the class comment). */
    static byte[] mutate(byte[] b, Random r, Path home) {
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        switch (r.nextInt(8)) {
            case 0, 1 -> {
                if (b.length > 0) {
                    int bit = r.nextInt((r.nextBoolean() ? Math.min(b.length, RegionLocation.OFF_PATH) : b.length) * 8);
                    b[bit / 8] ^= (byte) (1 << (bit % 8));
                }
            }
            case 2 -> {
                if (b.length > 0) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
            }
            case 3 -> b = Arrays.copyOf(b, r.nextInt(b.length + 1));
            case 4 -> {
                int n = b.length;
                b = Arrays.copyOf(b, n + 1 + r.nextInt(r.nextBoolean() ? 64 : RegionLocation.MAX_SIZE + 100));
                if (r.nextBoolean()) {
                    for (int i = n; i < b.length; i++) {
                        b[i] = (byte) r.nextInt(256);
                    }
                }
            }
            case 5 -> {
                int[] fields = {RegionLocation.OFF_VERSION, RegionLocation.OFF_STATE, RegionLocation.OFF_PLACEMENT,
                    RegionLocation.OFF_PATH_LENGTH, RegionLocation.OFF_PATH_LENGTH};
                int n = b.length - RegionLocation.OFF_PATH;
                int[] values = {0, 1, 2, 3, -1, n - 1, n, n + 1, RegionLocation.PATH_CAPACITY, RegionLocation.PATH_CAPACITY + 1,
                    Integer.MIN_VALUE, Integer.MAX_VALUE, r.nextInt()};
                int at = fields[r.nextInt(fields.length)];
                if (at + 4 <= b.length) {
                    le.putInt(at, values[r.nextInt(values.length)]);
                }
            }
            case 6 -> {
                if (b.length >= RegionLocation.OFF_INCARNATION + 8) {
                    le.putLong(RegionLocation.OFF_INCARNATION, r.nextBoolean() ? r.nextLong() : 0);
                }
            }
            default -> {
                // another path (the checksum is for the caller to fix or not)
                String[] paths = paths(home);
                byte[] p = paths[r.nextInt(paths.length)].getBytes(StandardCharsets.UTF_8);
                if (r.nextInt(6) == 0) {
                    p = new byte[1 + r.nextInt(40)];
                    r.nextBytes(p);
                }
                b = Arrays.copyOf(b, RegionLocation.OFF_PATH + p.length);
                System.arraycopy(p, 0, b, RegionLocation.OFF_PATH, p.length);
                ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(RegionLocation.OFF_PATH_LENGTH, p.length);
            }
        }
        return b;
    }

    static byte[] record(Random r, Path home) {
        String[] paths = paths(home);
        Path dir = Path.of(paths[r.nextInt(2)]);
        return new RegionLocation(r.nextBoolean(), r.nextBoolean() ? RegionPlacement.SHM : RegionPlacement.ENV_DIR,
                r.nextLong(), r.nextLong(), dir).encode().array();
    }

    @Property(tries = 2000)
    void mutatedRecords(@ForAll long seed, @ForAll @IntRange(max = 4) int mutations, @ForAll boolean recomputeCrc) {
        Random r = new Random(seed);
        Path home = root.resolve("home");
        byte[] b = record(r, home);
        byte[] original = b.clone();
        for (int i = 0; i < mutations; i++) {
            b = mutate(b, r, home);
        }
        if (recomputeCrc) {
            fixCrc(b);
        }
        RegionLocation l = decode(WHERE, b);
        if (mutations == 0) {
            assertNotNull(l);
            assertEquals(ByteBuffer.wrap(original), l.encode());
        }
    }

    /** Records written as a lock file, read with {@link LockFile#readLocation}: as decoded from the bytes. */
    @Property(tries = 300)
    void lockFiles(@ForAll long seed, @ForAll @IntRange(max = 4) int mutations, @ForAll boolean recomputeCrc)
            throws IOException {
        Random r = new Random(seed);
        Path dir = Files.createDirectory(root.resolve("f" + TRY.incrementAndGet()));
        try {
            byte[] b = record(r, dir);
            for (int i = 0; i < mutations; i++) {
                b = mutate(b, r, dir);
            }
            if (recomputeCrc) {
                fixCrc(b);
            }
            Files.write(dir.resolve(LockFile.NAME), b);
            String where = dir.resolve(LockFile.NAME).toString();
            RegionLocation expected = decode(where, b);
            try (LockFile f = LockFile.open(dir)) {
                assertEquals(expected, f.readLocation());
            } catch (VersionMismatchException e) {
                assertTrue(e.getMessage().contains(where), () -> "does not name the lock file: " + e);
            } catch (Throwable t) {
                fail("not a VersionMismatchException for " + Arrays.toString(b) + ": " + t, t);
            }
        } finally {
            deleteTree(dir);
        }
    }

    // ------------------------------------------------------------------ opening

    /** How the environment's last run ended before its lock file was damaged. */
    enum LastRun { NONE, CLOSED, CRASHED }

    static RegionEnvironmentConfig config(RegionPlacement placement) {
        return RegionEnvironmentConfig.builder().failCheckMillis(0).regionPlacement(placement).shmDirectory(shm).build();
    }

    /**
     * An environment whose last run ended as {@code last} (with regions placed by
     * {@code lastPlacement}), its lock file then mutated (the checksum recomputed in most tries,
     * so that the damaged values are believed), opened with {@code placement}; with
     * {@code attached}, another process holds a registry slot (its liveness byte is locked), so
     * the open trusts the record and attaches instead of rebuilding.
     */
    @Property(tries = 40)
    void openWithDamagedLockFile(@ForAll long seed, @ForAll LastRun last, @ForAll RegionPlacement lastPlacement,
                                 @ForAll RegionPlacement placement, @ForAll @IntRange(min = 1, max = 3) int mutations,
                                 @ForAll @IntRange(max = 9) int recompute, @ForAll @IntRange(max = 4) int attached)
            throws IOException {
        Random r = new Random(seed);
        Path home = Files.createDirectory(root.resolve("t" + TRY.incrementAndGet())).toRealPath();
        Path lockFile = home.resolve(LockFile.NAME);
        FileChannel other = null;
        try {
            byte[] b;
            if (last == LastRun.NONE) {
                b = record(r, home);
            } else {
                RegionEnvironment env = RegionEnvironment.open(home, config(lastPlacement));
                if (last == LastRun.CRASHED) {
                    env.crashForTest();
                } else {
                    env.close();
                }
                b = Files.readAllBytes(lockFile);
            }
            for (int i = 0; i < mutations; i++) {
                b = mutate(b, r, home);
            }
            if (recompute > 1) {
                fixCrc(b);
            }
            Files.write(lockFile, b);
            if (attached == 0) {
                other = FileChannel.open(lockFile, StandardOpenOption.READ, StandardOpenOption.WRITE);
                other.lock(LockFile.SLOT_BASE + 7, 1, false);
            }
            byte[] damaged = b;
            boolean alone = other == null;
            String outcome = assertTimeoutPreemptively(Duration.ofSeconds(60), () -> open(home, placement, alone),
                    () -> "hang opening with lock file " + Arrays.toString(damaged));
            Statistics.label("outcome").collect(outcome, alone ? "alone" : "attached");
            int now = openFiles();
            assertTrue(openFiles < 0 || now <= openFiles + 16, () -> now + " files open, " + openFiles
                    + " before the tries: an open leaks files (lock file " + Arrays.toString(damaged) + ")");
        } finally {
            if (other != null) {
                other.close();
            }
            deleteTree(RegionDirectories.shmDirectory(home, shm));
            deleteTree(home);
        }
    }

    /** Opens: works, or a LibTpException naming the lock file or the environment. */
    static String open(Path home, RegionPlacement placement, boolean alone) {
        String lockFile = home.resolve(LockFile.NAME).toString();
        try {
            Path regions;
            try (RegionEnvironment env = RegionEnvironment.open(home, config(placement))) {
                regions = env.regionDirectory();
                env.checkValid();
                assertTrue(env.processSlot() >= 0);
                if (placement != RegionPlacement.AUTO && alone) {
                    assertEquals(placement, env.regionPlacement());
                }
                if (env.createdRegions()) {
                    // the record was rewritten: it names the new regions
                    RegionLocation l = env.sharedForTest().lockFileForTest().readLocation();
                    assertNotNull(l, "the lock file names no regions after they were rebuilt");
                    assertTrue(l.open());
                    assertEquals(regions, l.directory());
                    assertEquals(env.regionPlacement(), l.placement());
                    assertEquals(env.incarnation(), l.incarnation());
                }
            }
            if (alone) {
                try (LockFile f = LockFile.open(home)) {
                    RegionLocation l = f.readLocation();
                    assertNotNull(l, "the lock file names no regions after a clean close");
                    assertTrue(!l.open() && l.directory().equals(regions), () -> "after a clean close: " + l);
                }
                assertNull(RegionDirectories.homeOf(regions.resolve(SharedEnvironment.ENV_FILE)), "regions left behind");
            }
            return "opened";
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(lockFile) || e.getMessage().contains(home.toString()),
                    () -> "names neither the lock file nor the environment: " + e);
            return e.getClass().getSimpleName();
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            return fail("not a LibTpException: " + t, t);
        }
    }
}
