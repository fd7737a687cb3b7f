package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A handle to a database that was removed or renamed, in this or another process, throws
 * {@link DatabaseNotFoundException} on every later call (before, get and put went on working
 * and those writes vanished); an aborted removal leaves handles working.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class RemovedHandleMultiProcessTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final DatabaseConfig CREATE = DatabaseConfig.builder().allowCreate(true).build();

    /** Child: removes database args[1], or renames it to args[2]. */
    public static final class Remover {
        public static void main(String[] args) {
            try (Environment env = Environment.open(Path.of(args[0]), EnvironmentConfig.defaults())) {
                if (args.length > 2) {
                    env.renameDatabase(null, args[1], args[2]);
                } else {
                    env.removeDatabase(null, args[1]);
                }
            }
            System.out.println("DONE");
        }
    }

    @Test
    void aHandleToADatabaseRemovedOrRenamedByAnotherProcessThrows() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database a = env.openDatabase(null, "a", CREATE);
             Database r = env.openDatabase(null, "r", CREATE)) {
            a.put(null, b("k"), b("v"));
            r.put(null, b("k"), b("v"));
            try (ChildJvm c = ChildJvm.start(Remover.class, dir.toString(), "a")) {
                c.assertExitsCleanly(Duration.ofSeconds(60));
            }
            try (ChildJvm c = ChildJvm.start(Remover.class, dir.toString(), "r", "r2")) {
                c.assertExitsCleanly(Duration.ofSeconds(60));
            }
            for (Database old : new Database[] {a, r}) {
                assertThrows(DatabaseNotFoundException.class, () -> old.get(null, b("k")));
                DatabaseNotFoundException e = assertThrows(DatabaseNotFoundException.class,
                        () -> old.put(null, b("k2"), b("v")));
                assertTrue(e.getMessage().contains("removed or renamed"), e.getMessage());
                assertThrows(DatabaseNotFoundException.class, () -> {
                    try (Cursor cur = old.openCursor(null)) {
                        cur.first();
                    }
                });
            }
            try (Database r2 = env.openDatabase(null, "r2", DatabaseConfig.defaults());
                 Database a2 = env.openDatabase(null, "a", CREATE)) {
                assertArrayEquals(b("v"), r2.get(null, b("k")));
                assertNull(a2.get(null, b("k")), "a re-created database is a new one");
                a2.put(null, b("k"), b("new"));
                assertThrows(DatabaseNotFoundException.class, () -> a.get(null, b("k")));
            }
        }
    }

    @Test
    void anAbortedRemovalLeavesHandlesWorkingAndTheRemoversTransactionSeesItsOwnRemoval() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database a = env.openDatabase(null, "a", CREATE)) {
            a.put(null, b("k"), b("v"));
            try (Transaction t = env.beginTransaction()) {
                env.removeDatabase(t, "a");
                assertThrows(DatabaseNotFoundException.class, () -> a.get(t, b("k")));
                t.abort();
            }
            assertArrayEquals(b("v"), a.get(null, b("k")));
            a.put(null, b("k"), b("v2"));
            env.removeDatabase(null, "a");
            assertThrows(DatabaseNotFoundException.class, () -> a.get(null, b("k")));
        }
    }
}
