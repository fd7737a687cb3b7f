package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * A database of {@value #PAGES} pages (2.4 MB) through a pool of {@value #FRAMES} frames
 * (128 KB), updated by three JVMs at once: every page is evicted and read back (checksum checked)
 * many times, by whichever process needs the frame.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class BufferMultiProcessTest {
    static final int PAGES = 600;
    static final int FRAMES = 32;

    @TempDir
    Path dir;

    /** Child: {@code count} transactions adding 1 to its own slot of 3 random pages; 1 in 5 aborts. */
    public static final class Updater {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int proc = Integer.parseInt(args[1]);
            int count = Integer.parseInt(args[2]);
            Random rnd = new Random(Long.parseLong(args[3]));
            long total = 0;
            try (PageFixture f = new PageFixture(home, FRAMES, 250)) {
                System.out.println("READY");
                for (int i = 0; i < count; i++) {
                    Txn t = f.tm.begin(Durability.NO_SYNC);
                    for (int k = 0; k < 3; k++) {
                        f.add(t, rnd.nextInt(PAGES), proc, 1);
                    }
                    if (rnd.nextInt(5) == 0) {
                        f.tm.abort(t);
                    } else {
                        f.tm.commit(t);
                        total += 3;
                    }
                }
                BufferStats s = f.bp.stats();
                System.out.println("STATS " + s);
                System.out.println("TOTAL " + total);
            }
        }
    }

    @Test
    void threeJvmsUpdateADatabaseMuchLargerThanThePool() throws Exception {
        long seed = Seeds.seed("BufferMultiProcessTest");
        Path home = Files.createDirectory(dir.resolve("env"));
        try (PageFixture f = new PageFixture(home, FRAMES, 0)) { // create every page up front
            for (int p = 0; p < PAGES; p++) {
                f.bp.unpin(f.bp.get(f.file, p, BufferManager.CREATE), true);
            }
        }
        List<ChildJvm> cs = ChildJvm.startAll(3, Updater.class,
                i -> new String[] {home.toString(), Integer.toString(i), "1500", Long.toString(seed + i)});
        long[] totals = new long[3];
        try {
            for (int i = 0; i < 3; i++) {
                cs.get(i).assertExitsCleanly(Duration.ofMinutes(3));
                String stats = cs.get(i).linesStartingWith("STATS ").get(0);
                java.util.regex.Matcher m = java.util.regex.Pattern.compile("reads=(\\d+).*evictions=(\\d+)").matcher(stats);
                assertTrue(m.find(), stats);
                assertTrue(Long.parseLong(m.group(1)) > 500 && Long.parseLong(m.group(2)) > 500,
                        "pages were read back and evicted many times: " + stats);
                System.out.println("BufferMultiProcessTest process " + i + ": " + stats);
                totals[i] = Long.parseLong(cs.get(i).linesStartingWith("TOTAL ").get(0).substring(6));
            }
        } finally {
            ChildJvm.closeAll(cs);
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) { // every page read from disk, checksum checked
            long[] sums = new long[3];
            for (int p = 0; p < PAGES; p++) {
                for (int proc = 0; proc < 3; proc++) {
                    sums[proc] += f.get(p, proc);
                }
            }
            for (int proc = 0; proc < 3; proc++) {
                assertEquals(totals[proc], sums[proc], "process " + proc + " (seed " + seed + ")");
            }
            assertTrue(f.bp.stats().reads() >= PAGES - 16, f.bp.stats().toString());
        }
    }
}
