package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.libtp.core.region.Fingerprint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The log region's offsets stay where docs/formats.md and running processes expect them. */
class LogLayoutTest {
    @Test
    void logRegionOffsets() {
        assertEquals(256, LogLayout.OFF_LOG_LATCH);
        assertEquals(320, LogLayout.OFF_LEADER);
        assertEquals(384, LogLayout.OFF_NEXT_LSN);
        assertEquals(392, LogLayout.OFF_BUFFER_START);
        assertEquals(400, LogLayout.OFF_FLUSHED_LSN);
        assertEquals(408, LogLayout.OFF_LOG_ID);
        assertEquals(416, LogLayout.OFF_FLUSH_EVENT);
        assertEquals(424, LogLayout.OFF_ACTIVE_TXNS);
        assertEquals(428, LogLayout.OFF_COMMITTERS);
        assertEquals(432, LogLayout.OFF_FILE_SIZE);
        assertEquals(440, LogLayout.OFF_BUFFER_SIZE);
        assertEquals(444, LogLayout.OFF_STATE);
        assertEquals(448, LogLayout.OFF_PREPARING);
        assertEquals(456, LogLayout.OFF_WRITTEN_LSN);
        assertEquals(464, LogLayout.OFF_ANCHOR_MIN_END);
        assertEquals(472, LogLayout.OFF_ENV_ID);
        assertEquals(480, LogLayout.OFF_ANCHOR_CREATED);
        assertEquals(488, LogLayout.OFF_REMOVED_BELOW);
        assertEquals(496, LogLayout.OFF_ALLOCATED);
        assertEquals(512, LogLayout.OFF_WRITE_LATCH);
        assertEquals(576, LogLayout.OFF_ALLOC_LATCH);
        assertEquals(640, LogLayout.OFF_FORCES_ALL);
        assertEquals(648, LogLayout.OFF_FORCE_NANOS);
        assertEquals(656, LogLayout.OFF_BOOT_ID);
        assertEquals(8, LogLayout.LAYOUT_VERSION);
        assertEquals(4096, LogLayout.OFF_BUFFER);
        assertEquals(4096 + 16 * 1024, SharedLog.spec(SharedLogTest.SMALL).size());
    }

    @Test
    void theRegionCarriesTheLayoutsFingerprint() {
        assertEquals(Fingerprint.ofConstants(LogLayout.class), LogLayout.FINGERPRINT);
        assertEquals(LogLayout.FINGERPRINT, SharedLog.spec(SharedLogTest.SMALL).layoutFingerprint());
        assertNotEquals(0, LogLayout.FINGERPRINT);
    }
}
