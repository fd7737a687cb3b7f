package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.log.Durability;
import org.libtp.core.log.Lsn;
import org.libtp.core.storage.FileStorage;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Log files recovery still needs are never archivable: a transaction that the last checkpoint
 * record lists as active keeps its first records' file even after it has ended (its end record
 * may not be forced yet: after a crash it is a loser to undo, and recovery reads from its first
 * LSN). Before, the horizon looked only at transactions active at removal time, and recovery
 * after a kill sometimes failed with "log file ... does not exist" (seen in TxnCrashTest).
 */
class LogRemovalHorizonTest {
    @TempDir
    Path home;

    @Test
    void aTransactionListedByTheLastCheckpointKeepsItsFirstFile() {
        try (TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).build(),
                new FileStorage(home), false)) {
            Txn old = f.tm.begin(Durability.NO_SYNC);
            f.store.put(old, 0, 1); // its first record, in file 1
            for (int i = 0; i < 9000; i++) { // others fill a few files
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.store.put(t, 1 + i % 100, i);
                f.tm.commit(t);
            }
            assertTrue(Lsn.file(f.log.endLsn()) >= 3, "the log moved on: " + Lsn.toString(f.log.endLsn()));
            f.tm.checkpoint(); // lists `old` as active
            f.tm.commit(old); // ended, its commit record not forced
            int[] archivable = f.tm.archivableLogFiles();
            assertEquals(0, archivable.length, "file 1 holds the first record of a transaction the last "
                    + "checkpoint lists as active: " + java.util.Arrays.toString(archivable));
            f.tm.checkpoint(); // no longer lists it
            assertTrue(f.tm.archivableLogFiles().length > 0, "now the old files can go");
        }
    }
}
