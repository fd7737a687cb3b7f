package org.libtp.db;

import org.libtp.core.testkit.FuzzTries;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.core.CorruptionException;
import org.libtp.core.LibTpException;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the access methods' page decoders through the public API (jqwik): an environment with
 * 512-byte pages holding a B-tree (leaves, internal pages, overflow pages, a free list), a recno
 * database and the catalog is closed; one page of one of those files is overwritten with fuzzed
 * bytes (a valid page with bits flipped or bytes set, or random bytes after a valid page header),
 * its CRC32C recomputed or left stale; then the environment is reopened and each database read
 * (gets, a full cursor scan both ways, verify). Every step must give results or a
 * {@link LibTpException} (a {@link CorruptionException} names the damaged file) within a time
 * limit — never another exception, an {@link Error} or a hang. With a stale checksum the damage
 * must be reported (an exception or a verify finding naming the file) when the page is read.
 *
 * <p>Each try copies the pristine environment and opens it (about 50-100 ms): tries are few,
 * as below in {@code mvn verify}, 100 times more under {@code -Pstress} ({@link FuzzTries}).
 * jqwik prints the seed of a failing run; replay with {@code @Property(seed = "...")}. A failing
 * image is written to {@code target/fuzz-crashes/page/} ({@code file__page__crc|stale__hash.bin})
 * for triage; crashes found are kept below as {@code @Example}s that rebuild the input from the
 * pristine page.
 */
@AddLifecycleHook(FuzzTries.class)
class PageFuzzTest {
    static final int PAGE = 512;
    static final EnvironmentConfig CONFIG = EnvironmentConfig.builder().pageSize(PAGE).cacheBytes(64 * PAGE)
            .durability(Durability.NO_SYNC).tornWriteProtection(false).build(); // else recovery repairs a stale page
    static final String[] FILES = {"b.db", "r.db", Catalog.FILE};
    static final int ROWS = 80;
    static final int RECORD = 24;

    private static Path root;
    private static Path pristine;
    /** {file index, page number} of every page of the pristine files. */
    private static final List<long[]> PAGES = new ArrayList<>();
    private static final AtomicInteger TRY = new AtomicInteger();

    static byte[] key(int i) {
        return String.format("k%03d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        byte[] v = new byte[i % 10 == 0 ? 1200 : 5 + i % 40]; // every tenth on overflow pages
        for (int k = 0; k < v.length; k++) {
            v[k] = (byte) (i + k);
        }
        return v;
    }

    @BeforeContainer
    static void build() throws IOException {
        root = Files.createTempDirectory("page-fuzz");
        pristine = Files.createDirectory(root.resolve("pristine"));
        try (Environment env = Environment.open(pristine, CONFIG);
             Database b = env.openDatabase(null, "b", DatabaseConfig.builder().allowCreate(true).build());
             Database r = env.openDatabase(null, "r", DatabaseConfig.builder().allowCreate(true)
                     .type(DatabaseType.RECNO).recordLength(RECORD).build())) {
            for (int i = 0; i < ROWS; i++) {
                b.put(null, key(i), value(i));
            }
            for (int i = 20; i < 45; i++) { // empties leaves: they go to the free list
                b.delete(null, key(i));
            }
            b.compact();
            for (int i = 0; i < 40; i++) {
                byte[] v = new byte[RECORD];
                java.util.Arrays.fill(v, (byte) i);
                r.append(null, v);
            }
        }
        for (int f = 0; f < FILES.length; f++) {
            long pages = Files.size(pristine.resolve(FILES[f])) / PAGE - 1;
            for (long p = 0; p < pages; p++) {
                PAGES.add(new long[] {f, p});
            }
        }
    }

    @AfterContainer
    static void cleanUp() throws IOException {
        delete(root);
    }

    static void delete(Path dir) throws IOException {
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        }
    }

    static byte[] readPage(Path f, long p) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "r")) {
            byte[] b = new byte[PAGE];
            raf.seek((p + 1) * PAGE);
            raf.readFully(b);
            return b;
        }
    }

    static void writePage(Path f, long p, byte[] image) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek((p + 1) * PAGE);
            raf.write(image);
        }
    }

    static void seal(byte[] page) {
        CRC32C c = new CRC32C();
        c.update(page, 4, page.length - 4);
        ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).putInt(0, (int) c.getValue());
    }

    @Provide
    Arbitrary<Integer> pageIndexes() {
        return Arbitraries.integers().between(0, PAGES.size() - 1);
    }

    /**
     * mode 0: bits flipped / bytes set in the valid page, CRC recomputed; 1: random bytes after
     * the page header (type kept or random), CRC recomputed; 2: as 0 with the CRC stale; 3: as 1
     * with the CRC stale.
     */
    @Property(tries = 40)
    void damagedPage(@ForAll("pageIndexes") int index, @ForAll long seed, @ForAll @IntRange(max = 3) int mode)
            throws IOException {
        long[] fp = PAGES.get(index);
        String file = FILES[(int) fp[0]];
        byte[] original = readPage(pristine.resolve(file), fp[1]);
        byte[] page = original.clone();
        Random r = new Random(seed);
        if (mode % 2 == 0) {
            for (int i = 1 + r.nextInt(6); i > 0; i--) {
                // the page's own fields (counts, offsets, lengths) are in its first 64 bytes: hit them often
                int at = 4 + r.nextInt(r.nextBoolean() ? 60 : PAGE - 4);
                if (r.nextBoolean()) {
                    page[at] ^= (byte) (1 << r.nextInt(8));
                } else {
                    page[at] = (byte) new int[] {0, 0xFF, 0x7F, 0x80, 1, r.nextInt()}[r.nextInt(6)];
                }
            }
        } else {
            byte[] rest = new byte[PAGE - 24];
            r.nextBytes(rest);
            System.arraycopy(rest, 0, page, 24, rest.length);
            if (r.nextInt(4) == 0) {
                page[7] = (byte) r.nextInt(10);
            }
        }
        // a byte set to the value it had, or a bit flipped twice, leaves the page as it was
        boolean stale = mode >= 2 && !java.util.Arrays.equals(original, page);
        if (mode < 2) {
            seal(page);
        }
        check(file, fp[1], page, stale, "seed " + seed + " mode " + mode);
    }

    // Regression inputs: crashes the property found, built from the pristine pages (so that they
    // follow the pristine environment's LSNs), kept once fixed.

    /** Before: IllegalStateException "orders its keys by '\0', which is not registered". */
    @Example
    void metaPageNamingAKeyOrderThatIsNoName() throws IOException {
        for (String name : List.of("\0", " ", "a/b", "\u00e9")) {
            byte[] page = readPage(pristine.resolve("b.db"), 0);
            byte[] n = name.getBytes(StandardCharsets.UTF_8);
            ByteBuffer.wrap(page).order(ByteOrder.LITTLE_ENDIAN).putShort(32, (short) n.length);
            System.arraycopy(n, 0, page, 34, n.length);
            seal(page);
            check("b.db", 0, page, false, "key order name '" + name + "'");
        }
    }

    /** Before: Cursor.prev (floorBelow) never ended on the root page with these bytes changed. */
    @Example
    void rootPageWithSeparatorsOutOfOrder() throws IOException {
        damagedPage(1, 1L, 0); // b.db page 1 (the root), seed 1, bytes changed, CRC recomputed
    }

    /** Before: a get never returned (a descent following links in a circle; CI, 2026-12-07). */
    @Example
    void pageWhoseLinksMakeADescentGoRoundForever() throws IOException {
        damagedPage(21, -10842332L, 1); // b.db page 21, random bytes, CRC recomputed
    }

    /** Before: IllegalArgumentException "page number 36028797018963970 not in [0, 1099511627775]" from a get. */
    @Example
    void leafWithAnOverflowLinkBeyondAnyFile() throws IOException {
        damagedPage(3, 1L, 0); // b.db page 3 (a leaf), seed 1, bytes changed, CRC recomputed
    }

    /**
     * Found reading DataFileHeader (the fuzz of its decoder is in libtp-core): a header page size
     * that is no page size, checksum recomputed, went through the decoder; resetLog then sized
     * its page buffer from it (page size -4096: NegativeArraySizeException in
     * DataFiles.resetLsns; 0 would make its page loop endless, by reading the code).
     */
    @Example
    void resetLogOfAFileWhoseHeaderHasNoPageSize() throws IOException {
        for (int pageSize : new int[] {-4096, 0}) {
            Path home = Files.createDirectory(root.resolve("reset" + TRY.incrementAndGet()));
            try {
                try (Stream<Path> s = Files.list(pristine)) {
                    for (Path p : s.toList()) {
                        if (!p.getFileName().toString().equals("__libtp.lock")) {
                            Files.copy(p, home.resolve(p.getFileName()));
                        }
                    }
                }
                try (RandomAccessFile raf = new RandomAccessFile(home.resolve("b.db").toFile(), "rw")) {
                    byte[] h = new byte[512];
                    raf.readFully(h);
                    ByteBuffer le = ByteBuffer.wrap(h).order(ByteOrder.LITTLE_ENDIAN);
                    le.putInt(12, pageSize); // DataFileHeader.OFF_PAGE_SIZE
                    CRC32C c = new CRC32C();
                    c.update(h, 0, 508);
                    le.putInt(508, (int) c.getValue()); // DataFileHeader.OFF_CRC
                    raf.seek(0);
                    raf.write(h);
                }
                try {
                    assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Environment.resetLog(home));
                    fail("resetLog took a data file header with page size " + pageSize);
                } catch (LibTpException e) {
                    assertTrue(e.getMessage().contains("b.db"), e.getMessage());
                }
            } finally {
                delete(home);
            }
        }
    }

    /** Writes {@code image} over page {@code pageNo} of {@code file} in a copy of the pristine environment and uses it. */
    static void check(String file, long pageNo, byte[] image, boolean stale, String what) throws IOException {
        Path home = Files.createDirectory(root.resolve("t" + TRY.incrementAndGet()));
        try {
            try (Stream<Path> s = Files.list(pristine)) {
                for (Path p : s.toList()) {
                    if (p.getFileName().toString().equals("__libtp.lock")) {
                        continue; // it names the pristine environment's shared regions
                    }
                    Files.copy(p, home.resolve(p.getFileName()));
                }
            }
            writePage(home.resolve(file), pageNo, image);
            boolean[] reported = {false};
            try {
                assertTimeoutPreemptively(Duration.ofSeconds(30), () -> reported[0] = use(home, file),
                        () -> "hang: " + file + " page " + pageNo + " (" + what + ")");
            } catch (AssertionError e) {
                keep(file, pageNo, image, stale);
                throw e;
            }
            if (stale && !file.equals(Catalog.FILE) && !reported[0]) {
                keep(file, pageNo, image, stale);
                fail("page " + pageNo + " of " + file + " with a stale checksum was read without a report (" + what + ")");
            }
        } finally {
            delete(home);
        }
    }

    /** Opens and reads everything; true if a LibTpException or a verify finding named {@code file}. */
    static boolean use(Path home, String file) {
        boolean reported = false;
        try (Environment env = Environment.open(home, CONFIG)) {
            for (String name : List.of("b", "r")) {
                reported |= useDatabase(env, name, file);
            }
        } catch (LibTpException e) {
            reported |= typed(e, file);
        } catch (RuntimeException | Error e) {
            throw new AssertionError("not a LibTpException: " + e, e);
        }
        return reported;
    }

    static boolean typed(LibTpException e, String file) {
        if (e instanceof CorruptionException && !e.getMessage().contains(file) && !e.getMessage().contains("catalog")) {
            throw new AssertionError("a CorruptionException that names neither " + file + " nor the catalog: " + e, e);
        }
        return e.getMessage().contains(file);
    }

    static boolean useDatabase(Environment env, String name, String file) {
        boolean reported = false;
        DatabaseType type = name.equals("r") ? DatabaseType.RECNO : DatabaseType.BTREE;
        try (Database d = env.openDatabase(null, name, DatabaseConfig.builder().type(type).build())) {
            if (type == DatabaseType.BTREE) {
                for (int i = 0; i < ROWS; i += 7) {
                    byte[] k = key(i);
                    reported |= step(() -> d.get(null, k), file);
                }
            } else {
                for (int i = 1; i <= 45; i += 4) {
                    long n = i;
                    reported |= step(() -> d.get(null, n), file);
                }
            }
            reported |= step(() -> {
                try (Cursor c = d.openCursor(null)) {
                    int n = 0;
                    for (boolean ok = c.first(); ok && n < 10_000; ok = c.next()) {
                        c.key();
                        c.data();
                        n++;
                    }
                    for (boolean ok = c.last(); ok && n < 20_000; ok = c.prev()) {
                        n++;
                    }
                    if (n >= 10_000) {
                        throw new AssertionError("a scan of " + name + " did not end (a cycle of pages?)");
                    }
                }
                return null;
            }, file);
            List<String> problems = new ArrayList<>();
            reported |= step(() -> problems.addAll(d.verify()), file);
            reported |= String.join(" ", problems).contains(file);
        } catch (LibTpException e) {
            reported |= typed(e, file);
        } catch (AssertionError e) {
            throw e;
        } catch (RuntimeException | Error e) {
            throw new AssertionError("not a LibTpException opening " + name + ": " + e, e);
        }
        return reported;
    }

    /** One read: results, or a LibTpException (true if it names {@code file}). */
    static boolean step(java.util.concurrent.Callable<?> op, String file) {
        try {
            op.call();
            return false;
        } catch (LibTpException e) {
            return typed(e, file);
        } catch (AssertionError e) {
            throw e;
        } catch (Exception | Error e) {
            throw new AssertionError("not a LibTpException: " + e, e);
        }
    }

    static void keep(String file, long pageNo, byte[] image, boolean stale) {
        try {
            Path dir = Files.createDirectories(Path.of("target/fuzz-crashes/page"));
            Files.write(dir.resolve(file + "__" + pageNo + "__" + (stale ? "stale" : "crc") + "__"
                    + Integer.toHexString(java.util.Arrays.hashCode(image)) + ".bin"), image);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
