package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class DataFileHeaderTest {
    @Test
    void offsetsMatchTheFormatsDocument() throws Exception {
        assertEquals(8, DataFileHeader.OFF_VERSION);
        assertEquals(12, DataFileHeader.OFF_PAGE_SIZE);
        assertEquals(16, DataFileHeader.OFF_ENV_ID);
        assertEquals(24, DataFileHeader.OFF_FILE_ID);
        assertEquals(28, DataFileHeader.OFF_NAME_LENGTH);
        assertEquals(32, DataFileHeader.OFF_CREATED);
        assertEquals(40, DataFileHeader.OFF_NAME);
        assertEquals(224, DataFileHeader.MAX_NAME);
        assertEquals(508, DataFileHeader.OFF_CRC);
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : new String[] {"\"LIBTPDAT\"", "12    4 pageSize", "16    8 envId", "24    4 fileId",
                "40  224 name", "508    4 crc         CRC32C of bytes [0, 508)"}) {
            assertTrue(doc.contains(line), "docs/formats.md lacks: " + line);
        }
    }

    @Test
    void roundTripsAndRefusesDamage() {
        DataFileHeader h = new DataFileHeader(4096, 77, 3, "accounts.db", 123);
        byte[] b = h.encode().array();
        assertEquals(4096, b.length);
        assertEquals(h, DataFileHeader.decode("x", b));
        for (int i = 0; i < DataFileHeader.SIZE; i += 7) {
            byte[] c = b.clone();
            c[i] ^= 1;
            int at = i;
            assertThrows(CorruptionException.class, () -> DataFileHeader.decode("x", c), "flip at " + at);
        }
        assertThrows(CorruptionException.class, () -> DataFileHeader.decode("x", new byte[100]));
    }
}
