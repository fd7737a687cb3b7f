package org.libtp.core.env;

import org.libtp.core.memory.MemoryImpl;

import java.nio.file.Path;

/**
 * How to open an environment. Immutable; build with {@link #builder()}, validated at build.
 *
 * <p>{@code maxProcesses} and {@code maxRegions} size shared tables and are fixed when the
 * environment's regions are created: a process that attaches to a running environment uses the
 * creator's values (and logs it when its own differ). So is where the regions live
 * ({@code regionPlacement}, {@code shmDirectory}): a process that attaches follows the creator's
 * choice if its own is {@link RegionPlacement#AUTO}, and gets a
 * {@link org.libtp.core.ConfigMismatchException} if it asked for another explicitly. The others
 * are per process.
 *
 * @param maxProcesses      process slots in the registry (1..4096; default 64)
 * @param maxRegions        entries in the region directory (4..1024; default 32)
 * @param memory            how regions are mapped (default {@link MemoryImpl#AUTO})
 * @param latchCheckMillis  how often a thread waiting on a latch or semaphore wakes to check the
 *                          failed flag and the latch owner's liveness (10..10000; default 100)
 * @param failCheckMillis   period of the background thread that runs {@code failCheck()};
 *                          0 turns it off (0 or 10..600000; default 250)
 * @param pollingFutex      use the portable spin+park wait instead of the futex system call
 *                          (default false; true is for testing the fallback)
 * @param regionPlacement   where the shared regions live (default {@link RegionPlacement#AUTO}:
 *                          shared memory where usable, else the environment directory; or the
 *                          system property {@value #PLACEMENT_PROPERTY}). Decided by the process
 *                          that creates the regions; see {@link RegionPlacement}
 * @param shmDirectory      the tmpfs under which {@link RegionPlacement#SHM} makes each
 *                          environment's region directory (default {@code /dev/shm}, or the
 *                          system property {@value #SHM_DIRECTORY_PROPERTY})
 */
public record RegionEnvironmentConfig(int maxProcesses, int maxRegions, MemoryImpl memory,
                                long latchCheckMillis, long failCheckMillis, boolean pollingFutex,
                                RegionPlacement regionPlacement, Path shmDirectory) {

    /** System property giving the default {@link #regionPlacement()}: auto, shm or env_dir. */
    public static final String PLACEMENT_PROPERTY = "libtp.regions";
    /** System property giving the default {@link #shmDirectory()}. */
    public static final String SHM_DIRECTORY_PROPERTY = "libtp.shmDirectory";
    /** The default {@link #shmDirectory()}. */
    public static final Path DEFAULT_SHM_DIRECTORY = Path.of("/dev/shm");

    public RegionEnvironmentConfig {
        if (maxProcesses < 1 || maxProcesses > 4096) {
            throw new IllegalArgumentException("maxProcesses " + maxProcesses + " not in [1, 4096]");
        }
        if (maxRegions < 4 || maxRegions > 1024) {
            throw new IllegalArgumentException("maxRegions " + maxRegions + " not in [4, 1024]");
        }
        if (memory == null) {
            throw new IllegalArgumentException("memory must not be null");
        }
        if (latchCheckMillis < 10 || latchCheckMillis > 10_000) {
            throw new IllegalArgumentException("latchCheckMillis " + latchCheckMillis + " not in [10, 10000]");
        }
        if (failCheckMillis != 0 && (failCheckMillis < 10 || failCheckMillis > 600_000)) {
            throw new IllegalArgumentException("failCheckMillis " + failCheckMillis
                    + " must be 0 (off) or in [10, 600000]");
        }
        if (regionPlacement == null) {
            throw new IllegalArgumentException("regionPlacement must not be null");
        }
        if (shmDirectory == null || !shmDirectory.isAbsolute()) {
            throw new IllegalArgumentException("shmDirectory " + shmDirectory + " must be an absolute path");
        }
    }

    public static RegionEnvironmentConfig defaults() {
        return builder().build();
    }

    public static Builder builder() {
        return new Builder();
    }

    public Builder toBuilder() {
        return new Builder().maxProcesses(maxProcesses).maxRegions(maxRegions).memory(memory)
                .latchCheckMillis(latchCheckMillis).failCheckMillis(failCheckMillis)
                .pollingFutex(pollingFutex).regionPlacement(regionPlacement).shmDirectory(shmDirectory);
    }

    /** Mutable builder; {@link #build()} validates. */
    public static final class Builder {
        private int maxProcesses = 64;
        private int maxRegions = 32;
        private MemoryImpl memory = MemoryImpl.AUTO;
        private long latchCheckMillis = 100;
        private long failCheckMillis = 250;
        private boolean pollingFutex;
        private RegionPlacement regionPlacement = RegionPlacement.fromSystemProperty();
        private Path shmDirectory = defaultShmDirectory();

        private static Path defaultShmDirectory() {
            String v = System.getProperty(SHM_DIRECTORY_PROPERTY);
            return v == null || v.isBlank() ? DEFAULT_SHM_DIRECTORY : Path.of(v.trim());
        }

        public Builder maxProcesses(int v) {
            maxProcesses = v;
            return this;
        }

        public Builder maxRegions(int v) {
            maxRegions = v;
            return this;
        }

        public Builder memory(MemoryImpl v) {
            memory = v;
            return this;
        }

        public Builder latchCheckMillis(long v) {
            latchCheckMillis = v;
            return this;
        }

        public Builder failCheckMillis(long v) {
            failCheckMillis = v;
            return this;
        }

        public Builder pollingFutex(boolean v) {
            pollingFutex = v;
            return this;
        }

        /** Where the shared regions live; see {@link RegionPlacement}. */
        public Builder regionPlacement(RegionPlacement v) {
            regionPlacement = v;
            return this;
        }

        /** The tmpfs under which {@link RegionPlacement#SHM} makes region directories. */
        public Builder shmDirectory(Path v) {
            shmDirectory = v;
            return this;
        }

        /**
         * Shorthand for {@link RegionPlacement#SHM} under {@code tmpfs}: the regions go to a
         * directory of their own there, and the open fails if that is not possible.
         */
        public Builder regionDirectory(Path tmpfs) {
            return regionPlacement(RegionPlacement.SHM).shmDirectory(tmpfs);
        }

        public RegionEnvironmentConfig build() {
            return new RegionEnvironmentConfig(maxProcesses, maxRegions, memory, latchCheckMillis,
                    failCheckMillis, pollingFutex, regionPlacement, shmDirectory);
        }
    }
}
