package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.LatchLayout;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The transaction latch whose holder died inside {@code begin}, in one JVM: the latch word names
 * an owner id no process holds, and the table is left as such a begin leaves it. The next begin
 * takes the latch over and goes on; a transaction the dead begin had published is rolled back by
 * failCheck like any of a dead process's. (Multi-JVM kills of real holders: KillOneOfFourCrashTest.)
 */
class TxnLatchRepairTest {
    @TempDir
    Path dir;

    @Test
    void aBeginCutShortLeavesATableTheNextBeginCanUse() {
        try (TxnFixture f = new TxnFixture(dir, 0, TxnConfig.defaults())) {
            Memory mem = f.tm.regionMemory();
            int dead = f.env.config().maxProcesses(); // an owner id no process holds
            // A half-filled free entry (the dead begin wrote its id, not its state) and an id taken.
            long e0 = TxnLayout.entry(0);
            mem.putLong(e0 + TxnLayout.E_ID, 999_999);
            mem.putLong(TxnLayout.OFF_NEXT_ID, mem.getLong(TxnLayout.OFF_NEXT_ID) + 1);
            assertTrue(mem.compareAndSetInt(TxnLayout.OFF_TXN_LATCH + LatchLayout.WORD, 0, dead << 1));

            Txn t = f.tm.begin(); // takes the latch over
            assertFalse(f.env.isFailed());
            assertEquals(1, f.env.latchRepairs());
            assertEquals(1, f.tm.activeCount());
            f.store.put(t, 1, 42);
            f.tm.commit(t);
            assertEquals(0, f.tm.activeCount());
            assertEquals(42, f.store.get(1));
        }
    }
}
