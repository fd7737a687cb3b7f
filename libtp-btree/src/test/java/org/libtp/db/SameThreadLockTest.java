package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.SelfDeadlockException;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A thread whose own transaction holds a lock does not hang on it: an auto-commit call (or a
 * second transaction) of the same thread that would wait for it is refused at once with
 * {@link SelfDeadlockException} (before, the call blocked forever with the default settings),
 * while another thread's request waits and is granted when the holder commits.
 */
class SameThreadLockTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    @Timeout(60)
    void theSameThreadIsRefusedAtOnceAnotherThreadWaits() throws Exception {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            db.put(null, b("x"), b("0"));
            Transaction t = env.beginTransaction();
            db.put(t, b("x"), b("1"));
            // In this very thread (a preemptive timeout would run it in another): @Timeout ends a hang.
            SelfDeadlockException e = assertThrows(SelfDeadlockException.class, () -> db.get(null, b("x")));
            assertTrue(e.getMessage().contains("transaction " + t.id()), e.getMessage());
            try (Transaction other = env.beginTransaction()) {
                assertThrows(SelfDeadlockException.class, () -> db.put(other, b("x"), b("2")));
            }
            // The holder is intact and another thread simply waits for it.
            CompletableFuture<byte[]> reader = CompletableFuture.supplyAsync(() -> db.get(null, b("x")));
            Thread.sleep(300);
            assertFalse(reader.isDone(), "another thread's read waits for the writer");
            db.put(t, b("x"), b("3"));
            t.commit();
            assertArrayEquals(b("3"), reader.get(10, TimeUnit.SECONDS));
            assertArrayEquals(b("3"), db.get(null, b("x")));
        }
    }
}
