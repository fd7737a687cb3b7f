package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.buffer.PageFixture;
import org.libtp.core.lock.LockManager;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

/**
 * A process that aborted a transaction dies after the abort record was logged and the locks
 * released, before the transaction's table entry is freed. Another process then commits a change
 * to the same page. failCheck must see that the dead transaction had ended: undoing it again would
 * write its before images over the committed change (a lost update that recovery would repeat).
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 5, unit = TimeUnit.MINUTES)
class DeadAbortMultiProcessTest {
    @TempDir
    Path dir;

    /** Child: changes page 0 under a WRITE lock, aborts, and dies once its locks are released. */
    public static final class Aborter {
        public static void main(String[] args) throws Exception {
            try (PageFixture f = new PageFixture(Path.of(args[0]), 16, 0)) {
                LockManager lm = f.tp.locks();
                // Registered after the lock manager's: runs once the locks are released, before the
                // table entry is freed. halt is as abrupt as SIGKILL (no shutdown hooks, no close).
                f.tm.addEndListener((slot, id, committed) -> {
                    if (!committed) {
                        System.out.println("DYING");
                        System.out.flush();
                        Runtime.getRuntime().halt(9);
                    }
                });
                Txn t = f.tm.begin();
                lm.lock(t, new LockObject(f.file, 0), LockMode.WRITE, 0);
                f.add(t, 0, 0, -100);
                f.tm.abort(t);
                System.out.println("NOT REACHED");
            }
        }
    }

    @Test
    void failCheckDoesNotUndoATransactionWhoseAbortWasLogged() throws Exception {
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            Txn t = f.tm.begin();
            f.add(t, 0, 0, 1000);
            f.tm.commit(t);
            try (ChildJvm c = ChildJvm.start(Aborter.class, dir.toString())) {
                c.awaitLine("DYING", Duration.ofSeconds(60));
                assertEquals(9, c.waitFor(Duration.ofSeconds(30)));
            }
            assertEquals(1000, f.get(0, 0), "the child's abort restored the page");
            assertEquals(1, f.tm.activeCount(), "the dead transaction's entry is still in the table");
            Txn w = f.tm.begin();
            f.tp.locks().lock(w, new LockObject(f.file, 0), LockMode.WRITE, LockManager.NOWAIT); // released by the abort
            f.add(w, 0, 0, 5);
            f.tm.commit(w);
            assertEquals(1, f.tp.env().failCheck(), "the dead process's slot is freed");
            assertEquals(1005, f.get(0, 0), "the change committed after the abort is still there");
            assertEquals(0, f.tm.activeCount());
            assertFalse(f.tp.env().isFailed());
        }
        try (PageFixture f = new PageFixture(dir, 16, 0)) {
            assertEquals(1005, f.get(0, 0), "and after recovery");
        }
    }
}
