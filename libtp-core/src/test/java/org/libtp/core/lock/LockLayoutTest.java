package org.libtp.core.lock;

import org.junit.jupiter.api.Test;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.region.Fingerprint;
import org.libtp.core.region.LatchArray;
import org.libtp.core.sync.LatchLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.core.lock.LockLayout.*;

/** The lock regions' offsets are a shared-memory format: frozen here, as in the class comment. */
class LockLayoutTest {

    @Test
    void controlRegionOffsetsAreFrozen() {
        assertEquals(1024, CTL_SIZE);
        assertEquals(256, OFF_INIT_LATCH);
        assertEquals(320, OFF_STATE);
        assertEquals(324, OFF_MAX_LOCKS);
        assertEquals(328, OFF_MAX_OBJECTS);
        assertEquals(332, OFF_PARTITIONS);
        assertEquals(336, OFF_MAX_LOCKERS);
        assertEquals(340, OFF_BUCKETS_PER_PART);
        assertEquals(384, OFF_DETECTOR);
        assertEquals(392, OFF_LAST_DETECT);
        assertEquals(448, OFF_REQ_FREE);
        assertEquals(512, OFF_OBJ_FREE);
        assertEquals(576, OFF_DEADLOCKS);
        assertEquals(584, OFF_TIMEOUTS);
        assertEquals(592, OFF_ESCALATIONS);
        assertTrue(OFF_ESCALATIONS + 8 <= CTL_SIZE);
        assertEquals(600, OFF_RECLAIM);
        assertTrue(OFF_RECLAIM + 4 <= CTL_SIZE);
        assertEquals(5, LAYOUT_VERSION);
        // Mode ordinals are stored in the table: never renumbered.
        assertEquals(0, LockMode.READ.ordinal());
        assertEquals(1, LockMode.WRITE.ordinal());
        assertEquals(2, LockMode.IREAD.ordinal());
        assertEquals(3, LockMode.IWRITE.ordinal());
        assertEquals(4, LockMode.READ_IWRITE.ordinal());
        // The two free-list heads are CAS targets of every process: one cache line each.
        assertEquals(0, OFF_REQ_FREE % 64);
        assertEquals(0, OFF_OBJ_FREE % 64);
        assertTrue(OFF_OBJ_FREE - OFF_REQ_FREE >= 64 && OFF_DEADLOCKS - OFF_OBJ_FREE >= 64);
        assertTrue(OFF_STATE >= OFF_INIT_LATCH + LatchLayout.SIZE);
        RegionSpec spec = controlSpec();
        assertEquals("lock", spec.name());
        assertEquals(new LatchArray(OFF_INIT_LATCH, 64, 1), spec.latchArrays().get(0));
    }

    @Test
    void tableEntryOffsetsAreFrozen() {
        assertEquals(256, OFF_PART);
        assertEquals(64, PART);
        assertEquals(0, P_LATCH);
        assertEquals(16, P_REQ_CACHE);
        assertEquals(20, P_OBJ_CACHE);
        assertEquals(24, P_LOCKS);
        assertEquals(28, P_OBJECTS);
        assertEquals(32, P_REQUESTS);
        assertEquals(40, P_WAITS);
        // pairs accessed as one little-endian long: the first field is the low half
        assertEquals(P_REQ_CACHE, P_CACHES);
        assertEquals(P_OBJ_CACHE, P_CACHES + 4);
        assertEquals(P_LOCKS, P_COUNTS);
        assertEquals(P_OBJECTS, P_COUNTS + 4);
        assertEquals(0, P_CACHES % 8);
        assertEquals(0, P_COUNTS % 8);
        assertTrue(P_REQ_CACHE >= P_LATCH + LatchLayout.SIZE);
        assertTrue(P_WAITS + 8 <= PART);

        assertEquals(64, LOCKER);
        assertEquals(0, L_TXN);
        assertEquals(8, L_CHAIN);
        assertEquals(12, L_WAITING);
        assertEquals(16, L_VICTIM);
        assertEquals(20, L_SUSPECT);

        assertEquals(64, OBJ);
        assertEquals(0, O_PAGE);
        assertEquals(8, O_FILE);
        assertEquals(12, O_HASH);
        assertEquals(16, O_NEXT);
        assertEquals(20, O_HEAD);
        assertEquals(24, O_TAIL);
        assertEquals(28, O_PART);

        assertEquals(64, REQ);
        assertEquals(0, R_OBJ);
        assertEquals(4, R_LOCKER);
        assertEquals(8, R_MODE);
        assertEquals(12, R_STATUS);
        assertEquals(16, R_REFS);
        assertEquals(20, R_PENDING);
        assertEquals(24, R_QNEXT);
        assertEquals(28, R_QPREV);
        assertEquals(32, R_LNEXT);
        assertEquals(36, R_LPREV);
        assertEquals(40, R_PART);
        for (int first : new int[] {R_OBJ, R_MODE, R_REFS, R_QNEXT, R_LNEXT, O_FILE, O_NEXT}) {
            assertEquals(0, first % 8, "a pair read as one long starts 8-aligned");
        }
        assertEquals(R_OBJ + 4, R_LOCKER);
        assertEquals(R_MODE + 4, R_STATUS);
        assertEquals(R_REFS + 4, R_PENDING);
        assertEquals(R_QNEXT + 4, R_QPREV);
        assertEquals(R_LNEXT + 4, R_LPREV);
        assertEquals(O_FILE + 4, O_HASH);
        assertEquals(O_NEXT + 4, O_HEAD);

        assertEquals(0, ST_FREE);
        assertEquals(1, ST_GRANTED);
        assertEquals(2, ST_WAITING);
        assertEquals(3, ST_REFUSED);
        assertEquals(0, LockMode.READ.ordinal(), "mode ordinals are stored in shared memory");
        assertEquals(1, LockMode.WRITE.ordinal());
    }

    @Test
    void defaultTableLayout() {
        LockConfig c = LockConfig.defaults();
        Layout l = Layout.of(c.maxLocks(), c.maxObjects(), c.partitions(), 256);
        assertEquals(1024, l.bucketsPerPartition(), "at least 2 buckets per object, a power of two");
        assertEquals(256 + 64 * 64, l.offBuckets());
        assertEquals(266_496, l.offLockers());
        assertEquals(266_496 + 64 * 256, l.offObjects());
        assertEquals(282_880 + 64 * 20_000, l.offRequests());
        assertEquals(1_562_880 + 64 * 20_000, l.size());
        RegionSpec spec = l.spec();
        assertEquals("lock.tables", spec.name());
        assertEquals(new LatchArray(OFF_PART, PART, 64, true), spec.latchArrays().get(0));
    }

    @Test
    void layoutsNeverOverlap() {
        int[][] configs = {{1, 1, 1, 1}, {8, 4, 4, 2}, {20_000, 20_000, 64, 256}, {100, 7, 4096, 65_536},
                {1 << 24, 1 << 24, 4096, 1}};
        for (int[] k : configs) {
            Layout l = Layout.of(k[0], k[1], k[2], k[3]);
            String at = java.util.Arrays.toString(k);
            assertEquals(1, Integer.bitCount(l.bucketsPerPartition()), at);
            assertTrue((long) l.bucketsPerPartition() * k[2] >= 2L * k[1] || l.bucketsPerPartition() == 1 << 24, at);
            assertTrue(l.offBuckets() >= OFF_PART + (long) PART * k[2], at);
            assertTrue(l.offLockers() >= l.offBuckets() + 4L * k[2] * l.bucketsPerPartition(), at);
            assertEquals(0, l.offLockers() % 64, at);
            assertEquals(l.offLockers() + (long) LOCKER * k[3], l.offObjects(), at);
            assertEquals(l.offObjects() + (long) OBJ * k[1], l.offRequests(), at);
            assertEquals(l.offRequests() + (long) REQ * k[0], l.size(), at);
        }
    }

    @Test
    void hashSpreadsPagesOfAFileOverPartitions() {
        int partitions = 64;
        int[] hits = new int[partitions];
        for (long p = 0; p < 64_000; p++) {
            hits[LockTable.hash(1, p) & (partitions - 1)]++;
        }
        for (int h : hits) {
            assertTrue(h > 800 && h < 1200, java.util.Arrays.toString(hits));
        }
    }

    @Test
    void entryOffsetsAreFrozen() {
        assertEquals(64, LOCKER);
        assertEquals(0, L_TXN);
        assertEquals(8, L_CHAIN);
        assertEquals(12, L_WAITING);
        assertEquals(16, L_VICTIM);
        assertEquals(20, L_SUSPECT);
        assertEquals(64, OBJ);
        assertEquals(0, O_PAGE);
        assertEquals(8, O_FILE);
        assertEquals(16, O_NEXT);
        assertEquals(24, O_TAIL);
        assertEquals(28, O_PART);
        assertEquals(64, REQ);
        assertEquals(0, R_OBJ);
        assertEquals(4, R_LOCKER);
        assertEquals(20, R_PENDING);
        assertEquals(32, R_LNEXT);
        assertEquals(40, R_PART);
    }

    /** Both regions carry the fingerprint, and it moves with any constant of the layout. */
    @Test
    void fingerprintFoldsEveryConstant() throws Exception {
        assertEquals(Fingerprint.ofConstants(LockLayout.class), FINGERPRINT);
        assertEquals(FINGERPRINT, controlSpec().layoutFingerprint());
        assertEquals(FINGERPRINT, Layout.of(8, 4, 4, 2).spec().layoutFingerprint());
        java.util.TreeMap<String, Long> constants = new java.util.TreeMap<>();
        for (java.lang.reflect.Field f : LockLayout.class.getDeclaredFields()) {
            int m = f.getModifiers();
            if (java.lang.reflect.Modifier.isStatic(m) && java.lang.reflect.Modifier.isFinal(m)
                    && (f.getType() == int.class || f.getType() == long.class) && !f.getName().equals("FINGERPRINT")) {
                f.setAccessible(true);
                constants.put(f.getName(), ((Number) f.get(null)).longValue());
            }
        }
        assertTrue(constants.containsKey("R_PART") && constants.containsKey("OFF_ESCALATIONS"));
        assertEquals(FINGERPRINT, fold(constants), "the fingerprint is the fold of the constants above");
        java.util.TreeMap<String, Long> moved = new java.util.TreeMap<>(constants);
        moved.put("R_PART", 44L);
        assertTrue(fold(moved) != FINGERPRINT, "a moved request field changes the fingerprint");
        java.util.TreeMap<String, Long> bumped = new java.util.TreeMap<>(constants);
        bumped.put("LAYOUT_VERSION", constants.get("LAYOUT_VERSION") + 1);
        assertTrue(fold(bumped) != FINGERPRINT, "a new layout version changes the fingerprint");
    }

    /** What {@link Fingerprint#ofConstants} computes, from a map of the constants. */
    private static long fold(java.util.TreeMap<String, Long> constants) {
        Fingerprint fp = new Fingerprint().add("LockLayout", constants.size());
        constants.forEach(fp::add);
        return fp.value();
    }
}
