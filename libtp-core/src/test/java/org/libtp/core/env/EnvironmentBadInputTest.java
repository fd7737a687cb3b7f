package org.libtp.core.env;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.LibTpException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.RegionHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Bad directories and damaged region files: clear exceptions naming the file, nothing lost. */
class EnvironmentBadInputTest {
    @TempDir
    Path dir;

    private static final RegionEnvironmentConfig CONFIG = RegionEnvironmentConfig.builder().failCheckMillis(0).build();

    /** Where the regions of the last environment opened here were. */
    private Path regionDir;

    @org.junit.jupiter.api.AfterEach
    void removeLeftRegions() {
        if (regionDir != null && !regionDir.equals(dir)) {
            RegionDirectories.remove(regionDir, true, true); // left by createAndCrash
        }
    }

    private Path envFile() {
        return regionDir.resolve(SharedEnvironment.ENV_FILE);
    }

    /** Creates the regions and leaves them as a killed process would (a clean close removes them). */
    private void createAndCrash() {
        RegionEnvironment env = RegionEnvironment.open(dir, CONFIG);
        regionDir = env.regionDirectory();
        env.crashForTest();
        assertTrue(Files.exists(envFile()));
    }

    /**
     * Holds a liveness byte of the lock file, as an attached process does: an open then attaches
     * to the regions (and validates them) instead of rebuilding them.
     */
    private FileChannel liveProcess() throws IOException {
        FileChannel ch = FileChannel.open(dir.resolve(LockFile.NAME), StandardOpenOption.READ, StandardOpenOption.WRITE);
        ch.lock(LockFile.SLOT_BASE + 7, 1, false);
        return ch;
    }

    private void patch(Path file, long offset, byte[] bytes) throws IOException {
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.WRITE)) {
            ch.write(ByteBuffer.wrap(bytes), offset);
        }
    }

    private static byte[] intBytes(int v) {
        return ByteBuffer.allocate(4).order(ByteOrder.nativeOrder()).putInt(0, v).array();
    }

    private static byte[] longBytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.nativeOrder()).putLong(0, v).array();
    }

    private <T extends LibTpException> T assertOpenFails(Class<T> type, String... mustContain) throws IOException {
        byte[] before = Files.readAllBytes(envFile());
        T e;
        try (FileChannel live = liveProcess()) {
            e = assertThrows(type, () -> RegionEnvironment.open(dir, CONFIG));
        }
        for (String s : mustContain) {
            assertTrue(e.getMessage().contains(s), "message lacks '" + s + "': " + e.getMessage());
        }
        assertArrayEquals(before, Files.readAllBytes(envFile()), "a refused open must not change the file");
        return e;
    }

    @Test
    void wrongMagic() throws Exception {
        createAndCrash();
        patch(envFile(), RegionHeader.OFF_MAGIC, "NOTLIBTP".getBytes());
        assertOpenFails(VersionMismatchException.class, envFile().toRealPath().toString(), "NOTLIBTP", "LIBTPRGN");
    }

    @Test
    void wrongVersion() throws Exception {
        createAndCrash();
        patch(envFile(), RegionHeader.OFF_VERSION, intBytes(99));
        assertOpenFails(VersionMismatchException.class, envFile().toRealPath().toString(), "version 99",
                "expects " + RegionHeader.VERSION);
    }

    @Test
    void wrongFingerprint() throws Exception {
        createAndCrash();
        patch(envFile(), RegionHeader.OFF_FINGERPRINT, longBytes(0x1234L));
        assertOpenFails(VersionMismatchException.class, envFile().toRealPath().toString(),
                "0x0000000000001234", String.format("0x%016x", EnvLayout.FINGERPRINT));
    }

    @Test
    void truncatedRegionFile() throws Exception {
        createAndCrash();
        try (RandomAccessFile f = new RandomAccessFile(envFile().toFile(), "rw")) {
            f.setLength(4096);
        }
        assertOpenFails(CorruptionException.class, envFile().toRealPath().toString(), "truncated", "4096");
        try (RandomAccessFile f = new RandomAccessFile(envFile().toFile(), "rw")) {
            f.setLength(100);
        }
        assertOpenFails(CorruptionException.class, envFile().toRealPath().toString(), "truncated", "100 bytes");
    }

    @Test
    void missingDirectory() {
        Path missing = dir.resolve("no-such-dir");
        EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                () -> RegionEnvironment.open(missing, CONFIG));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist"),
                e.getMessage());
        assertFalse(Files.exists(missing), "open must not create the directory");
    }

    @Test
    void notADirectory() throws Exception {
        Path file = Files.createFile(dir.resolve("plain-file"));
        EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                () -> RegionEnvironment.open(file, CONFIG));
        assertTrue(e.getMessage().contains(file.toString()) && e.getMessage().contains("not a directory"),
                e.getMessage());
    }

    @Test
    void unwritableDirectory() throws Exception {
        // A read-only directory stops a normal user; root writes anywhere on a normal file
        // system, so also use one no user can create files in.
        Path ro = Files.createDirectory(dir.resolve("read-only"));
        assertTrue(ro.toFile().setWritable(false, false));
        try {
            if (!Files.isWritable(ro)) {
                EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                        () -> RegionEnvironment.open(ro, CONFIG));
                assertTrue(e.getMessage().contains(ro.toString()) && e.getMessage().contains("not writable"),
                        e.getMessage());
            }
        } finally {
            ro.toFile().setWritable(true, false);
        }
        Path proc = Path.of("/proc/self/fdinfo");
        if (Files.isDirectory(proc)) {
            EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                    () -> RegionEnvironment.open(proc, CONFIG));
            assertTrue(e.getMessage().contains("fdinfo"), e.getMessage());
        }
    }

    @Test
    void closedHandleAndBadArguments() {
        RegionEnvironment env = RegionEnvironment.open(dir, CONFIG);
        TestRegion t = new TestRegion(env);
        env.close();
        env.close(); // idempotent
        IllegalStateException e = assertThrows(IllegalStateException.class, env::failCheck);
        assertTrue(e.getMessage().contains("closed"), e.getMessage());
        assertThrows(IllegalStateException.class, () -> env.region(TestRegion.SPEC));
        assertThrows(IllegalStateException.class, () -> t.region.memory().getLong(TestRegion.COUNTERS));
        assertThrows(IllegalArgumentException.class, () -> RegionEnvironment.open(null, CONFIG));
        assertThrows(IllegalArgumentException.class, () -> RegionEnvironmentConfig.builder().maxProcesses(0).build());
        assertThrows(IllegalArgumentException.class, () -> RegionEnvironmentConfig.builder().failCheckMillis(5).build());
        assertThrows(IllegalArgumentException.class, () -> new RegionSpec("bad name!", 4096, 1));
        assertThrows(IllegalArgumentException.class, () -> new RegionSpec("x", 100, 1));
        assertThrows(IllegalArgumentException.class,
                () -> new RegionSpec("x", 4096, 1, new LatchArray(0, 64, 1))); // latches in the header
        assertThrows(IllegalArgumentException.class,
                () -> new RegionSpec("x", 4096, 1, new LatchArray(256, 64, 100))); // past the end
    }

    @Test
    void regionSpecMismatchIsRefused() {
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            env.region(new RegionSpec("shared", 8192, 1));
            VersionMismatchException e = assertThrows(VersionMismatchException.class,
                    () -> env.region(new RegionSpec("shared", 8192, 2)));
            assertTrue(e.getMessage().contains("shared"), e.getMessage());
            assertNotEquals(new RegionSpec("shared", 8192, 1).fingerprint(), new RegionSpec("shared", 8192, 2).fingerprint());
        }
    }

    @Test
    void fullRegionDirectoryIsAClearError() {
        try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.builder().maxRegions(4).failCheckMillis(0).build())) {
            for (int i = 0; i < 4; i++) {
                env.region(new RegionSpec("r" + i, 4096, 1));
            }
            CapacityExceededException e = assertThrows(CapacityExceededException.class,
                    () -> env.region(new RegionSpec("r4", 4096, 1)));
            assertTrue(e.getMessage().contains("maxRegions"), e.getMessage());
        }
    }

    @Test
    void openingTwiceInOneJvmSharesTheSlot() {
        try (RegionEnvironment a = RegionEnvironment.open(dir, CONFIG); RegionEnvironment b = RegionEnvironment.open(dir, CONFIG)) {
            assertEquals(a.processSlot(), b.processSlot());
            assertEquals(a.incarnation(), b.incarnation());
            assertEquals(1, a.busyProcessSlots());
            a.close();
            assertEquals(1, b.busyProcessSlots()); // b still attached
            new TestRegion(b).latch(0).acquire();
        }
        // closed cleanly despite the latch left held in region memory: the next open rebuilds.
        try (RegionEnvironment c = RegionEnvironment.open(dir, CONFIG)) {
            assertFalse(c.wasUnclean());
            assertEquals(0, new TestRegion(c).latch(0).owner());
        }
    }

    @Test
    void leftoversOfAnotherFormatAreRebuiltWhenNobodyIsAttached() throws Exception {
        createAndCrash();
        patch(envFile(), RegionHeader.OFF_MAGIC, "NOTLIBTP".getBytes());
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            assertTrue(env.createdRegions());
            assertTrue(env.wasUnclean());
        }
    }

    @Test
    void cleanCloseIsRememberedAndACrashIsNot() throws Exception {
        RegionEnvironment.open(dir, CONFIG).close();
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            assertTrue(env.createdRegions());
            assertFalse(env.wasUnclean());
        }
        // A crashed last process: the regions still say "open" (needs recovery).
        createAndCrash();
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            assertTrue(env.wasUnclean());
        }
        // A machine restart: the shared-memory regions are gone, the lock file still says open.
        createAndCrash();
        for (Path p : Files.list(regionDir).toList()) {
            Files.delete(p);
        }
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            assertTrue(env.wasUnclean(), "regions gone while the lock file says open: not a clean close");
        }
        try (RegionEnvironment env = RegionEnvironment.open(dir, CONFIG)) {
            assertFalse(env.wasUnclean());
        }
    }
}
