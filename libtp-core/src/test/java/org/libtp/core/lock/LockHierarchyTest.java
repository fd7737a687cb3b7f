package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.txn.Txn;

import java.nio.file.Path;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockMode.IREAD;
import static org.libtp.core.lock.LockMode.IWRITE;
import static org.libtp.core.lock.LockMode.READ;
import static org.libtp.core.lock.LockMode.READ_IWRITE;
import static org.libtp.core.lock.LockMode.WRITE;

/**
 * Hierarchical locking: page locks under intention locks on their file, and lock escalation to
 * a file lock, so that a scan of any size fits the lock table and still excludes writers.
 */
class LockHierarchyTest {
    @TempDir
    Path home;

    static LockObject page(long n) {
        return new LockObject(1, n);
    }

    static final LockObject FILE = new LockObject(1, LockObject.WHOLE_FILE);

    @Test
    void theMatricesAreGraysAndConsistent() {
        // Gray's compatibility matrix for IS, IX, S, SIX, X.
        assertFalse(IREAD.conflictsWith(IWRITE));
        assertFalse(IREAD.conflictsWith(READ));
        assertFalse(IREAD.conflictsWith(READ_IWRITE));
        assertTrue(IREAD.conflictsWith(WRITE));
        assertFalse(IWRITE.conflictsWith(IWRITE));
        assertTrue(IWRITE.conflictsWith(READ));
        assertTrue(IWRITE.conflictsWith(READ_IWRITE));
        assertTrue(READ_IWRITE.conflictsWith(READ_IWRITE));
        assertEquals(READ_IWRITE, READ.join(IWRITE));
        for (LockMode a : LockMode.values()) {
            for (LockMode b : LockMode.values()) {
                assertEquals(a.conflictsWith(b), b.conflictsWith(a), a + "/" + b);
                LockMode j = a.join(b);
                assertTrue(j.covers(a) && j.covers(b), "join " + a + "+" + b + " = " + j);
                for (LockMode c : LockMode.values()) {
                    if (c.covers(a) && c.covers(b)) {
                        assertTrue(c.covers(j), "join " + j + " of " + a + "+" + b + " is not the weakest: " + c);
                    }
                    if (a.covers(b) && c.conflictsWith(b)) {
                        assertTrue(c.conflictsWith(a), a + " covers " + b + " so it conflicts with what " + b + " does: " + c);
                    }
                }
            }
        }
    }

    @Test
    void aPageLockTakesAnIntentionLockOnItsFileOnce() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            long r0 = f.lm.stats().requests();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(a, page(2), READ, 0);
            assertEquals(3, f.lm.stats().requests() - r0, "one IREAD on the file, then only page requests");
            assertEquals(IREAD, f.lm.heldMode(a, FILE));
            f.lm.lock(a, page(3), WRITE, 0);
            assertEquals(READ_IWRITE.covers(IWRITE), true);
            assertEquals(IWRITE, f.lm.heldMode(a, FILE), "IREAD converted to IWRITE");
            Txn b = f.tm.begin();
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, FILE, READ, LockManager.NOWAIT),
                    "a whole-file READ waits for the page writer");
            f.lm.lock(b, page(9), READ, LockManager.NOWAIT); // pages of the file elsewhere are fine
            f.tm.commit(a);
            f.lm.lock(b, FILE, READ, LockManager.NOWAIT);
            f.tm.commit(b);
            assertEquals(0, f.lm.stats().locksInUse());
        }
    }

    @Test
    void escalationLocksTheFileExcludesWritersAndTakesNoMorePageLocks() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor();
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0)
                .escalationThreshold(10).build())) {
            Txn a = f.tm.begin();
            for (int p = 0; p < 10; p++) {
                f.lm.lock(a, page(p), READ, 0);
            }
            assertEquals(1, f.lm.stats().escalations());
            assertEquals(READ, f.lm.heldMode(a, FILE));
            int inUse = f.lm.stats().locksInUse();
            assertEquals(1, inUse, "the covered page locks went back to the table: only the file's READ is left");
            for (int p = 10; p < 1000; p++) {
                f.lm.lock(a, page(p), READ, 0);
                f.lm.unlock(a, page(p)); // a B-tree gives some back: covered, nothing to do
                f.lm.lock(a, page(p), READ, 0);
            }
            assertEquals(inUse, f.lm.stats().locksInUse(), "covered pages take no entries");
            Txn b = f.tm.begin();
            f.lm.lock(b, page(500), READ, LockManager.NOWAIT); // readers go on
            Txn c = f.tm.begin();
            Future<?> w = pool.submit(() -> {
                f.lm.lock(c, page(2000), WRITE, 0); // any page of the file: waits for a's READ on it
                return null;
            });
            Thread.sleep(200);
            assertFalse(w.isDone(), "a writer waits for the escalated reader");
            f.tm.commit(a);
            w.get(10, TimeUnit.SECONDS);
            f.tm.commit(b);
            f.tm.commit(c);
            assertEquals(0, f.lm.stats().locksInUse());
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aFullTableEscalatesInsteadOfFailingAndAWriterEscalatesToWrite() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).maxLocks(50)
                .maxObjects(50).build())) {
            Txn a = f.tm.begin();
            for (int p = 0; p < 500; p++) {
                f.lm.lock(a, page(p), p % 7 == 0 ? WRITE : READ, 0);
            }
            assertEquals(WRITE, f.lm.heldMode(a, FILE), "it changed pages: the file lock is WRITE");
            Txn b = f.tm.begin();
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, page(1000), READ, LockManager.NOWAIT));
            f.tm.abort(a);
            f.lm.lock(b, page(1000), READ, LockManager.NOWAIT);
            f.tm.commit(b);
            assertEquals(0, f.lm.stats().locksInUse());
        }
    }

    static LockObject record(long id) {
        return LockObject.record(1, id);
    }

    @Test
    void recordLocksOfOnePageDoNotConflictButPageLocksExcludeThem() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lockRecord(a, 1, 7, 100, WRITE, LockManager.NOWAIT);
            f.lm.lockRecord(b, 1, 7, 200, WRITE, LockManager.NOWAIT); // another record of the page: granted
            assertEquals(IWRITE, f.lm.heldMode(a, page(7)), "the page's intention lock");
            assertEquals(IWRITE, f.lm.heldMode(a, FILE), "and the file's");
            assertEquals(WRITE, f.lm.heldMode(b, record(200)));
            assertEquals("(file 1, record 200)", record(200).toString());
            assertThrows(LockNotGrantedException.class, () -> f.lm.lockRecord(b, 1, 7, 100, READ, LockManager.NOWAIT),
                    "the same record conflicts");
            Txn c = f.tm.begin();
            assertThrows(LockNotGrantedException.class, () -> f.lm.lockPage(c, 1, 7, READ, LockManager.NOWAIT),
                    "a page reader (a scan) waits for the record writers");
            assertThrows(LockNotGrantedException.class, () -> f.lm.lockPage(c, 1, 7, WRITE, LockManager.NOWAIT),
                    "a page writer (an insert, a split) too");
            assertThrows(LockNotGrantedException.class, () -> f.lm.lockRecord(c, 1, 8, 100, WRITE, LockManager.NOWAIT),
                    "a record id names a record of the file, wherever it lives");
            f.lm.lockRecord(c, 1, 8, 101, WRITE, LockManager.NOWAIT);
            f.tm.abort(c);
            f.tm.commit(a);
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(b, 1, 7, READ_IWRITE, 0),
                    "READ_IWRITE is for files");
            f.lm.lockPage(b, 1, 7, WRITE, LockManager.NOWAIT); // b alone: IWRITE converts to WRITE
            assertEquals(WRITE, f.lm.heldMode(b, page(7)));
            long r0 = f.lm.stats().requests();
            f.lm.lockRecord(b, 1, 7, 300, WRITE, 0);
            assertEquals(r0, f.lm.stats().requests(), "the page's WRITE gives every record of it: no table call");
            f.tm.commit(b);
            assertEquals(0, f.lm.stats().locksInUse());
        }
    }

    @Test
    void aFileLockGivesRecordsOnlyWhenItIsReadOrWrite() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            f.lm.lock(a, FILE, READ, 0);
            long r0 = f.lm.stats().requests();
            f.lm.lockRecord(a, 1, 3, 5, READ, 0);
            assertEquals(r0, f.lm.stats().requests(), "the file's READ gives every record READ");
            f.lm.lockRecord(a, 1, 3, 5, WRITE, 0); // READ + IWRITE on the file: READ_IWRITE, then the page, the record
            assertEquals(READ_IWRITE, f.lm.heldMode(a, FILE));
            assertEquals(IWRITE, f.lm.heldMode(a, page(3)), "READ_IWRITE on the file does not give a page's IWRITE");
            assertEquals(WRITE, f.lm.heldMode(a, record(5)));
            Txn b = f.tm.begin();
            f.lm.lockRecord(b, 1, 4, 6, READ, LockManager.NOWAIT); // IREAD on the file beside READ_IWRITE
            assertThrows(LockNotGrantedException.class, () -> f.lm.lockRecord(b, 1, 3, 5, READ, LockManager.NOWAIT),
                    "the record a writes");
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, FILE, READ, LockManager.NOWAIT),
                    "the whole file READ, beside a's READ_IWRITE");
            f.tm.commit(a);
            f.tm.commit(b);
            assertEquals(0, f.lm.stats().locksInUse());
        }
    }

    @Test
    void escalationReleasesRecordAndIntentionLocksItCovers() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0)
                .escalationThreshold(10).build())) {
            Txn a = f.tm.begin();
            for (int r = 0; r < 30; r++) {
                f.lm.lockRecord(a, 1, r / 4, r, WRITE, 0);
            }
            assertEquals(WRITE, f.lm.heldMode(a, FILE), "record writes escalate to the file's WRITE");
            assertEquals(1, f.lm.stats().locksInUse(), "the pages' IWRITE and the records' WRITE went back");
            f.tm.commit(a);
            assertEquals(0, f.lm.stats().locksInUse());
        }
    }

    @Test
    void recordLockArgumentsAreChecked() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockRecord(a, 1, 1, 1, IWRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockRecord(a, 1, 1, -1, WRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockRecord(a, 1, 1, LockObject.RECORD, WRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockRecord(a, 1, LockObject.RECORD, 1, WRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, 1, LockObject.RECORD, WRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> LockObject.record(1, -5));
            f.tm.commit(a);
        }
    }
}
