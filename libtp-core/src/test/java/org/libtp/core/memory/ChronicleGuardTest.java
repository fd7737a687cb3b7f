package org.libtp.core.memory;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The class-path guard in front of {@link ChronicleMemory}, in this JVM (which has Chronicle and
 * its flags). The JVM without Chronicle is {@code ChronicleAbsentMultiProcessTest}.
 */
class ChronicleGuardTest {
    @Test
    void chronicleIsFoundOnTheTestClassPath() {
        assertTrue(MemoryFactory.onClassPath(MemoryFactory.CHRONICLE_CLASS));
        assertNull(MemoryFactory.chronicleProblem(MemoryFactory.CHRONICLE_CLASS));
    }

    @Test
    void aMissingClassIsReportedBeforeAnythingIsLoaded() {
        String missing = "net.openhft.chronicle.bytes.NoSuchClassForLibTPTests";
        assertFalse(MemoryFactory.onClassPath(missing));
        String problem = MemoryFactory.chronicleProblem(missing);
        assertTrue(problem != null && problem.startsWith("Chronicle-Bytes is not on the class path")
                && problem.contains(missing), problem);
    }
}
