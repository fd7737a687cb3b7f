package org.libtp.db;

import org.libtp.core.LibTpException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * A real full file system: the environment directory on a 24 MiB tmpfs (mounted by the test,
 * which needs root; skipped with a log line otherwise). Writes fill it; the first failure must be
 * a typed {@link LibTpException}, never a {@code java.lang.Error} (before, a sparse region file
 * that could not grow faulted with SIGBUS: {@code InternalError: a fault occurred in a recent
 * unsafe memory access operation}, on every later call); once space is freed the environment
 * either works again or reports {@link RunRecoveryException}; a reopen keeps every committed row.
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class DiskFullTmpfsTest {
    private static final Logger LOG = LoggerFactory.getLogger(DiskFullTmpfsTest.class);

    @TempDir
    Path tmp;

    static byte[] key(int i) {
        return String.format("key%08d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        byte[] v = new byte[700];
        byte[] tag = ("value " + i + " ").getBytes(StandardCharsets.UTF_8);
        System.arraycopy(tag, 0, v, 0, tag.length);
        return v;
    }

    /** Mounts a tmpfs of {@code mb} MiB on {@code dir}; false (with a log line) if that is not possible. */
    static boolean mountTmpfs(Path dir, int mb) throws Exception {
        Object uid = Files.getAttribute(Path.of("/proc/self"), "unix:uid");
        if (!Integer.valueOf(0).equals(uid)) {
            LOG.warn("skipping the real tmpfs disk-full test: it mounts a tmpfs and needs root (uid is {})", uid);
            return false;
        }
        Process p = new ProcessBuilder("mount", "-t", "tmpfs", "-o", "size=" + mb + "m", "tmpfs", dir.toString())
                .redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8).trim();
        if (!p.waitFor(30, TimeUnit.SECONDS) || p.exitValue() != 0) {
            LOG.warn("skipping the real tmpfs disk-full test: mount -t tmpfs failed: {}", out);
            return false;
        }
        return true;
    }

    static void unmount(Path dir) throws Exception {
        Process p = new ProcessBuilder("umount", "-l", dir.toString()).redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        p.waitFor(30, TimeUnit.SECONDS);
    }

    /** Files that a failed step must not leave behind. */
    static List<String> leftovers(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString())
                    .filter(n -> n.endsWith(".new") || n.endsWith(".prep")).sorted().toList();
        }
    }

    /** Rethrows an Error as a test failure naming the step. */
    static AssertionError escaped(String step, Throwable t) {
        return new AssertionError("a java.lang.Error escaped " + step + ": " + t, t);
    }

    @Test
    void fillTheFileSystemThenFreeSpaceAndReopen() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Assumptions.assumeTrue(mountTmpfs(mnt, 24), "needs root to mount a tmpfs");
        try {
            fillFreeReopen(Files.createDirectory(mnt.resolve("env")), mnt, EnvironmentConfig.defaults());
        } finally {
            unmount(mnt);
        }
    }

    /**
     * The fallback placement, regions in the environment directory, on the same small file
     * system: a 64 MiB buffer pool cannot be allocated there, so the open refuses with a typed
     * exception and leaves nothing behind (before, the sparse pool file was created and faulted
     * later); with a cache that fits, the regions are allocated whole at open and the rest
     * behaves as above.
     */
    @Test
    void regionsInTheEnvironmentDirectoryOfASmallFileSystem() throws Exception {
        Path mnt = Files.createDirectory(tmp.resolve("mnt"));
        Assumptions.assumeTrue(mountTmpfs(mnt, 24), "needs root to mount a tmpfs");
        String was = System.getProperty(RegionEnvironmentConfig.PLACEMENT_PROPERTY);
        System.setProperty(RegionEnvironmentConfig.PLACEMENT_PROPERTY, "env_dir");
        try {
            Path home = Files.createDirectory(mnt.resolve("env"));
            try {
                Environment.open(home, EnvironmentConfig.defaults()).close();
                fail("a 64 MiB pool does not fit a 24 MiB file system");
            } catch (OutOfSpaceException e) {
                assertTrue(e.getMessage().contains(home.toString()) && e.getMessage().contains("poolBytes"), e.getMessage());
            } catch (Error e) {
                throw escaped("Environment.open", e);
            }
            try (Stream<Path> s = Files.list(home)) {
                List<String> left = s.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("__libtp.rgn")
                        || n.equals("__libtp.env") || n.endsWith(".new")).toList();
                assertEquals(List.of(), left, "a refused open leaves no region behind");
            }
            fillFreeReopen(home, mnt, EnvironmentConfig.builder().cacheBytes(4 << 20).build());
        } finally {
            if (was == null) {
                System.clearProperty(RegionEnvironmentConfig.PLACEMENT_PROPERTY);
            } else {
                System.setProperty(RegionEnvironmentConfig.PLACEMENT_PROPERTY, was);
            }
            unmount(mnt);
        }
    }

    private void fillFreeReopen(Path home, Path mnt, EnvironmentConfig cfg) throws Exception {
        {
            Path filler = mnt.resolve("filler");
            try (FileChannel f = FileChannel.open(filler, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                f.write(ByteBuffer.allocate(6 << 20)); // freed later: "space returns"
            }
            Path filler2 = mnt.resolve("filler2");
            try (FileChannel f = FileChannel.open(filler2, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE)) {
                f.write(ByteBuffer.allocate(6 << 20)); // freed before the reopen (regions in ENV_DIR need room)
            }
            TreeMap<Integer, byte[]> committed = new TreeMap<>();
            Environment env;
            try {
                env = Environment.open(home, cfg);
            } catch (LibTpException e) {
                // Allowed: regions that cannot be allocated refuse the open with a typed exception.
                LOG.info("open refused on the small file system: {}", e.toString());
                assertTrue(e.getMessage().contains(home.toString()) || e.getMessage().contains("space"), e.getMessage());
                return;
            } catch (Error e) {
                throw escaped("Environment.open", e);
            }
            LibTpException first = null;
            int next = 0;
            Database db = null;
            try {
                db = env.openDatabase(null, "rows", DatabaseConfig.builder().allowCreate(true).build());
                while (first == null && next < 200_000) {
                    Transaction t = env.beginTransaction();
                    List<Integer> mine = new ArrayList<>();
                    try {
                        for (int k = 0; k < 20; k++) {
                            db.put(t, key(next), value(next));
                            mine.add(next++);
                        }
                        t.commit();
                        for (int i : mine) {
                            committed.put(i, value(i));
                        }
                    } catch (LibTpException e) {
                        first = e;
                        try {
                            t.abort();
                        } catch (LibTpException ae) {
                            LOG.info("abort after the failure: {}", ae.toString());
                        }
                    }
                }
            } catch (LibTpException e) {
                first = e;
            } catch (Error e) {
                throw escaped("a put or commit on a filling file system", e);
            }
            LOG.info("first failure after {} committed rows: {}", committed.size(), String.valueOf(first));
            assertTrue(first != null, "24 MiB should fill before 200,000 rows of 700 bytes");
            assertTrue(!committed.isEmpty(), "some rows commit before the file system fills: " + first);
            Files.delete(filler); // space returns
            boolean failed = first instanceof RunRecoveryException;
            try {
                if (!failed) {
                    try {
                        try (Transaction t = env.beginTransaction()) {
                            int i = next++;
                            db.put(t, key(i), value(i));
                            t.commit();
                            committed.put(i, value(i));
                        }
                        LOG.info("the environment works again once space returned");
                    } catch (RunRecoveryException e) {
                        LOG.info("the environment reports RunRecoveryException after space returned: {}", e.toString());
                        failed = true;
                    }
                }
                if (failed) {
                    try {
                        db.get(null, key(0));
                        fail("a failed environment must fail fast");
                    } catch (RunRecoveryException expected) {
                        // fail fast
                    }
                }
            } catch (Error e) {
                throw escaped("the first calls after space returned", e);
            }
            try {
                try {
                    db.close();
                } catch (LibTpException e) {
                    LOG.info("closing the database: {}", e.toString());
                }
                env.close();
            } catch (LibTpException e) {
                LOG.info("closing the environment: {}", e.toString());
            } catch (Error e) {
                throw escaped("close", e);
            }
            assertEquals(List.of(), leftovers(home), "half-created files left behind");
            Files.delete(filler2);
            try (Environment again = Environment.open(home, cfg);
                 Database d = again.openDatabase(null, "rows", DatabaseConfig.builder().build())) {
                for (var e : committed.entrySet()) {
                    assertArrayEquals(e.getValue(), d.get(null, key(e.getKey())), "committed row " + e.getKey());
                }
            } catch (Error e) {
                throw escaped("the reopen", e);
            }
        }
    }
}
