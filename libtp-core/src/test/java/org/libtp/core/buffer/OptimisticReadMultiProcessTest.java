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
 * Optimistic views ({@link BufferManager#tryOptimistic}) across processes: two JVMs rewrite
 * whole pages under their latch (every word of a page set to one new value, the page number
 * beside it) while a third reads pages optimistically; the pool holds {@value #FRAMES} frames for
 * {@value #PAGES} pages, so frames are also reused for other pages under the readers. A view
 * that validates must have seen one writer's whole page, and the page asked for: a torn or
 * foreign page that validates fails the test.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class OptimisticReadMultiProcessTest {
    static final int PAGES = 20;
    static final int FRAMES = 16;
    static final int WORDS = 64;

    @TempDir
    Path dir;

    /** Bytes of {@link #WORDS} words all equal to {@code v}. */
    static byte[] words(long v) {
        byte[] b = new byte[8 * WORDS];
        for (int w = 0; w < WORDS; w++) {
            System.arraycopy(PageFixture.longBytes(v), 0, b, 8 * w, 8);
        }
        return b;
    }

    /** Child: rewrites random pages whole, under the latch, in logged NO_SYNC transactions. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int proc = Integer.parseInt(args[1]);
            long millis = Long.parseLong(args[2]);
            Random rnd = new Random(Long.parseLong(args[3]));
            long writes = 0;
            try (PageFixture f = new PageFixture(home, FRAMES, 250)) {
                System.out.println("READY");
                long end = System.currentTimeMillis() + millis;
                while (System.currentTimeMillis() < end) {
                    long page = rnd.nextInt(PAGES);
                    long v = ((long) proc << 48) | ++writes;
                    Txn t = f.tm.begin(Durability.NO_SYNC);
                    Page p = f.bp.get(f.file, page, 0);
                    try {
                        p.latch();
                        try {
                            // Word by word: a long window in which a reader could see half a page.
                            for (int w = 0; w < WORDS; w++) {
                                f.tp.pages().update(t, p, PageFixture.offset(1 + w), PageFixture.longBytes(v));
                            }
                        } finally {
                            p.unlatch();
                        }
                    } finally {
                        f.bp.unpin(p, true);
                    }
                    f.tm.commit(t);
                }
            }
            System.out.println("WRITES " + writes);
        }
    }

    /** Child: optimistic reads of random pages; prints what validated and what did not. */
    public static final class Reader {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            long millis = Long.parseLong(args[1]);
            Random rnd = new Random(Long.parseLong(args[2]));
            long validated = 0;
            long invalid = 0;
            long absent = 0;
            long bad = 0;
            String firstBad = null;
            try (PageFixture f = new PageFixture(home, FRAMES, 250)) {
                System.out.println("READY");
                long end = System.currentTimeMillis() + millis;
                long[] seen = new long[WORDS];
                while (System.currentTimeMillis() < end) {
                    long page = rnd.nextInt(PAGES);
                    if (rnd.nextInt(8) == 0) {
                        f.bp.unpin(f.bp.get(f.file, page, 0), false); // brings pages in, evicting others
                        continue;
                    }
                    Page v = f.bp.tryOptimistic(f.file, page);
                    if (v == null) {
                        absent++;
                        continue;
                    }
                    long pageWord;
                    try {
                        pageWord = v.getLong(PageFixture.offset(0));
                        for (int w = 0; w < WORDS; w++) {
                            seen[w] = v.getLong(PageFixture.offset(1 + w));
                        }
                    } catch (RuntimeException torn) {
                        if (v.validate()) {
                            throw torn;
                        }
                        invalid++;
                        continue;
                    }
                    if (!v.validate()) {
                        invalid++;
                        continue;
                    }
                    validated++;
                    boolean whole = pageWord == page;
                    for (int w = 1; w < WORDS; w++) {
                        whole &= seen[w] == seen[0];
                    }
                    if (!whole) {
                        bad++;
                        if (firstBad == null) {
                            firstBad = "page " + page + " showed page word " + pageWord + ", words " + seen[0] + " .. "
                                    + java.util.Arrays.stream(seen).filter(x -> x != seen[0]).findFirst().orElse(seen[0]);
                        }
                    }
                }
            }
            System.out.println("COUNTS " + validated + " " + invalid + " " + absent + " " + bad);
            if (firstBad != null) {
                System.out.println("FIRSTBAD " + firstBad);
            }
        }
    }

    @Test
    void aValidatedViewIsAlwaysOneWholePageOfTheRightNumber() throws Exception {
        long seed = Seeds.seed("OptimisticReadMultiProcessTest");
        Path home = Files.createDirectory(dir.resolve("env"));
        try (PageFixture f = new PageFixture(home, FRAMES, 0)) {
            for (int p = 0; p < PAGES; p++) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                Page pg = f.bp.get(f.file, p, BufferManager.CREATE);
                try {
                    pg.latch();
                    try {
                        f.tp.pages().update(t, pg, PageFixture.offset(0), PageFixture.longBytes(p));
                        f.tp.pages().update(t, pg, PageFixture.offset(1), words(0));
                    } finally {
                        pg.unlatch();
                    }
                } finally {
                    f.bp.unpin(pg, true);
                }
                f.tm.commit(t);
            }
        }
        long millis = 6000;
        List<ChildJvm> writers = ChildJvm.startAll(2, Writer.class,
                i -> new String[] {home.toString(), Integer.toString(i + 1), Long.toString(millis), Long.toString(seed + i)});
        List<ChildJvm> readers = ChildJvm.startAll(1, Reader.class,
                i -> new String[] {home.toString(), Long.toString(millis), Long.toString(seed + 10)});
        try {
            for (ChildJvm w : writers) {
                w.assertExitsCleanly(Duration.ofMinutes(2));
                assertTrue(Long.parseLong(w.linesStartingWith("WRITES ").get(0).substring(7)) > 100, w.outputText());
            }
            ChildJvm r = readers.get(0);
            r.assertExitsCleanly(Duration.ofMinutes(2));
            String[] c = r.linesStartingWith("COUNTS ").get(0).split(" ");
            long validated = Long.parseLong(c[1]);
            long invalid = Long.parseLong(c[2]);
            long bad = Long.parseLong(c[4]);
            System.out.println("OptimisticReadMultiProcessTest (seed " + seed + "): writes "
                    + writers.get(0).linesStartingWith("WRITES ") + writers.get(1).linesStartingWith("WRITES ") + ", validated " + validated + ", invalid "
                    + invalid + ", not in the pool " + c[3] + ", torn or foreign yet validated " + bad);
            assertEquals(0, bad, "seed " + seed + ": " + r.linesStartingWith("FIRSTBAD "));
            assertTrue(validated > 1000, "the reader validated views: " + r.outputText());
        } finally {
            ChildJvm.closeAll(writers);
            ChildJvm.closeAll(readers);
        }
    }
}
