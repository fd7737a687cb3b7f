package org.libtp.core.env;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

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
        assertEquals(784, EnvLayout.OFF_HOME_LENGTH);
        assertEquals(1024, EnvLayout.OFF_HOME);
        assertEquals(4096, EnvLayout.HOME_CAPACITY);
        assertEquals(5120, EnvLayout.OFF_DIRECTORY);
        assertEquals(128, EnvLayout.DIR_ENTRY_SIZE);
        assertEquals(76, EnvLayout.DIR_REPAIRABLE);
        assertEquals(788, EnvLayout.OFF_LISTENER_KINDS);
        assertEquals(EnvLayout.DIR_ENTRY_SIZE,
                EnvLayout.DIR_LATCH_ARRAYS + EnvLayout.DIR_MAX_LATCH_ARRAYS * EnvLayout.DIR_LATCH_ARRAY_SIZE);
        assertEquals(56, EnvLayout.DIR_NAME + EnvLayout.DIR_NAME_CAPACITY);
        assertEquals(64, EnvLayout.SLOT_SIZE);
        assertEquals(8, EnvLayout.SLOT_PID);
        assertEquals(16, EnvLayout.SLOT_START);
        assertEquals(24, EnvLayout.SLOT_GENERATION);
        assertEquals(32, EnvLayout.SLOT_ATTACH);
        assertEquals(40, EnvLayout.SLOT_DEAD_GENERATION);
        assertEquals(5120 + 128 * 32, EnvLayout.slotOffset(32, 0));
        assertEquals(5120 + 128 * 32 + 64 * 64, EnvLayout.regionSize(32, 64));
    }

    @Test
    void environmentRegionTableIsDocumented() throws Exception {
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : new String[] {"784           4              homeLength", "1024          4096           home",
                "5120          128 * R        region directory", "5120 + 128R   64 * P         process registry",
                "40   8  dead generation"}) {
            assertTrue(doc.contains(line), "docs/formats.md lacks: " + line);
        }
    }

    @Test
    void regionLocationOffsets() throws Exception {
        assertEquals(0, RegionLocation.OFF_MAGIC);
        assertEquals(8, RegionLocation.OFF_VERSION);
        assertEquals(12, RegionLocation.OFF_STATE);
        assertEquals(16, RegionLocation.OFF_PLACEMENT);
        assertEquals(20, RegionLocation.OFF_PATH_LENGTH);
        assertEquals(24, RegionLocation.OFF_INCARNATION);
        assertEquals(32, RegionLocation.OFF_WRITTEN);
        assertEquals(60, RegionLocation.OFF_CRC);
        assertEquals(64, RegionLocation.OFF_PATH);
        assertEquals(4096, RegionLocation.MAX_SIZE);
        assertEquals(1, RegionLocation.VERSION);
        assertEquals("LIBTPLCK", RegionLocation.MAGIC);
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : new String[] {"\"LIBTPLCK\"", "12    4 state", "16    4 placement", "20    4 pathLength",
                "24    8 incarnation", "32    8 written", "60    4 crc          CRC32C of bytes [0, 60) and of the path",
                "64    n path"}) {
            assertTrue(doc.contains(line), "docs/formats.md lacks: " + line);
        }
    }

    @Test
    void regionLocationRoundTripsAndIgnoresDamage() {
        RegionLocation a = new RegionLocation(true, RegionPlacement.SHM, 0x1234, 99, Path.of("/dev/shm/libtp-x"));
        byte[] b = a.encode().array();
        byte[] padded = java.util.Arrays.copyOf(b, RegionLocation.MAX_SIZE);
        assertEquals(a, RegionLocation.decode("f", padded, b.length));
        assertEquals(false, a.closed().open());
        for (int i = 0; i < b.length; i++) {
            byte[] c = padded.clone();
            c[i] ^= 0x10;
            assertNull(RegionLocation.decode("f", c, b.length), "flip at " + i);
        }
        assertNull(RegionLocation.decode("f", new byte[RegionLocation.MAX_SIZE], 0), "an empty lock file");
    }
}
