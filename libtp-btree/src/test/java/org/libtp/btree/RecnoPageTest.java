package org.libtp.btree;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The recno page formats: their offsets as data files hold them, and docs/formats.md naming the class. */
class RecnoPageTest {
    @Test
    void offsetsAreFrozen() throws Exception {
        assertEquals(32, RecnoPage.OFF_MAGIC);
        assertEquals(40, RecnoPage.OFF_VERSION);
        assertEquals(44, RecnoPage.OFF_LENGTH);
        assertEquals(48, RecnoPage.OFF_COUNT);
        assertEquals(32, RecnoPage.OFF_RECORDS);
        assertEquals(1, RecnoPage.VERSION);
        assertArrayEquals("LIBTPREC".getBytes(java.nio.charset.StandardCharsets.US_ASCII), RecnoPage.MAGIC);
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        assertTrue(doc.contains("## Recno pages — `org.libtp.btree.RecnoPage`"), "docs/formats.md names the layout class");
        for (String row : new String[] {"     32    8 magic \"LIBTPREC\"", "     44    4 recordLength L", "     48    8 count"}) {
            assertTrue(doc.contains(row), "docs/formats.md has the row: " + row);
        }
    }
}
