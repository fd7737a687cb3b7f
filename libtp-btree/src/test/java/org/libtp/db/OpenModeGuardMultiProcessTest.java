package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.ConfigMismatchException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * One mode per environment: while a JVM has the environment open in TP mode with a write
 * uncommitted, another JVM opening it in UNPROTECTED or SHARED mode, or with another cache size,
 * is refused naming the running value (before, it read the uncommitted bytes and its own writes
 * were never logged). Once every process has closed it, another mode may open it.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class OpenModeGuardMultiProcessTest {
    @TempDir
    Path dir;

    static final byte[] KEY = "x".getBytes(StandardCharsets.UTF_8);

    /** Child: TP mode, writes KEY in a transaction it keeps open; READY; waits for "quit" on stdin. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            try (Environment env = Environment.open(Path.of(args[0]), EnvironmentConfig.defaults());
                 Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
                db.put(null, KEY, "committed".getBytes(StandardCharsets.UTF_8));
                Transaction t = env.beginTransaction();
                db.put(t, KEY, "uncommitted".getBytes(StandardCharsets.UTF_8));
                System.out.println("READY");
                System.in.read();
                t.abort();
            }
        }
    }

    @Test
    void anotherModeOrSizeIsRefusedWhileOpenAndAllowedAfter() throws Exception {
        try (ChildJvm child = ChildJvm.start(Writer.class, dir.toString())) {
            assertNotNull(child.awaitLine("READY", Duration.ofSeconds(60)), child.outputText());
            for (OpenMode mode : new OpenMode[] {OpenMode.UNPROTECTED, OpenMode.SHARED}) {
                ConfigMismatchException e = assertThrows(ConfigMismatchException.class,
                        () -> Environment.open(dir, EnvironmentConfig.builder().mode(mode).build()).close());
                assertTrue(e.getMessage().contains("mode is TP there, " + mode + " here"), e.getMessage());
            }
            ConfigMismatchException e = assertThrows(ConfigMismatchException.class,
                    () -> Environment.open(dir, EnvironmentConfig.builder().cacheBytes(8 << 20).build()).close());
            assertTrue(e.getMessage().contains("cacheBytes is " + (64 << 20) + " there, " + (8 << 20) + " here"),
                    e.getMessage());
            // The same settings attach.
            Environment.open(dir, EnvironmentConfig.defaults()).close();
            child.process().getOutputStream().write('\n');
            child.process().getOutputStream().flush();
            child.assertExitsCleanly(Duration.ofSeconds(60));
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().mode(OpenMode.UNPROTECTED).build());
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            assertArrayEquals("committed".getBytes(StandardCharsets.UTF_8), db.get(null, KEY));
        }
    }

    /** Child: TP mode with a 16 MiB cache and 8 KiB pages, writes KEY committed; READY; waits for a line on stdin. */
    public static final class SizedWriter {
        public static void main(String[] args) throws Exception {
            EnvironmentConfig c = EnvironmentConfig.builder().cacheBytes(16 << 20).pageSize(8192).build();
            try (Environment env = Environment.open(Path.of(args[0]), c);
                 Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
                db.put(null, KEY, "committed".getBytes(StandardCharsets.UTF_8));
                System.out.println("READY");
                System.in.read();
            }
        }
    }

    @Test
    void joinTakesTheRunningSettingsWhereOpenIsRefused() throws Exception {
        try (ChildJvm child = ChildJvm.start(SizedWriter.class, dir.toString())) {
            assertNotNull(child.awaitLine("READY", Duration.ofSeconds(60)), child.outputText());
            assertThrows(ConfigMismatchException.class, () -> Environment.open(dir, EnvironmentConfig.defaults()).close());
            try (Environment env = Environment.join(dir, EnvironmentConfig.defaults());
                 Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
                org.junit.jupiter.api.Assertions.assertEquals(16 << 20, env.config().cacheBytes());
                org.junit.jupiter.api.Assertions.assertEquals(8192, env.config().pageSize());
                assertArrayEquals("committed".getBytes(StandardCharsets.UTF_8), db.get(null, KEY));
            }
            child.process().getOutputStream().write('\n');
            child.process().getOutputStream().flush();
            child.assertExitsCleanly(Duration.ofSeconds(60));
        }
        // Alone, join uses the settings it is given.
        try (Environment env = Environment.join(dir, EnvironmentConfig.builder().pageSize(8192).build())) {
            org.junit.jupiter.api.Assertions.assertEquals(64 << 20, env.config().cacheBytes());
        }
    }
}
