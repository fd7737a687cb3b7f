package org.libtp.db.elle;

import org.junit.jupiter.api.Test;
import org.libtp.core.testkit.Seeds;
import org.libtp.db.elle.ListAppendChecker.Op;
import org.libtp.db.elle.ListAppendChecker.Result;
import org.libtp.db.elle.ListAppendChecker.Status;
import org.libtp.db.elle.ListAppendChecker.Txn;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.db.elle.ListAppendChecker.Op.append;

/** The checker on hand-written histories: each anomaly it must find, and histories that have none. */
class ListAppendCheckerTest {
    private static Op read(long key, long... values) {
        List<Long> l = new ArrayList<>();
        for (long v : values) {
            l.add(v);
        }
        return Op.read(key, l);
    }

    private static Txn ok(long id, Op... ops) {
        return new Txn(id, "", Status.OK, List.of(ops));
    }

    private static Txn fail(long id, Op... ops) {
        return new Txn(id, "", Status.FAIL, List.of(ops));
    }

    private static Txn info(long id, Op... ops) {
        return new Txn(id, "", Status.INFO, List.of(ops));
    }

    /** Checks and asserts exactly {@code expected} (type -> count) was found; returns the result. */
    private static Result expect(Map<String, Integer> expected, Txn... history) {
        Result r = ListAppendChecker.check(List.of(history));
        assertEquals(expected, r.anomalyTypes(), r.report());
        assertEquals(expected.values().stream().mapToInt(Integer::intValue).sum(), r.anomalies().size(), r.report());
        return r;
    }

    @Test
    void serialHistoryHasNoAnomaly() {
        Result r = expect(Map.of(),
                ok(1, append(1, 1), append(2, 1)),
                ok(2, read(1, 1), append(1, 2), read(1, 1, 2)),
                fail(3, append(1, 3)),
                info(4, append(2, 4)), // never seen: may or may not have committed
                ok(5, read(1, 1, 2), read(2, 1)));
        assertEquals(List.of(3, 1, 1, 0), List.of(r.ok(), r.fail(), r.info(), r.infoCommitted()), r.summary());
        // ww 1->2 (key 1), wr 1->2, 2->5 (key 1), 1->5 (key 2)
        assertEquals(Map.of("ww", 1, "wr", 3), r.edgeTypes(), r.summary());
    }

    @Test
    void g0WriteCycle() {
        Result r = expect(Map.of("G0", 1),
                ok(1, append(1, 1), append(2, 1)),
                ok(2, append(1, 2), append(2, 2)),
                ok(3, read(1, 1, 2), read(2, 2, 1)));
        assertTrue(r.anomalies().get(0).contains("ww (key 1: 1 then 2)"), r.report());
        assertTrue(r.anomalies().get(0).contains("ww (key 2: 2 then 1)"), r.report());
    }

    @Test
    void g1cCircularInformationFlow() {
        expect(Map.of("G1c", 1),
                ok(1, append(1, 1), read(2, 2)),
                ok(2, append(2, 2), read(1, 1)));
    }

    @Test
    void gSingleReadSkew() {
        Result r = expect(Map.of("G-single", 1),
                ok(1, append(1, 10), append(2, 20)),
                ok(2, append(1, 11), append(2, 21)),
                ok(3, read(1, 10), read(2, 20, 21)), // saw T2 on key 2, missed it on key 1
                ok(4, read(1, 10, 11), read(2, 20, 21)));
        assertTrue(r.anomalies().get(0).contains("rw (key 1: read ending in 10, missed 11)"), r.report());
    }

    @Test
    void g2WriteSkew() {
        expect(Map.of("G2", 1),
                ok(1, read(1), read(2), append(1, 1)),
                ok(2, read(1), read(2), append(2, 2)),
                ok(3, read(1, 1), read(2, 2)));
    }

    @Test
    void g1aAbortedRead() {
        Result r = expect(Map.of("G1a", 1),
                fail(1, append(1, 1)),
                ok(2, read(1, 1)));
        assertTrue(r.anomalies().get(0).contains("appended by aborted T1"), r.report());
    }

    @Test
    void g1bIntermediateRead() {
        // The reader both saw T1 (wr) and missed T1's second append (rw): a G-single cycle as well.
        expect(Map.of("G1b", 1, "G-single", 1),
                ok(1, append(1, 1), append(1, 2)),
                ok(2, read(1, 1)),
                ok(3, read(1, 1, 2)));
        // Reading its own intermediate state is fine.
        expect(Map.of(), ok(1, append(1, 1), read(1, 1), append(1, 2)), ok(3, read(1, 1, 2)));
    }

    @Test
    void incompatibleOrder() {
        Result r = expect(Map.of("incompatible-order", 1),
                ok(1, append(1, 1)),
                ok(2, append(1, 2)),
                ok(3, read(1, 1, 2)),
                ok(4, read(1, 2)));
        assertTrue(r.anomalies().get(0).contains("T4"), r.report());
    }

    @Test
    void duplicateAndGarbageElements() {
        expect(Map.of("duplicate-element", 1), ok(1, append(1, 1)), ok(2, read(1, 1, 1)));
        expect(Map.of("garbage-read", 1), ok(1, append(1, 1)), ok(2, read(1, 1, 99)));
        expect(Map.of("duplicate-append", 1), ok(1, append(1, 1)), ok(2, append(1, 1)));
    }

    @Test
    void internalInconsistency() {
        expect(Map.of("internal", 1), ok(1, append(1, 5), read(1)));
        expect(Map.of("internal", 1), ok(1, append(1, 1)), ok(2, read(1, 1), append(1, 2), read(1, 1)));
        // A second read that lost a value seen by the first, without own appends: a non-repeatable read.
        expect(Map.of("internal", 1), ok(1, append(1, 1)), fail(2, read(1, 1), read(1)));
    }

    @Test
    void infoSeenCountsAsCommitted() {
        // T1's outcome is unknown, but T3 saw its append: it committed, and closes a write skew.
        Result r = expect(Map.of("G2", 1),
                info(1, append(1, 1), read(2)),
                ok(2, append(2, 2), read(1)),
                ok(3, read(1, 1), read(2, 2)));
        assertEquals(1, r.infoCommitted());
        // Unseen, it may not have committed: no cycle.
        r = expect(Map.of(),
                info(1, append(1, 1), read(2)),
                ok(2, append(2, 2), read(1)),
                ok(3, read(2, 2)));
        assertEquals(0, r.infoCommitted());
    }

    @Test
    void opsRoundTripThroughTheirLineForm() {
        List<Op> ops = List.of(append(3, 7_000_000_001L), read(4), read(5, 1, 2, 3));
        String line = ListAppendChecker.formatOps(ops);
        assertEquals("a3=7000000001 r4= r5=1,2,3", line);
        assertEquals(ops, ListAppendChecker.parseOps(("T 1 " + line).split(" "), 2));
        // An attempt that failed in its first read has no ops: its line has an empty field.
        String[] failed = ("FAIL 2 " + ListAppendChecker.formatOps(List.of()) + " $").split(" ");
        assertEquals(List.of(), ListAppendChecker.parseOps(java.util.Arrays.copyOf(failed, failed.length - 1), 2));
        assertThrows(IllegalArgumentException.class, () -> ListAppendChecker.parseOps(new String[] {"x1=2"}, 0));
    }

    /**
     * Random histories run one transaction at a time (aborted ones discarded, unknown ones kept or
     * not) have no anomaly; the same with reads taken from a stale copy of the state do.
     */
    @Test
    void randomSerialHistoriesPassAndStaleReadsAreCaught() {
        long seed = Seeds.seed("ListAppendCheckerTest");
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            assertEquals(List.of(), ListAppendChecker.check(simulate(rnd, false)).anomalies(), "seed " + seed);
            Result r = ListAppendChecker.check(simulate(rnd, true));
            assertFalse(r.anomalies().isEmpty(), "seed " + seed + ": stale reads not caught: " + r.summary());
        }
    }

    private static List<Txn> simulate(Random rnd, boolean staleReads) {
        Map<Long, List<Long>> state = new HashMap<>();
        Map<Long, List<Long>> stale = new HashMap<>();
        List<Txn> history = new ArrayList<>();
        long next = 1;
        for (int id = 1; id <= 400; id++) {
            if (id % 50 == 0) {
                stale = copy(state);
            }
            Map<Long, List<Long>> mine = copy(state);
            List<Op> ops = new ArrayList<>();
            for (int n = 1 + rnd.nextInt(4); n > 0; n--) {
                long key = rnd.nextInt(6);
                if (rnd.nextBoolean()) {
                    long v = next++;
                    mine.computeIfAbsent(key, k -> new ArrayList<>()).add(v);
                    ops.add(append(key, v));
                } else if (staleReads && rnd.nextInt(4) == 0 && !ops.stream().anyMatch(o -> o.key() == key)) {
                    ops.add(Op.read(key, stale.getOrDefault(key, List.of())));
                } else {
                    ops.add(Op.read(key, mine.getOrDefault(key, List.of())));
                }
            }
            int fate = rnd.nextInt(10);
            Status s = fate == 0 ? Status.FAIL : fate == 1 ? Status.INFO : Status.OK;
            if (s == Status.OK || s == Status.INFO && rnd.nextBoolean()) {
                state = mine;
            }
            history.add(new Txn(id, "", s, ops));
        }
        List<Op> last = new ArrayList<>();
        for (long key = 0; key < 6; key++) {
            last.add(Op.read(key, state.getOrDefault(key, List.of())));
        }
        history.add(new Txn(0, "final read", Status.OK, last));
        return history;
    }

    private static Map<Long, List<Long>> copy(Map<Long, List<Long>> m) {
        Map<Long, List<Long>> c = new HashMap<>();
        m.forEach((k, v) -> c.put(k, new ArrayList<>(v)));
        return c;
    }
}
