package org.libtp.core.buffer;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.libtp.core.CorruptionException;
import org.libtp.core.LibTpException;
import org.libtp.core.testkit.FuzzTries;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the buffer manager's decoders (jqwik): the data file header ({@link DataFileHeader}),
 * the file registry ({@link FileRegistryCodec}) and the page header check ({@link PageHeader}).
 * Inputs: random bytes of any length, and valid encodings with bits flipped, cut short or
 * extended, their checksum left stale or recomputed (so the checks behind the checksum are
 * reached too). Whatever the input: a result, or a {@link LibTpException} naming the file; a
 * decoded data file header has a page size the library can use.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}. Crashes found are kept as {@code @Example}s.
 */
@AddLifecycleHook(FuzzTries.class)
class HeaderFuzzTest {
    static final String WHERE = "/env/a.db";

    static void typed(String names, Runnable r) {
        try {
            r.run();
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(names), () -> "does not name " + names + ": " + e);
        } catch (Throwable t) {
            fail("not a LibTpException: " + t, t);
        }
    }

    /** Mutations of a valid encoding: flips, cuts, extensions; then the CRC at {@code crcAt} recomputed or not. */
    static byte[] mutate(byte[] b, long seed, int n) {
        Random m = new Random(seed);
        for (int i = 0; i < n; i++) {
            switch (m.nextInt(4)) {
                case 0, 1 -> {
                    if (b.length > 0) {
                        b = b.clone();
                        int bit = m.nextInt(b.length * 8);
                        b[bit / 8] ^= (byte) (1 << (bit % 8));
                    }
                }
                case 2 -> b = Arrays.copyOf(b, m.nextInt(b.length + 1));
                default -> b = Arrays.copyOf(b, b.length + 1 + m.nextInt(16));
            }
        }
        return b;
    }

    static int crc(byte[] b, int from, int to) {
        CRC32C c = new CRC32C();
        c.update(b, from, to - from);
        return (int) c.getValue();
    }

    // --- data file header ---

    static void decodeDataFileHeader(byte[] b) {
        typed(WHERE, () -> {
            DataFileHeader h = DataFileHeader.decode(WHERE, b);
            int p = h.pageSize();
            assertTrue(p >= 512 && p <= 65536 && Integer.bitCount(p) == 1, "decoded a header with page size " + p);
        });
    }

    @Property(tries = 1000)
    void dataFileHeaderRandom(@ForAll @Size(max = 1100) byte[] b, @ForAll boolean magicAndCrc) {
        if (magicAndCrc && b.length >= DataFileHeader.SIZE) {
            b[DataFileHeader.OFF_VERSION] = DataFileHeader.VERSION;
            b[DataFileHeader.OFF_VERSION + 1] = b[DataFileHeader.OFF_VERSION + 2] = b[DataFileHeader.OFF_VERSION + 3] = 0;
            System.arraycopy(DataFileHeader.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(DataFileHeader.OFF_CRC, crc(b, 0, DataFileHeader.OFF_CRC));
        }
        decodeDataFileHeader(b);
    }

    @Provide
    Arbitrary<Integer> pageSizes() {
        return Arbitraries.of(512, 1024, 4096, 65536);
    }

    @Property(tries = 1000)
    void dataFileHeaderMutated(@ForAll("pageSizes") int pageSize, @ForAll long envId, @ForAll int fileId,
                               @ForAll @net.jqwik.api.constraints.StringLength(max = 60) String name, @ForAll long created,
                               @ForAll long seed, @ForAll @IntRange(max = 4) int n, @ForAll boolean fixCrc) {
        byte[] valid = new DataFileHeader(pageSize, envId, fileId, name, created).encode().array();
        if (n == 0) {
            assertEquals(new DataFileHeader(pageSize, envId, fileId, name, created), DataFileHeader.decode(WHERE, valid));
        }
        byte[] b = mutate(valid, seed, n);
        if (fixCrc && b.length >= DataFileHeader.SIZE) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(DataFileHeader.OFF_CRC, crc(b, 0, DataFileHeader.OFF_CRC));
        }
        decodeDataFileHeader(b);
    }

    @Example
    void dataFileHeaderWithAnImpossiblePageSizeIsCorruption() {
        for (int pageSize : new int[] {0, -4096, 4095, 256, 1 << 20, Integer.MIN_VALUE}) {
            byte[] b = new DataFileHeader(4096, 1, 2, "a.db", 3).encode().array();
            ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            le.putInt(DataFileHeader.OFF_PAGE_SIZE, pageSize);
            le.putInt(DataFileHeader.OFF_CRC, crc(b, 0, DataFileHeader.OFF_CRC));
            // Before: decoded, and DataFiles.resetLsns allocated new byte[pageSize] (NegativeArraySizeException)
            CorruptionException e = assertThrows(CorruptionException.class, () -> DataFileHeader.decode(WHERE, b),
                    "page size " + pageSize);
            assertTrue(e.getMessage().contains(WHERE), e.getMessage());
        }
    }

    // --- file registry ---

    static void decodeRegistry(byte[] b) {
        typed("__libtp.files", () -> FileRegistryCodec.decode(b, "/env/__libtp.files"));
    }

    @Property(tries = 1000)
    void fileRegistryRandom(@ForAll @Size(max = 200) byte[] b, @ForAll boolean magicAndCrc,
                            @ForAll @IntRange(min = -2, max = 6) int count) {
        if (magicAndCrc && b.length >= FileRegistryCodec.OFF_ENTRIES + 4) {
            ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            le.put(0, FileRegistryCodec.MAGIC).putInt(FileRegistryCodec.OFF_VERSION, FileRegistryCodec.VERSION)
                    .putInt(FileRegistryCodec.OFF_COUNT, count).putInt(b.length - 4, crc(b, 0, b.length - 4));
        }
        decodeRegistry(b);
    }

    @Property(tries = 1000)
    void fileRegistryMutated(@ForAll @Size(max = 5) Map<@IntRange(max = 1000) Integer,
            @net.jqwik.api.constraints.StringLength(max = 30) String> files,
                             @ForAll long seed, @ForAll @IntRange(max = 4) int n, @ForAll boolean fixCrc) {
        byte[] valid = FileRegistryCodec.encode(files).array();
        if (n == 0) {
            Map<Integer, String> want = new TreeMap<>();
            files.forEach((k, v) -> want.put(k, new String(v.getBytes(StandardCharsets.UTF_8), StandardCharsets.UTF_8)));
            assertEquals(want, FileRegistryCodec.decode(valid, "/env/__libtp.files"));
        }
        byte[] b = mutate(valid, seed, n);
        if (fixCrc && b.length >= 4) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(b.length - 4, crc(b, 0, b.length - 4));
        }
        decodeRegistry(b);
    }

    // --- page header ---

    @Property(tries = 1000)
    void pageHeaderCheck(@ForAll("pageSizes") int pageSize, @ForAll long seed, @ForAll @IntRange(max = 3) int flips,
                         @ForAll boolean reseal, @ForAll @IntRange(min = 0, max = 1000) long pageNo) {
        Random r = new Random(seed);
        byte[] page = new byte[pageSize];
        if (r.nextBoolean()) {
            r.nextBytes(page);
        } else {
            page[PageHeader.OFF_TYPE] = (byte) r.nextInt();
            PageHeader.seal(page, pageSize, pageNo);
            assertEquals(null, PageHeader.check(page, pageSize, pageNo));
        }
        for (int i = 0; i < flips; i++) {
            int bit = r.nextInt(pageSize * 8);
            page[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        if (reseal) {
            PageHeader.putInt(page, PageHeader.OFF_CHECKSUM, PageHeader.checksum(page, pageSize));
        }
        try {
            String bad = PageHeader.check(page, pageSize, pageNo);
            if (bad == null) {
                assertTrue(PageHeader.isZero(page, pageSize) || PageHeader.getLong(page, PageHeader.OFF_PAGE_NO) == pageNo
                        && page[PageHeader.OFF_VERSION] == PageHeader.VERSION && PageHeader.getShort(page,
                        PageHeader.OFF_MAGIC) == PageHeader.MAGIC, "a damaged page passed its check");
            }
        } catch (Throwable t) {
            fail("PageHeader.check threw " + t, t);
        }
    }
}
