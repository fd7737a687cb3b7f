package org.libtp.db;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.lock.VictimPolicy;
import org.libtp.core.log.LogFileHeader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Every EnvironmentConfig setting: its default, its validation, and that it reaches the managers. */
class EnvironmentConfigTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void defaultsAreDocumentedOnes() {
        EnvironmentConfig c = EnvironmentConfig.defaults();
        assertEquals(OpenMode.TP, c.mode());
        assertEquals(Durability.SYNC, c.durability());
        assertFalse(c.readOnly());
        assertEquals(4096, c.pageSize());
        assertEquals(64L << 20, c.cacheBytes());
        assertEquals(256, c.maxFiles());
        assertEquals(10L << 20, c.logFileSize());
        assertEquals(1 << 20, c.logBufferSize());
        assertEquals(32L << 20, c.checkpointBytes());
        assertEquals(60, c.checkpointSeconds());
        assertEquals(256, c.maxTransactions());
        assertEquals(64, c.maxProcesses());
        assertEquals(20_000, c.maxLocks());
        assertEquals(20_000, c.maxLockObjects());
        assertTrue(c.tornWriteProtection(), "page images before page writes: power loss tears no page for good");
        assertEquals(10_000, c.lockTimeoutMillis(), "a finite lock timeout: a stuck holder is an exception, not a hang");
        assertEquals(VictimPolicy.YOUNGEST, c.deadlockVictim());
        assertEquals(1000, c.deadlockDetectIntervalMillis());
        assertEquals(10, c.maxTransactionAttempts());
        assertEquals(100, c.maxRetryDelayMillis());
        assertEquals(c, c.toBuilder().build());
    }

    @Test
    void badValuesAreRefusedAtBuildNamingTheSetting() {
        List<Object[]> bad = List.of(
                new Object[] {"pageSize", (Consumer<EnvironmentConfig.Builder>) b -> b.pageSize(1000)},
                new Object[] {"cacheBytes", (Consumer<EnvironmentConfig.Builder>) b -> b.cacheBytes(4096)},
                new Object[] {"maxFiles", (Consumer<EnvironmentConfig.Builder>) b -> b.maxFiles(0)},
                new Object[] {"logFileSize", (Consumer<EnvironmentConfig.Builder>) b -> b.logFileSize(1000)},
                new Object[] {"logBufferSize", (Consumer<EnvironmentConfig.Builder>) b -> b.logBufferSize(8 << 20)},
                new Object[] {"logBufferSize", (Consumer<EnvironmentConfig.Builder>) b -> b.pageSize(65536).logBufferSize(64 << 10)},
                new Object[] {"checkpointBytes", (Consumer<EnvironmentConfig.Builder>) b -> b.checkpointBytes(-1)},
                new Object[] {"checkpointSeconds", (Consumer<EnvironmentConfig.Builder>) b -> b.checkpointSeconds(-1)},
                new Object[] {"maxTransactions", (Consumer<EnvironmentConfig.Builder>) b -> b.maxTransactions(0)},
                new Object[] {"maxProcesses", (Consumer<EnvironmentConfig.Builder>) b -> b.maxProcesses(5000)},
                new Object[] {"maxLocks", (Consumer<EnvironmentConfig.Builder>) b -> b.maxLocks(0)},
                new Object[] {"maxLockObjects", (Consumer<EnvironmentConfig.Builder>) b -> b.maxLockObjects(1 << 25)},
                new Object[] {"lockTimeoutMillis", (Consumer<EnvironmentConfig.Builder>) b -> b.lockTimeoutMillis(-1)},
                new Object[] {"deadlockVictim", (Consumer<EnvironmentConfig.Builder>) b -> b.deadlockVictim(null)},
                new Object[] {"deadlockDetectIntervalMillis", (Consumer<EnvironmentConfig.Builder>) b -> b.deadlockDetectIntervalMillis(5)},
                new Object[] {"maxTransactionAttempts", (Consumer<EnvironmentConfig.Builder>) b -> b.maxTransactionAttempts(0)},
                new Object[] {"maxRetryDelayMillis", (Consumer<EnvironmentConfig.Builder>) b -> b.maxRetryDelayMillis(-1)},
                new Object[] {"durability", (Consumer<EnvironmentConfig.Builder>) b -> b.durability(null)},
                new Object[] {"mode", (Consumer<EnvironmentConfig.Builder>) b -> b.mode(null)});
        for (Object[] c : bad) {
            EnvironmentConfig.Builder b = EnvironmentConfig.builder();
            @SuppressWarnings("unchecked")
            Consumer<EnvironmentConfig.Builder> set = (Consumer<EnvironmentConfig.Builder>) c[1];
            set.accept(b);
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, b::build, (String) c[0]);
            assertTrue(e.getMessage().startsWith((String) c[0]), e.getMessage());
        }
        assertEquals(0, EnvironmentConfig.builder().lockTimeoutMillis(0).build().lockTimeoutMillis(), "0 = forever");
        assertEquals(0, EnvironmentConfig.builder().deadlockDetectIntervalMillis(0).build().deadlockDetectIntervalMillis());
    }

    @Test
    void settingsReachTheManagers() throws Exception {
        EnvironmentConfig cfg = EnvironmentConfig.builder().pageSize(8192).cacheBytes(2L << 20).maxFiles(40)
                .logFileSize(256 << 10).logBufferSize(64 << 10).maxTransactions(30).maxLocks(3000)
                .maxLockObjects(2000).lockTimeoutMillis(1234).deadlockVictim(VictimPolicy.FEWEST_LOCKS)
                .deadlockDetectIntervalMillis(50).durability(Durability.NO_SYNC).build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "d",
                DatabaseConfig.builder().allowCreate(true).build())) {
            LockConfig locks = env.tp.locks().config();
            assertEquals(3000, locks.maxLocks());
            assertEquals(2000, locks.maxObjects());
            assertEquals(1234, locks.lockTimeoutMillis());
            assertEquals(VictimPolicy.FEWEST_LOCKS, locks.victimPolicy());
            assertEquals(50, locks.detectIntervalMillis());
            assertEquals(256 << 10, env.tp.log().fileSize());
            assertEquals(64 << 10, env.tp.log().bufferSize());
            assertEquals(8192, env.tp.buffers().pageSize());
            assertEquals(256, env.tp.buffers().stats().frames());
            assertEquals(30, env.tp.txn().maxTransactions());
            byte[] v = new byte[1000];
            for (int i = 0; i < 1000; i++) {
                db.put(null, b("k" + i), v);
            }
            try (Stream<Path> files = Files.list(dir)) {
                // Log files only: one may be being prepared ahead in the background (log.N.prep).
                List<Path> logs = files.filter(p -> LogFileHeader.fileNumber(p.getFileName().toString()) > 0)
                        .toList();
                assertTrue(logs.size() >= 3, "about 1 MB of log in files of 256 KiB: " + logs);
                for (Path p : logs) {
                    assertEquals(256 << 10, Files.size(p), p.toString());
                }
            }
        }
    }

    @Test
    void checkpointIntervalIsWired() throws Exception {
        EnvironmentConfig cfg = EnvironmentConfig.builder().checkpointBytes(64 << 10).checkpointSeconds(0)
                .durability(Durability.NO_SYNC).build();
        try (Environment env = Environment.open(dir, cfg);
             Database db = env.openDatabase(null, "d", DatabaseConfig.builder().allowCreate(true).build())) {
            long first = env.tp.txn().lastCheckpoint();
            byte[] v = new byte[500];
            long deadline = System.nanoTime() + 30_000_000_000L;
            for (int i = 0; env.tp.txn().lastCheckpoint() == first; i++) {
                assertTrue(System.nanoTime() < deadline, "no checkpoint after " + i + " puts");
                db.put(null, b("k" + (i % 500)), v);
            }
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().checkpointBytes(0)
                .checkpointSeconds(0).durability(Durability.NO_SYNC).build());
             Database db = env.openDatabase(null, "d", DatabaseConfig.defaults())) {
            long first = env.tp.txn().lastCheckpoint();
            byte[] v = new byte[500];
            for (int i = 0; i < 2000; i++) {
                db.put(null, b("k" + (i % 500)), v);
            }
            Thread.sleep(200);
            assertEquals(first, env.tp.txn().lastCheckpoint(), "0 and 0: no checkpoints but explicit ones");
        }
    }

    @Test
    void tooManyLocksNamesTheSetting() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().maxLocks(20).lockEscalationThreshold(0).build());
             Database db = env.openDatabase(null, "d", DatabaseConfig.builder().allowCreate(true).build())) {
            byte[] v = new byte[500];
            try (Transaction t = env.beginTransaction()) {
                CapacityExceededException e = assertThrows(CapacityExceededException.class, () -> {
                    for (int i = 0; i < 2000; i++) {
                        db.put(t, b(String.format("k%05d", i)), v);
                    }
                });
                assertTrue(e.getMessage().contains("maxLocks"), e.getMessage());
            }
        }
    }

    @Test
    void readOnlyEnvironmentReadsAndRefusesEveryWrite() {
        DatabaseConfig create = DatabaseConfig.builder().allowCreate(true).build();
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "d", create)) {
            db.put(null, b("k"), b("v"));
            env.openDatabase(null, "other", create).close();
        }
        EnvironmentConfig ro = EnvironmentConfig.builder().readOnly(true).build();
        try (Environment env = Environment.open(dir, ro)) {
            Database db = env.openDatabase(null, "d", create); // exists: allowCreate is no write
            assertArrayEquals(b("v"), db.get(null, b("k")));
            try (Transaction t = env.beginTransaction(Durability.SYNC, true)) {
                assertArrayEquals(b("v"), db.get(t, b("k")));
                t.commit();
            }
            try (Cursor c = db.openCursor(null)) {
                assertTrue(c.first());
                assertArrayEquals(b("k"), c.key());
                assertReadOnly(() -> c.put(b("w")));
                assertReadOnly(c::delete);
            }
            assertReadOnly(() -> db.put(null, b("k"), b("w")));
            assertReadOnly(() -> db.putIfAbsent(null, b("x"), b("w")));
            assertReadOnly(() -> db.delete(null, b("k")));
            assertReadOnly(() -> db.update(null, b("k"), v -> v));
            assertReadOnly(() -> db.getForUpdate(null, b("k")));
            assertReadOnly(db::compact);
            assertReadOnly(env::beginTransaction);
            assertReadOnly(() -> env.beginTransaction(Durability.SYNC, false));
            assertReadOnly(() -> env.openDatabase(null, "new", create));
            assertThrows(DatabaseNotFoundException.class, () -> env.openDatabase(null, "new", DatabaseConfig.defaults()));
            assertReadOnly(() -> env.removeDatabase(null, "other"));
            assertReadOnly(() -> env.renameDatabase(null, "other", "renamed"));
            assertEquals(List.of("d", "other"), env.databaseNames());
            assertArrayEquals(b("v"), db.get(null, b("k")), "nothing changed");
        }
    }

    private static void assertReadOnly(org.junit.jupiter.api.function.Executable op) {
        IllegalStateException e = assertThrows(IllegalStateException.class, op);
        assertTrue(e.getMessage().contains("EnvironmentConfig.readOnly"), e.getMessage());
    }
}
