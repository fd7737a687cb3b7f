package org.libtp.core.memory;

import com.sun.jna.Pointer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.function.Executable;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.Seeds;

import java.io.IOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.CyclicBarrier;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.LongConsumer;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The {@link Memory} contract, run against every implementation by a subclass that says how to
 * map a file. Results are compared with a {@code byte[]} model (little-endian, as the contract
 * requires on every supported platform).
 */
@Timeout(value = 60, threadMode = Timeout.ThreadMode.SEPARATE_THREAD) // a broken bound can loop forever
abstract class MemoryConformanceTest {
    /** 4 KiB chunks: small enough that a few KiB of memory span several chunks. */
    static final int SMALL_SHIFT = 12;
    static final int CHUNK = 1 << SMALL_SHIFT;
    /** One chunk at the default (1 GiB) chunk size; not a multiple of 8, to test the tail. */
    static final long BASIC_SIZE = 1003;
    /** Three full 4 KiB chunks and a partial one (neither a multiple of the chunk size nor of 8). */
    static final long MULTI_SIZE = 3L * CHUNK + 1001;

    private static final VarHandle MODEL_INT =
            MethodHandles.byteArrayViewVarHandle(int[].class, ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle MODEL_LONG =
            MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    @TempDir
    Path dir;

    private final List<Memory> opened = new ArrayList<>();
    private int files;

    /**
     * Maps a fresh (zeroed, sparse) temp file of {@code size} bytes with this subclass's
     * implementation and chunk size {@code 1 << chunkShift}.
     */
    abstract Memory newMemory(String name, long size, int chunkShift) throws IOException;

    /** Maps a fresh sparse temp file with the given implementation; closed after the test. */
    final Memory map(MemoryImpl impl, String name, long size, int chunkShift) throws IOException {
        Path file = dir.resolve(name + "-" + (files++) + ".mem");
        try (FileChannel ch = FileChannel.open(file, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.READ, StandardOpenOption.WRITE)) {
            if (size > 0) {
                ch.write(ByteBuffer.wrap(new byte[1]), size - 1); // sets the length, leaves a hole
                assertEquals(size, ch.size());
            }
            Memory m = MemoryFactory.map(ch, name, size, impl, chunkShift);
            opened.add(m);
            return m;
        }
    }

    @AfterEach
    void closeAll() {
        opened.forEach(Memory::close);
        opened.clear();
    }

    // ---------------------------------------------------------------------------------------
    // Helpers

    static byte[] snapshot(Memory m) {
        byte[] b = new byte[Math.toIntExact(m.size())];
        m.getBytes(0, b, 0, b.length);
        return b;
    }

    /** Fills {@code m} with random bytes and returns the matching model. */
    static byte[] randomize(Memory m, Random r) {
        byte[] model = new byte[Math.toIntExact(m.size())];
        r.nextBytes(model);
        m.putBytes(0, model, 0, model.length);
        return model;
    }

    static void assertMatches(byte[] model, Memory m, String what) {
        byte[] actual = snapshot(m);
        if (!Arrays.equals(model, actual)) {
            int i = Arrays.mismatch(model, actual);
            fail(what + ": " + m.name() + " differs from the model first at offset " + i
                    + " (expected " + model[i] + ", was " + actual[i] + ")");
        }
    }

    static int modelInt(byte[] model, long off) {
        return (int) MODEL_INT.get(model, Math.toIntExact(off));
    }

    static void modelPutInt(byte[] model, long off, int v) {
        MODEL_INT.set(model, Math.toIntExact(off), v);
    }

    static long modelLong(byte[] model, long off) {
        return (long) MODEL_LONG.get(model, Math.toIntExact(off));
    }

    static void modelPutLong(byte[] model, long off, long v) {
        MODEL_LONG.set(model, Math.toIntExact(off), v);
    }

    static void assertOutOfBounds(Memory m, String what, Executable op) {
        byte[] before = snapshot(m);
        assertThrows(IndexOutOfBoundsException.class, op, what);
        assertArrayEquals(before, snapshot(m), what + " modified memory");
    }

    static void assertMisaligned(Memory m, String what, Executable op) {
        byte[] before = snapshot(m);
        assertThrows(IllegalArgumentException.class, op, what);
        assertArrayEquals(before, snapshot(m), what + " modified memory");
    }

    /** Offsets at which {@code width} bytes are not within {@code [0, size)}. */
    static long[] badOffsets(long size, int width) {
        long alignedPastEnd = size & -(long) width; // the first aligned offset with no room
        long[] candidates = {-1, -width, -8, -4096, Long.MIN_VALUE, Long.MIN_VALUE + 8,
                size - width + 1, size - 1, size, size + 1, size + 8, alignedPastEnd,
                Integer.MAX_VALUE, 1L << 31, 1L << 32, (1L << 32) + 8, (1L << 32) - width + 1,
                Long.MAX_VALUE, Long.MAX_VALUE - width + 2, Long.MAX_VALUE & -8L,
                (Long.MAX_VALUE & -8L) - 8};
        Set<Long> bad = new LinkedHashSet<>();
        for (long off : candidates) {
            if (off < 0 || off > size - width) {
                bad.add(off);
            }
        }
        return bad.stream().mapToLong(Long::longValue).toArray();
    }

    /** (offset, length) pairs that are not within {@code [0, size)}. */
    static long[][] badRanges(long size) {
        return new long[][] {
            {-1, 0}, {-1, 1}, {-8, 16}, {Long.MIN_VALUE, 1}, {Long.MIN_VALUE, 0},
            {size + 1, 0}, {size, 1}, {size - 3, 4}, {size - 1, 2}, {0, size + 1}, {1, size},
            {0, -1}, {5, -1}, {size, -1}, {0, Integer.MIN_VALUE}, {0, Long.MIN_VALUE},
            {Long.MAX_VALUE, 1}, {Long.MAX_VALUE - 2, 8}, {8, Long.MAX_VALUE},
            {Long.MAX_VALUE, Long.MAX_VALUE}, {1L << 32, 4}, {(1L << 32) - 2, 4},
            {1L << 31, 1}, {0, 1L << 32}, {0, (1L << 32) + 4},
        };
    }

    // ---------------------------------------------------------------------------------------
    // Basics

    @Test
    void platformIsLittleEndian() {
        assertEquals(ByteOrder.LITTLE_ENDIAN, ByteOrder.nativeOrder(),
                "the Memory contract and this suite's model assume a little-endian platform");
    }

    @Test
    void sizeNameAndZeroedContents() throws IOException {
        Memory m = newMemory("basic", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        assertEquals(BASIC_SIZE, m.size());
        assertEquals("basic", m.name());
        assertArrayEquals(new byte[(int) BASIC_SIZE], snapshot(m));
        Memory multi = newMemory("multi", MULTI_SIZE, SMALL_SHIFT);
        assertEquals(MULTI_SIZE, multi.size());
        assertArrayEquals(new byte[(int) MULTI_SIZE], snapshot(multi));
    }

    @Test
    void viewsShowTheBytesWithoutCopyingAndAreCheckedAndReadOnly() throws IOException {
        Memory m = newMemory("views", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        for (int off = 0; off < 64; off++) {
            m.putByte(off, (byte) off);
        }
        java.nio.ByteBuffer v = m.view(3, 20);
        assertEquals(20, v.remaining());
        assertEquals(3, v.get(0));
        assertEquals(22, v.get(19));
        m.putByte(5, (byte) 99); // no copy: the view sees later stores
        assertEquals(99, v.get(2));
        assertTrue(v.isReadOnly());
        assertThrows(java.nio.ReadOnlyBufferException.class, () -> v.put(0, (byte) 1));
        assertThrows(IndexOutOfBoundsException.class, () -> m.view(BASIC_SIZE - 4, 8));
        assertThrows(IndexOutOfBoundsException.class, () -> m.view(-1, 4));
        Memory multi = newMemory("views-multi", MULTI_SIZE, SMALL_SHIFT);
        assertThrows(IllegalArgumentException.class, () -> multi.view((1L << SMALL_SHIFT) - 2, 4), "crosses a chunk");
    }

    @Test
    void badSizesAndChunkShiftsAreRejected() {
        assertThrows(IllegalArgumentException.class, () -> newMemory("empty", 0, SMALL_SHIFT));
        assertThrows(IllegalArgumentException.class, () -> newMemory("shift2", 100, 2));
        assertThrows(IllegalArgumentException.class, () -> newMemory("shift31", 100, 31));
    }

    @Test
    void bytesAtEveryOffset() throws IOException {
        Memory m = newMemory("bytes", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] model = new byte[(int) BASIC_SIZE];
        for (int off = 0; off < BASIC_SIZE; off++) {
            byte v = (byte) (off * 31 + 7);
            m.putByte(off, v);
            model[off] = v;
            assertEquals(v, m.getByte(off));
        }
        m.putByte(0, Byte.MIN_VALUE);
        model[0] = Byte.MIN_VALUE;
        m.putByte(BASIC_SIZE - 1, (byte) -1);
        model[(int) BASIC_SIZE - 1] = -1;
        assertEquals(Byte.MIN_VALUE, m.getByte(0));
        assertEquals((byte) -1, m.getByte(BASIC_SIZE - 1));
        assertMatches(model, m, "putByte");
    }

    @Test
    void intsAndLongsAtAlignedAndMisalignedOffsets() throws IOException {
        Memory m = newMemory("plain", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Random r = new Random(42);
        byte[] model = randomize(m, r);
        List<Long> offsets = new ArrayList<>();
        for (long off = 0; off <= 24; off++) {
            offsets.add(off);
        }
        for (long off = BASIC_SIZE - 8 - 9; off <= BASIC_SIZE - 4; off++) {
            offsets.add(off);
        }
        for (long off : offsets) {
            int iv = r.nextInt();
            m.putInt(off, iv);
            modelPutInt(model, off, iv);
            assertEquals(iv, m.getInt(off), "getInt at " + off);
            assertMatches(model, m, "putInt at " + off);
            if (off <= BASIC_SIZE - 8) {
                long lv = r.nextLong();
                m.putLong(off, lv);
                modelPutLong(model, off, lv);
                assertEquals(lv, m.getLong(off), "getLong at " + off);
                assertMatches(model, m, "putLong at " + off);
            }
        }
        // Byte order is native = little-endian: the low byte comes first.
        m.putLong(16, 0x0102030405060708L);
        assertEquals(0x08, m.getByte(16));
        assertEquals(0x01, m.getByte(23));
        assertEquals(0x05060708, m.getInt(16));
        assertEquals(0x04050607, m.getInt(17));
        m.putInt(BASIC_SIZE - 4, 0xA1B2C3D4);
        assertEquals((byte) 0xD4, m.getByte(BASIC_SIZE - 4));
        assertEquals((byte) 0xA1, m.getByte(BASIC_SIZE - 1));
        // Every plain read agrees with the model.
        modelPutLong(model, 16, 0x0102030405060708L);
        modelPutInt(model, BASIC_SIZE - 4, 0xA1B2C3D4);
        for (long off = 0; off <= BASIC_SIZE - 8; off++) {
            assertEquals(modelLong(model, off), m.getLong(off), "getLong at " + off);
            assertEquals(modelInt(model, off), m.getInt(off), "getInt at " + off);
            assertEquals(model[(int) off], m.getByte(off));
        }
    }

    @Test
    void volatileIntsAndLongs() throws IOException {
        Memory m = newMemory("volatile", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Random r = new Random(7);
        byte[] model = randomize(m, r);
        for (long off = 0; off <= BASIC_SIZE - 4; off += 4) {
            assertEquals(modelInt(model, off), m.getIntVolatile(off));
            int v = r.nextInt();
            m.putIntVolatile(off, v);
            modelPutInt(model, off, v);
            assertEquals(v, m.getInt(off));
            assertEquals(v, m.getIntVolatile(off));
        }
        assertMatches(model, m, "putIntVolatile");
        for (long off = 0; off <= BASIC_SIZE - 8; off += 8) {
            assertEquals(modelLong(model, off), m.getLongVolatile(off));
            long v = r.nextLong();
            m.putLongVolatile(off, v);
            modelPutLong(model, off, v);
            assertEquals(v, m.getLong(off));
            assertEquals(v, m.getLongVolatile(off));
            m.putLong(off, ~v);
            modelPutLong(model, off, ~v);
            assertEquals(~v, m.getLongVolatile(off));
        }
        assertMatches(model, m, "putLongVolatile");
    }

    @Test
    void compareAndSetIntSucceedsAndFails() throws IOException {
        Memory m = newMemory("casint", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] model = randomize(m, new Random(3));
        long[] offsets = {0, 4, 96, 500, (BASIC_SIZE - 4) & -4L};
        for (long off : offsets) {
            m.putInt(off, 0x7F000005);
            modelPutInt(model, off, 0x7F000005);
            assertFalse(m.compareAndSetInt(off, 5, 6), "CAS must compare all 32 bits");
            assertFalse(m.compareAndSetInt(off, 0x7F000004, 6));
            assertMatches(model, m, "failed CAS at " + off);
            assertTrue(m.compareAndSetInt(off, 0x7F000005, 0x80000001));
            modelPutInt(model, off, 0x80000001);
            assertEquals(0x80000001, m.getInt(off));
            assertTrue(m.compareAndSetInt(off, 0x80000001, 0x80000001), "CAS to the same value");
            assertFalse(m.compareAndSetInt(off, 0x7F000005, 0));
            assertMatches(model, m, "CAS at " + off);
        }
    }

    @Test
    void compareAndSetLongSucceedsAndFails() throws IOException {
        Memory m = newMemory("caslong", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] model = randomize(m, new Random(4));
        long[] offsets = {0, 8, 96, 496, (BASIC_SIZE - 8) & -8L};
        for (long off : offsets) {
            m.putLong(off, 0x1_0000_0005L);
            modelPutLong(model, off, 0x1_0000_0005L);
            assertFalse(m.compareAndSetLong(off, 5, 6), "CAS must compare all 64 bits");
            assertFalse(m.compareAndSetLong(off, 0x2_0000_0005L, 6));
            assertMatches(model, m, "failed CAS at " + off);
            assertTrue(m.compareAndSetLong(off, 0x1_0000_0005L, 0x8000_0000_0000_0001L));
            modelPutLong(model, off, 0x8000_0000_0000_0001L);
            assertEquals(0x8000_0000_0000_0001L, m.getLong(off));
            assertFalse(m.compareAndSetLong(off, 0x1_0000_0005L, 0));
            assertTrue(m.compareAndSetLong(off, 0x8000_0000_0000_0001L, -1L));
            modelPutLong(model, off, -1L);
            assertMatches(model, m, "CAS at " + off);
        }
    }

    @Test
    void getAndAddAndGetAndSet() throws IOException {
        Memory m = newMemory("getandadd", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] model = randomize(m, new Random(5));

        m.putInt(40, Integer.MAX_VALUE);
        assertEquals(Integer.MAX_VALUE, m.getAndAddInt(40, 1));
        assertEquals(Integer.MIN_VALUE, m.getInt(40), "int addition wraps");
        assertEquals(Integer.MIN_VALUE, m.getAndAddInt(40, -3));
        assertEquals(Integer.MIN_VALUE - 3, m.getAndAddInt(40, 0));
        assertEquals(Integer.MAX_VALUE - 2, m.getInt(40));
        modelPutInt(model, 40, Integer.MAX_VALUE - 2);

        m.putLong(48, 0xFFFF_FFFFL);
        assertEquals(0xFFFF_FFFFL, m.getAndAddLong(48, 1));
        assertEquals(0x1_0000_0000L, m.getLong(48), "the carry reaches the upper half");
        assertEquals(0x1_0000_0000L, m.getAndAddLong(48, -2));
        assertEquals(0xFFFF_FFFEL, m.getLong(48));
        m.putLong(48, Long.MAX_VALUE);
        assertEquals(Long.MAX_VALUE, m.getAndAddLong(48, 1));
        assertEquals(Long.MIN_VALUE, m.getAndAddLong(48, 1L << 40));
        assertEquals(Long.MIN_VALUE + (1L << 40), m.getLong(48));
        modelPutLong(model, 48, Long.MIN_VALUE + (1L << 40));

        m.putInt(60, 17);
        assertEquals(17, m.getAndSetInt(60, -9));
        assertEquals(-9, m.getAndSetInt(60, 0x12345678));
        assertEquals(0x12345678, m.getInt(60));
        modelPutInt(model, 60, 0x12345678);

        long last4 = (BASIC_SIZE - 4) & -4L;
        long last8 = (BASIC_SIZE - 8) & -8L;
        m.putInt(last4, 1);
        assertEquals(1, m.getAndAddInt(last4, 41));
        assertEquals(42, m.getAndSetInt(last4, 43));
        modelPutInt(model, last4, 43);
        m.putLong(last8, 10);
        assertEquals(10, m.getAndAddLong(last8, 5));
        modelPutLong(model, last8, 15);
        assertMatches(model, m, "getAndAdd/getAndSet");
    }

    @Test
    void getAndPutBytesWithArrayOffsets() throws IOException {
        Memory m = newMemory("bulk", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Random r = new Random(6);
        byte[] model = randomize(m, r);

        byte[] src = new byte[100];
        r.nextBytes(src);
        m.putBytes(37, src, 10, 50);
        System.arraycopy(src, 10, model, 37, 50);
        assertMatches(model, m, "putBytes with an array offset");

        byte[] dst = new byte[200];
        Arrays.fill(dst, (byte) 0x77);
        m.getBytes(30, dst, 20, 70);
        for (int i = 0; i < dst.length; i++) {
            byte expected = i >= 20 && i < 90 ? model[30 + i - 20] : (byte) 0x77;
            assertEquals(expected, dst[i], "dst[" + i + "]");
        }

        // The whole range, the last byte, and empty transfers at the ends.
        byte[] all = new byte[(int) BASIC_SIZE + 5];
        r.nextBytes(all);
        m.putBytes(0, all, 5, (int) BASIC_SIZE);
        System.arraycopy(all, 5, model, 0, (int) BASIC_SIZE);
        assertMatches(model, m, "putBytes of everything");
        byte[] one = {0, 0, (byte) 0xEE};
        m.putBytes(BASIC_SIZE - 1, one, 2, 1);
        model[(int) BASIC_SIZE - 1] = (byte) 0xEE;
        m.getBytes(BASIC_SIZE - 1, one, 0, 1);
        assertEquals((byte) 0xEE, one[0]);
        m.putBytes(BASIC_SIZE, src, src.length, 0);
        m.putBytes(0, src, 0, 0);
        m.getBytes(BASIC_SIZE, dst, dst.length, 0);
        m.getBytes(0, new byte[0], 0, 0);
        assertMatches(model, m, "putBytes");
    }

    @Test
    void fill() throws IOException {
        Memory m = newMemory("fill", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] model = randomize(m, new Random(8));
        long[][] ranges = {{0, 0}, {0, 1}, {3, 17}, {100, 400}, {BASIC_SIZE - 1, 1},
            {BASIC_SIZE, 0}, {500, BASIC_SIZE - 500}};
        byte v = 1;
        for (long[] rg : ranges) {
            m.fill(rg[0], rg[1], v);
            Arrays.fill(model, (int) rg[0], (int) (rg[0] + rg[1]), v);
            assertMatches(model, m, "fill(" + rg[0] + ", " + rg[1] + ")");
            v = (byte) (v * 3 + 0x41);
        }
        m.fill(0, BASIC_SIZE, (byte) 0xFF);
        Arrays.fill(model, (byte) 0xFF);
        assertMatches(model, m, "fill everything");
    }

    @Test
    void copyToAnotherMemory() throws IOException {
        Random r = new Random(9);
        Memory a = newMemory("copy-a", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Memory b = newMemory("copy-b", BASIC_SIZE + 29, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        byte[] ma = randomize(a, r);
        byte[] mb = randomize(b, r);
        long[][] cases = {{0, 0, BASIC_SIZE}, {1, 7, 100}, {13, 0, 0}, {500, BASIC_SIZE + 29 - 400, 400},
            {BASIC_SIZE - 1, BASIC_SIZE + 28, 1}, {BASIC_SIZE, BASIC_SIZE + 29, 0}};
        for (long[] c : cases) {
            a.copyTo(c[0], b, c[1], c[2]);
            System.arraycopy(ma, (int) c[0], mb, (int) c[1], (int) c[2]);
            assertMatches(mb, b, "copyTo " + Arrays.toString(c));
            assertMatches(ma, a, "copyTo source " + Arrays.toString(c));
            b.copyTo(c[1], a, c[0], c[2]);
            assertMatches(ma, a, "copy back " + Arrays.toString(c));
            ma = randomize(a, r);
        }
    }

    /** Destinations of another implementation go through the generic copy path. */
    @Test
    void copyToAndFromOtherImplementations() throws IOException {
        Random r = new Random(10);
        Memory m = newMemory("self", MULTI_SIZE, SMALL_SHIFT);
        Memory varHandle = map(MemoryImpl.VARHANDLE, "varhandle", MULTI_SIZE + 5, SMALL_SHIFT + 1);
        assertTrue(varHandle instanceof MappedMemory);
        Memory fwdTarget = newMemory("fwd", MULTI_SIZE - 3, SMALL_SHIFT);
        Memory forwarding = new ForwardingMemory(fwdTarget);
        byte[] mm = randomize(m, r);
        byte[] mv = randomize(varHandle, r);
        byte[] mf = randomize(fwdTarget, r);

        m.copyTo(5, varHandle, 4090, 9000);
        System.arraycopy(mm, 5, mv, 4090, 9000);
        assertMatches(mv, varHandle, "to a VarHandle memory");
        m.copyTo(100, forwarding, 1, MULTI_SIZE - 200);
        System.arraycopy(mm, 100, mf, 1, (int) MULTI_SIZE - 200);
        assertMatches(mf, fwdTarget, "to a forwarding memory");
        // Larger than copyViaHeap's 64 KiB buffer is covered by copiesLargerThanOneBuffer.
        varHandle.copyTo(3, m, CHUNK - 1, 2 * CHUNK + 3);
        System.arraycopy(mv, 3, mm, CHUNK - 1, 2 * CHUNK + 3);
        assertMatches(mm, m, "from a VarHandle memory");
        forwarding.copyTo(0, m, 0, MULTI_SIZE - 3);
        System.arraycopy(mf, 0, mm, 0, (int) MULTI_SIZE - 3);
        assertMatches(mm, m, "from a forwarding memory");
        assertMatches(mv, varHandle, "source unchanged");
    }

    @Test
    void copiesLargerThanOneBuffer() throws IOException {
        Random r = new Random(11);
        long size = 200_003;
        Memory m = newMemory("big-a", size, SMALL_SHIFT);
        Memory other = newMemory("big-b", size + 1000, SMALL_SHIFT + 3);
        Memory fwdTarget = newMemory("big-c", size, SMALL_SHIFT);
        byte[] mm = randomize(m, r);
        byte[] mo = randomize(other, r);
        randomize(fwdTarget, r);
        m.copyTo(1, other, 999, size - 1);
        System.arraycopy(mm, 1, mo, 999, (int) size - 1);
        assertMatches(mo, other, "copy of ~200 KB");
        m.copyTo(0, new ForwardingMemory(fwdTarget), 0, size);
        assertMatches(mm, fwdTarget, "generic copy of ~200 KB");
        other.copyTo(7, m, 3, size - 5);
        System.arraycopy(mo, 7, mm, 3, (int) size - 5);
        assertMatches(mm, m, "copy back of ~200 KB");
        assertMatches(mo, other, "source");
    }

    @Test
    void overlappingCopiesWithinOneMemory() throws IOException {
        Random r = new Random(12);
        long size = 300_007;
        Memory m = newMemory("overlap", size, SMALL_SHIFT);
        byte[] model = randomize(m, r);
        long[] distances = {0, 1, 3, 7, 8, 4095, 4096, 4097, 65_535, 65_536, 65_537, 100_000};
        long[] lengths = {1, 17, 5000, 70_000, 140_001};
        int cases = 0;
        for (long d : distances) {
            for (long len : lengths) {
                for (int dir = -1; dir <= 1; dir += 2) {
                    long src = 1 + r.nextInt(50_000);
                    long dst = src + dir * d;
                    if (dst < 0 || dst + len > size || src + len > size) {
                        continue;
                    }
                    m.copyTo(src, m, dst, len);
                    System.arraycopy(model, (int) src, model, (int) dst, (int) len);
                    assertMatches(model, m, "copyTo(" + src + " -> " + dst + ", " + len + ")");
                    cases++;
                    if (cases % 8 == 0) {
                        model = randomize(m, r);
                    }
                }
            }
        }
        assertTrue(cases > 80, "ran " + cases + " cases");
        // The same through a forwarding wrapper (destination is then another object).
        Memory other = newMemory("overlap-other", size, SMALL_SHIFT);
        byte[] mo = randomize(other, r);
        m.copyTo(1000, new ForwardingMemory(other), 1001, 150_000);
        System.arraycopy(model, 1000, mo, 1001, 150_000);
        assertMatches(mo, other, "forwarding copy");
    }

    // ---------------------------------------------------------------------------------------
    // address()

    @Test
    void addressIsNativeAndContiguousWithinAChunk() throws IOException {
        Memory m = newMemory("address", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        long base = m.address(0);
        assertNotEquals(0, base);
        assertEquals(0, base & 7, "a mapping starts 8-aligned");
        for (long off = 0; off <= BASIC_SIZE - 4; off += 4) {
            assertEquals(base + off, m.address(off));
        }
        assertEquals(m.address(96) + 8, m.address(104));
        // The address really is the byte at the offset.
        m.putInt(200, 0xCAFEBABE);
        Pointer p = new Pointer(m.address(200));
        assertEquals(0xCAFEBABE, p.getInt(0));
        p.setInt(0, 0x0BADF00D);
        assertEquals(0x0BADF00D, m.getInt(200));
        assertEquals(0x0BADF00D, m.getIntVolatile(200));
        long last = (BASIC_SIZE - 4) & -4L;
        m.putInt(last, 99);
        assertEquals(99, new Pointer(m.address(last)).getInt(0));

        Memory multi = newMemory("address-multi", MULTI_SIZE, SMALL_SHIFT);
        for (long chunkStart = 0; chunkStart < MULTI_SIZE; chunkStart += CHUNK) {
            long a = multi.address(chunkStart);
            assertNotEquals(0, a);
            long end = Math.min(chunkStart + CHUNK, MULTI_SIZE);
            for (long off = chunkStart; off + 4 <= end; off += 4) {
                assertEquals(a + (off - chunkStart), multi.address(off));
            }
            long lastLong = (end - 8) & -8L;
            multi.putLong(lastLong, chunkStart * 3 + 1);
            assertEquals(chunkStart * 3 + 1, new Pointer(multi.address(lastLong)).getLong(0));
        }
    }

    @Test
    void addressNeedsA4AlignedInRangeOffset() throws IOException {
        Memory m = newMemory("address-bad", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        for (long off : new long[] {1, 2, 3, 5, 6, 7, 101}) {
            assertThrows(IllegalArgumentException.class, () -> m.address(off), "address(" + off + ")");
        }
        for (long off : badOffsets(BASIC_SIZE, 4)) {
            assertThrows(IndexOutOfBoundsException.class, () -> m.address(off), "address(" + off + ")");
        }
    }

    // ---------------------------------------------------------------------------------------
    // Bad accesses

    @Test
    void outOfBoundsSingleValueAccessesThrowAndChangeNothing() throws IOException {
        for (long size : new long[] {BASIC_SIZE, MULTI_SIZE}) {
            Memory m = newMemory("oob", size, size == BASIC_SIZE ? MemoryFactory.DEFAULT_CHUNK_SHIFT : SMALL_SHIFT);
            randomize(m, new Random(13));
            Map<String, LongConsumer> ops1 = Map.of(
                    "getByte", m::getByte,
                    "putByte", off -> m.putByte(off, (byte) 0x5A));
            Map<String, LongConsumer> ops4 = new TreeMap<>(Map.of(
                    "getInt", m::getInt,
                    "putInt", off -> m.putInt(off, 0x5A5A5A5A),
                    "getIntVolatile", m::getIntVolatile,
                    "putIntVolatile", off -> m.putIntVolatile(off, 0x5A5A5A5A),
                    "compareAndSetInt", off -> m.compareAndSetInt(off, 0, 0x5A5A5A5A),
                    "getAndAddInt", off -> m.getAndAddInt(off, 0x5A),
                    "getAndSetInt", off -> m.getAndSetInt(off, 0x5A5A5A5A),
                    "address", m::address));
            Map<String, LongConsumer> ops8 = new TreeMap<>(Map.of(
                    "getLong", m::getLong,
                    "putLong", off -> m.putLong(off, 0x5A5A5A5A5A5A5A5AL),
                    "getLongVolatile", m::getLongVolatile,
                    "putLongVolatile", off -> m.putLongVolatile(off, 0x5A5A5A5A5A5A5A5AL),
                    "compareAndSetLong", off -> m.compareAndSetLong(off, 0, 0x5A5A5A5A5A5A5A5AL),
                    "getAndAddLong", off -> m.getAndAddLong(off, 0x5A)));
            int checked = 0;
            for (Map.Entry<Integer, Map<String, LongConsumer>> byWidth
                    : Map.of(1, ops1, 4, ops4, 8, ops8).entrySet()) {
                for (long off : badOffsets(size, byWidth.getKey())) {
                    for (Map.Entry<String, LongConsumer> op : byWidth.getValue().entrySet()) {
                        assertOutOfBounds(m, op.getKey() + "(" + off + ") of " + size + " bytes",
                                () -> op.getValue().accept(off));
                        checked++;
                    }
                }
            }
            assertTrue(checked > 200, "checked " + checked);
        }
    }

    @Test
    void outOfBoundsRangesThrowAndChangeNothing() throws IOException {
        long size = MULTI_SIZE;
        Memory m = newMemory("oob-range", size, SMALL_SHIFT);
        Memory other = newMemory("oob-other", size, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Memory forwarding = new ForwardingMemory(other);
        Random r = new Random(14);
        byte[] mm = randomize(m, r);
        byte[] mo = randomize(other, r);
        byte[] array = new byte[(int) size + 64];
        for (long[] rg : badRanges(size)) {
            long off = rg[0];
            long len = rg[1];
            String what = "(" + off + ", " + len + ")";
            if (len == (int) len && len <= array.length) {
                r.nextBytes(array);
                byte[] before = array.clone();
                assertOutOfBounds(m, "getBytes" + what, () -> m.getBytes(off, array, 0, (int) len));
                assertArrayEquals(before, array, "getBytes" + what + " wrote into the array");
                assertOutOfBounds(m, "putBytes" + what, () -> m.putBytes(off, array, 0, (int) len));
            }
            assertOutOfBounds(m, "fill" + what, () -> m.fill(off, len, (byte) 0x5A));
            for (Memory dst : new Memory[] {m, other, forwarding}) {
                String d = " to " + dst.name();
                assertOutOfBounds(m, "copyTo src" + what + d, () -> m.copyTo(off, dst, 0, len));
                assertOutOfBounds(m, "copyTo dst" + what + d, () -> m.copyTo(0, dst, off, len));
                assertMatches(mo, other, "copyTo" + what + d);
            }
            assertOutOfBounds(other, "copyTo from other, src" + what, () -> other.copyTo(off, m, 0, len));
            assertOutOfBounds(other, "copyTo from other, dst" + what, () -> other.copyTo(0, m, off, len));
        }
        // A destination range past the end of a smaller destination.
        Memory small = newMemory("oob-small", 100, SMALL_SHIFT);
        byte[] ms = randomize(small, r);
        assertOutOfBounds(m, "copyTo a too-small memory", () -> m.copyTo(0, small, 0, 101));
        assertOutOfBounds(m, "copyTo a too-small memory", () -> m.copyTo(0, small, 50, 51));
        assertOutOfBounds(m, "copyTo a too-small forwarding memory",
                () -> m.copyTo(0, new ForwardingMemory(small), 99, 2));
        assertMatches(ms, small, "too-small destination");
        assertMatches(mm, m, "after every bad range");
        assertMatches(mo, other, "after every bad range");
    }

    @Test
    void badArrayRangesThrowAndChangeNothing() throws IOException {
        Memory m = newMemory("oob-array", BASIC_SIZE, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        Random r = new Random(15);
        byte[] model = randomize(m, r);
        byte[] array = new byte[16];
        int[][] bad = {{-1, 1}, {-1, 0}, {0, 17}, {16, 1}, {17, 0}, {1, -1}, {0, -1}, {1, 16},
            {Integer.MAX_VALUE, 1}, {1, Integer.MAX_VALUE}, {Integer.MIN_VALUE, 0},
            {0, Integer.MIN_VALUE}, {Integer.MAX_VALUE, Integer.MAX_VALUE}};
        for (int[] b : bad) {
            String what = "array range (" + b[0] + ", " + b[1] + ")";
            r.nextBytes(array);
            byte[] before = array.clone();
            assertOutOfBounds(m, "getBytes " + what, () -> m.getBytes(0, array, b[0], b[1]));
            assertArrayEquals(before, array, "getBytes " + what + " wrote into the array");
            assertOutOfBounds(m, "putBytes " + what, () -> m.putBytes(0, array, b[0], b[1]));
        }
        // A bad array range is reported even when the memory range is fine, and vice versa.
        assertOutOfBounds(m, "putBytes past the memory", () -> m.putBytes(BASIC_SIZE - 8, array, 0, 16));
        assertMatches(model, m, "bad array ranges");
        // And the good edges work.
        m.putBytes(BASIC_SIZE - 16, array, 0, 16);
        m.getBytes(0, array, 16, 0);
    }

    @Test
    void misalignedAtomicAccessesThrowIllegalArgument() throws IOException {
        Memory m = newMemory("misaligned", MULTI_SIZE, SMALL_SHIFT);
        byte[] model = randomize(m, new Random(16));
        for (long off : new long[] {1, 2, 3, 5, 6, 7, 13, CHUNK - 2, CHUNK + 1, MULTI_SIZE - 7}) {
            assertMisaligned(m, "getIntVolatile " + off, () -> m.getIntVolatile(off));
            assertMisaligned(m, "putIntVolatile " + off, () -> m.putIntVolatile(off, 1));
            assertMisaligned(m, "compareAndSetInt " + off, () -> m.compareAndSetInt(off, m.getInt(off), 1));
            assertMisaligned(m, "getAndAddInt " + off, () -> m.getAndAddInt(off, 1));
            assertMisaligned(m, "getAndSetInt " + off, () -> m.getAndSetInt(off, 1));
            assertMisaligned(m, "address " + off, () -> m.address(off));
        }
        for (long off : new long[] {1, 2, 3, 4, 5, 6, 7, 12, 20, CHUNK - 4, CHUNK + 4, MULTI_SIZE - 12}) {
            assertMisaligned(m, "getLongVolatile " + off, () -> m.getLongVolatile(off));
            assertMisaligned(m, "putLongVolatile " + off, () -> m.putLongVolatile(off, 1));
            assertMisaligned(m, "compareAndSetLong " + off, () -> m.compareAndSetLong(off, m.getLong(off), 1));
            assertMisaligned(m, "getAndAddLong " + off, () -> m.getAndAddLong(off, 1));
        }
        assertMatches(model, m, "misaligned atomics");
    }

    @Test
    void everyAccessAfterCloseThrowsIllegalState() throws IOException {
        Memory m = newMemory("closed", MULTI_SIZE, SMALL_SHIFT);
        Memory other = newMemory("open", MULTI_SIZE, SMALL_SHIFT);
        Random r = new Random(17);
        randomize(m, r);
        byte[] mo = randomize(other, r);
        m.close();
        byte[] array = new byte[64];
        Map<String, Executable> ops = new TreeMap<>();
        ops.put("getByte", () -> m.getByte(8));
        ops.put("putByte", () -> m.putByte(8, (byte) 1));
        ops.put("getInt", () -> m.getInt(8));
        ops.put("putInt", () -> m.putInt(8, 1));
        ops.put("getInt straddling", () -> m.getInt(CHUNK - 2));
        ops.put("putInt straddling", () -> m.putInt(CHUNK - 2, 1));
        ops.put("getLong", () -> m.getLong(8));
        ops.put("putLong", () -> m.putLong(8, 1));
        ops.put("getLong straddling", () -> m.getLong(CHUNK - 3));
        ops.put("putLong straddling", () -> m.putLong(CHUNK - 3, 1));
        ops.put("getIntVolatile", () -> m.getIntVolatile(8));
        ops.put("putIntVolatile", () -> m.putIntVolatile(8, 1));
        ops.put("getLongVolatile", () -> m.getLongVolatile(8));
        ops.put("putLongVolatile", () -> m.putLongVolatile(8, 1));
        ops.put("compareAndSetInt", () -> m.compareAndSetInt(8, 0, 1));
        ops.put("compareAndSetLong", () -> m.compareAndSetLong(8, 0, 1));
        ops.put("getAndAddInt", () -> m.getAndAddInt(8, 1));
        ops.put("getAndAddLong", () -> m.getAndAddLong(8, 1));
        ops.put("getAndSetInt", () -> m.getAndSetInt(8, 1));
        ops.put("getBytes", () -> m.getBytes(8, array, 0, 64));
        ops.put("getBytes empty", () -> m.getBytes(8, array, 0, 0));
        ops.put("putBytes", () -> m.putBytes(8, array, 0, 64));
        ops.put("putBytes empty", () -> m.putBytes(8, array, 0, 0));
        ops.put("fill", () -> m.fill(8, 64, (byte) 1));
        ops.put("fill empty", () -> m.fill(8, 0, (byte) 1));
        ops.put("copyTo self", () -> m.copyTo(8, m, 100, 64));
        ops.put("copyTo an open memory", () -> m.copyTo(8, other, 100, 64));
        ops.put("copyTo an open memory, empty", () -> m.copyTo(8, other, 100, 0));
        ops.put("copyTo a forwarding memory", () -> m.copyTo(8, new ForwardingMemory(other), 100, 64));
        ops.put("copyTo from an open memory", () -> other.copyTo(8, m, 100, 64));
        ops.put("copyTo from a forwarding memory", () -> new ForwardingMemory(other).copyTo(8, m, 100, 64));
        ops.put("copyTo from an open memory to a forwarding one",
                () -> other.copyTo(8, new ForwardingMemory(m), 100, 64));
        ops.put("address", () -> m.address(8));
        for (Map.Entry<String, Executable> op : ops.entrySet()) {
            assertThrows(IllegalStateException.class, op.getValue(), op.getKey() + " after close");
        }
        assertMatches(mo, other, "the open memory");
        assertDoesNotThrow(m::close, "close is idempotent");
        assertThrows(IllegalStateException.class, () -> m.getLong(0));
        // The other memory is unaffected.
        other.putLong(8, 5);
        assertEquals(5, other.getLong(8));
    }

    // ---------------------------------------------------------------------------------------
    // Several chunks

    @Test
    void plainAccessesStraddlingChunkBoundaries() throws IOException {
        Memory m = newMemory("straddle", MULTI_SIZE, SMALL_SHIFT);
        Random r = new Random(18);
        byte[] model = randomize(m, r);
        for (long off = 0; off <= MULTI_SIZE - 8; off++) {
            assertEquals(modelLong(model, off), m.getLong(off), "getLong at " + off);
            assertEquals(modelInt(model, off), m.getInt(off), "getInt at " + off);
        }
        for (long b = CHUNK; b < MULTI_SIZE; b += CHUNK) {
            for (long off = b - 8; off <= b + 1; off++) {
                long lv = r.nextLong();
                m.putLong(off, lv);
                modelPutLong(model, off, lv);
                assertEquals(lv, m.getLong(off), "getLong at " + off);
                assertMatches(model, m, "putLong at " + off);
                int iv = r.nextInt();
                m.putInt(off + 2, iv);
                modelPutInt(model, off + 2, iv);
                assertEquals(iv, m.getInt(off + 2), "getInt at " + (off + 2));
                assertMatches(model, m, "putInt at " + (off + 2));
                for (long o = b - 8; o <= b; o++) {
                    assertEquals(modelLong(model, o), m.getLong(o), "getLong at " + o);
                }
            }
            // Little-endian across the boundary: byte i of the value is at offset + i.
            m.putLong(b - 3, 0x0807060504030201L);
            for (int i = 0; i < 8; i++) {
                assertEquals(i + 1, m.getByte(b - 3 + i));
            }
            m.putInt(b - 1, 0x44332211);
            assertEquals(0x11, m.getByte(b - 1));
            assertEquals(0x22, m.getByte(b));
            modelPutLong(model, b - 3, 0x0807060504030201L);
            modelPutInt(model, b - 1, 0x44332211);
        }
        assertMatches(model, m, "straddling accesses");
    }

    @Test
    void atomicsAtChunkEdges() throws IOException {
        Memory m = newMemory("edges", MULTI_SIZE, SMALL_SHIFT);
        Random r = new Random(19);
        byte[] model = randomize(m, r);
        List<Long> offsets = new ArrayList<>();
        for (long b = 0; b < MULTI_SIZE; b += CHUNK) {
            offsets.add(b);
            offsets.add(Math.min(b + CHUNK, MULTI_SIZE & -8L) - 8);
        }
        for (long off : offsets) {
            long v = r.nextLong();
            m.putLongVolatile(off, v);
            assertEquals(v, m.getLongVolatile(off));
            assertTrue(m.compareAndSetLong(off, v, v + 1));
            assertFalse(m.compareAndSetLong(off, v, v + 2));
            assertEquals(v + 1, m.getAndAddLong(off, 10));
            modelPutLong(model, off, v + 11);
            int iv = r.nextInt();
            m.putIntVolatile(off + 4, iv);
            assertEquals(iv, m.getIntVolatile(off + 4));
            assertTrue(m.compareAndSetInt(off + 4, iv, iv ^ 1));
            assertEquals(iv ^ 1, m.getAndAddInt(off + 4, 2));
            assertEquals((iv ^ 1) + 2, m.getAndSetInt(off + 4, ~iv));
            modelPutInt(model, off + 4, ~iv);
            assertMatches(model, m, "atomics at " + off);
        }
    }

    @Test
    void bulkOperationsAcrossChunks() throws IOException {
        Random r = new Random(20);
        Memory m = newMemory("bulk-multi", MULTI_SIZE, SMALL_SHIFT);
        Memory other = newMemory("bulk-other", MULTI_SIZE + 77, SMALL_SHIFT);
        Memory otherShift = newMemory("bulk-shift", MULTI_SIZE, SMALL_SHIFT + 1);
        byte[] mm = randomize(m, r);
        byte[] mo = randomize(other, r);
        byte[] ms = randomize(otherShift, r);

        byte[] buf = new byte[(int) MULTI_SIZE + 10];
        r.nextBytes(buf);
        m.putBytes(CHUNK - 100, buf, 3, 2 * CHUNK + 200);
        System.arraycopy(buf, 3, mm, CHUNK - 100, 2 * CHUNK + 200);
        assertMatches(mm, m, "putBytes across three chunks");
        byte[] got = new byte[buf.length];
        m.getBytes(1, got, 7, (int) MULTI_SIZE - 2);
        assertArrayEquals(Arrays.copyOfRange(mm, 1, (int) MULTI_SIZE - 1),
                Arrays.copyOfRange(got, 7, 7 + (int) MULTI_SIZE - 2));
        for (long b = CHUNK; b < MULTI_SIZE; b += CHUNK) {
            byte[] small = new byte[3];
            m.getBytes(b - 1, small, 0, 3);
            assertArrayEquals(Arrays.copyOfRange(mm, (int) b - 1, (int) b + 2), small);
        }

        long[][] copies = {{0, 0, MULTI_SIZE}, {1, 0, MULTI_SIZE - 1}, {0, 4095, 5000},
            {4095, 1, 8193}, {CHUNK, CHUNK, CHUNK}, {MULTI_SIZE - 1, 3, 1}, {7, MULTI_SIZE + 77 - 9000, 9000}};
        for (long[] c : copies) {
            m.copyTo(c[0], other, c[1], c[2]);
            System.arraycopy(mm, (int) c[0], mo, (int) c[1], (int) c[2]);
            assertMatches(mo, other, "copyTo " + Arrays.toString(c));
            long len = Math.min(c[2], MULTI_SIZE - c[1]);
            other.copyTo(c[1], otherShift, c[0], len);
            System.arraycopy(mo, (int) c[1], ms, (int) c[0], (int) len);
            assertMatches(ms, otherShift, "copyTo with another chunk size " + Arrays.toString(c));
        }
        // Non-overlapping copies inside one memory, across chunks.
        m.copyTo(10, m, 2 * CHUNK + 5, CHUNK + 500);
        System.arraycopy(mm, 10, mm, 2 * CHUNK + 5, CHUNK + 500);
        assertMatches(mm, m, "copy within, forwards");
        m.copyTo(2 * CHUNK + 1, m, 3, CHUNK + 17);
        System.arraycopy(mm, 2 * CHUNK + 1, mm, 3, CHUNK + 17);
        assertMatches(mm, m, "copy within, backwards");

        long[][] fills = {{CHUNK - 1, 2}, {CHUNK - 10, CHUNK + 20}, {1, MULTI_SIZE - 2},
            {3 * CHUNK, MULTI_SIZE - 3 * CHUNK}, {2 * CHUNK, 0}, {0, MULTI_SIZE}};
        byte v = 0x11;
        for (long[] f : fills) {
            m.fill(f[0], f[1], v);
            Arrays.fill(mm, (int) f[0], (int) (f[0] + f[1]), v);
            assertMatches(mm, m, "fill " + Arrays.toString(f));
            v += 0x22;
        }
    }

    /** Random operations against a byte[] model; {@code -Dlibtp.seed=N} replays a run. */
    @Test
    void randomOperationsMatchTheModel() throws IOException {
        long seed = Seeds.seed(getClass().getSimpleName() + ".randomOperationsMatchTheModel");
        Random r = new Random(seed);
        long size = MULTI_SIZE + r.nextInt(3 * CHUNK);
        long otherSize = 2 * CHUNK + 5 + r.nextInt(CHUNK);
        runRandomModel(seed, r, size, SMALL_SHIFT, otherSize, SMALL_SHIFT + 1, 20_000);
    }

    /**
     * The same with 8-byte chunks, the smallest allowed: every misaligned plain access straddles
     * two chunks and every bulk operation crosses many.
     */
    @Test
    void randomOperationsWithEightByteChunksMatchTheModel() throws IOException {
        long seed = Seeds.seed(getClass().getSimpleName() + ".randomOperationsWithEightByteChunksMatchTheModel");
        Random r = new Random(seed);
        long size = 1000 + r.nextInt(500);
        long otherSize = 600 + r.nextInt(300);
        runRandomModel(seed, r, size, 3, otherSize, 4, 5_000);
    }

    private void runRandomModel(long seed, Random r, long size, int shift, long otherSize,
                                int otherShift, int ops) throws IOException {
        Memory m = newMemory("random", size, shift);
        Memory other = newMemory("random-other", otherSize, otherShift);
        byte[] model = new byte[(int) size];
        byte[] otherModel = new byte[(int) otherSize];
        try {
            for (int i = 0; i < ops; i++) {
                randomOp(r, m, model, other, otherModel, "op " + i + " (seed " + seed + ")");
                if (i % 500 == 0 || i == ops - 1) {
                    assertMatches(model, m, "after op " + i + " (seed " + seed + ")");
                    assertMatches(otherModel, other, "after op " + i + " (seed " + seed + ")");
                }
            }
        } catch (AssertionError | RuntimeException e) {
            throw new AssertionError("random model test failed; replay with -Dlibtp.seed=" + seed, e);
        }
    }

    private static void randomOp(Random r, Memory m, byte[] model, Memory other, byte[] otherModel,
                                 String what) {
        int size = model.length;
        switch (r.nextInt(16)) {
            case 0 -> {
                long off = r.nextInt(size);
                byte v = (byte) r.nextInt();
                m.putByte(off, v);
                model[(int) off] = v;
                assertEquals(v, m.getByte(off), what);
            }
            case 1 -> {
                long off = r.nextInt(size - 3);
                int v = r.nextInt();
                m.putInt(off, v);
                modelPutInt(model, off, v);
            }
            case 2 -> {
                long off = r.nextInt(size - 7);
                long v = r.nextLong();
                m.putLong(off, v);
                modelPutLong(model, off, v);
            }
            case 3 -> {
                long off = r.nextInt(size - 7);
                assertEquals(modelLong(model, off), m.getLong(off), what + " getLong " + off);
                assertEquals(modelInt(model, off), m.getInt(off), what + " getInt " + off);
                assertEquals(model[(int) off], m.getByte(off), what + " getByte " + off);
            }
            case 4 -> {
                long off = r.nextInt(size / 4) * 4L;
                int v = r.nextInt();
                assertEquals(modelInt(model, off), m.getIntVolatile(off), what);
                m.putIntVolatile(off, v);
                modelPutInt(model, off, v);
            }
            case 5 -> {
                long off = r.nextInt(size / 8) * 8L;
                long v = r.nextLong();
                assertEquals(modelLong(model, off), m.getLongVolatile(off), what);
                m.putLongVolatile(off, v);
                modelPutLong(model, off, v);
            }
            case 6 -> {
                long off = r.nextInt(size / 4) * 4L;
                int cur = modelInt(model, off);
                boolean hit = r.nextBoolean();
                int expected = hit ? cur : cur ^ (1 << r.nextInt(32));
                int v = r.nextInt();
                assertEquals(hit, m.compareAndSetInt(off, expected, v), what + " CAS int " + off);
                if (hit) {
                    modelPutInt(model, off, v);
                }
            }
            case 7 -> {
                long off = r.nextInt(size / 8) * 8L;
                long cur = modelLong(model, off);
                boolean hit = r.nextBoolean();
                long expected = hit ? cur : cur ^ (1L << r.nextInt(64));
                long v = r.nextLong();
                assertEquals(hit, m.compareAndSetLong(off, expected, v), what + " CAS long " + off);
                if (hit) {
                    modelPutLong(model, off, v);
                }
            }
            case 8 -> {
                long off = r.nextInt(size / 4) * 4L;
                int delta = r.nextInt();
                int cur = modelInt(model, off);
                if (r.nextBoolean()) {
                    assertEquals(cur, m.getAndAddInt(off, delta), what + " getAndAddInt " + off);
                    modelPutInt(model, off, cur + delta);
                } else {
                    assertEquals(cur, m.getAndSetInt(off, delta), what + " getAndSetInt " + off);
                    modelPutInt(model, off, delta);
                }
            }
            case 9 -> {
                long off = r.nextInt(size / 8) * 8L;
                long delta = r.nextLong() >> r.nextInt(64);
                long cur = modelLong(model, off);
                assertEquals(cur, m.getAndAddLong(off, delta), what + " getAndAddLong " + off);
                modelPutLong(model, off, cur + delta);
            }
            case 10 -> {
                int len = r.nextInt(r.nextBoolean() ? 16 : Math.min(3 * CHUNK, size));
                long off = r.nextInt(size - len + 1);
                byte[] src = new byte[len + r.nextInt(10)];
                r.nextBytes(src);
                int so = r.nextInt(src.length - len + 1);
                m.putBytes(off, src, so, len);
                System.arraycopy(src, so, model, (int) off, len);
            }
            case 11 -> {
                int len = r.nextInt(r.nextBoolean() ? 16 : Math.min(3 * CHUNK, size));
                long off = r.nextInt(size - len + 1);
                byte[] dst = new byte[len + r.nextInt(10)];
                int dOff = r.nextInt(dst.length - len + 1);
                m.getBytes(off, dst, dOff, len);
                assertArrayEquals(Arrays.copyOfRange(model, (int) off, (int) off + len),
                        Arrays.copyOfRange(dst, dOff, dOff + len), what + " getBytes " + off + "+" + len);
            }
            case 12 -> {
                int len = r.nextInt(r.nextBoolean() ? 32 : size / 2);
                long src = r.nextInt(size - len + 1);
                long dst = r.nextBoolean() ? r.nextInt(size - len + 1)
                        : Math.max(0, Math.min(size - len, src + r.nextInt(65) - 32));
                m.copyTo(src, m, dst, len);
                System.arraycopy(model, (int) src, model, (int) dst, len);
            }
            case 13 -> {
                int len = r.nextInt(r.nextBoolean() ? 32 : otherModel.length);
                long src = r.nextInt(size - len + 1);
                long dst = r.nextInt(otherModel.length - len + 1);
                if (r.nextBoolean()) {
                    m.copyTo(src, other, dst, len);
                    System.arraycopy(model, (int) src, otherModel, (int) dst, len);
                } else {
                    other.copyTo(dst, m, src, len);
                    System.arraycopy(otherModel, (int) dst, model, (int) src, len);
                }
            }
            case 14 -> {
                int len = r.nextInt(r.nextBoolean() ? 32 : size);
                long off = r.nextInt(size - len + 1);
                byte v = (byte) r.nextInt();
                m.fill(off, len, v);
                Arrays.fill(model, (int) off, (int) off + len, v);
            }
            default -> {
                // A bad access: it throws and changes nothing (checked at the next comparison).
                long off = size - r.nextInt(4);
                int kind = r.nextInt(4);
                Class<? extends RuntimeException> expected = IndexOutOfBoundsException.class;
                Executable op = switch (kind) {
                    case 0 -> () -> m.putLong(off - 4, -1L);
                    case 1 -> () -> m.fill(off - 2, 7, (byte) -1);
                    case 2 -> () -> m.putBytes(off, new byte[4], 0, 4);
                    default -> {
                        expected = IllegalArgumentException.class;
                        long mis = (r.nextInt(size / 8 - 1) * 8L) + 1 + r.nextInt(7);
                        yield () -> m.compareAndSetLong(mis, modelLong(model, mis), -1L);
                    }
                };
                assertThrows(expected, op, what + " bad access kind " + kind);
            }
        }
    }

    // ---------------------------------------------------------------------------------------
    // More than 2 GiB

    /** A sparse model: 4 KiB pages, zero where never written. */
    static final class SparseModel {
        final long size;
        final TreeMap<Long, byte[]> pages = new TreeMap<>();

        SparseModel(long size) {
            this.size = size;
        }

        byte get(long off) {
            byte[] p = pages.get(off >>> 12);
            return p == null ? 0 : p[(int) (off & 4095)];
        }

        void put(long off, byte v) {
            pages.computeIfAbsent(off >>> 12, k -> new byte[4096])[(int) (off & 4095)] = v;
        }

        long getLong(long off) {
            long v = 0;
            for (int i = 0; i < 8; i++) {
                v |= (get(off + i) & 0xFFL) << (8 * i);
            }
            return v;
        }

        void putLong(long off, long v) {
            for (int i = 0; i < 8; i++) {
                put(off + i, (byte) (v >>> (8 * i)));
            }
        }

        void putInt(long off, int v) {
            for (int i = 0; i < 4; i++) {
                put(off + i, (byte) (v >>> (8 * i)));
            }
        }

        byte[] getBytes(long off, int len) {
            byte[] b = new byte[len];
            for (int i = 0; i < len; i++) {
                b[i] = get(off + i);
            }
            return b;
        }

        void putBytes(long off, byte[] b) {
            for (int i = 0; i < b.length; i++) {
                put(off + i, b[i]);
            }
        }

        /** Compares every page the model has touched (and only those: the file stays sparse). */
        void assertMatches(Memory m, String what) {
            for (long page : pages.keySet()) {
                long start = page << 12;
                int len = (int) Math.min(4096, size - start);
                byte[] actual = new byte[len];
                m.getBytes(start, actual, 0, len);
                byte[] expected = Arrays.copyOf(pages.get(page), len);
                if (!Arrays.equals(expected, actual)) {
                    int i = Arrays.mismatch(expected, actual);
                    fail(what + ": differs from the model at offset " + (start + i));
                }
            }
        }
    }

    @Test
    void sparseMappingLargerThan2GiB() throws IOException {
        long size = 3L << 30;
        Memory m = newMemory("3GiB", size, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        assertEquals(size, m.size());
        long[] aligned = {0, (1L << 30) - 8, 1L << 30, (1L << 31) - 8, 1L << 31, (1L << 31) + 8,
            (1L << 31) + 4096, (2L << 30) + (1L << 29), size - 16, size - 8};
        long[] straddling = {(1L << 30) - 3, (1L << 31) - 1, (1L << 31) - 7, (1L << 31) + 12_345};
        exerciseLargeMapping(m, aligned, straddling);
        for (long off : new long[] {size, size - 7, (1L << 32) - 8, 1L << 32, (1L << 32) + 8}) {
            assertThrows(IndexOutOfBoundsException.class, () -> m.getLong(off), "getLong " + off);
            assertThrows(IndexOutOfBoundsException.class, () -> m.putLong(off, 1), "putLong " + off);
        }
        for (long off : new long[] {size, (1L << 32) - 8, 1L << 32, Long.MAX_VALUE & -8L}) {
            assertThrows(IndexOutOfBoundsException.class, () -> m.compareAndSetLong(off, 0, 1), "CAS " + off);
            assertThrows(IndexOutOfBoundsException.class, () -> m.getAndAddInt(off, 1), "getAndAddInt " + off);
        }
    }

    @Test
    void sparseMappingLargerThan4GiB() throws IOException {
        long size = (1L << 32) + 4096 + 5; // four full 1 GiB chunks and a short fifth one
        Memory m = newMemory("4GiB", size, MemoryFactory.DEFAULT_CHUNK_SHIFT);
        assertEquals(size, m.size());
        long[] aligned = {(1L << 31) - 8, 1L << 31, (1L << 32) - 16, (1L << 32) - 8, 1L << 32,
            (1L << 32) + 8, (size - 8) & -8L};
        long[] straddling = {(1L << 32) - 1, (1L << 32) - 5, (3L << 30) - 2, size - 8};
        exerciseLargeMapping(m, aligned, straddling);
        assertThrows(IndexOutOfBoundsException.class, () -> m.getLong(size - 7));
        assertThrows(IndexOutOfBoundsException.class, () -> m.putByte(size, (byte) 1));
    }

    private void exerciseLargeMapping(Memory m, long[] aligned, long[] straddling) {
        long size = m.size();
        SparseModel model = new SparseModel(size);
        Random r = new Random(21);
        for (long off : aligned) {
            String at = " at " + off;
            assertEquals(0, m.getLong(off), "a sparse file reads as zeros" + at);
            long v = r.nextLong() | (1L << 63) | 1;
            m.putLong(off, v);
            assertEquals(v, m.getLong(off), "getLong" + at);
            assertEquals(v, m.getLongVolatile(off), "getLongVolatile" + at);
            assertFalse(m.compareAndSetLong(off, v ^ (1L << 40), 5), "failed CAS" + at);
            assertTrue(m.compareAndSetLong(off, v, v + 1), "CAS" + at);
            assertEquals(v + 1, m.getAndAddLong(off, 1L << 33), "getAndAddLong" + at);
            long expected = v + 1 + (1L << 33);
            assertEquals(expected, m.getLong(off));
            model.putLong(off, expected);
            m.putIntVolatile(off, 77);
            assertTrue(m.compareAndSetInt(off, 77, 78));
            assertEquals(78, m.getAndAddInt(off, 2));
            assertEquals((int) (expected >>> 32), m.getAndSetInt(off + 4, 81), "getAndSetInt" + at);
            model.putInt(off, 80);
            model.putInt(off + 4, 81);
            assertEquals(80, m.getIntVolatile(off));
            m.putByte(off + 3, (byte) 0x9C);
            model.put(off + 3, (byte) 0x9C);
            assertEquals(model.getLong(off), m.getLongVolatile(off), "getLongVolatile" + at);
            long a = m.address(off);
            assertNotEquals(0, a, "address" + at);
            if (off + 12 <= size && (off >>> 30) == ((off + 11) >>> 30)) {
                assertEquals(a + 8, m.address(off + 8), "address contiguity" + at);
            }
            assertEquals(model.getLong(off), new Pointer(a).getLong(0), "native read" + at);
            model.assertMatches(m, "after the accesses" + at);
        }
        for (long off : straddling) {
            String at = " at " + off;
            long v = r.nextLong();
            m.putLong(off, v);
            model.putLong(off, v);
            assertEquals(v, m.getLong(off), "straddling getLong" + at);
            int iv = r.nextInt();
            m.putInt(off + 1, iv);
            model.putInt(off + 1, iv);
            assertEquals(iv, m.getInt(off + 1), "straddling getInt" + at);
            assertEquals(model.getLong(off), m.getLong(off));
            model.assertMatches(m, "after straddling accesses" + at);
        }
        // Bulk operations across a 1 GiB chunk boundary above 2 GiB.
        long boundary = 2L << 30;
        byte[] data = new byte[3000];
        r.nextBytes(data);
        m.putBytes(boundary - 1234, data, 0, data.length);
        model.putBytes(boundary - 1234, data);
        byte[] back = new byte[data.length];
        m.getBytes(boundary - 1234, back, 0, back.length);
        assertArrayEquals(data, back);
        m.copyTo(boundary - 1000, m, size - 5000, 2500);
        model.putBytes(size - 5000, model.getBytes(boundary - 1000, 2500));
        m.copyTo(boundary - 1500, m, boundary - 1493, 2000); // overlapping, forwards
        model.putBytes(boundary - 1493, model.getBytes(boundary - 1500, 2000));
        m.copyTo(boundary - 1493, m, boundary - 1500, 2000); // overlapping, backwards
        model.putBytes(boundary - 1500, model.getBytes(boundary - 1493, 2000));
        m.copyTo(boundary - 40, m, 8, 80); // from above 2 GiB to the start
        model.putBytes(8, model.getBytes(boundary - 40, 80));
        m.fill((1L << 30) - 10, 20, (byte) 0x3C);
        model.putBytes((1L << 30) - 10, filled(20, (byte) 0x3C));
        m.fill(size - 3, 3, (byte) 0x5D);
        model.putBytes(size - 3, filled(3, (byte) 0x5D));
        model.assertMatches(m, "after bulk operations");
        assertEquals(model.getLong(size - 8), m.getLong(size - 8));
    }

    private static byte[] filled(int n, byte v) {
        byte[] b = new byte[n];
        Arrays.fill(b, v);
        return b;
    }

    // ---------------------------------------------------------------------------------------
    // Threads

    @Test
    void concurrentGetAndAddIsExact() throws Exception {
        Memory m = newMemory("threads-add", 2L * CHUNK, SMALL_SHIFT);
        byte[] model = randomize(m, new Random(22));
        long off = CHUNK - 8; // the last word of the first chunk
        m.putLong(off, 0xFFFF_FFF0L); // the carry into the upper half happens mid-run
        modelPutLong(model, off, 0xFFFF_FFF0L + 400_000);
        long intOff = CHUNK + 4; // the second word of the second chunk
        m.putInt(intOff, -200_000);
        modelPutInt(model, intOff, 200_000);
        runThreads(4, t -> {
            for (int i = 0; i < 100_000; i++) {
                m.getAndAddLong(off, 1);
            }
        });
        runThreads(4, t -> {
            for (int i = 0; i < 50_000; i++) {
                m.getAndAddInt(intOff, 2);
            }
        });
        assertEquals(0xFFFF_FFF0L + 400_000, m.getLongVolatile(off));
        assertEquals(200_000, m.getIntVolatile(intOff));
        assertMatches(model, m, "neighbours of the counter");
    }

    @Test
    void concurrentCompareAndSetIncrementIsExact() throws Exception {
        Memory m = newMemory("threads-cas", 2L * CHUNK, SMALL_SHIFT);
        byte[] model = randomize(m, new Random(23));
        long intOff = CHUNK; // the first word of the second chunk
        long longOff = CHUNK + 8;
        m.putInt(intOff, 0);
        m.putLong(longOff, -200_000);
        modelPutInt(model, intOff, 400_000);
        modelPutLong(model, longOff, 200_000);
        runThreads(4, t -> {
            for (int i = 0; i < 100_000; i++) {
                int v;
                do {
                    v = m.getIntVolatile(intOff);
                } while (!m.compareAndSetInt(intOff, v, v + 1));
                if ((i & 1) == 0) {
                    long w;
                    do {
                        w = m.getLongVolatile(longOff);
                    } while (!m.compareAndSetLong(longOff, w, w + 2));
                }
            }
        });
        assertEquals(400_000, m.getIntVolatile(intOff));
        assertEquals(200_000, m.getLongVolatile(longOff));
        assertMatches(model, m, "neighbours of the counters");
    }

    /** Every value swapped in comes out exactly once: getAndSetInt loses and duplicates nothing. */
    @Test
    void concurrentGetAndSetIntLosesNothing() throws Exception {
        Memory m = newMemory("threads-swap", 2L * CHUNK, SMALL_SHIFT);
        long off = CHUNK - 4;
        int perThread = 50_000;
        m.putInt(off, -1);
        long[][] seen = new long[4][];
        runThreads(4, t -> {
            long[] got = new long[perThread];
            for (int i = 0; i < perThread; i++) {
                got[i] = m.getAndSetInt(off, t * perThread + i);
            }
            seen[t] = got;
        });
        boolean[] out = new boolean[4 * perThread];
        int minusOne = 0;
        List<long[]> all = new ArrayList<>(Arrays.asList(seen));
        all.add(new long[] {m.getIntVolatile(off)});
        for (long[] got : all) {
            for (long v : got) {
                if (v == -1) {
                    minusOne++;
                } else {
                    assertFalse(out[(int) v], "value " + v + " came out twice");
                    out[(int) v] = true;
                }
            }
        }
        assertEquals(1, minusOne, "the initial value comes out once");
        for (int v = 0; v < out.length; v++) {
            assertTrue(out[v], "value " + v + " was lost");
        }
    }

    interface ThreadBody {
        void run(int thread) throws Exception;
    }

    static void runThreads(int n, ThreadBody body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(n);
        try {
            CyclicBarrier start = new CyclicBarrier(n);
            List<Future<?>> fs = new ArrayList<>();
            for (int t = 0; t < n; t++) {
                int id = t;
                fs.add(pool.submit(() -> {
                    start.await();
                    body.run(id);
                    return null;
                }));
            }
            for (Future<?> f : fs) {
                f.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }
}
