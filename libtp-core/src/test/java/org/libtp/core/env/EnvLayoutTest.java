package org.libtp.core.env;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The environment region's offset table (see {@link EnvLayout}), asserted. */
class EnvLayoutTest {
    @Test
    void offsets() {
        assertEquals(256, EnvLayout.OFF_MAX_PROCESSES);
        assertEquals(260, EnvLayout.OFF_MAX_REGIONS);
        assertEquals(264, EnvLayout.OFF_FAIL_LOCK);
        assertEquals(268, EnvLayout.OFF_FAIL_LENGTH);
        assertEquals(272, EnvLayout.OFF_FAIL_REASON);
        assertEquals(784, EnvLayout.OFF_FAIL_REASON + EnvLayout.FAIL_REASON_CAPACITY);
        assertEquals(1024, EnvLayout.OFF_DIRECTORY);
        assertEquals(128, EnvLayout.DIR_ENTRY_SIZE);
        assertEquals(EnvLayout.DIR_ENTRY_SIZE,
                EnvLayout.DIR_LATCH_ARRAYS + EnvLayout.DIR_MAX_LATCH_ARRAYS * EnvLayout.DIR_LATCH_ARRAY_SIZE);
        assertEquals(56, EnvLayout.DIR_NAME + EnvLayout.DIR_NAME_CAPACITY);
        assertEquals(64, EnvLayout.SLOT_SIZE);
        assertEquals(8, EnvLayout.SLOT_PID);
        assertEquals(16, EnvLayout.SLOT_START);
        assertEquals(24, EnvLayout.SLOT_GENERATION);
        assertEquals(32, EnvLayout.SLOT_ATTACH);
        assertEquals(1024 + 128 * 32, EnvLayout.slotOffset(32, 0));
        assertEquals(1024 + 128 * 32 + 64 * 64, EnvLayout.regionSize(32, 64));
    }
}
