package org.libtp.core.env;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.ConfigMismatchException;
import org.libtp.core.testkit.ChildJvm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Processes of one environment share the regions wherever the first placed them: a second JVM
 * attaches to the same shared-memory directory (and sees the first's writes); a JVM that asks
 * explicitly for another placement gets a {@link ConfigMismatchException} naming both; the last
 * clean close, in whichever JVM, removes the directory.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class RegionPlacementMultiProcessTest {
    @TempDir
    Path dir;

    /** Child: opens with the placement in args[1], writes args[2] into counter 0, waits for args[3], closes. */
    public static final class Holder {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            RegionEnvironmentConfig cfg = TestRegion.config(0).toBuilder()
                    .regionPlacement(RegionPlacement.valueOf(args[1])).build();
            Path done = Path.of(args[3]);
            try (RegionEnvironment env = RegionEnvironment.open(home, cfg)) {
                TestRegion t = new TestRegion(env);
                t.region.memory().putLongVolatile(t.counterOffset(0), Long.parseLong(args[2]));
                System.out.println("OPEN " + env.regionPlacement() + " " + env.regionDirectory() + " "
                        + env.incarnation());
                while (!Files.exists(done)) {
                    Thread.sleep(10);
                }
            } catch (ConfigMismatchException e) {
                System.out.println("MISMATCH " + e.getMessage());
                return;
            }
            System.out.println("CLOSED");
        }
    }

    @Test
    void twoJvmsShareTheShmRegionsAndAnotherPlacementIsRefused() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        Path done = dir.resolve("done");
        try (ChildJvm first = ChildJvm.start(Holder.class, home.toString(), "AUTO", "4242", done.toString())) {
            String line = first.awaitLine("OPEN", Duration.ofSeconds(60));
            String[] f = line.split(" ");
            RegionPlacement placement = RegionPlacement.valueOf(f[1]);
            Path regions = Path.of(f[2]);
            long incarnation = Long.parseLong(f[3]);
            RegionEnvironmentConfig auto = TestRegion.config(0).toBuilder().regionPlacement(RegionPlacement.AUTO).build();
            RegionPlacement other = placement == RegionPlacement.SHM ? RegionPlacement.ENV_DIR : RegionPlacement.SHM;
            try (RegionEnvironment env = RegionEnvironment.open(home, auto)) {
                assertEquals(regions, env.regionDirectory(), "the second JVM attaches where the first placed them");
                assertEquals(placement, env.regionPlacement());
                assertEquals(incarnation, env.incarnation());
                assertFalse(env.createdRegions());
                TestRegion t = new TestRegion(env);
                assertEquals(4242, t.region.memory().getLongVolatile(t.counterOffset(0)), "one shared memory");
                // Another handle of this JVM asking for the other placement is refused too.
                ConfigMismatchException mine = assertThrows(ConfigMismatchException.class,
                        () -> RegionEnvironment.open(home, auto.toBuilder().regionPlacement(other).build()));
                assertTrue(mine.getMessage().contains(regions.toString()), mine.getMessage());
            }
            try (ChildJvm third = ChildJvm.start(Holder.class, home.toString(), other.name(), "1", done.toString())) {
                String m = third.awaitLine("MISMATCH", Duration.ofSeconds(60));
                assertTrue(m.contains(regions.toString()) && m.contains("RegionPlacement"), m);
                third.assertExitsCleanly(Duration.ofSeconds(60));
            }
            Files.createFile(done);
            first.awaitLine("CLOSED", Duration.ofSeconds(60));
            first.assertExitsCleanly(Duration.ofSeconds(60));
            if (placement == RegionPlacement.SHM) {
                assertFalse(Files.exists(regions), "the last clean close removed the region directory");
            } else {
                assertEquals(List.of("__libtp.lock"), RegionPlacementTest.names(home));
            }
        }
    }
}
