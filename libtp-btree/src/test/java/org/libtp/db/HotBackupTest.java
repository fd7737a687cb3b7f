package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.tp.BackupConfig;
import org.libtp.core.tp.BackupManifest;
import org.libtp.core.tp.HotBackup;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Hot backup and restore in one process: what they copy, and every way to misuse them. */
class HotBackupTest {
    @TempDir
    Path tmp;

    private Path env() throws Exception {
        Path d = tmp.resolve("env");
        Files.createDirectories(d);
        return d;
    }

    private static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void fill(Environment env, String db, int from, int to) {
        try (Database d = env.openDatabase(null, db, DatabaseConfig.builder().allowCreate(true).build())) {
            env.runInTransaction(t -> {
                for (int i = from; i < to; i++) {
                    d.put(t, b("k" + i), b("v" + i));
                }
            });
        }
    }

    @Test
    void aBackupRestoresWithWhatWasCommittedAndNotWhatCameAfter() throws Exception {
        Path dir = env();
        Path backup = tmp.resolve("backup");
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 1000);
            HotBackup.Result r = env.backup(backup);
            assertFalse(r.incremental());
            assertTrue(Files.exists(backup.resolve(BackupManifest.FILE)));
            fill(env, "a", 1000, 2000);
            fill(env, "b", 0, 10); // a database created after the backup
        }
        Path restored = tmp.resolve("restored");
        assertTrue(Environment.restore(backup, restored) > 0);
        assertFalse(Files.exists(restored.resolve(BackupManifest.FILE)), "recovered: an environment like any other");
        assertTrue(Files.exists(backup.resolve(BackupManifest.FILE)), "the backup is unchanged");
        try (Environment env = Environment.open(restored, EnvironmentConfig.defaults());
             Database a = env.openDatabase(null, "a", DatabaseConfig.defaults())) {
            assertArrayEquals(b("v999"), a.get(null, b("k999")));
            assertNull(a.get(null, b("k1000")));
            assertEquals(List.of("a"), env.databaseNames());
            assertEquals(List.of(), a.verify());
        }
    }

    /** A rate limit makes the copy take at least bytes / rate (a lower bound: it only ever sleeps). */
    @Test
    void maxBytesPerSecondSlowsTheCopy() throws Exception {
        Path dir = env();
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 20_000);
            long[] last = {0};
            HotBackup.Result r = env.backup(tmp.resolve("b"), BackupConfig.builder().maxBytesPerSecond(4_000_000)
                    .progress((done, total) -> last[0] = done).build());
            assertEquals(r.bytes(), last[0], "progress reaches every byte copied");
            assertTrue(r.millis() >= r.bytes() / 4_000.0 * 0.9, r + ": " + r.bytes() + " bytes at 4 MB/s");
            assertThrows(IllegalArgumentException.class, () -> BackupConfig.builder().maxBytesPerSecond(-1).build());
        }
    }

    @Test
    void aNonDefaultPageSizeIsRestoredWithIt() throws Exception {
        Path dir = env();
        EnvironmentConfig c = EnvironmentConfig.builder().pageSize(8192).build();
        try (Environment env = Environment.open(dir, c)) {
            fill(env, "a", 0, 500);
            env.backup(tmp.resolve("backup"));
        }
        Environment.restore(tmp.resolve("backup"), tmp.resolve("restored"));
        try (Environment env = Environment.open(tmp.resolve("restored"), c);
             Database a = env.openDatabase(null, "a", DatabaseConfig.defaults())) {
            assertArrayEquals(b("v499"), a.get(null, b("k499")));
        }
    }

    @Test
    void misuseIsRefusedWithWhatToDo() throws Exception {
        Path dir = env();
        Path backup = tmp.resolve("backup");
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 10);
            Files.createDirectories(tmp.resolve("full"));
            Files.writeString(tmp.resolve("full/x"), "x");
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> env.backup(tmp.resolve("full")));
            assertTrue(e.getMessage().contains("not empty"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> env.backup(dir.resolve("sub")));
            assertTrue(e.getMessage().contains("inside it"), e.getMessage());
            e = assertThrows(IllegalArgumentException.class, () -> env.backup(dir));
            e = assertThrows(IllegalArgumentException.class,
                    () -> env.backup(tmp.resolve("full"), BackupConfig.builder().incremental(true).build()));
            assertTrue(e.getMessage().contains("holds no LibTP backup"), e.getMessage());
            env.backup(backup);
            e = assertThrows(IllegalArgumentException.class, () -> env.backup(backup));
            assertTrue(e.getMessage().contains("incremental"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> env.backup(null));
            // One backup at a time: the pin of a running one refuses a second.
            env.tp.txn().beginBackup(0);
            try {
                IllegalStateException busy = assertThrows(IllegalStateException.class, () -> env.backup(tmp.resolve("b2")));
                assertTrue(busy.getMessage().contains("is running"), busy.getMessage());
            } finally {
                env.tp.txn().endBackup();
            }
        }
        // A backup of another environment is no base for an incremental one.
        Path other = tmp.resolve("other");
        Files.createDirectories(other);
        try (Environment env = Environment.open(other, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 10);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> env.backup(backup, BackupConfig.builder().incremental(true).build()));
            assertTrue(e.getMessage().contains("another environment"), e.getMessage());
        }
        // A closed handle, and the unlogged modes.
        Environment closed = Environment.open(dir, EnvironmentConfig.defaults());
        closed.close();
        assertThrows(IllegalStateException.class, () -> closed.backup(tmp.resolve("b3")));
        Path shared = tmp.resolve("shared");
        Files.createDirectories(shared);
        try (Environment env = Environment.open(shared, EnvironmentConfig.builder().mode(OpenMode.SHARED).build())) {
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> env.backup(tmp.resolve("b4")));
            assertTrue(e.getMessage().contains("OpenMode.TP"), e.getMessage());
        }
        // Restore: only a complete backup, only into an empty directory.
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Environment.restore(tmp.resolve("full"), tmp.resolve("r1")));
        assertTrue(e.getMessage().contains("holds no LibTP backup"), e.getMessage());
        e = assertThrows(IllegalArgumentException.class, () -> Environment.restore(backup, tmp.resolve("full")));
        assertTrue(e.getMessage().contains("not empty"), e.getMessage());
    }

    @Test
    void aBackupCutShortIsNeverTakenForOne() throws Exception {
        Path dir = env();
        Path backup = tmp.resolve("backup");
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 10);
            env.backup(backup);
        }
        // As a backup killed halfway leaves it: the manifest still says incomplete.
        String text = Files.readString(backup.resolve(BackupManifest.FILE)).replace("state=complete", "state=incomplete");
        Files.writeString(backup.resolve(BackupManifest.FILE), text);
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Environment.restore(backup, tmp.resolve("r")));
        assertTrue(e.getMessage().contains("did not finish"), e.getMessage());
        CorruptionException c = assertThrows(CorruptionException.class,
                () -> Environment.open(backup, EnvironmentConfig.defaults()));
        assertTrue(c.getMessage().contains("did not complete"), c.getMessage());
        IllegalArgumentException again = assertThrows(IllegalArgumentException.class, () -> {
            try (Environment env = Environment.open(env(), EnvironmentConfig.defaults())) {
                env.backup(backup);
            }
        });
        assertTrue(again.getMessage().contains("did not finish: delete it"), again.getMessage());
    }

    /** A restore cut short (here: its progress listener throws after the first chunk) is refused at open. */
    @Test
    void aRestoreCutShortIsRefusedAtOpen() throws Exception {
        Path dir = env();
        Path backup = tmp.resolve("backup");
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 5000);
            env.backup(backup);
        }
        Path target = tmp.resolve("target");
        assertThrows(IllegalStateException.class, () -> Environment.restore(backup, target, (done, total) -> {
            throw new IllegalStateException("killed");
        }));
        CorruptionException c = assertThrows(CorruptionException.class,
                () -> Environment.open(target, EnvironmentConfig.defaults()));
        assertTrue(c.getMessage().contains("did not complete"), c.getMessage());
    }

    @Test
    void anIncrementalBackupNeedsTheLogFilesSinceTheLastOne() throws Exception {
        Path dir = env();
        Path backup = tmp.resolve("backup");
        EnvironmentConfig c = EnvironmentConfig.builder().logFileSize(1 << 20).logBufferSize(256 << 10)
                .checkpointBytes(256 << 10).tornWriteProtection(false).build();
        try (Environment env = Environment.open(dir, c)) {
            fill(env, "a", 0, 100);
            env.backup(backup);
            byte[] v = new byte[2000];
            try (Database a = env.openDatabase(null, "a", DatabaseConfig.defaults())) {
                for (int i = 0; i < 3000; i++) {
                    a.put(null, b("big" + (i % 300)), v);
                }
            }
            env.checkpoint();
            env.checkpoint();
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> env.backup(backup, BackupConfig.builder().incremental(true).build()));
            assertTrue(e.getMessage().contains("was removed") && e.getMessage().contains("keepLogFiles"), e.getMessage());
        }
    }

    @Test
    void catastrophicRecoveryRedoesTheWholeLog() throws Exception {
        Path dir = env();
        EnvironmentConfig c = EnvironmentConfig.builder().keepLogFiles(true).build();
        try (Environment env = Environment.open(dir, c)) {
            fill(env, "a", 0, 300);
        }
        Environment.recoverCatastrophically(dir, c);
        assertFalse(Files.exists(dir.resolve(BackupManifest.FILE)));
        try (Environment env = Environment.open(dir, c);
             Database a = env.openDatabase(null, "a", DatabaseConfig.defaults())) {
            assertArrayEquals(b("v299"), a.get(null, b("k299")));
            assertEquals(List.of(), a.verify());
        }
        assertThrows(EnvironmentAccessException.class,
                () -> Environment.recoverCatastrophically(tmp.resolve("nowhere"), c));
    }

    /** A full file system under the backup: typed, and the copy stays marked incomplete. */
    @Test
    void aFullBackupDiskIsOutOfSpaceAndLeavesAnIncompleteBackup() throws Exception {
        Path dir = env();
        Path small = tmp.resolve("small");
        Files.createDirectories(small);
        if (!DiskFullTmpfsTest.mountTmpfs(small, 1)) {
            return;
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            fill(env, "a", 0, 20_000);
            OutOfSpaceException e = assertThrows(OutOfSpaceException.class, () -> env.backup(small.resolve("b")));
            assertTrue(e.getMessage().contains("incomplete"), e.getMessage());
            assertThrows(IllegalArgumentException.class, () -> Environment.restore(small.resolve("b"), tmp.resolve("r")));
        } finally {
            DiskFullTmpfsTest.unmount(small);
        }
    }
}
