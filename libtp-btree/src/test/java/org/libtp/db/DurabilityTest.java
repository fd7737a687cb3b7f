package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;

/** The record API's own Durability: each value reaches the log manager and comes back. */
class DurabilityTest {
    @TempDir
    Path dir;

    @Test
    void eachDurabilityIsMappedToTheLogManagersAndBack() {
        for (Durability d : Durability.values()) {
            assertEquals(d.name(), d.core().name());
            assertEquals(d, Durability.of(d.core()));
        }
        EnvironmentConfig cfg = EnvironmentConfig.builder().durability(Durability.WRITE_NO_SYNC).build();
        try (Environment env = Environment.open(dir, cfg)) {
            try (Transaction t = env.beginTransaction()) {
                assertEquals(Durability.WRITE_NO_SYNC, t.durability(), "the environment's default");
            }
            for (Durability d : Durability.values()) {
                try (Transaction t = env.beginTransaction(d, false)) {
                    assertEquals(d, t.durability());
                    assertEquals(d.core(), t.txn.durability(), "the core transaction commits with it");
                }
            }
        }
    }
}
