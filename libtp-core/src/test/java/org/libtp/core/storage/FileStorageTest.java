package org.libtp.core.storage;

import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@link FileStorage}: the real implementation of {@link Storage}. */
class FileStorageTest {
    @TempDir
    Path dir;

    static ByteBuffer bytes(String s) {
        return ByteBuffer.wrap(s.getBytes(StandardCharsets.US_ASCII));
    }

    static String read(StorageFile f, long position, int length) throws IOException {
        ByteBuffer b = ByteBuffer.allocate(length);
        f.readFully(b, position);
        return new String(b.array(), StandardCharsets.US_ASCII);
    }

    @Test
    void openCreatesOnlyWhenAsked() throws IOException {
        FileStorage s = new FileStorage(dir);
        assertEquals(dir, s.directory());
        assertFalse(s.exists("a"));
        assertThrows(NoSuchFileException.class, () -> s.open("a", false));
        assertFalse(s.exists("a"));
        try (StorageFile f = s.open("a", true)) {
            assertEquals("a", f.name());
            assertEquals(0, f.size());
        }
        assertTrue(s.exists("a"));
        try (StorageFile f = s.open("a", false)) {
            assertEquals(0, f.size());
        }
        try (StorageFile f = s.open("a", true)) { // create on an existing file keeps it
            f.write(bytes("xyz"), 0);
        }
        try (StorageFile f = s.open("a", true)) {
            assertEquals(3, f.size());
        }
    }

    @Test
    void writeReadRoundTripAndSourceIsConsumed() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            ByteBuffer src = bytes("hello world");
            f.write(src, 0);
            assertFalse(src.hasRemaining(), "write consumes its source");
            f.write(bytes("W"), 6);
            f.force();
            assertEquals(11, f.size());
            assertEquals("hello World", read(f, 0, 11));
            assertEquals("lo W", read(f, 3, 4));
            ByteBuffer direct = ByteBuffer.allocateDirect(5);
            direct.put("HELLO".getBytes(StandardCharsets.US_ASCII)).flip();
            f.write(direct, 0);
            assertEquals("HELLO World", read(f, 0, 11));
        }
        assertEquals("HELLO World", Files.readString(dir.resolve("f")));
    }

    @Test
    void readAtAndPastEnd() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            f.write(bytes("abcdef"), 0);
            ByteBuffer b = ByteBuffer.allocate(10);
            assertEquals(6, f.read(b, 0), "short read at the end");
            assertEquals(-1, f.read(ByteBuffer.allocate(1), 6));
            assertEquals(-1, f.read(ByteBuffer.allocate(1), 100));
            b.clear();
            assertEquals(2, f.read(b, 4));
            assertEquals('e', b.get(0));
        }
    }

    @Test
    void readFullyThrowsEofAndReadsWhatExists() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            f.write(bytes("abcdef"), 0);
            ByteBuffer b = ByteBuffer.allocate(4);
            EOFException e = assertThrows(EOFException.class, () -> f.readFully(b, 4));
            assertTrue(e.getMessage().contains("f"), e.getMessage());
            assertEquals(2, b.position(), "bytes before the end were read");
            assertThrows(EOFException.class, () -> f.readFully(ByteBuffer.allocate(1), 6));
            f.readFully(ByteBuffer.allocate(0), 6); // nothing to read: no EOF
            assertEquals("cdef", read(f, 2, 4));
        }
    }

    @Test
    void writePastEndLeavesAHoleOfZeros() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            f.write(bytes("ab"), 0);
            f.write(bytes("z"), 10);
            assertEquals(11, f.size());
            byte[] b = new byte[11];
            f.readFully(ByteBuffer.wrap(b), 0);
            byte[] expected = new byte[11];
            expected[0] = 'a';
            expected[1] = 'b';
            expected[10] = 'z';
            assertArrayEquals(expected, b);
        }
    }

    @Test
    void truncateOnlyShrinks() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            f.write(bytes("0123456789"), 0);
            f.truncate(20);
            assertEquals(10, f.size(), "truncate to a larger size has no effect");
            f.truncate(4);
            assertEquals(4, f.size());
            assertEquals("0123", read(f, 0, 4));
            assertEquals(-1, f.read(ByteBuffer.allocate(1), 4));
            f.truncate(0);
            assertEquals(0, f.size());
        }
    }

    @Test
    void preallocateExtendsWithZerosAndKeepsData() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("f", true)) {
            f.write(bytes("data"), 0);
            int size = 200_000; // more than one 64 KiB chunk, not a multiple of it
            f.preallocate(size);
            assertEquals(size, f.size());
            assertEquals("data", read(f, 0, 4));
            byte[] rest = new byte[size - 4];
            f.readFully(ByteBuffer.wrap(rest), 4);
            assertArrayEquals(new byte[size - 4], rest);
            f.preallocate(10);
            assertEquals(size, f.size(), "preallocate to a smaller size has no effect");
            f.force();
        }
        assertEquals(200_000, Files.size(dir.resolve("f")));
    }

    @Test
    void listFiltersByPrefixAndSorts() throws IOException {
        FileStorage s = new FileStorage(dir);
        for (String n : List.of("log.0000000003", "log.0000000001", "data", "log.0000000002", "lo")) {
            s.open(n, true).close();
        }
        assertEquals(List.of("log.0000000001", "log.0000000002", "log.0000000003"), s.list("log."));
        assertEquals(List.of("data", "lo", "log.0000000001", "log.0000000002", "log.0000000003"), s.list(""));
        assertEquals(List.of(), s.list("zzz"));
    }

    @Test
    void renameReplacesAndDeleteRemoves() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("tmp", true)) {
            f.write(bytes("new"), 0);
        }
        try (StorageFile f = s.open("final", true)) {
            f.write(bytes("old contents"), 0);
        }
        s.rename("tmp", "final");
        s.forceDirectory();
        assertFalse(s.exists("tmp"));
        try (StorageFile f = s.open("final", false)) {
            assertEquals(3, f.size());
            assertEquals("new", read(f, 0, 3));
        }
        s.rename("final", "other");
        assertEquals(List.of("other"), s.list(""));
        assertThrows(NoSuchFileException.class, () -> s.rename("missing", "x"));
        s.delete("other");
        assertFalse(s.exists("other"));
        s.delete("other"); // deleting a missing file is not an error
        s.forceDirectory();
        assertEquals(List.of(), s.list(""));
    }

    @Test
    void openHandleSurvivesRenameOfItsFile() throws IOException {
        FileStorage s = new FileStorage(dir);
        try (StorageFile f = s.open("a", true)) {
            f.write(bytes("one"), 0);
            s.rename("a", "b");
            f.write(bytes("two"), 3);
            f.force();
        }
        assertEquals("onetwo", Files.readString(dir.resolve("b")));
    }

    @Test
    void concurrentPositionalWritesAndReads() throws Exception {
        FileStorage s = new FileStorage(dir);
        int threads = 8;
        int blocks = 200;
        int block = 100;
        try (StorageFile f = s.open("f", true)) {
            ExecutorService pool = Executors.newFixedThreadPool(threads);
            try {
                List<Future<?>> fs = new ArrayList<>();
                for (int t = 0; t < threads; t++) {
                    int id = t;
                    fs.add(pool.submit(() -> {
                        byte[] b = new byte[block];
                        Arrays.fill(b, (byte) id);
                        for (int i = 0; i < blocks; i++) {
                            long pos = ((long) i * threads + id) * block;
                            f.write(ByteBuffer.wrap(b), pos);
                            ByteBuffer back = ByteBuffer.allocate(block);
                            f.readFully(back, pos);
                            assertArrayEquals(b, back.array());
                            if (i % 50 == 0) {
                                f.force();
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
            assertEquals((long) threads * blocks * block, f.size());
            byte[] all = new byte[threads * blocks * block];
            f.readFully(ByteBuffer.wrap(all), 0);
            for (int i = 0; i < all.length; i++) {
                assertEquals((i / block) % threads, all[i], "byte " + i);
            }
        }
    }
}
