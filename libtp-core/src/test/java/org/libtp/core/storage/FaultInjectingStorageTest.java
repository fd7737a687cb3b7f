package org.libtp.core.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;
import org.libtp.core.storage.FaultInjectingStorage.CrashMode;
import org.libtp.core.storage.FaultInjectingStorage.CrashReport;
import org.libtp.core.testkit.Seeds;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/** {@link FaultInjectingStorage}: crashes, torn writes, failed forces, short writes. */
class FaultInjectingStorageTest {
    @TempDir
    Path root;

    private int dirs;

    /** A fresh directory under the test's temporary directory. */
    private Path newDir() throws IOException {
        return Files.createDirectory(root.resolve("d" + dirs++));
    }

    private static byte[] filled(int length, int value) {
        byte[] b = new byte[length];
        Arrays.fill(b, (byte) value);
        return b;
    }

    private static void write(StorageFile f, byte[] b, long position) throws IOException {
        f.write(ByteBuffer.wrap(b), position);
    }

    private static byte[] contents(StorageFile f) throws IOException {
        byte[] b = new byte[(int) f.size()];
        f.readFully(ByteBuffer.wrap(b), 0);
        return b;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    /** Creates {@code name} with {@code content}, forces it and the directory. */
    private static void durableFile(Storage s, String name, byte[] content) throws IOException {
        try (StorageFile f = s.open(name, true)) {
            write(f, content, 0);
            f.force();
        }
        s.forceDirectory();
    }

    // ------------------------------------------------------------------ data crashes

    @ParameterizedTest
    @EnumSource(CrashMode.class)
    void forcedWritesSurviveCrashInEveryMode(CrashMode mode) throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.forcedWritesSurviveCrashInEveryMode." + mode);
        Random rnd = new Random(seed);
        for (int round = 0; round < 20; round++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            StorageFile f = s.open("log", true);
            s.forceDirectory();
            byte[] forced = new byte[8000];
            rnd.nextBytes(forced);
            write(f, Arrays.copyOfRange(forced, 0, 3000), 0);
            f.force();
            write(f, Arrays.copyOfRange(forced, 3000, 8000), 3000);
            f.force();
            // Unforced writes past the forced data only.
            write(f, filled(700, 0x5A), 8000);
            write(f, filled(1300, 0x6B), 8500);
            CrashReport r = s.crash(rnd, mode);
            byte[] after = Files.readAllBytes(dir.resolve("log"));
            assertTrue(after.length >= 8000, "forced size lost: " + after.length + " " + r);
            assertArrayEquals(forced, Arrays.copyOf(after, 8000), r.toString());
            if (mode == CrashMode.LOSE_ALL) {
                assertEquals(8000, after.length);
            } else if (mode == CrashMode.KEEP_ALL) {
                assertEquals(9800, after.length);
            }
        }
    }

    @Test
    void unforcedWritesVanishInLoseAll() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        byte[] base = filled(2000, 'a');
        durableFile(s, "f", base);
        StorageFile f = s.open("f", false);
        write(f, filled(300, 'b'), 100);
        write(f, filled(50, 'c'), 1990); // overwrites the end and extends
        write(f, filled(10, 'd'), 150); // overlaps the first one
        f.truncate(1500);
        f.preallocate(5000);
        write(f, filled(10, 'e'), 4000);
        assertEquals(6, s.unforcedOperations("f"));
        CrashReport r = s.crash(new Random(1), CrashMode.LOSE_ALL);
        assertEquals(6, r.lostWrites() + r.lostTruncations(), r.toString());
        assertEquals(0, r.keptWrites() + r.tornWrites() + r.keptTruncations());
        assertArrayEquals(base, Files.readAllBytes(dir.resolve("f")));
        try (StorageFile g = new FileStorage(dir).open("f", false)) {
            assertArrayEquals(base, contents(g), "a new FileStorage sees the post-crash state");
        }
    }

    @Test
    void unforcedWritesSurviveInKeepAll() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", filled(2000, 'a'));
        StorageFile f = s.open("f", false);
        write(f, filled(300, 'b'), 100);
        write(f, filled(50, 'c'), 1990);
        f.truncate(1800);
        f.preallocate(3000);
        write(f, filled(10, 'e'), 2500);
        byte[] before = contents(f);
        CrashReport r = s.crash(new Random(1), CrashMode.KEEP_ALL);
        assertEquals(4, r.keptWrites(), r.toString());
        assertEquals(1, r.keptTruncations(), r.toString());
        assertArrayEquals(before, Files.readAllBytes(dir.resolve("f")));
    }

    @Test
    void forceMakesOnlyEarlierWritesDurable() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", filled(100, 'a'));
        StorageFile f = s.open("f", false);
        StorageFile other = s.open("f", false);
        write(f, filled(10, 'b'), 0);
        other.force(); // any handle of the file forces it
        write(f, filled(10, 'c'), 10);
        write(s.open("g", true), ascii("unrelated"), 0);
        assertEquals(1, s.unforcedOperations("f"));
        s.crash(new Random(2), CrashMode.LOSE_ALL);
        byte[] expected = filled(100, 'a');
        Arrays.fill(expected, 0, 10, (byte) 'b');
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("f")));
    }

    /**
     * Non-overlapping unforced writes over forced data: after a RANDOM crash each write's bytes are
     * all new, all old, a strict prefix new, or a mix of whole (file-aligned) 512-byte sectors.
     */
    @Test
    void randomCrashKeepsLosesOrTearsEachWrite() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.randomCrashKeepsLosesOrTearsEachWrite");
        Random rnd = new Random(seed);
        int kept = 0;
        int lost = 0;
        int prefixOnly = 0;
        int sectorMix = 0;
        int reportedTorn = 0;
        for (int round = 0; round < 40; round++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            int size = 64 * 1024;
            durableFile(s, "f", filled(size, 0x11));
            StorageFile f = s.open("f", false);
            int writes = 8;
            int[] pos = new int[writes];
            int[] len = new int[writes];
            for (int i = 0; i < writes; i++) {
                pos[i] = i * 8000 + rnd.nextInt(500);
                len[i] = 1 + rnd.nextInt(4 * FaultInjectingStorage.SECTOR);
                write(f, filled(len[i], 0x80 + i), pos[i]);
            }
            CrashReport r = s.crash(rnd, CrashMode.RANDOM);
            reportedTorn += r.tornWrites();
            assertEquals(writes, r.keptWrites() + r.lostWrites() + r.tornWrites(), r.toString());
            byte[] after = Files.readAllBytes(dir.resolve("f"));
            assertEquals(size, after.length);
            for (int i = 0; i < writes; i++) {
                boolean[] isNew = new boolean[len[i]];
                int news = 0;
                for (int j = 0; j < len[i]; j++) {
                    byte b = after[pos[i] + j];
                    if (b == (byte) (0x80 + i)) {
                        isNew[j] = true;
                        news++;
                    } else if (b != 0x11) {
                        fail("write " + i + " byte " + j + " is neither old nor new: " + b + "\n" + r);
                    }
                }
                if (news == len[i]) {
                    kept++;
                } else if (news == 0) {
                    lost++;
                } else if (isPrefix(isNew, news)) {
                    prefixOnly++;
                } else {
                    assertTrue(isSectorMix(isNew, pos[i]), "write " + i + " torn neither as prefix nor sectors\n" + r);
                    sectorMix++;
                }
            }
            // Outside the writes nothing changed.
            for (int j = 0; j < size; j++) {
                boolean inWrite = false;
                for (int i = 0; i < writes; i++) {
                    inWrite |= j >= pos[i] && j < pos[i] + len[i];
                }
                if (!inWrite && after[j] != 0x11) {
                    fail("byte " + j + " outside the writes changed\n" + r);
                }
            }
        }
        System.out.println("kept " + kept + ", lost " + lost + ", torn prefix " + prefixOnly + ", sector mix " + sectorMix);
        assertTrue(kept > 0 && lost > 0, "kept " + kept + " lost " + lost);
        assertTrue(prefixOnly > 0, "no write torn as a prefix (seed " + seed + ")");
        assertTrue(sectorMix > 0, "no write torn as a sector mix (seed " + seed + ")");
        assertTrue(reportedTorn >= prefixOnly + sectorMix);
    }

    private static boolean isPrefix(boolean[] isNew, int news) {
        for (int j = 0; j < isNew.length; j++) {
            if (isNew[j] != j < news) {
                return false;
            }
        }
        return true;
    }

    private static boolean isSectorMix(boolean[] isNew, int position) {
        for (int j = 1; j < isNew.length; j++) {
            if (isNew[j] != isNew[j - 1] && (position + j) % FaultInjectingStorage.SECTOR != 0) {
                return false;
            }
        }
        return true;
    }

    @Test
    void lostExtensionRestoresTheSize() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", filled(1000, 'a'));
        StorageFile f = s.open("f", false);
        write(f, filled(5000, 'b'), 1000);
        assertEquals(6000, f.size());
        s.crash(new Random(3), CrashMode.LOSE_ALL);
        assertEquals(1000, Files.size(dir.resolve("f")));
    }

    @Test
    void lostPreallocationAndTruncationAreUndone() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        byte[] base = new byte[3000];
        new Random(4).nextBytes(base);
        durableFile(s, "a", base);
        durableFile(s, "b", base);
        try (StorageFile a = s.open("a", false); StorageFile b = s.open("b", false)) {
            a.preallocate(1 << 20);
            b.truncate(10);
            assertEquals(10, b.size());
        }
        s.crash(new Random(4), CrashMode.LOSE_ALL);
        assertArrayEquals(base, Files.readAllBytes(dir.resolve("a")));
        assertArrayEquals(base, Files.readAllBytes(dir.resolve("b")));
    }

    /** After a RANDOM crash the size is that of the forced data or ends in kept new bytes. */
    @Test
    void randomCrashLeavesAConsistentSize() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.randomCrashLeavesAConsistentSize");
        Random rnd = new Random(seed);
        Map<Integer, Integer> sizes = new TreeMap<>();
        for (int round = 0; round < 60; round++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            durableFile(s, "f", filled(1000, 'a'));
            StorageFile f = s.open("f", false);
            write(f, filled(2000, 'b'), 1000);
            write(f, filled(2000, 'c'), 3000);
            CrashReport r = s.crash(rnd, CrashMode.RANDOM);
            byte[] after = Files.readAllBytes(dir.resolve("f"));
            sizes.merge(after.length, 1, Integer::sum);
            assertTrue(after.length >= 1000 && after.length <= 5000, after.length + " " + r);
            assertArrayEquals(filled(1000, 'a'), Arrays.copyOf(after, 1000));
            for (int j = 1000; j < after.length; j++) {
                byte expected = (byte) (j < 3000 ? 'b' : 'c');
                assertTrue(after[j] == expected || after[j] == 0, "byte " + j + ": " + after[j] + " " + r);
            }
            if (after.length > 1000) {
                assertNotEquals(0, after[after.length - 1], "a file never ends in a lost extension: " + r);
            }
        }
        assertTrue(sizes.size() >= 3, "sizes seen: " + sizes);
        assertTrue(sizes.containsKey(1000) && sizes.containsKey(5000), "sizes seen: " + sizes);
    }

    @Test
    void aKeptWritePastALostOneLeavesAHole() throws IOException {
        // Find a seed where the second extension is kept and the first lost; check the hole.
        for (int seed = 0; seed < 200; seed++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            durableFile(s, "f", filled(100, 'a'));
            StorageFile f = s.open("f", false);
            write(f, filled(100, 'b'), 100);
            write(f, filled(100, 'c'), 200);
            CrashReport r = s.crash(new Random(seed), CrashMode.RANDOM);
            if (r.keptWrites() == 1 && r.lostWrites() == 1) {
                byte[] after = Files.readAllBytes(dir.resolve("f"));
                if (after.length == 300) {
                    byte[] expected = filled(300, 'a');
                    Arrays.fill(expected, 100, 200, (byte) 0);
                    Arrays.fill(expected, 200, 300, (byte) 'c');
                    assertArrayEquals(expected, after, r.toString());
                    return;
                }
            }
        }
        fail("no seed kept the second extension and lost the first");
    }

    /** Random writes, truncations, preallocations and forces against a model of current and durable bytes. */
    @Test
    void randomOperationsMatchTheModel() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.randomOperationsMatchTheModel");
        Random rnd = new Random(seed);
        for (int round = 0; round < 60; round++) {
            CrashMode mode = CrashMode.values()[round % 3];
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            s.open("f", true).close();
            s.forceDirectory();
            StorageFile f = s.open("f", false);
            byte[] cur = new byte[0];
            byte[] dur = new byte[0];
            int minSizeSinceForce = 0;
            boolean[] touched = new boolean[0];
            int ops = 1 + rnd.nextInt(30);
            StringBuilder trace = new StringBuilder();
            for (int k = 0; k < ops; k++) {
                int what = rnd.nextInt(10);
                if (what < 5) {
                    int p = rnd.nextInt(cur.length + 2000);
                    byte[] b = new byte[1 + rnd.nextInt(1500)];
                    rnd.nextBytes(b);
                    write(f, b, p);
                    trace.append("w").append(p).append('+').append(b.length).append(' ');
                    if (p + b.length > cur.length) {
                        cur = Arrays.copyOf(cur, p + b.length);
                    }
                    System.arraycopy(b, 0, cur, p, b.length);
                    touched = Arrays.copyOf(touched, Math.max(touched.length, cur.length));
                    Arrays.fill(touched, p, p + b.length, true);
                } else if (what < 6) {
                    int t = cur.length == 0 ? 0 : rnd.nextInt(cur.length + 1);
                    f.truncate(t);
                    trace.append("t").append(t).append(' ');
                    if (t < cur.length) {
                        cur = Arrays.copyOf(cur, t);
                    }
                } else if (what < 7) {
                    int size = cur.length + rnd.nextInt(3000);
                    f.preallocate(size);
                    trace.append("p").append(size).append(' ');
                    cur = Arrays.copyOf(cur, Math.max(size, cur.length));
                } else {
                    f.force();
                    trace.append("F ");
                    dur = cur.clone();
                    minSizeSinceForce = cur.length;
                    touched = new boolean[0];
                }
                minSizeSinceForce = Math.min(minSizeSinceForce, cur.length);
                assertArrayEquals(cur, contents(f));
            }
            CrashReport r = s.crash(rnd, mode);
            byte[] after = Files.readAllBytes(dir.resolve("f"));
            String why = "round " + round + " " + mode + ": " + trace + "\n" + r;
            switch (mode) {
                case LOSE_ALL -> assertArrayEquals(dur, after, why);
                case KEEP_ALL -> assertArrayEquals(cur, after, why);
                case RANDOM -> {
                    assertTrue(after.length >= minSizeSinceForce, why);
                    for (int j = 0; j < minSizeSinceForce; j++) {
                        if (j >= touched.length || !touched[j]) {
                            assertEquals(dur[j], after[j], "byte " + j + " " + why);
                        }
                    }
                }
                default -> throw new AssertionError(mode);
            }
        }
    }

    @Test
    void sameSeedSameCrash() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.sameSeedSameCrash");
        byte[][] results = new byte[2][];
        String[] reports = new String[2];
        for (int run = 0; run < 2; run++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            durableFile(s, "f", filled(20_000, 1));
            StorageFile f = s.open("f", false);
            Random data = new Random(42);
            for (int i = 0; i < 30; i++) {
                byte[] b = new byte[1 + data.nextInt(3000)];
                data.nextBytes(b);
                write(f, b, data.nextInt(25_000));
            }
            reports[run] = s.crash(new Random(seed), CrashMode.RANDOM).toString();
            results[run] = Files.readAllBytes(dir.resolve("f"));
        }
        assertEquals(reports[0], reports[1]);
        assertArrayEquals(results[0], results[1]);
    }

    // ------------------------------------------------------------------ failing forces, short writes

    @Test
    void failedForceThrowsAndItsWritesStayLosable() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", filled(1000, 'a'));
        StorageFile f = s.open("f", false);
        s.failForceAfter(1);
        write(f, filled(100, 'b'), 0);
        f.force(); // the one that succeeds
        write(f, filled(100, 'c'), 100);
        write(f, filled(100, 'c'), 900);
        IOException e = assertThrows(IOException.class, f::force);
        assertTrue(e.getMessage().contains("injected"), e.getMessage());
        assertTrue(s.poisoned("f"));
        write(f, filled(50, 'd'), 150); // over half of a poisoned write
        f.force(); // "succeeds", but cannot make the poisoned writes durable
        f.force();
        assertEquals(2, s.unforcedOperations("f"));
        byte[] expected = filled(1000, 'a');
        Arrays.fill(expected, 0, 100, (byte) 'b');
        Arrays.fill(expected, 150, 200, (byte) 'd');
        s.crash(new Random(5), CrashMode.LOSE_ALL);
        assertArrayEquals(expected, Files.readAllBytes(dir.resolve("f")),
                "the poisoned writes are lost, the forced ones before and after survive");
        assertEquals(5, s.forceCount("f"), "forces counted including the failed one");
    }

    @Test
    void failedForceWritesMaySurviveToo() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", filled(100, 'a'));
        StorageFile f = s.open("f", false);
        write(f, filled(100, 'b'), 100);
        s.failForceAfter(0);
        assertThrows(IOException.class, f::force);
        f.force();
        s.crash(new Random(6), CrashMode.KEEP_ALL);
        assertEquals(200, Files.size(dir.resolve("f")));
    }

    @Test
    void failForceAfterCountsOnlyMatchingFiles() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        StorageFile log = s.open("log.1", true);
        StorageFile data = s.open("data", true);
        s.failForceAfter(1, n -> n.startsWith("log."));
        data.force();
        data.force();
        log.force();
        data.force();
        assertThrows(IOException.class, log::force);
        log.force(); // the fault fires once
        assertEquals(3, s.forceCount("log.1"));
        assertEquals(3, s.forceCount("data"));
        assertEquals(6, s.forceCount());
    }

    @Test
    void failNextWriteWritesNothing() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        StorageFile f = s.open("f", true);
        write(f, ascii("hello"), 0);
        s.failNextWrite();
        ByteBuffer src = ByteBuffer.wrap(ascii("world"));
        assertThrows(IOException.class, () -> f.write(src, 5));
        assertEquals(0, src.position());
        assertEquals(5, f.size());
        write(f, ascii("world"), 5); // only the next write fails
        assertArrayEquals(ascii("helloworld"), contents(f));
        s.failNextWrite();
        assertThrows(IOException.class, () -> f.preallocate(100));
        assertEquals(10, f.size());
    }

    @Test
    void shortWriteWritesAPrefixThenThrows() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        StorageFile f = s.open("f", true);
        write(f, ascii("0123456789"), 0);
        s.shortWriteNext(3);
        ByteBuffer src = ByteBuffer.wrap(ascii("abcdefghij"));
        IOException e = assertThrows(IOException.class, () -> f.write(src, 8));
        assertTrue(e.getMessage().contains("short write"), e.getMessage());
        assertEquals(3, src.position(), "the source advanced by the bytes written");
        assertArrayEquals(ascii("01234567abc"), contents(f));
        s.shortWriteNext(100);
        ByteBuffer all = ByteBuffer.wrap(ascii("xy"));
        assertThrows(IOException.class, () -> f.write(all, 0), "written in full but still reported as failed");
        assertArrayEquals(ascii("xy234567abc"), contents(f));
        s.shortWriteNext(1000);
        assertThrows(IOException.class, () -> f.preallocate(5000));
        assertEquals(1011, f.size(), "a short preallocation extends part of the way");
        assertEquals(10 + 3 + 2 + 1000, s.bytesWritten("f"));
        assertEquals(4, s.writeCount("f"));
        // The short writes are unforced writes like any other.
        s.crash(new Random(7), CrashMode.LOSE_ALL);
        assertFalse(Files.exists(dir.resolve("f")), "never directory-forced");
    }

    @Test
    void countersPerFile() throws IOException {
        FaultInjectingStorage s = new FaultInjectingStorage(newDir());
        StorageFile a = s.open("a", true);
        StorageFile b = s.open("b", true);
        write(a, new byte[100], 0);
        write(a, new byte[50], 100);
        a.preallocate(1000);
        write(b, new byte[7], 0);
        a.force();
        b.force();
        b.force();
        assertEquals(1000, s.bytesWritten("a"));
        assertEquals(3, s.writeCount("a"));
        assertEquals(1, s.forceCount("a"));
        assertEquals(7, s.bytesWritten("b"));
        assertEquals(2, s.forceCount("b"));
        assertEquals(0, s.forceCount("c"));
        assertEquals(1007, s.bytesWritten());
        assertEquals(4, s.writeCount());
        assertEquals(3, s.forceCount());
        assertEquals(List.of("a", "b"), s.openFiles());
        a.close();
        assertEquals(List.of("b"), s.openFiles());
    }

    // ------------------------------------------------------------------ death

    @Test
    void everythingThrowsAfterACrash() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        StorageFile f = s.open("f", true);
        write(f, ascii("data"), 0);
        f.force();
        s.forceDirectory();
        StorageFile closed = s.open("f", false);
        closed.close();
        s.crash(new Random(8), CrashMode.KEEP_ALL);
        assertTrue(s.crashed());
        List<Executable> calls = List.of(
                () -> s.open("f", false), () -> s.open("g", true), () -> s.exists("f"), () -> s.list(""),
                () -> s.delete("f"), () -> s.rename("f", "g"), s::forceDirectory,
                () -> s.crash(new Random(0), CrashMode.LOSE_ALL),
                () -> f.read(ByteBuffer.allocate(1), 0), () -> f.readFully(ByteBuffer.allocate(1), 0),
                () -> f.write(ByteBuffer.allocate(1), 0), f::force, f::size, () -> f.truncate(0),
                () -> f.preallocate(100), f::close, closed::size);
        for (Executable c : calls) {
            IOException e = assertThrows(IOException.class, c);
            assertEquals("crashed", e.getMessage());
        }
        assertEquals("f", f.name());
        assertEquals(dir, s.directory());
        assertFalse(Files.exists(dir.resolve("g")));
        assertArrayEquals(ascii("data"), Files.readAllBytes(dir.resolve("f")), "the dead storage wrote nothing");
    }

    // ------------------------------------------------------------------ directory operations

    @Test
    void fileCreatedWithoutDirectoryForceMayVanish() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.fileCreatedWithoutDirectoryForceMayVanish");
        Random rnd = new Random(seed);
        for (CrashMode mode : CrashMode.values()) {
            int vanished = 0;
            int survived = 0;
            for (int round = 0; round < (mode == CrashMode.RANDOM ? 40 : 3); round++) {
                Path dir = newDir();
                FaultInjectingStorage s = new FaultInjectingStorage(dir);
                durableFile(s, "old", ascii("old"));
                try (StorageFile f = s.open("new", true)) {
                    write(f, ascii("new data"), 0);
                    f.force(); // data forced, directory entry not
                }
                assertEquals(1, s.unforcedDirectoryOperations());
                s.crash(rnd, mode);
                assertArrayEquals(ascii("old"), Files.readAllBytes(dir.resolve("old")));
                if (Files.exists(dir.resolve("new"))) {
                    survived++;
                    assertArrayEquals(ascii("new data"), Files.readAllBytes(dir.resolve("new")));
                } else {
                    vanished++;
                }
                assertEquals(List.of(), new FileStorage(dir).list(".fis"), "no temporary files left");
            }
            switch (mode) {
                case LOSE_ALL -> assertEquals(0, survived);
                case KEEP_ALL -> assertEquals(0, vanished);
                case RANDOM -> assertTrue(survived > 0 && vanished > 0, survived + " survived, " + vanished + " vanished");
                default -> throw new AssertionError(mode);
            }
        }
    }

    @ParameterizedTest
    @EnumSource(CrashMode.class)
    void directoryForcedFileSurvives(CrashMode mode) throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", ascii("forced"));
        s.crash(new Random(9), mode);
        assertArrayEquals(ascii("forced"), Files.readAllBytes(dir.resolve("f")));
    }

    @Test
    void lostRenameBringsBothFilesBack() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "final", ascii("old contents"));
        durableFile(s, "tmp", ascii("new"));
        s.rename("tmp", "final");
        assertArrayEquals(ascii("new"), Files.readAllBytes(dir.resolve("final")));
        assertFalse(Files.exists(dir.resolve("tmp")));
        s.crash(new Random(10), CrashMode.LOSE_ALL);
        assertArrayEquals(ascii("old contents"), Files.readAllBytes(dir.resolve("final")));
        assertArrayEquals(ascii("new"), Files.readAllBytes(dir.resolve("tmp")));
    }

    @Test
    void lostDeleteBringsTheFileBackWithItsForcedData() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "f", ascii("0123456789"));
        StorageFile f = s.open("f", false);
        write(f, ascii("AB"), 0);
        f.force();
        write(f, ascii("CD"), 2); // unforced
        f.close();
        s.delete("f");
        assertFalse(s.exists("f"));
        s.crash(new Random(11), CrashMode.LOSE_ALL);
        assertArrayEquals(ascii("AB23456789"), Files.readAllBytes(dir.resolve("f")));
    }

    @Test
    void forcedDeleteAndRenameStay() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        durableFile(s, "a", ascii("a"));
        durableFile(s, "b", ascii("b"));
        s.delete("a");
        s.rename("b", "c");
        s.forceDirectory();
        assertEquals(0, s.unforcedDirectoryOperations());
        s.crash(new Random(12), CrashMode.LOSE_ALL);
        assertEquals(List.of("c"), new FileStorage(dir).list(""));
    }

    @Test
    void filesNotTouchedThroughTheStorageAreLeftAlone() throws IOException {
        Path dir = newDir();
        Files.writeString(dir.resolve("region"), "shared memory");
        Files.writeString(dir.resolve("preexisting"), "was here");
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        s.rename("preexisting", "moved");
        s.open("new", true).close();
        s.crash(new Random(13), CrashMode.LOSE_ALL);
        assertEquals(List.of("preexisting", "region"), new FileStorage(dir).list(""));
        assertEquals("was here", Files.readString(dir.resolve("preexisting")));
    }

    /**
     * Random creates, deletes and renames (each file's data forced at once): after a RANDOM crash
     * the directory is the durable one plus some prefix of the unforced directory operations.
     */
    @Test
    void randomDirectoryOperationsKeepAPrefix() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.randomDirectoryOperationsKeepAPrefix");
        Random rnd = new Random(seed);
        String[] names = {"a", "b", "c", "d", "e"};
        for (int round = 0; round < 60; round++) {
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            Map<String, String> model = new HashMap<>(); // name -> content
            List<Map<String, String>> states = new ArrayList<>(); // possible post-crash states
            states.add(new HashMap<>(model));
            int serial = 0;
            StringBuilder trace = new StringBuilder();
            for (int k = 0, ops = rnd.nextInt(15); k < ops; k++) {
                String n = names[rnd.nextInt(names.length)];
                String m = names[rnd.nextInt(names.length)];
                int what = rnd.nextInt(5);
                if (what < 2 && !model.containsKey(n)) {
                    String content = "file " + serial++;
                    try (StorageFile f = s.open(n, true)) {
                        write(f, ascii(content), 0);
                        f.force();
                    }
                    model.put(n, content);
                    trace.append("create ").append(n).append("; ");
                } else if (what == 2 && model.containsKey(n)) {
                    s.delete(n);
                    model.remove(n);
                    trace.append("delete ").append(n).append("; ");
                } else if (what == 3 && model.containsKey(n) && !n.equals(m)) {
                    s.rename(n, m);
                    model.put(m, model.remove(n));
                    trace.append("rename ").append(n).append(' ').append(m).append("; ");
                } else if (what == 4) {
                    s.forceDirectory();
                    states.clear();
                    trace.append("forceDirectory; ");
                } else {
                    continue;
                }
                states.add(new HashMap<>(model));
            }
            CrashReport r = s.crash(rnd, CrashMode.RANDOM);
            Map<String, String> after = new HashMap<>();
            for (String n : new FileStorage(dir).list("")) {
                after.put(n, Files.readString(dir.resolve(n)));
            }
            String why = "round " + round + ": " + trace + "\n" + r;
            int keptDir = r.keptDirectoryOps();
            assertTrue(keptDir < states.size(), why);
            assertEquals(states.get(keptDir), after, why);
        }
    }

    @Test
    void failedDirectoryForceLeavesOperationsUnforced() throws IOException {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        s.open("a", true).close();
        s.failNextDirectoryForce();
        assertThrows(IOException.class, s::forceDirectory);
        assertEquals(1, s.unforcedDirectoryOperations());
        s.open("b", true).close();
        s.crash(new Random(15), CrashMode.LOSE_ALL);
        assertEquals(List.of(), new FileStorage(dir).list(""));
    }

    /**
     * Several files; random writes (also through handles of renamed and deleted files), forces,
     * creates, renames, deletes and directory forces. After LOSE_ALL the directory is the durable
     * one and each file holds its forced data; after KEEP_ALL everything is as before the crash.
     */
    @Test
    void randomFilesAndDirectoryMatchTheModel() throws IOException {
        long seed = Seeds.seed("FaultInjectingStorageTest.randomFilesAndDirectoryMatchTheModel");
        Random rnd = new Random(seed);
        String[] names = {"a", "b", "c", "d"};
        for (int round = 0; round < 60; round++) {
            CrashMode mode = round % 2 == 0 ? CrashMode.LOSE_ALL : CrashMode.KEEP_ALL;
            Path dir = newDir();
            FaultInjectingStorage s = new FaultInjectingStorage(dir);
            List<StorageFile> handles = new ArrayList<>(); // by file id
            List<byte[]> cur = new ArrayList<>();
            List<byte[]> dur = new ArrayList<>();
            Map<String, Integer> curDir = new HashMap<>();
            Map<String, Integer> durDir = new HashMap<>();
            StringBuilder trace = new StringBuilder();
            for (int k = 0, ops = rnd.nextInt(40); k < ops; k++) {
                String n = names[rnd.nextInt(names.length)];
                String m = names[rnd.nextInt(names.length)];
                int what = rnd.nextInt(8);
                if (what == 0 && !curDir.containsKey(n)) {
                    int id = handles.size();
                    handles.add(s.open(n, true));
                    cur.add(new byte[0]);
                    dur.add(new byte[0]);
                    curDir.put(n, id);
                    trace.append("create ").append(n).append("=#").append(id).append("; ");
                } else if (what <= 2 && !handles.isEmpty()) {
                    int id = rnd.nextInt(handles.size());
                    byte[] b = new byte[1 + rnd.nextInt(700)];
                    rnd.nextBytes(b);
                    int p = rnd.nextInt(cur.get(id).length + 100);
                    write(handles.get(id), b, p);
                    byte[] c = Arrays.copyOf(cur.get(id), Math.max(cur.get(id).length, p + b.length));
                    System.arraycopy(b, 0, c, p, b.length);
                    cur.set(id, c);
                    trace.append("write #").append(id).append(' ').append(p).append('+').append(b.length).append("; ");
                } else if (what == 3 && !handles.isEmpty()) {
                    int id = rnd.nextInt(handles.size());
                    handles.get(id).force();
                    dur.set(id, cur.get(id).clone());
                    trace.append("force #").append(id).append("; ");
                } else if (what == 4 && curDir.containsKey(n)) {
                    s.delete(n);
                    curDir.remove(n);
                    trace.append("delete ").append(n).append("; ");
                } else if (what == 5 && curDir.containsKey(n) && !n.equals(m)) {
                    s.rename(n, m);
                    curDir.put(m, curDir.remove(n));
                    trace.append("rename ").append(n).append(' ').append(m).append("; ");
                } else if (what == 6) {
                    s.forceDirectory();
                    durDir = new HashMap<>(curDir);
                    trace.append("forceDirectory; ");
                }
            }
            CrashReport r = s.crash(rnd, mode);
            Map<String, Integer> expectedDir = mode == CrashMode.LOSE_ALL ? durDir : curDir;
            List<byte[]> expectedData = mode == CrashMode.LOSE_ALL ? dur : cur;
            String why = "round " + round + " " + mode + ": " + trace + "\n" + r;
            assertEquals(new TreeMap<>(expectedDir).keySet().stream().toList(), new FileStorage(dir).list(""), why);
            for (Map.Entry<String, Integer> e : expectedDir.entrySet()) {
                assertArrayEquals(expectedData.get(e.getValue()), Files.readAllBytes(dir.resolve(e.getKey())),
                        e.getKey() + "=#" + e.getValue() + " " + why);
            }
        }
    }

    // ------------------------------------------------------------------ threads

    @Test
    void concurrentWritersAndForces() throws Exception {
        Path dir = newDir();
        FaultInjectingStorage s = new FaultInjectingStorage(dir);
        StorageFile f = s.open("f", true);
        s.forceDirectory();
        int threads = 6;
        int blocks = 100;
        int block = 300;
        Map<Integer, Boolean> forced = new ConcurrentHashMap<>();
        ExecutorService pool = Executors.newFixedThreadPool(threads);
        try {
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int id = t;
                fs.add(pool.submit(() -> {
                    List<Integer> mine = new ArrayList<>();
                    for (int i = 0; i < blocks; i++) {
                        int blockNo = i * threads + id;
                        write(f, filled(block, 1 + id), (long) blockNo * block);
                        mine.add(blockNo);
                        if (i % 7 == 0) {
                            f.force();
                            for (int b : mine) {
                                forced.put(b, true);
                            }
                            mine.clear();
                        }
                    }
                    return null;
                }));
            }
            for (Future<?> x : fs) {
                x.get();
            }
        } finally {
            pool.shutdownNow();
        }
        s.crash(new Random(14), CrashMode.LOSE_ALL);
        byte[] after = Files.readAllBytes(dir.resolve("f"));
        for (int b : forced.keySet()) {
            for (int j = 0; j < block; j++) {
                long at = (long) b * block + j;
                assertTrue(at < after.length, "forced block " + b + " cut off");
                assertEquals(1 + b % threads, after[(int) at], "forced block " + b);
            }
        }
        // Blocks no thread forced itself may have been covered by another thread's force: each is
        // all there or all zeros.
        for (int b = 0; b < threads * blocks && (long) b * block < after.length; b++) {
            int first = after[b * block];
            assertTrue(first == 0 || first == 1 + b % threads, "block " + b);
            for (int j = 0; j < block && b * block + j < after.length; j++) {
                assertEquals(first, after[b * block + j], "block " + b + " byte " + j);
            }
        }
    }

    // ------------------------------------------------------------------ helper

    @Test
    void rangesSubtract() {
        FaultInjectingStorage.Ranges r = new FaultInjectingStorage.Ranges();
        r.add(10, 20);
        r.add(30, 40);
        r.add(35, 50);
        r.add(20, 22);
        assertEquals("[[0, 10], [22, 30], [50, 60]]", str(r.subtract(0, 60)));
        assertEquals("[[22, 25]]", str(r.subtract(15, 25)));
        assertEquals("[]", str(r.subtract(31, 49)));
        assertEquals("[[5, 8]]", str(r.subtract(5, 8)));
        assertEquals("[[50, 51]]", str(r.subtract(45, 51)));
    }

    private static String str(List<long[]> parts) {
        List<String> out = new ArrayList<>();
        for (long[] p : parts) {
            out.add(Arrays.toString(p));
        }
        return out.toString();
    }
}
