package org.libtp.bench.tpcb;

import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Every TPC-B engine on a tiny database: load, transfers from two threads (aborts allowed and
 * counted), read-only transactions, the consistency condition, history rows = commits; then
 * reopened: still loaded and consistent. Exercises each engine's open/load/session/sums/close.
 */
class TpcbEnginesTest {
    private static final TpcbShape SHAPE = TpcbShape.of(2, 200);
    private static final int THREADS = 2;
    /** Per thread; fewer with sync, where every commit waits for the disk. */
    private static final int TRANSFERS_NOSYNC = 150;
    private static final int TRANSFERS_SYNC = 40;

    static Stream<Arguments> engines() {
        return Stream.concat(TpcbEngines.NAMES.stream(), bdbBuilt() ? Stream.of("bdb") : Stream.empty())
                .flatMap(e -> Stream.of(Arguments.of(e, false), Arguments.of(e, true)));
    }

    /** True if this build has Berkeley DB C (mvn -Pbdb) and its jar: then it is tested with the others. */
    static boolean bdbBuilt() {
        try {
            Class.forName(TpcbEngines.BDB_CLASS);
            Class.forName("com.sleepycat.db.Environment");
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @ParameterizedTest(name = "{0} sync={1}")
    @MethodSource("engines")
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void transfersKeepTheInvariant(String engine, boolean sync, @TempDir Path dir) throws Exception {
        EngineOptions o = new EngineOptions(dir, sync, 8L << 20, THREADS, false);
        int perThread = sync ? TRANSFERS_SYNC : TRANSFERS_NOSYNC;
        long commits;
        try (TpcbStore store = TpcbEngines.open(engine, o)) {
            assertEquals(engine, store.engine());
            assertEquals("notp".equals(engine) || "flock".equals(engine) ? "none"
                    : "fsync".equals(engine) || sync ? "sync" : "nosync", store.durability());
            assertFalse(store.loaded(SHAPE), "empty store reports loaded");
            store.load(SHAPE);
            assertTrue(store.loaded(SHAPE));
            assertEquals(new TpcbStore.Sums(0, 0, 0, 0, 0), store.sums());

            AtomicLong committed = new AtomicLong();
            AtomicLong aborted = new AtomicLong();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < THREADS; i++) {
                TpcbStore.TpcbSession s = store.session();
                SplittableRandom rnd = new SplittableRandom(17 + i);
                Thread t = new Thread(() -> {
                    try (s) {
                        for (int n = 0; n < perThread; n++) {
                            // few tellers and branches: the threads collide often
                            int tid = rnd.nextInt(SHAPE.tellers());
                            int bid = SHAPE.branchOfTeller(tid);
                            int aid = rnd.nextInt(SHAPE.accounts());
                            if (s.transfer(aid, tid, bid, rnd.nextInt(1_999_999) - 999_999)) {
                                committed.incrementAndGet();
                            } else {
                                aborted.incrementAndGet();
                            }
                            if (n % 10 == 0) {
                                s.readOnly(aid, tid, bid); // MIN_VALUE (aborted) is allowed
                            }
                        }
                    } catch (Throwable e) {
                        failure.compareAndSet(null, e);
                    }
                }, engine + "-" + i);
                threads.add(t);
                t.start();
            }
            for (Thread t : threads) {
                t.join();
            }
            assertNull(failure.get(), () -> engine + " worker failed: " + failure.get());
            commits = committed.get();
            assertEquals(THREADS * perThread, commits + aborted.get());
            assertTrue(commits > 0, engine + " committed nothing");
            TpcbStore.Sums sums = store.sums();
            assertTrue(sums.consistent(), engine + " inconsistent: " + sums);
            assertEquals(commits, sums.historyRows(), engine + " history rows != commits (aborts " + aborted + ")");
            // a read-only transaction sees the committed balances
            try (TpcbStore.TpcbSession s = store.session()) {
                long r = s.readOnly(0, 0, 0);
                assertTrue(r != Long.MIN_VALUE, engine + " read-only aborted with nothing else running");
            }
        }
        try (TpcbStore store = TpcbEngines.open(engine, o)) {
            assertTrue(store.loaded(SHAPE), engine + " not loaded after reopening");
            TpcbStore.Sums sums = store.sums();
            assertTrue(sums.consistent(), engine + " inconsistent after reopening: " + sums);
            assertEquals(commits, sums.historyRows(), engine + " lost history rows at close/reopen");
            // the history sequence continues after reopening
            try (TpcbStore.TpcbSession s = store.session()) {
                assertTrue(s.transfer(1, 1, 0, 5));
            }
            TpcbStore.Sums after = store.sums();
            assertTrue(after.consistent(), engine + " inconsistent after a transfer on the reopened store: " + after);
            assertEquals(commits + 1, after.historyRows());
            assertEquals(sums.history() + 5, after.history());
        }
    }
}
