package org.libtp.core.memory;

import org.junit.jupiter.api.Test;

import java.io.IOException;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;

/** The {@link Memory} contract for {@link MappedMemory} (ByteBuffer + VarHandle). */
class MappedMemoryConformanceTest extends MemoryConformanceTest {
    @Override
    Memory newMemory(String name, long size, int chunkShift) throws IOException {
        return assertInstanceOf(MappedMemory.class, map(MemoryImpl.VARHANDLE, name, size, chunkShift));
    }

    @Test
    void varHandleIsWhatAutoMeans() {
        // docs/benchmarks.md picked the VarHandle implementation as the default.
        assertEquals(MemoryImpl.VARHANDLE, MemoryFactory.resolve(MemoryImpl.AUTO));
    }
}
