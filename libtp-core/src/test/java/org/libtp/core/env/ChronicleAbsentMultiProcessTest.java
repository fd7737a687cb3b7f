package org.libtp.core.env;

import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.libtp.core.memory.ChronicleMemory;
import org.libtp.core.memory.Memory;
import org.libtp.core.memory.MemoryFactory;
import org.libtp.core.memory.MemoryImpl;
import org.libtp.core.testkit.ChildJvm;

import java.io.File;
import java.lang.management.ManagementFactory;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Chronicle-Bytes is an optional dependency: a JVM whose class path lacks it (the test class path
 * minus every net.openhft jar) that asks for Chronicle memory gets the VarHandle implementation
 * and one INFO line, and no NoClassDefFoundError, with or without Chronicle's JVM flags (with
 * them, the class-path check is the only thing standing between LibTP and Chronicle's classes).
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class ChronicleAbsentMultiProcessTest {
    @TempDir
    Path dir;

    public static final class Child {
        public static void main(String[] args) {
            // The test is void if Chronicle is still reachable: say so and fail.
            for (String c : List.of("net.openhft.chronicle.bytes.PointerBytesStore",
                    "net.openhft.chronicle.core.Jvm")) {
                try {
                    Class.forName(c, false, Child.class.getClassLoader());
                    System.out.println("CHRONICLE PRESENT " + c);
                    System.exit(3);
                } catch (ClassNotFoundException expected) {
                    // as intended
                }
            }
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
            System.out.println("USABLE " + MemoryFactory.chronicleUsable());
            System.out.println("RESOLVED " + MemoryFactory.resolve(MemoryImpl.CHRONICLE));
            Memory m = MemoryFactory.wrap("direct", new ByteBuffer[] {ByteBuffer.allocateDirect(64)}, 6,
                    MemoryImpl.CHRONICLE);
            m.putLong(8, 7);
            System.out.println("WRAPPED " + m.getClass().getSimpleName() + " " + m.getLong(8));
            System.out.println("PROBE " + (ChronicleMemory.probe() != null ? "fails" : "works"));
            try {
                new ChronicleMemory("direct", new ByteBuffer[] {ByteBuffer.allocateDirect(64)}, 6);
                System.out.println("CONSTRUCTED");
            } catch (IllegalStateException e) {
                System.out.println("REFUSED " + e.getMessage());
            }
        }
    }

    /** The test class path without Chronicle-Bytes and its own dependencies (group net.openhft). */
    static String classPathWithoutChronicle() {
        String full = ChildJvm.classPath();
        String sep = File.separator;
        List<String> kept = Arrays.stream(full.split(File.pathSeparator))
                .filter(e -> !e.contains(sep + "net" + sep + "openhft" + sep)).toList();
        assertTrue(kept.size() < full.split(File.pathSeparator).length,
                "Chronicle-Bytes must be on the test class path to be removed from it: " + full);
        return String.join(File.pathSeparator, kept);
    }

    /** This JVM's --add-opens/--add-exports (surefire passes Chronicle's, libtp-core/pom.xml). */
    static List<String> chronicleFlags() {
        List<String> flags = ManagementFactory.getRuntimeMXBean().getInputArguments().stream()
                .filter(a -> a.startsWith("--add-opens") || a.startsWith("--add-exports"))
                .collect(Collectors.toList());
        assertTrue(MemoryFactory.chronicleUsable() && !flags.isEmpty(),
                "surefire must pass Chronicle's --add-opens (in the --add-opens=... form): " + flags);
        return flags;
    }

    @ParameterizedTest(name = "with Chronicle''s JVM flags: {0}")
    @ValueSource(booleans = {true, false})
    void fallsBackToVarHandleWithOneInfoLine(boolean withFlags) {
        List<String> jvmOptions = withFlags ? chronicleFlags() : List.of();
        try (RegionEnvironment env = RegionEnvironment.open(dir, TestRegion.config(0))) {
            TestRegion t = new TestRegion(env);
            try (ChildJvm child = ChildJvm.startWithClassPath(classPathWithoutChronicle(), Child.class,
                    jvmOptions, dir.toString())) {
                child.assertExitsCleanly(Duration.ofSeconds(60));
                List<String> out = child.output();
                String text = child.outputText();
                assertTrue(out.contains("MEMORY varhandle"), text);
                assertTrue(out.contains("USABLE false"), text);
                assertTrue(out.contains("RESOLVED VARHANDLE"), text);
                assertTrue(out.contains("WRAPPED MappedMemory 7"), text);
                assertTrue(out.contains("PROBE fails"), text);
                assertTrue(out.stream().anyMatch(l -> l.startsWith("REFUSED Chronicle-Bytes is not on the class path")),
                        text);
                List<String> info = out.stream().filter(l -> l.contains("Chronicle-Bytes memory is not usable")).toList();
                assertEquals(1, info.size(), text);
                assertTrue(info.get(0).contains("INFO") && info.get(0).contains("not on the class path"), text);
                assertFalse(text.contains("NoClassDefFoundError"), text);
            }
            assertEquals(1, t.region.memory().getLong(t.counterOffset(6)), "the child's write is visible here");
        }
    }
}
