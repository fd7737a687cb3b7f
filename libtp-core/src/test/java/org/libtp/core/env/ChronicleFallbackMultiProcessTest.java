package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.memory.MemoryFactory;
import org.libtp.core.memory.MemoryImpl;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A JVM without Chronicle's --add-opens that asks for Chronicle memory falls back to VarHandle
 * with one INFO line, and shares the environment with a JVM that does use Chronicle.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class ChronicleFallbackMultiProcessTest {
    @TempDir
    Path dir;

    public static final class Child {
        public static void main(String[] args) {
            RegionEnvironmentConfig c = TestRegion.config(0).toBuilder().memory(MemoryImpl.CHRONICLE).build();
            try (RegionEnvironment env = RegionEnvironment.open(Path.of(args[0]), c)) {
                TestRegion t = new TestRegion(env);
                // Second open in this JVM: the fallback is logged once per JVM, not per open.
                try (RegionEnvironment again = RegionEnvironment.open(Path.of(args[0]), c)) {
                    again.processSlot();
                }
                t.latch(6).acquire();
                t.region.memory().getAndAddLong(t.counterOffset(6), 1);
                t.latch(6).release();
                System.out.println("MEMORY " + env.memoryImplementation());
            }
        }
    }

    @Test
    void fallsBackWithOneInfoLineWhenFlagsAreMissing() {
        RegionEnvironmentConfig c = TestRegion.config(0).toBuilder().memory(MemoryImpl.CHRONICLE).build();
        try (RegionEnvironment env = RegionEnvironment.open(dir, c)) {
            TestRegion t = new TestRegion(env);
            // Surefire runs this JVM with Chronicle's flags (libtp-core/pom.xml).
            assertTrue(MemoryFactory.chronicleUsable(), "surefire must pass Chronicle's --add-opens");
            assertEquals("chronicle", env.memoryImplementation());
            try (ChildJvm child = ChildJvm.start(Child.class, dir.toString())) {
                child.assertExitsCleanly(Duration.ofSeconds(60));
                assertTrue(child.output().contains("MEMORY varhandle"), child.outputText());
                List<String> info = child.output().stream()
                        .filter(l -> l.contains("Chronicle-Bytes memory is not usable")).toList();
                assertEquals(1, info.size(), child.outputText());
                assertTrue(info.get(0).contains("INFO"), child.outputText());
            }
            assertEquals(1, t.region.memory().getLong(t.counterOffset(6)), "the child's write is visible here");
        }
    }
}
