package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.libtp.core.lock.LockMode.READ;
import static org.libtp.core.lock.LockMode.WRITE;

/**
 * The per-transaction lock cache: a page lock the transaction holds answers a covered request
 * without the shared table, and what it gives back (unlock, downgrade, unlockAll, escalation)
 * is asked of the table again.
 */
class LockCacheTest {
    @TempDir
    Path home;

    static LockObject page(long n) {
        return new LockObject(1, n);
    }

    @Test
    void aHeldLockIsAnsweredWithoutTheTable() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            long r0 = f.lm.stats().requests();
            f.lm.lock(a, page(1), READ, 0);
            f.lm.lock(a, page(1), WRITE, 0);
            assertEquals(0, f.lm.stats().requests() - r0, "WRITE held covers READ and WRITE");
            f.lm.lock(a, page(2), READ, 0);
            f.lm.lock(a, page(2), WRITE, 0); // an upgrade goes to the table
            assertEquals(2, f.lm.stats().requests() - r0);
            f.lm.lock(a, page(2), WRITE, 0);
            assertEquals(2, f.lm.stats().requests() - r0);
            f.tm.commit(a);
        }
    }

    @Test
    void whatIsGivenBackIsAskedForAgain() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            Txn b = f.tm.begin();
            f.lm.lock(a, page(1), WRITE, 0);
            f.lm.lock(a, page(1), READ, 0); // a second reference, kept in the cache
            f.lm.unlock(a, page(1));
            assertEquals(WRITE, f.lm.heldMode(a, page(1)), "one reference left");
            f.lm.unlock(a, page(1));
            f.lm.lock(b, page(1), WRITE, 0); // a no longer holds it
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(a, page(1), READ, LockManager.NOWAIT),
                    "the cache must not answer for a lock given back");
            f.lm.downgrade(b, page(1));
            f.lm.lock(a, page(1), READ, LockManager.NOWAIT); // READ beside READ
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(b, page(1), WRITE, LockManager.NOWAIT),
                    "after a downgrade, WRITE is asked of the table again (a holds READ)");
            f.lm.unlockAll(a);
            assertNull(f.lm.heldMode(a, page(1)));
            f.lm.lock(b, page(1), WRITE, LockManager.NOWAIT);
            assertThrows(LockNotGrantedException.class, () -> f.lm.lock(a, page(1), READ, LockManager.NOWAIT));
            f.tm.abort(a);
            f.tm.commit(b);
        }
    }

    /**
     * A slot's next transaction reuses the ended one's cache, emptied: neither its page locks
     * nor its file lock (escalated) nor its intention locks answer for the new transaction.
     */
    @Test
    void theNextTransactionOfASlotInheritsNothingFromItsCache() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).escalationThreshold(4)
                .build())) {
            for (int round = 0; round < 3; round++) {
                Txn a = f.tm.begin();
                for (long p = 0; p < 8; p++) {
                    f.lm.lockPage(a, 1, p, WRITE, 0); // the 4th escalates: file 1 WRITE
                }
                f.lm.lockPage(a, 2, 5, WRITE, 0);
                f.lm.lockPage(a, 2, 6, READ, 0);
                f.tm.commit(a);
                Txn b = f.tm.begin();
                assertEquals(a.slot(), b.slot(), "the ended transaction's slot is the one reused");
                f.lm.lockPage(b, 1, 3, READ, 0);
                f.lm.lockPage(b, 2, 5, READ, 0);
                Txn c = f.tm.begin();
                assertThrows(LockNotGrantedException.class, () -> f.lm.lockPage(c, 1, 3, WRITE, LockManager.NOWAIT),
                        "b's READ is in the table (a's file lock must not answer for b)");
                assertThrows(LockNotGrantedException.class, () -> f.lm.lockPage(c, 2, 5, WRITE, LockManager.NOWAIT),
                        "b's READ is in the table (a's page lock must not answer for b)");
                f.lm.lockPage(c, 2, 6, WRITE, LockManager.NOWAIT); // a's READ went with a
                f.lm.lockPage(c, 1, 4, WRITE, LockManager.NOWAIT);
                assertThrows(LockNotGrantedException.class, () -> f.lm.lockPage(b, 2, 6, READ, LockManager.NOWAIT));
                f.tm.commit(c);
                f.tm.commit(b);
            }
        }
    }

    @Test
    void lockPageValidatesItsArguments() {
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).build())) {
            Txn a = f.tm.begin();
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, -1, 1, READ, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, 1, LockObject.WHOLE_FILE, READ, 0),
                    "a whole file is locked through lock(LockObject)");
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, 1, 1, null, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, 1, 1, LockMode.READ_IWRITE, 0));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(a, 1, 1, READ, 4));
            assertThrows(IllegalArgumentException.class, () -> f.lm.lockPage(null, 1, 1, READ, 0));
            f.lm.lockPage(a, 1, 1, READ, 0);
            assertEquals(READ, f.lm.heldMode(a, page(1)));
            f.tm.commit(a);
            assertThrows(IllegalStateException.class, () -> f.lm.lockPage(a, 1, 2, READ, 0), "an ended transaction");
        }
    }

    /**
     * Random lock, unlock and downgrade calls of two transactions against a model of who holds
     * what, and how many references: every answer (granted or refused at once) and every held
     * mode is what the model says, so the cache never answers for a lock the table would refuse.
     */
    @Test
    void randomCallsAgreeWithAModel() {
        long seed = Seeds.seed("LockCacheTest");
        Random r = new Random(seed);
        try (LockFixture f = new LockFixture(home, 0, LockConfig.builder().detectIntervalMillis(0).escalationThreshold(0)
                .build())) {
            for (int round = 0; round < 20; round++) {
                Txn[] t = {f.tm.begin(), f.tm.begin()};
                @SuppressWarnings("unchecked")
                Map<Long, LockMode>[] held = new Map[] {new HashMap<>(), new HashMap<>()};
                @SuppressWarnings("unchecked")
                Map<Long, Integer>[] refs = new Map[] {new HashMap<>(), new HashMap<>()};
                for (int step = 0; step < 300; step++) {
                    int me = r.nextInt(2);
                    long pg = r.nextInt(8);
                    Map<Long, LockMode> mine = held[me];
                    LockMode other = held[1 - me].get(pg);
                    int op = r.nextInt(10);
                    if (op < 6) {
                        LockMode m = r.nextBoolean() ? READ : WRITE;
                        LockMode want = mine.get(pg) == null ? m : mine.get(pg).join(m);
                        boolean grantable = other == null || !other.conflictsWith(want);
                        if (grantable) {
                            f.lm.lock(t[me], page(pg), m, LockManager.NOWAIT);
                            mine.put(pg, want);
                            refs[me].merge(pg, 1, Integer::sum);
                        } else {
                            assertThrows(LockNotGrantedException.class,
                                    () -> f.lm.lock(t[me], page(pg), m, LockManager.NOWAIT),
                                    "seed " + seed + " round " + round + " step " + step);
                        }
                    } else if (op < 8) {
                        if (mine.containsKey(pg)) {
                            f.lm.unlock(t[me], page(pg)); // one reference
                            if (refs[me].merge(pg, -1, Integer::sum) == 0) {
                                refs[me].remove(pg);
                                mine.remove(pg);
                            }
                        }
                    } else if (mine.get(pg) == WRITE) {
                        f.lm.downgrade(t[me], page(pg));
                        mine.put(pg, READ);
                    }
                    assertEquals(mine.get(pg), f.lm.heldMode(t[me], page(pg)), "seed " + seed + " step " + step);
                }
                f.tm.commit(t[0]);
                f.tm.commit(t[1]);
            }
        }
    }
}
