package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CapacityExceededException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Race-free creation and attach of one environment by many JVMs at once. */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class EnvironmentOpenMultiProcessTest {
    @TempDir
    Path dir;

    /** Child: waits for the go file, opens, reports, waits for the done file, closes. */
    public static final class OpenChild {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            Path go = Path.of(args[1]);
            Path done = Path.of(args[2]);
            System.out.println("STARTED");
            while (!Files.exists(go)) {
                Thread.onSpinWait();
            }
            try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(0))) {
                TestRegion t = new TestRegion(env); // also races region creation
                System.out.println("OPENED created=" + env.createdRegions() + " incarnation="
                        + env.incarnation() + " slot=" + env.processSlot() + " region="
                        + t.region.envGeneration());
                while (!Files.exists(done)) {
                    Thread.sleep(10);
                }
            }
            System.out.println("CLOSED");
        }
    }

    @Test
    void eightJvmsOpenANewEnvironmentAtOnce() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path go = dir.resolve("go");
        Path done = dir.resolve("done");
        List<ChildJvm> children = ChildJvm.startAll(8, OpenChild.class,
                i -> new String[] {home.toString(), go.toString(), done.toString()});
        try {
            for (ChildJvm c : children) {
                c.awaitLine("STARTED", Duration.ofSeconds(60));
            }
            Files.createFile(go);
            int creators = 0;
            Set<String> incarnations = new HashSet<>();
            Set<String> slots = new HashSet<>();
            for (ChildJvm c : children) {
                String line = c.awaitLine("OPENED", Duration.ofSeconds(60));
                if (line.contains("created=true")) {
                    creators++;
                }
                String inc = line.replaceAll(".*incarnation=(-?\\d+).*", "$1");
                incarnations.add(inc);
                assertTrue(line.endsWith("region=" + inc), "region of another incarnation: " + line);
                slots.add(line.replaceAll(".*slot=(\\d+).*", "$1"));
            }
            assertEquals(1, creators, "regions must be created exactly once");
            assertEquals(1, incarnations.size(), "all must attach to one incarnation: " + incarnations);
            assertEquals(8, slots.size(), "each process its own slot: " + slots);
            Files.createFile(done);
            for (ChildJvm c : children) {
                c.assertExitsCleanly(Duration.ofSeconds(60));
            }
        } finally {
            ChildJvm.closeAll(children);
        }
        // Everyone closed cleanly: the next open rebuilds the regions and finds nothing unclean.
        try (RegionEnvironment env = RegionEnvironment.open(home, TestRegion.config(0))) {
            assertTrue(env.createdRegions());
            assertFalse(env.wasUnclean());
        }
    }

    /** Child: opens and holds the environment until killed. */
    public static final class HoldChild {
        public static void main(String[] args) throws Exception {
            try (RegionEnvironment env = RegionEnvironment.open(Path.of(args[0]), TestRegion.config(0))) {
                System.out.println("OPENED slot=" + env.processSlot());
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @Test
    void fullProcessTableIsAClearError() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        RegionEnvironmentConfig one = RegionEnvironmentConfig.builder().maxProcesses(1).failCheckMillis(0).build();
        try (RegionEnvironment env = RegionEnvironment.open(home, one)) {
            try (ChildJvm second = ChildJvm.start(HoldChild.class, home.toString())) {
                assertEquals(1, second.waitFor(Duration.ofSeconds(60)), second.outputText());
                String out = second.outputText();
                assertTrue(out.contains(CapacityExceededException.class.getName()), out);
                assertTrue(out.contains("maxProcesses"), out);
            }
            // A second handle in the same JVM shares the process's slot: no capacity needed.
            try (RegionEnvironment again = RegionEnvironment.open(home, one)) {
                assertEquals(env.processSlot(), again.processSlot());
            }
        }
    }
}
