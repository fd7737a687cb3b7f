package org.libtp.db;

import org.libtp.core.ConfigMismatchException;
import org.libtp.core.CorruptionException;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.testkit.ChildJvm;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Torn page writes (power loss or an OS crash in the middle of a page write leaves some of its
 * sectors old and some new): with torn-write protection (the default) recovery rewrites every
 * torn page from the image logged and forced before its write and loses nothing; without it, the
 * torn page is a {@link CorruptionException} naming the file and page, never wrong data.
 *
 * <p>The workload runs in a cache of 16 pages, so that most pages are written by evictions after
 * the last checkpoint; the crash keeps every write, then every page of the database file gets
 * its second half scrambled, as a tear at a sector boundary would.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class TornPageTest {
    @TempDir
    Path dir;

    static final int ROWS = 600;

    static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        byte[] v = new byte[200 + i % 300];
        new Random(i).nextBytes(v);
        return v;
    }

    static EnvironmentConfig config(boolean protection) {
        // No checkpoint after the open's: every page write of the workload has its image in the
        // part of the log recovery reads.
        return EnvironmentConfig.builder().cacheBytes(16 * 4096).checkpointBytes(0).checkpointSeconds(0)
                .tornWriteProtection(protection).build();
    }

    /** Commits the rows durably, then "crashes" (every write kept, nothing closed cleanly). */
    private void workloadThenCrash(boolean protection) throws Exception {
        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        Environment env = Environment.open(dir, config(protection), fis);
        Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
        for (int i = 0; i < ROWS; i += 10) {
            int from = i;
            env.runInTransaction(t -> {
                for (int k = from; k < from + 10; k++) {
                    db.put(t, key(k), value(k));
                }
            });
        }
        EnvironmentStats.Cache cache = env.stats().cache();
        assertTrue(cache.writes() > 16, "evictions wrote pages: " + cache);
        if (protection) {
            assertTrue(cache.imagedWrites() > 0 && cache.imagedWrites() <= cache.writes() + 64, cache.toString());
        } else {
            assertEquals(0, cache.imagedWrites(), cache.toString());
        }
        fis.crash(new Random(1), FaultInjectingStorage.CrashMode.KEEP_ALL);
        try {
            db.close();
            env.close();
        } catch (RuntimeException expected) {
            // the storage has "lost power"
        }
    }

    /**
     * Scrambles the second half of every page of {@code t.db} that was written (not the header
     * page, nor pages still all zeros: never written, so no write of theirs could tear); returns
     * how many.
     */
    private int tearEveryPage() throws Exception {
        int pageSize = 4096;
        int torn = 0;
        try (RandomAccessFile f = new RandomAccessFile(dir.resolve("t.db").toFile(), "rw")) {
            long pages = f.length() / pageSize - 1;
            byte[] half = new byte[pageSize / 2];
            byte[] page = new byte[pageSize];
            for (long p = 0; p < pages; p++) {
                f.seek((p + 1) * pageSize);
                f.readFully(page);
                if (java.util.Arrays.equals(page, new byte[pageSize])) {
                    continue;
                }
                long at = (p + 1) * pageSize + pageSize / 2;
                f.seek(at);
                f.readFully(half);
                for (int i = 0; i < half.length; i++) {
                    half[i] = (byte) (half[i] ^ 0x5A);
                }
                f.seek(at);
                f.write(half);
                torn++;
            }
        }
        return torn;
    }

    @Test
    void recoveryRewritesTornPagesFromTheirLoggedImages() throws Exception {
        workloadThenCrash(true);
        int torn = tearEveryPage();
        assertTrue(torn > 16, "the workload wrote more pages than the cache holds: " + torn);
        try (Environment env = Environment.open(dir, config(true));
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            assertTrue(env.wasRecovered());
            for (int i = 0; i < ROWS; i++) {
                assertArrayEquals(value(i), db.get(null, key(i)), "row " + i);
            }
            assertEquals(java.util.List.of(), db.verify());
        }
    }

    @Test
    void withoutProtectionATornPageIsRefusedNamingItNeverWrongData() throws Exception {
        workloadThenCrash(false);
        tearEveryPage();
        CorruptionException e = assertThrows(CorruptionException.class, () -> {
            try (Environment env = Environment.open(dir, config(false));
                 Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
                for (int i = 0; i < ROWS; i++) {
                    db.get(null, key(i));
                }
            }
        });
        assertTrue(e.getMessage().contains("t.db") && e.getMessage().contains("page"), e.getMessage());
    }

    @Test
    void aPageDamagedAfterACleanCloseIsRewrittenWhileTheLogHoldsItsImage() throws Exception {
        // The default cache: no page is written before the closing checkpoint writes them all.
        EnvironmentConfig big = EnvironmentConfig.builder().checkpointBytes(0).checkpointSeconds(0).build();
        try (Environment env = Environment.open(dir, big);
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            for (int i = 0; i < ROWS; i++) {
                db.put(null, key(i), value(i));
            }
        } // the closing checkpoint writes (and images) every dirty page
        assertTrue(tearEveryPage() > 0);
        try (Environment env = Environment.open(dir, big);
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            for (int i = 0; i < ROWS; i++) {
                assertArrayEquals(value(i), db.get(null, key(i)), "row " + i);
            }
            assertEquals(java.util.List.of(), db.verify());
        }
    }

    /**
     * Pages missing past their file's end (never written: the disk was full) while the disk is
     * still full at the next open: recovery cannot write them back, and says so as an
     * {@link org.libtp.core.OutOfSpaceException} naming the file and what to do, not as an I/O
     * failure about a "torn" page; once space returns the open recovers every row.
     */
    @Test
    void aFullDiskDuringRecoveryIsOutOfSpaceAndAnOpenAfterSpaceReturnsLosesNothing() throws Exception {
        workloadThenCrash(true);
        Path t = dir.resolve("t.db");
        try (RandomAccessFile f = new RandomAccessFile(t.toFile(), "rw")) {
            f.setLength(f.length() - 3 * 4096); // the last three pages never reached the file
        }
        FaultInjectingStorage full = new FaultInjectingStorage(dir);
        full.diskFull(true);
        org.libtp.core.OutOfSpaceException e = assertThrows(org.libtp.core.OutOfSpaceException.class,
                () -> Environment.open(dir, config(true), full).close());
        assertTrue(e.getMessage().contains("t.db") && e.getMessage().contains("free space")
                && e.getMessage().contains("nothing is lost"), e.getMessage());
        try (Environment env = Environment.open(dir, config(true));
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            // The failed open left the environment marked unclean: this open recovers, and says so.
            assertTrue(env.wasRecovered());
            for (int i = 0; i < ROWS; i++) {
                assertArrayEquals(value(i), db.get(null, key(i)), "row " + i);
            }
            assertEquals(java.util.List.of(), db.verify());
        }
    }

    @Test
    void aCloseWhoseFinalCheckpointFindsTheDiskFullLeavesTheEnvironmentToRecoverAndLosesNothing() throws Exception {
        // NO_SYNC commits stay in the log buffer; the full disk keeps the close from writing them
        // or the pages out. Before, the close recorded a clean end anyway: the regions went (with
        // the buffer), and the next open said it had not recovered.
        EnvironmentConfig noSync = EnvironmentConfig.builder().cacheBytes(16 * 4096).checkpointBytes(0)
                .checkpointSeconds(0).durability(Durability.NO_SYNC).build();
        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        Environment env = Environment.open(dir, noSync, fis);
        Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
        for (int i = 0; i < ROWS; i += 10) {
            int from = i;
            env.runInTransaction(t -> {
                for (int k = from; k < from + 10; k++) {
                    db.put(t, key(k), value(k));
                }
            });
        }
        fis.diskFull(true);
        try {
            db.close();
            env.close();
        } catch (RuntimeException e) {
            assertTrue(e instanceof org.libtp.core.LibTpException, "a typed exception: " + e);
        }
        try (Environment again = Environment.open(dir, noSync);
             Database d = again.openDatabase(null, "t", DatabaseConfig.defaults())) {
            assertTrue(again.wasRecovered());
            for (int i = 0; i < ROWS; i++) {
                assertArrayEquals(value(i), d.get(null, key(i)), "row " + i);
            }
            assertEquals(java.util.List.of(), d.verify());
        }
    }

    /** Child: commits rows {@code c/k00000..} durably in a 16-page cache, prints DONE, waits to be killed. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            Environment env = Environment.open(Path.of(args[0]), config(true));
            Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
            String c = args[1];
            for (int i = 0; i < ROWS; i += 10) {
                int from = i;
                env.runInTransaction(t -> {
                    for (int k = from; k < from + 10; k++) {
                        db.put(t, (c + "/").concat(new String(key(k), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8),
                                value(k));
                    }
                });
            }
            System.out.println("DONE " + env.stats().cache().imagedWrites());
            System.in.read(); // killed here
        }
    }

    @Test
    void pagesTwoKilledProcessesWroteAreRepairedAfterTheyTear() throws Exception {
        // The children create the database: every page of it is written after the last checkpoint
        // (a page written and forced before it could not tear in a real crash).
        java.util.List<ChildJvm> children = ChildJvm.startAll(2, Writer.class,
                c -> new String[] {dir.toString(), "p" + c});
        try {
            for (ChildJvm child : children) {
                String line = child.awaitLine("DONE ", java.time.Duration.ofSeconds(120));
                assertTrue(line != null && Long.parseLong(line.substring(5).trim()) > 0,
                        "each process logged images of the pages it wrote: " + child.outputText());
            }
        } finally {
            ChildJvm.killAll(children);
        }
        assertTrue(tearEveryPage() > 16);
        try (Environment env = Environment.open(dir, config(true));
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            assertTrue(env.wasRecovered());
            for (int c = 0; c < 2; c++) {
                for (int i = 0; i < ROWS; i++) {
                    byte[] k = ("p" + c + "/").concat(new String(key(i), StandardCharsets.UTF_8)).getBytes(StandardCharsets.UTF_8);
                    assertArrayEquals(value(i), db.get(null, k), "process " + c + " row " + i);
                }
            }
            assertEquals(java.util.List.of(), db.verify());
        }
    }

    @Test
    void everyProcessMustAgreeOnTheSetting() {
        try (Environment env = Environment.open(dir, config(true))) {
            ConfigMismatchException e = assertThrows(ConfigMismatchException.class,
                    () -> Environment.open(dir, config(false)).close());
            assertTrue(e.getMessage().contains("tornWriteProtection"), e.getMessage());
        }
    }
}
