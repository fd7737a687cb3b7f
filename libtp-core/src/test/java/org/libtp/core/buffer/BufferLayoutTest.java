package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.libtp.core.region.Fingerprint;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The buffer and buffer.cfg regions' offsets stay where docs/formats.md and running processes expect them. */
class BufferLayoutTest {
    @Test
    void poolRegionOffsets() {
        assertEquals(256, BufferLayout.OFF_REGISTRY_LATCH);
        assertEquals(320, BufferLayout.OFF_CLOCK);
        assertEquals(328, BufferLayout.OFF_PAGE_SIZE);
        assertEquals(332, BufferLayout.OFF_FRAMES);
        assertEquals(336, BufferLayout.OFF_BUCKETS);
        assertEquals(340, BufferLayout.OFF_PARTITIONS);
        assertEquals(344, BufferLayout.OFF_MAX_FILES);
        assertEquals(1024, BufferLayout.OFF_PINS);
        assertEquals(256, BufferLayout.FILE_ENTRY);
        assertEquals(8, BufferLayout.F_PAGES);
        assertEquals(16, BufferLayout.F_NEEDS_FORCE);
        assertEquals(28, BufferLayout.FR_NEXT);
        assertEquals(32, BufferLayout.FR_PAGE);
        assertEquals(56, BufferLayout.FR_DIRTY);
        assertEquals(60, BufferLayout.FR_REF);
        assertEquals(64, BufferLayout.FR_VALID);
        assertEquals(68, BufferLayout.FR_SEQ);
        assertEquals(6, BufferLayout.LAYOUT_VERSION);
        assertEquals(0, BufferLayout.PIN_UNATTRIBUTED);
        assertEquals(64, BufferLayout.PIN_ENTRY0);
        assertEquals(512, BufferLayout.PIN_ENTRIES);
        assertEquals(4160, BufferLayout.PIN_STRIDE);
    }

    @Test
    void settingsRegionOffsets() {
        assertEquals(512, BufferLayout.CFG_SIZE);
        assertEquals(256, BufferLayout.CFG_LATCH);
        assertEquals(320, BufferLayout.CFG_STATE);
        assertEquals(324, BufferLayout.CFG_PAGE_SIZE);
        assertEquals(328, BufferLayout.CFG_MAX_FILES);
        assertEquals(332, BufferLayout.CFG_PARTITIONS);
        assertEquals(336, BufferLayout.CFG_POOL_BYTES);
        assertEquals(344, BufferLayout.CFG_TORN_WRITE_PROTECTION);
        assertEquals(3, BufferLayout.CFG_VERSION);
    }

    @Test
    void theRegionCarriesTheLayoutsFingerprint() {
        assertEquals(Fingerprint.ofConstants(BufferLayout.class), BufferLayout.FINGERPRINT);
        assertNotEquals(0, BufferLayout.FINGERPRINT);
        assertEquals(BufferLayout.FINGERPRINT,
                BufferLayout.Layout.of(BufferConfig.defaults(), 64).spec().layoutFingerprint());
    }
}
