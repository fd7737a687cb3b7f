package org.libtp.db;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

class OpenSettingsLayoutTest {
    @Test
    void offsetsMatchTheFormatsDocument() throws Exception {
        assertEquals(256, OpenSettings.OFF_STATE);
        assertEquals(260, OpenSettings.OFF_LENGTH);
        assertEquals(264, OpenSettings.OFF_TEXT);
        assertEquals(4096, OpenSettings.SIZE);
        assertEquals(1, OpenSettings.LAYOUT_VERSION);
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : new String[] {"`org.libtp.db.OpenSettings` (region `db`, layout version 1)",
                "256    4  state (0 new, 1 being written by its creator, 2 ready)", "260    4  length of the settings text",
                "264 3832  UTF-8 \"name=value\" lines"}) {
            assertTrue(doc.contains(line), "docs/formats.md lacks: " + line);
        }
        // Every setting that sizes a shared structure is compared.
        assertEquals(java.util.List.of("mode", "pageSize", "cacheBytes", "maxTransactions", "maxFiles", "logFileSize",
                "logBufferSize", "maxLocks", "maxLockObjects", "tornWriteProtection"),
                java.util.List.copyOf(OpenSettings.of(EnvironmentConfig.defaults()).keySet()));
    }
}
