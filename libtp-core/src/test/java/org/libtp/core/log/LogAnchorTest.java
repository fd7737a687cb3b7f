package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogAnchorTest {
    @Test
    void offsetsMatchTheFormatsDocument() throws Exception {
        assertEquals(0, LogAnchor.OFF_MAGIC);
        assertEquals(8, LogAnchor.OFF_VERSION);
        assertEquals(12, LogAnchor.OFF_SIZE);
        assertEquals(16, LogAnchor.OFF_ENV_ID);
        assertEquals(24, LogAnchor.OFF_LOG_ID);
        assertEquals(32, LogAnchor.OFF_MIN_END);
        assertEquals(40, LogAnchor.OFF_CREATED);
        assertEquals(48, LogAnchor.OFF_CHECKPOINT);
        assertEquals(60, LogAnchor.OFF_CRC);
        assertEquals(64, LogAnchor.SIZE);
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : new String[] {"16    8 envId", "24    8 logId", "32    8 minEndLsn", "40    8 created", "48    8 checkpoint",
                "60    4 crc         CRC32C of bytes [0, 60)", "\"LIBTPANC\""}) {
            assertTrue(doc.contains(line), "docs/formats.md lacks: " + line);
        }
    }

    @Test
    void roundTripsAndRefusesDamage() {
        LogAnchor a = new LogAnchor(1, 2, Lsn.of(3, 4096), 5, Lsn.of(3, 2048));
        byte[] b = a.encode().array();
        assertEquals(a, LogAnchor.decode("x", b));
        assertEquals(Lsn.of(3, 4096), a.withMinEnd(Lsn.of(1, 64)).minEndLsn());
        assertEquals(0, a.withMinEnd(Lsn.of(4, 64)).checkpointLsn(), "a copy's anchor names no checkpoint");
        assertEquals(0, new LogAnchor(1, 2, 0, 5).checkpointLsn());
        for (int i = 0; i < LogAnchor.SIZE; i++) {
            byte[] c = b.clone();
            c[i] ^= 0x10;
            int at = i;
            assertThrows(CorruptionException.class, () -> LogAnchor.decode("x", c), "flip at " + at);
        }
        assertThrows(CorruptionException.class, () -> LogAnchor.decode("x", new byte[10]));
    }
}
