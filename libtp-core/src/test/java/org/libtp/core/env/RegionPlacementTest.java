package org.libtp.core.env;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.buffer.SharedBufferPool;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Where the shared regions live: a directory of the environment's own in shared memory
 * ({@code /dev/shm/libtp-<id>}, mode 0700) by default, the environment directory when asked or
 * when no usable tmpfs exists; one directory per environment, found again through symbolic links;
 * rebuilt after a crash; removed by the last clean close; leftovers of deleted environments swept.
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class RegionPlacementTest {
    private static final Logger LOG = LoggerFactory.getLogger(RegionPlacementTest.class);
    static final RegionEnvironmentConfig AUTO = RegionEnvironmentConfig.builder().failCheckMillis(0)
            .regionPlacement(RegionPlacement.AUTO).shmDirectory(RegionEnvironmentConfig.DEFAULT_SHM_DIRECTORY).build();

    @TempDir
    Path dir;

    private final List<Path> crashed = new ArrayList<>();

    @AfterEach
    void removeCrashedRegions() {
        for (Path p : crashed) {
            RegionDirectories.remove(p, true, true);
        }
    }

    static boolean shmUsable() {
        return RegionDirectories.shmProblem(RegionEnvironmentConfig.DEFAULT_SHM_DIRECTORY, false) == null;
    }

    static List<String> names(Path d) throws IOException {
        try (Stream<Path> s = Files.list(d)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void regionsGoToTheirOwnShmDirectoryAndTheLastCloseRemovesThem() throws Exception {
        Assumptions.assumeTrue(shmUsable(), "needs a tmpfs at /dev/shm");
        Path home = Files.createDirectory(dir.resolve("env"));
        Path regions;
        try (RegionEnvironment env = RegionEnvironment.open(home, AUTO)) {
            new TestRegion(env);
            regions = env.regionDirectory();
            assertEquals(RegionPlacement.SHM, env.regionPlacement());
            assertEquals(Path.of("/dev/shm"), regions.getParent());
            assertTrue(regions.getFileName().toString().matches("libtp-[0-9a-f]{32}"), regions.toString());
            assertEquals("rwx------", PosixFilePermissions.toString(
                    Files.getPosixFilePermissions(regions, LinkOption.NOFOLLOW_LINKS)));
            assertEquals(List.of("__libtp.env", "__libtp.rgn.test"), names(regions));
            assertEquals(List.of("__libtp.lock"), names(home), "only the lock file in the environment directory");
            RegionLocation rec = env.sharedForTest().lockFileForTest().readLocation();
            assertNotNull(rec);
            assertTrue(rec.open());
            assertEquals(regions, rec.directory());
            assertEquals(env.incarnation(), rec.incarnation());
        }
        assertFalse(Files.exists(regions), "the last clean close removes the region directory");
        try (LockFile f = LockFile.open(home)) {
            RegionLocation rec = f.readLocation();
            assertFalse(rec.open(), "the lock file says closed");
        }
    }

    @Test
    void oneDirectoryPerEnvironmentFoundAgainThroughSymbolicLinks() throws Exception {
        Assumptions.assumeTrue(shmUsable(), "needs a tmpfs at /dev/shm");
        Path a = Files.createDirectory(dir.resolve("a"));
        Path b = Files.createDirectory(dir.resolve("b"));
        Path link = Files.createSymbolicLink(dir.resolve("link-to-a"), a);
        Path ra;
        Path rb;
        try (RegionEnvironment ea = RegionEnvironment.open(a, AUTO); RegionEnvironment eb = RegionEnvironment.open(b, AUTO)) {
            ra = ea.regionDirectory();
            rb = eb.regionDirectory();
            assertNotEquals(ra, rb, "two environments never share a region directory");
            try (RegionEnvironment viaLink = RegionEnvironment.open(link, AUTO)) {
                assertEquals(ra, viaLink.regionDirectory());
                assertEquals(ea.incarnation(), viaLink.incarnation());
            }
        }
        try (RegionEnvironment viaLink = RegionEnvironment.open(link, AUTO)) {
            assertEquals(ra, viaLink.regionDirectory(), "the id is computed from the real path: the same");
        }
        assertEquals(RegionDirectories.shmDirectory(a.toRealPath(), Path.of("/dev/shm")), ra);
    }

    @Test
    void envDirPlacementKeepsRegionFilesInTheEnvironmentDirectoryUntilTheLastClose() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        RegionEnvironmentConfig cfg = AUTO.toBuilder().regionPlacement(RegionPlacement.ENV_DIR).build();
        try (RegionEnvironment env = RegionEnvironment.open(home, cfg)) {
            new TestRegion(env);
            assertEquals(RegionPlacement.ENV_DIR, env.regionPlacement());
            assertEquals(home.toRealPath(), env.regionDirectory());
            assertEquals(List.of("__libtp.env", "__libtp.lock", "__libtp.rgn.test"), names(home));
        }
        assertEquals(List.of("__libtp.lock"), names(home));
    }

    @Test
    void noUsableShmFallsBackInAutoAndFailsClearlyWhenAskedFor() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path missing = dir.resolve("no-such-tmpfs");
        try (RegionEnvironment env = RegionEnvironment.open(home, AUTO.toBuilder().shmDirectory(missing).build())) {
            assertEquals(RegionPlacement.ENV_DIR, env.regionPlacement());
        }
        EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                () -> RegionEnvironment.open(home, AUTO.toBuilder().regionDirectory(missing).build()));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("shmDirectory"),
                e.getMessage());
        assertEquals(List.of("__libtp.lock"), names(home), "a refused open leaves no region behind");
        // A directory that is no tmpfs is refused by AUTO, accepted when named explicitly.
        Path disk = Files.createDirectory(dir.resolve("disk"));
        try (RegionEnvironment env = RegionEnvironment.open(home, AUTO.toBuilder().shmDirectory(disk).build())) {
            assertEquals(RegionPlacement.ENV_DIR, env.regionPlacement());
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, AUTO.toBuilder().regionDirectory(disk).build())) {
            assertEquals(RegionPlacement.SHM, env.regionPlacement());
            assertEquals(disk, env.regionDirectory().getParent());
        }
        assertEquals(List.of(), names(disk));
    }

    @Test
    void aRegionDirectoryOfAnotherUserIsNotUsed() throws Exception {
        Assumptions.assumeTrue(Integer.valueOf(0).equals(Files.getAttribute(Path.of("/proc/self"), "unix:uid")),
                "needs root to make a directory of another user");
        Path home = Files.createDirectory(dir.resolve("env"));
        Path shm = Files.createDirectory(dir.resolve("shm"));
        Path squatted = Files.createDirectory(RegionDirectories.shmDirectory(home.toRealPath(), shm));
        Files.setAttribute(squatted, "unix:uid", 1);
        try (RegionEnvironment env = RegionEnvironment.open(home, AUTO.toBuilder().shmDirectory(shm).build())) {
            assertEquals(RegionPlacement.ENV_DIR, env.regionPlacement(), "AUTO falls back");
        }
        EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                () -> RegionEnvironment.open(home, AUTO.toBuilder().regionDirectory(shm).build()));
        assertTrue(e.getMessage().contains("belongs to uid 1"), e.getMessage());
        Path link = Files.createSymbolicLink(shm.resolve("libtp-link"), dir);
        Files.delete(squatted);
        Files.move(link, squatted);
        e = assertThrows(EnvironmentAccessException.class,
                () -> RegionEnvironment.open(home, AUTO.toBuilder().regionDirectory(shm).build()));
        assertTrue(e.getMessage().contains("symbolic link"), e.getMessage());
    }

    @Test
    void regionsLeftByAKilledProcessAreRebuiltAndReportedUnclean() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        RegionEnvironment env = RegionEnvironment.open(home, AUTO);
        new TestRegion(env);
        Path regions = env.regionDirectory();
        long incarnation = env.incarnation();
        env.crashForTest();
        assertTrue(Files.exists(regions.resolve("__libtp.rgn.test")), "a killed process cleans nothing up");
        try (RegionEnvironment again = RegionEnvironment.open(home, AUTO)) {
            assertTrue(again.createdRegions());
            assertTrue(again.wasUnclean());
            assertEquals(regions, again.regionDirectory());
            assertNotEquals(incarnation, again.incarnation());
            assertFalse(Files.exists(regions.resolve("__libtp.rgn.test")), "the old incarnation's regions are gone");
        }
    }

    @Test
    void leftoversOfADeletedEnvironmentAreSweptByTheNextCreation() throws Exception {
        Assumptions.assumeTrue(shmUsable(), "needs a tmpfs at /dev/shm");
        Path gone = Files.createDirectory(dir.resolve("gone"));
        RegionEnvironment env = RegionEnvironment.open(gone, AUTO);
        Path leftover = env.regionDirectory();
        env.crashForTest();
        crashed.add(leftover);
        Files.delete(gone.resolve("__libtp.lock"));
        Files.delete(gone);
        assertTrue(Files.exists(leftover));
        Path other = Files.createDirectory(dir.resolve("other"));
        try (RegionEnvironment e2 = RegionEnvironment.open(other, AUTO)) {
            assertFalse(Files.exists(leftover), "the region directory of a deleted environment is swept");
        }
    }

    @Test
    void regionsThatDoNotFitTheirTmpfsRefuseTheOpenWithATypedException() throws Exception {
        Path mnt = Files.createDirectory(dir.resolve("small-shm"));
        Assumptions.assumeTrue(mountTmpfs(mnt, 8), "needs root to mount a tmpfs");
        try {
            Path home = Files.createDirectory(dir.resolve("env"));
            RegionEnvironmentConfig cfg = AUTO.toBuilder().regionDirectory(mnt).build();
            // The environment region fits; the 64 MiB buffer pool does not.
            try (RegionEnvironment env = RegionEnvironment.open(home, cfg); SharedLog log = SharedLog.open(env, new FileStorage(home),
                    LogConfig.defaults())) {
                OutOfSpaceException e = assertThrows(OutOfSpaceException.class, () -> SharedBufferPool.open(env,
                        new FileStorage(home), log, BufferConfig.defaults()));
                assertTrue(e.getMessage().contains(env.regionDirectory().toString()) && e.getMessage().contains("bytes")
                        && e.getMessage().contains("poolBytes"), e.getMessage());
                assertFalse(names(env.regionDirectory()).stream().anyMatch(n -> n.endsWith(".new")),
                        "no half-built region is left: " + names(env.regionDirectory()));
                env.checkValid(); // the environment is fine
            }
            assertEquals(List.of(), names(mnt), "closed: nothing left in the tmpfs");
            // A full tmpfs: the environment region itself does not fit, the open refuses.
            Path filler = mnt.resolve("filler");
            try (var out = Files.newOutputStream(filler)) {
                byte[] chunk = new byte[64 * 1024];
                while (true) {
                    out.write(chunk);
                    out.flush();
                }
            } catch (IOException full) {
                LOG.info("tmpfs filled: {}", full.toString());
            }
            OutOfSpaceException e = assertThrows(OutOfSpaceException.class, () -> RegionEnvironment.open(home, cfg));
            assertTrue(e.getMessage().contains("__libtp.env"), e.getMessage());
            Files.delete(filler);
            assertEquals(List.of(), names(mnt), "a refused open leaves nothing in the tmpfs");
            try (RegionEnvironment env = RegionEnvironment.open(home, cfg)) {
                assertFalse(env.wasUnclean(), "a refused open is no unclean end");
            }
        } finally {
            unmount(mnt);
        }
    }

    /** Mounts a tmpfs of {@code mb} MiB on {@code mnt}; false (with a log line) if not possible. */
    static boolean mountTmpfs(Path mnt, int mb) throws Exception {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (!Integer.valueOf(0).equals(uid)) {
            LOG.warn("skipping: mounting a tmpfs needs root (uid is {})", uid);
            return false;
        }
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + mb + "m", "tmpfs", mnt.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            LOG.warn("skipping: mount -t tmpfs failed: {}", out);
            return false;
        }
        return true;
    }

    static void unmount(Path mnt) throws Exception {
        Process p = new ProcessBuilder("umount", "-l", mnt.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
    }
}
