package org.libtp.core.memory;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@link Memory} contract for {@link ChronicleMemory}. Surefire runs this JVM with
 * Chronicle's flags ({@code libtp.test.argLine} in libtp-core/pom.xml); if Chronicle is not
 * usable here every test fails rather than silently testing the VarHandle fallback.
 */
class ChronicleMemoryConformanceTest extends MemoryConformanceTest {
    @Override
    Memory newMemory(String name, long size, int chunkShift) throws IOException {
        assertTrue(MemoryFactory.chronicleUsable(), "Chronicle-Bytes must be usable in the test JVM: run it "
                + "with the flags in libtp-core/pom.xml (libtp.chronicle.flags); MemoryFactory logged why not");
        return assertInstanceOf(ChronicleMemory.class, map(MemoryImpl.CHRONICLE, name, size, chunkShift));
    }

    @Test
    void chronicleIsUsableAndChosen() {
        assertNull(ChronicleMemory.probe());
        assertTrue(MemoryFactory.chronicleUsable());
        assertEquals(MemoryImpl.CHRONICLE, MemoryFactory.resolve(MemoryImpl.CHRONICLE));
    }
}
