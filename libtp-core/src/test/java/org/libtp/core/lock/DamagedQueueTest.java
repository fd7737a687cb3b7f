package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.txn.Txn;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockLayout.O_HEAD;
import static org.libtp.core.lock.LockLayout.R_QNEXT;

/**
 * A lock object's queue damaged into a cycle (shared memory scribbled on) must not hold a
 * partition latch in an endless walk, which hangs every process: the walk stops after as many
 * steps as the table has requests and fails the environment (recovery rebuilds the table).
 */
@org.junit.jupiter.api.Timeout(value = 2, unit = java.util.concurrent.TimeUnit.MINUTES)
class DamagedQueueTest {
    @TempDir
    Path dir;

    @Test
    void aQueueWithACycleFailsTheEnvironmentInsteadOfHanging() {
        try (LockFixture f = new LockFixture(dir, 0, LockPartitionRepairTest.onePartition())) {
            LockTable t = f.lm.table();
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            Txn c = f.tm.begin();
            LockObject page = new LockObject(1, 7);
            f.lm.lock(a, page, LockMode.READ, 0);
            f.lm.lock(b, page, LockMode.READ, 0);
            // The queue's second request made to point back at the first: a cycle of holders.
            for (int o = 0; o < t.lay.maxObjects(); o++) {
                long oa = t.obj(o);
                int head = t.mem.getInt(oa + O_HEAD);
                if (head != 0) {
                    int second = t.mem.getInt(t.req(head - 1) + R_QNEXT);
                    if (second != 0) {
                        t.mem.putInt(t.req(second - 1) + R_QNEXT, head);
                    }
                }
            }
            RunRecoveryException e = assertThrows(RunRecoveryException.class,
                    () -> f.lm.lock(c, page, LockMode.WRITE, 0));
            assertTrue(e.getMessage().contains("has a cycle"), e.getMessage());
            assertTrue(f.env.isFailed());
        }
    }
}
