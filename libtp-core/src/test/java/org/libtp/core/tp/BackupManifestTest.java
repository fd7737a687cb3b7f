package org.libtp.core.tp;

import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.log.Lsn;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class BackupManifestTest {
    @Test
    void roundTripAndTheDocumentedKeys() throws Exception {
        BackupManifest m = new BackupManifest(BackupManifest.COMPLETE, -5L, 0x1234L, Lsn.of(3, 64), Lsn.of(7, 4096),
                8192, 1000, 2000, 2, "/srv/env");
        String text = m.encode();
        assertEquals(m, BackupManifest.decode("x", text));
        assertTrue(text.startsWith("libtp-backup 1\n"));
        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        for (String line : text.split("\n")) {
            String key = line.contains("=") ? line.substring(0, line.indexOf('=')) : line;
            assertTrue(doc.contains(key), "docs/formats.md lacks the manifest's " + key);
        }
        assertTrue(doc.contains("`__libtp.backup`, `org.libtp.core.tp.BackupManifest`"));
    }

    @Test
    void damageIsTyped() {
        assertThrows(CorruptionException.class, () -> BackupManifest.decode("x", "hello\n"));
        assertThrows(VersionMismatchException.class, () -> BackupManifest.decode("x", "libtp-backup 2\n"));
        assertThrows(CorruptionException.class, () -> BackupManifest.decode("x", "libtp-backup 1\nstate=complete\n"));
        assertThrows(CorruptionException.class, () -> BackupManifest.decode("x", "libtp-backup 1\nstate=odd\nenvId=1\n"
                + "logId=1\nfromLsn=(1,64)\nendLsn=(1,64)\npageSize=4096\nstarted=1\nupdated=1\nincrementals=0\n"));
        assertThrows(CorruptionException.class, () -> BackupManifest.decode("x", "libtp-backup 1\nstate=complete\n"
                + "envId=zz\nlogId=1\nfromLsn=(1,64)\nendLsn=(1,64)\npageSize=4096\nstarted=1\nupdated=1\nincrementals=0\n"));
    }

    @Test
    void lsnParsesWhatItPrints() {
        for (long l : new long[] {Lsn.NULL, Lsn.of(1, 64), Lsn.of(Integer.MAX_VALUE, 0xFFFF_FFFFL)}) {
            assertEquals(l, Lsn.parse(Lsn.toString(l)));
        }
        assertEquals(Lsn.of(3, 4096), Lsn.parse(" 3, 4096 "));
        assertThrows(IllegalArgumentException.class, () -> Lsn.parse("3"));
        assertThrows(IllegalArgumentException.class, () -> Lsn.parse("(99999999999,1)"));
    }
}
