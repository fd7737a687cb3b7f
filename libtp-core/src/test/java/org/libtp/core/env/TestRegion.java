package org.libtp.core.env;

import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;

import java.nio.file.Path;

/** A region layout the substrate tests and their child JVMs share. */
final class TestRegion {
    static final long LATCHES = 256;     // 16 latches, 64 bytes apart
    static final int LATCH_STRIDE = 64;
    static final long COUNTERS = 4096;   // 8-byte counters
    static final long SEMAPHORES = 8192; // 8-byte semaphores, 64 apart
    static final RegionSpec SPEC = new RegionSpec("test", 64 * 1024, 1, new LatchArray(LATCHES, LATCH_STRIDE, 16));

    final RegionEnvironment env;
    final Region region;

    TestRegion(RegionEnvironment env) {
        this.env = env;
        this.region = env.region(SPEC);
    }

    static TestRegion open(Path dir, RegionEnvironmentConfig config) {
        return new TestRegion(RegionEnvironment.open(dir, config));
    }

    Latch latch(int i) {
        return env.latch(region, LATCHES + (long) LATCH_STRIDE * i, "test latch " + i);
    }

    SharedSemaphore semaphore(int i) {
        return env.semaphore(region, SEMAPHORES + 64L * i, "test semaphore " + i);
    }

    long counterOffset(int i) {
        return COUNTERS + 8L * i;
    }

    /** A test-only config: quick liveness checks, background failCheck as given. */
    static RegionEnvironmentConfig config(long failCheckMillis) {
        return RegionEnvironmentConfig.builder().latchCheckMillis(50).failCheckMillis(failCheckMillis).build();
    }
}
