package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CapacityExceededException;
import org.libtp.core.log.Durability;
import org.libtp.core.log.Lsn;
import org.libtp.core.storage.FileStorage;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class TxnTest {
    @TempDir
    Path home;

    @Test
    void commitSurvivesReopenAndAbortUndoes() {
        try (TxnFixture f = new TxnFixture(home)) {
            Txn t = f.tm.begin();
            f.store.put(t, 1, 100);
            f.store.put(t, 2, 200);
            f.tm.commit(t);
            Txn a = f.tm.begin();
            f.store.put(a, 1, 111);
            f.store.put(a, 3, 333);
            f.store.put(a, 1, 112);
            assertEquals(112, f.store.get(1));
            f.tm.abort(a);
            assertEquals(100, f.store.get(1));
            assertEquals(0, f.store.get(3));
            assertEquals(0, f.tm.activeCount());
        }
        try (TxnFixture f = new TxnFixture(home)) {
            assertEquals(100, f.store.get(1));
            assertEquals(200, f.store.get(2));
            assertEquals(0, f.store.get(3));
            Txn t = f.tm.begin();
            assertTrue(t.id() > 2, "ids continue after the ones in the log: " + t.id());
            f.tm.abort(t);
        }
    }

    @Test
    void txnRegionOffsets() {
        assertEquals(256, TxnLayout.OFF_TXN_LATCH);
        assertEquals(320, TxnLayout.OFF_CKP_LATCH);
        assertEquals(384, TxnLayout.OFF_NEXT_ID);
        assertEquals(392, TxnLayout.OFF_LAST_CKP);
        assertEquals(400, TxnLayout.OFF_LAST_CKP_REDO);
        assertEquals(408, TxnLayout.OFF_MAX);
        assertEquals(412, TxnLayout.OFF_STATE);
        assertEquals(416, TxnLayout.OFF_ACTIVE);
        assertEquals(424, TxnLayout.OFF_LAST_CKP_MILLIS);
        assertEquals(432, TxnLayout.OFF_LAST_CKP_BEGIN);
        assertEquals(440, TxnLayout.OFF_EARLY_RELEASE_END);
        assertEquals(448, TxnLayout.OFF_LAST_CKP_FROM);
        assertEquals(456, TxnLayout.OFF_BACKUP_FROM);
        assertEquals(464, TxnLayout.OFF_BACKUP_OWNER);
        assertEquals(472, TxnLayout.OFF_BACKUP_OWNER_GEN);
        assertEquals(7, TxnLayout.LAYOUT_VERSION);
        assertEquals(1024, TxnLayout.OFF_TABLE);
        assertEquals(64, TxnLayout.ENTRY);
        assertEquals(0, TxnLayout.E_STATE);
        assertEquals(4, TxnLayout.E_OWNER);
        assertEquals(8, TxnLayout.E_OWNER_GEN);
        assertEquals(16, TxnLayout.E_ID);
        assertEquals(24, TxnLayout.E_FIRST);
        assertEquals(32, TxnLayout.E_LAST);
        assertEquals(40, TxnLayout.E_BEGIN);
        assertEquals(48, TxnLayout.E_WAITER);
        assertEquals(56, TxnLayout.E_CLAIM);
        assertEquals(1024 + 64 * 256, SharedTxnManager.spec(TxnConfig.defaults()).size());
    }

    @Test
    void eachTransactionHasItsOwnWaiterSemaphore() throws Exception {
        try (TxnFixture f = new TxnFixture(home)) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            org.libtp.core.sync.SharedSemaphore wa = f.tm.waiter(a);
            assertEquals(0, wa.availablePermits());
            Thread poster = new Thread(wa::post);
            poster.start();
            assertTrue(wa.tryAcquire(5, java.util.concurrent.TimeUnit.SECONDS));
            poster.join();
            assertEquals(0, f.tm.waiter(b).availablePermits());
            f.tm.commit(a);
            assertThrows(IllegalStateException.class, () -> f.tm.waiter(a));
            f.tm.commit(b);
        }
    }

    @Test
    void endListenersHearCommitsAndAborts() {
        try (TxnFixture f = new TxnFixture(home)) {
            java.util.List<String> heard = new java.util.ArrayList<>();
            f.tm.addEndListener((slot, id, committed) -> heard.add(id + (committed ? " commit" : " abort")));
            Txn a = f.tm.begin();
            f.store.put(a, 1, 1);
            f.tm.commit(a);
            Txn b = f.tm.begin();
            f.tm.abort(b);
            assertEquals(java.util.List.of(a.id() + " commit", b.id() + " abort"), heard);
        }
    }

    @Test
    void timedCheckpoints() throws Exception {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).checkpointSeconds(1).build())) {
            Txn a = f.tm.begin();
            f.store.put(a, 1, 1);
            f.tm.commit(a);
            long first = f.tm.lastCheckpoint();
            Thread.sleep(1_100);
            Txn b = f.tm.begin();
            f.store.put(b, 2, 2);
            f.tm.commit(b);
            // The commit wakes the checkpoint thread, which takes it.
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (f.tm.lastCheckpoint() == first && System.nanoTime() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(f.tm.lastCheckpoint() > first, "a commit after checkpointSeconds has a checkpoint taken");
        }
    }

    @Test
    void readOnlyTransactionWritesAndForcesNothing() {
        try (TxnFixture f = new TxnFixture(home)) {
            long end = f.log.endLsn();
            long forces = f.log.forceCount();
            Txn t = f.tm.begin(Durability.SYNC);
            f.store.get(5);
            f.tm.commit(t);
            assertEquals(end, f.log.endLsn());
            assertEquals(forces, f.log.forceCount());
        }
    }

    @Test
    void finishedTransactionsAndBadArgumentsAreRefused() {
        try (TxnFixture f = new TxnFixture(home)) {
            Txn t = f.tm.begin();
            f.tm.commit(t);
            IllegalStateException e = assertThrows(IllegalStateException.class, () -> f.store.put(t, 1, 1));
            assertTrue(e.getMessage().contains("already committed or aborted"), e.getMessage());
            assertThrows(IllegalStateException.class, () -> f.tm.commit(t));
            assertThrows(IllegalStateException.class, () -> f.tm.abort(t));
            assertThrows(IllegalArgumentException.class, () -> f.tm.begin(null));
            assertThrows(IllegalArgumentException.class, () -> f.tm.commit(null));
            Txn u = f.tm.begin();
            assertThrows(IllegalArgumentException.class, () -> u.log(null));
            assertThrows(IllegalArgumentException.class, () -> u.log(new org.libtp.core.log.record.LogRecord.TxnAbort()));
            f.tm.abort(u);
            assertThrows(IllegalArgumentException.class, () -> TxnConfig.builder().maxTransactions(0).build());
        }
    }

    @Test
    void fullTransactionTableIsAClearError() {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().maxTransactions(2).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            CapacityExceededException e = assertThrows(CapacityExceededException.class, () -> f.tm.begin());
            assertTrue(e.getMessage().contains("maxTransactions"), e.getMessage());
            f.tm.abort(a);
            f.tm.commit(b);
            f.tm.commit(f.tm.begin());
        }
    }

    @Test
    void theCheckpointThreadTakesCheckpointsAndStopsAtClose() throws Exception {
        java.util.Set<String> takers = java.util.concurrent.ConcurrentHashMap.newKeySet();
        long first;
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(64 * 1024).build())) {
            first = f.tm.lastCheckpoint();
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(20);
            int i = 0;
            while (f.tm.lastCheckpoint() == first && System.nanoTime() < deadline) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.store.put(t, i % TxnFixture.SLOTS, i);
                f.tm.commit(t);
                i++;
                if (i % 200 == 0) {
                    Thread.sleep(1); // give the thread a chance before the committers' 4x fallback
                }
            }
            assertNotEquals(first, f.tm.lastCheckpoint(), "a checkpoint after " + i + " commits");
            for (Thread t : Thread.getAllStackTraces().keySet()) {
                takers.add(t.getName());
            }
            assertTrue(takers.stream().anyMatch(n -> n.startsWith("libtp-checkpoint ")), "checkpoint thread: " + takers);
        }
        boolean alive = Thread.getAllStackTraces().keySet().stream()
                .anyMatch(t -> t.getName().startsWith("libtp-checkpoint " + home));
        assertTrue(!alive, "the checkpoint thread ends with the handle");
    }

    @Test
    void checkpointsRemoveLogFilesRecoveryNoLongerNeedsByDefault() throws Exception {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).build())) {
            Txn open = null;
            for (int i = 0; i < 8000; i++) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.store.put(t, i % TxnFixture.SLOTS, i);
                f.tm.commit(t);
                if (i == 4000) {
                    open = f.tm.begin();
                    f.store.put(open, 7, -7); // holds its files through the next checkpoint
                }
            }
            int files = f.log.fileNumbers().length;
            assertTrue(files > 2, "several log files: " + files);
            f.tm.checkpoint();
            int firstKept = f.log.fileNumbers()[0];
            assertTrue(firstKept <= Lsn.file(open.lastLsn()), "the active transaction's files stay");
            assertTrue(firstKept > 1, "older files went: " + java.util.Arrays.toString(f.log.fileNumbers()));
            f.tm.commit(open);
            f.tm.checkpoint();
            assertEquals(1, f.log.fileNumbers().length, "only the current file is needed now");
            // No handle of this process keeps a removed file's space.
            try (java.util.stream.Stream<java.nio.file.Path> fds = java.nio.file.Files.list(java.nio.file.Path.of("/proc/self/fd"))) {
                for (java.nio.file.Path fd : fds.toList()) {
                    try {
                        String target = java.nio.file.Files.readSymbolicLink(fd).toString();
                        assertTrue(!(target.contains(home.toString()) && target.endsWith("(deleted)")),
                                "an open handle on a removed file: " + target);
                    } catch (java.io.IOException gone) {
                        // the listing's own descriptor
                    }
                }
            }
        }
        try (TxnFixture f = new TxnFixture(home)) { // recovery with the old files gone
            assertEquals(7999, f.store.get(7999 % TxnFixture.SLOTS));
            assertEquals(7998, f.store.get(7998 % TxnFixture.SLOTS));
        }
    }

    @Test
    void aLogFileTheLastCheckpointNeedsIsKeptEvenAfterItsTransactionEnded() {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).build(), new FileStorage(home),
                false)) {
            Txn open = f.tm.begin();
            f.store.put(open, 7, -7);
            int firstFile = Lsn.file(open.lastLsn());
            for (int i = 0; i < 8000; i++) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.store.put(t, 100 + i % 500, i);
                f.tm.commit(t);
            }
            f.tm.checkpoint(); // lists the open transaction as active
            f.tm.commit(open);
            // Recovery after a crash now would read from the open transaction's first record.
            for (int n : f.tm.archivableLogFiles()) {
                assertTrue(n < firstFile, "log file " + n + " holds a record the last checkpoint's recovery reads");
            }
            f.tm.checkpoint();
            assertTrue(f.tm.archivableLogFiles().length > 0, "a checkpoint after it ended lets them go");
        }
    }

    @Test
    void checkpointsLetOldLogFilesGo() {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).build(), new FileStorage(home),
                false)) {
            for (int i = 0; i < 8000; i++) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.store.put(t, i % TxnFixture.SLOTS, i);
                f.tm.commit(t);
            }
            assertTrue(f.log.fileNumbers().length > 2, "several log files");
            assertEquals(0, f.tm.archivableLogFiles().length, "nothing archivable before a checkpoint");
            Txn open = f.tm.begin();
            f.store.put(open, 7, -7); // an active transaction from before the checkpoint
            long ckp = f.tm.checkpoint();
            assertNotEquals(Lsn.NULL, ckp);
            int keepFrom = Lsn.file(open.lastLsn());
            for (int n : f.tm.archivableLogFiles()) {
                assertTrue(n < keepFrom, "file " + n + " still holds an active transaction's records");
            }
            f.tm.commit(open);
            f.tm.checkpoint();
            int removed = f.tm.removeLogFiles();
            assertTrue(removed > 0);
            assertEquals(1, f.log.fileNumbers().length, "only the current file is needed now");
        }
        try (TxnFixture f = new TxnFixture(home)) { // recovery with the old files gone
            assertEquals(7999, f.store.get(7999 % TxnFixture.SLOTS));
            assertEquals(-7, f.store.get(7));
        }
    }

    @Test
    void transactionIdsAreNeverReusedAfterRecoveryFromTheLastCheckpoint() {
        long lastId;
        try (TxnFixture f = new TxnFixture(home)) {
            Txn t = null;
            for (int i = 0; i < 5; i++) {
                t = f.tm.begin();
                f.store.put(t, i, i);
                f.tm.commit(t);
            }
            lastId = t.id();
        } // the last close checkpoints: recovery reads the log from there, where no transaction is
        try (TxnFixture f = new TxnFixture(home)) {
            Txn t = f.tm.begin();
            assertTrue(t.id() > lastId, "id " + t.id() + " after " + lastId);
            f.tm.abort(t);
            assertEquals(4, f.store.get(4));
        }
    }

    /** Copies the environment's files (not its shared regions): what a kill -9 leaves on disk. */
    private static Path crashImage(Path from, Path to) throws java.io.IOException {
        java.nio.file.Files.createDirectories(to);
        try (var files = java.nio.file.Files.list(from)) {
            for (Path p : files.toList()) {
                java.nio.file.Files.copy(p, to.resolve(p.getFileName()));
            }
        }
        return to;
    }

    @Test
    void recoveryStartsAtTheCheckpointTheAnchorNamesAndChecksIt(@org.junit.jupiter.api.io.TempDir Path copies)
            throws Exception {
        long first;
        long last;
        try (TxnFixture f = new TxnFixture(home)) {
            for (int i = 0; i < 50; i++) {
                Txn t = f.tm.begin();
                f.store.put(t, i, 1000 + i);
                f.tm.commit(t);
            }
            first = f.tm.checkpoint(false);
            for (int i = 0; i < 50; i++) {
                Txn t = f.tm.begin();
                f.store.put(t, i, 2000 + i);
                f.tm.commit(t);
            }
            last = f.tm.checkpoint(false);
            for (int i = 0; i < 25; i++) {
                Txn t = f.tm.begin();
                f.store.put(t, i, 3000 + i); // after the last checkpoint: redone from the log
                f.tm.commit(t);
            }
            Txn loser = f.tm.begin();
            f.store.put(loser, 40, -1); // never committed: undone
            f.log.flush(f.log.endLsn(), org.libtp.core.log.Durability.SYNC);
            assertEquals(last, org.libtp.core.log.LogAnchor.read(new FileStorage(home)).checkpointLsn(),
                    "the anchor names the last checkpoint");
            // Crash images: the anchor as it is, naming an older checkpoint, naming a record that
            // is no checkpoint, and naming an LSN past the log's end. Each recovers the same state.
            long[] hints = {last, first, f.log.endLsn() - 8, Lsn.of(Lsn.file(f.log.endLsn()) + 5, 64)};
            org.libtp.core.log.LogAnchor a = org.libtp.core.log.LogAnchor.read(new FileStorage(home));
            for (int h = 0; h < hints.length; h++) {
                Path image = crashImage(home, copies.resolve("image" + h));
                org.libtp.core.log.LogAnchor hinted = new org.libtp.core.log.LogAnchor(a.envId(), a.logId(),
                        a.minEndLsn(), a.createdMillis(), hints[h]);
                new FileStorage(image).replaceFile(org.libtp.core.log.LogAnchor.FILE, hinted.encode());
                try (TxnFixture g = new TxnFixture(image)) {
                    for (int i = 0; i < 50; i++) {
                        assertEquals(i < 25 ? 3000 + i : 2000 + i, g.store.get(i), "slot " + i + ", hint " + h);
                    }
                }
            }
            f.tm.abort(loser);
        }
    }
}
