package org.libtp.core.region;

import org.junit.jupiter.api.Test;
import org.libtp.core.sync.LatchLayout;
import org.libtp.core.sync.SemaphoreLayout;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** The offset tables in the codec comments, asserted: changing a layout must change this test. */
class LayoutTest {
    @Test
    void regionHeaderOffsets() {
        assertEquals(0, RegionHeader.OFF_MAGIC);
        assertEquals(8, RegionHeader.OFF_VERSION);
        assertEquals(12, RegionHeader.OFF_HEADER_SIZE);
        assertEquals(16, RegionHeader.OFF_FINGERPRINT);
        assertEquals(24, RegionHeader.OFF_REGION_SIZE);
        assertEquals(32, RegionHeader.OFF_KIND);
        assertEquals(36, RegionHeader.OFF_STATE);
        assertEquals(40, RegionHeader.OFF_FLAGS);
        assertEquals(44, RegionHeader.OFF_CONFIG_LENGTH);
        assertEquals(48, RegionHeader.OFF_CREATED);
        assertEquals(56, RegionHeader.OFF_ENV_GENERATION);
        assertEquals(64, RegionHeader.OFF_CONFIG);
        assertEquals(256, RegionHeader.OFF_CONFIG + RegionHeader.CONFIG_CAPACITY);
        assertEquals(256, RegionHeader.SIZE);
        assertEquals(1, RegionHeader.VERSION);
        assertEquals("LIBTPRGN", RegionHeader.magicText(RegionHeader.magic()).substring(0, 8));
        // Flags used by CAS must be aligned.
        assertEquals(0, RegionHeader.OFF_FLAGS % 4);
        assertEquals(0, RegionHeader.OFF_STATE % 4);
    }

    @Test
    void latchAndSemaphoreLayouts() {
        assertEquals(0, LatchLayout.WORD);
        assertEquals(4, LatchLayout.RESERVED);
        assertEquals(8, LatchLayout.THREAD);
        assertEquals(16, LatchLayout.SIZE);
        assertEquals(1, LatchLayout.CONTENDED);
        assertEquals(5, LatchLayout.ownerOf((5 << 1) | LatchLayout.CONTENDED));
        assertEquals(0, SemaphoreLayout.PERMITS);
        assertEquals(4, SemaphoreLayout.WAITERS);
        assertEquals(8, SemaphoreLayout.SIZE);
    }

    @Test
    void fingerprintSeesEveryChange() {
        long a = new Fingerprint().add("slot", 64).value();
        assertEquals(a, new Fingerprint().add("slot", 64).value());
        assertNotEquals(a, new Fingerprint().add("slot", 65).value());
        assertNotEquals(a, new Fingerprint().add("slots", 64).value());
    }

    @Test
    void latchArrayGeometry() {
        LatchArray l = new LatchArray(256, 64, 4);
        assertEquals(256 + 3 * 64 + LatchLayout.SIZE, l.end());
        assertEquals(true, l.contains(256 + 128));
        assertEquals(false, l.contains(256 + 130));
        assertEquals(false, l.contains(256 + 256));
    }
}
