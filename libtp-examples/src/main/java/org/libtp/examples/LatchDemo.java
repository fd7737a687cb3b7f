package org.libtp.examples;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;
import org.libtp.core.sync.SharedSemaphore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The first demo: two JVM processes share one environment and coordinate through a shared latch
 * and two shared semaphores living in a memory-mapped region file.
 *
 * <ol>
 *   <li>Ping-pong: the parent posts "ping", the child answers "pong", 20,000 times; the round
 *       trip crosses two processes and two futex wake-ups.</li>
 *   <li>Counting: both processes add 1 to a plain (non-atomic) counter 1,000,000 times each,
 *       under the shared latch; the total must be exactly 2,000,000.</li>
 * </ol>
 *
 * Usage: {@code java -jar libtp-examples/target/libtp-examples.jar [environment-directory]}
 */
public final class LatchDemo {
    private static final int ROUND_TRIPS = 20_000;
    private static final int INCREMENTS = 1_000_000;
    private static final long LATCH = 256;
    private static final long PING = 1024;
    private static final long PONG = 1088;
    private static final long READY = 1152;
    private static final long COUNTER = 2048;
    private static final RegionSpec SPEC = new RegionSpec("latch-demo", 4096, 1, new LatchArray(LATCH, 64, 1));

    private LatchDemo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length >= 2 && args[0].equals("--child")) {
            child(Paths.get(args[1]));
            return;
        }
        Path dir = args.length > 0 ? Paths.get(args[0]) : Files.createTempDirectory("libtp-demo");
        Files.createDirectories(dir);
        System.out.println("LibTP latch demo: environment " + dir.toAbsolutePath());
        try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.defaults())) {
            Region region = env.region(SPEC);
            Memory memory = region.memory();
            Latch latch = env.latch(region, LATCH, "demo counter latch");
            SharedSemaphore ping = env.semaphore(region, PING, "ping");
            SharedSemaphore pong = env.semaphore(region, PONG, "pong");
            SharedSemaphore ready = env.semaphore(region, READY, "ready");
            memory.putLong(COUNTER, 0);
            System.out.printf("[parent pid %d] slot %d, memory %s; starting a second JVM%n",
                    ProcessHandle.current().pid(), env.processSlot(), env.memoryImplementation());

            String java = Paths.get(System.getProperty("java.home"), "bin", "java").toString();
            Process child = new ProcessBuilder(List.of(java, "--enable-native-access=ALL-UNNAMED", "-cp", System.getProperty("java.class.path"),
                    LatchDemo.class.getName(), "--child", dir.toString())).inheritIO().start();
            try {
                if (!ready.tryAcquire(60, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the child JVM did not attach within 60 s");
                }
                // 1. ping-pong through the shared semaphores
                long t0 = System.nanoTime();
                for (int i = 0; i < ROUND_TRIPS; i++) {
                    ping.post();
                    if (!pong.tryAcquire(10, TimeUnit.SECONDS)) {
                        throw new IllegalStateException("no pong for ping " + i);
                    }
                }
                double micros = (System.nanoTime() - t0) / 1e3 / ROUND_TRIPS;
                System.out.printf("[parent] %,d ping-pong round trips between two JVMs: %.1f us each%n",
                        ROUND_TRIPS, micros);

                // 2. count together under the shared latch
                ping.post(); // start signal
                long t1 = System.nanoTime();
                for (int i = 0; i < INCREMENTS; i++) {
                    latch.acquire();
                    try {
                        memory.putLong(COUNTER, memory.getLong(COUNTER) + 1);
                    } finally {
                        latch.release();
                    }
                }
                if (!pong.tryAcquire(120, TimeUnit.SECONDS)) {
                    throw new IllegalStateException("the child did not finish counting");
                }
                double seconds = (System.nanoTime() - t1) / 1e9;
                long total = memory.getLong(COUNTER);
                System.out.printf("[parent] both JVMs added %,d each under the shared latch in %.2f s: "
                        + "counter = %,d (%s)%n", INCREMENTS, seconds, total,
                        total == 2L * INCREMENTS ? "exact" : "WRONG");
                if (!child.waitFor(60, TimeUnit.SECONDS) || child.exitValue() != 0) {
                    throw new IllegalStateException("the child JVM failed");
                }
                if (total != 2L * INCREMENTS) {
                    System.exit(1);
                }
            } finally {
                child.destroyForcibly();
            }
        }
        System.out.println("LibTP latch demo: done");
    }

    private static void child(Path dir) {
        try (RegionEnvironment env = RegionEnvironment.open(dir, RegionEnvironmentConfig.defaults())) {
            Region region = env.region(SPEC);
            Memory memory = region.memory();
            Latch latch = env.latch(region, LATCH, "demo counter latch");
            SharedSemaphore ping = env.semaphore(region, PING, "ping");
            SharedSemaphore pong = env.semaphore(region, PONG, "pong");
            System.out.printf("[child  pid %d] attached as slot %d%n", ProcessHandle.current().pid(),
                    env.processSlot());
            env.semaphore(region, READY, "ready").post();
            for (int i = 0; i < ROUND_TRIPS; i++) {
                ping.acquire();
                pong.post();
            }
            ping.acquire(); // start signal
            for (int i = 0; i < INCREMENTS; i++) {
                latch.acquire();
                try {
                    memory.putLong(COUNTER, memory.getLong(COUNTER) + 1);
                } finally {
                    latch.release();
                }
            }
            System.out.println("[child ] done counting");
            pong.post();
        }
    }
}
