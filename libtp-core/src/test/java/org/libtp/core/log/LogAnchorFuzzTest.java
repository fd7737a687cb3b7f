package org.libtp.core.log;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.core.LibTpException;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.FuzzTries;
import org.libtp.core.tp.TxnEnvironment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the log anchor {@code __libtp.anchor} (jqwik): {@link LogAnchor#decode} of random bytes
 * (magic, version and checksum planted or not) and of valid anchors with bits flipped, bytes set,
 * cut short, extended with garbage, fields set to edge values, the checksum left stale or
 * recomputed; {@link LogAnchor#read} of such files (empty, cut, longer than it reads); and the
 * opening of a real log and its recovery with such an anchor in place of its own. The answer is
 * an anchor whose fields are the bytes', or a {@link LibTpException} naming the anchor file;
 * an open succeeds (then the log reads back whole) or throws a {@link LibTpException} that names
 * the anchor, within a time limit.
 *
 * <p>Tries: as below in {@code mvn verify} (the opens are few: each maps the regions, about 50 ms),
 * 100 times more under {@code -Pstress} ({@link FuzzTries}). jqwik prints the seed of a failing
 * run; replay with {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class LogAnchorFuzzTest {
    static final String WHERE = "/env/" + LogAnchor.FILE;

    private static Path root;
    private static Path template;
    private static List<LogEntry> records;
    private static final AtomicInteger TRY = new AtomicInteger();
    /** Files this JVM has open once the template is built: a refused open must not add to them. */
    private static int openFiles;

    @BeforeContainer
    static void build() throws IOException {
        root = Files.createTempDirectory("anchor-fuzz");
        template = root.resolve("template");
        LogFuzzEnvironment.build(template);
        // what a scan returns: it steps over the file-end records
        records = LogFuzzEnvironment.records(template).stream().filter(e -> e.type() != LogRecordCodec.FILE_END_TYPE)
                .toList();
        openFiles = LogFuzzEnvironment.openFiles();
    }

    @AfterContainer
    static void cleanUp() {
        LogFuzzEnvironment.deleteTree(root);
    }

    static void fixCrc(byte[] b) {
        if (b.length >= LogAnchor.SIZE) {
            CRC32C c = new CRC32C();
            c.update(b, 0, LogAnchor.OFF_CRC);
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(LogAnchor.OFF_CRC, (int) c.getValue());
        }
    }

    /** Decodes {@code b}: an anchor that says what the bytes say, or a LibTpException naming the file. */
    static LogAnchor decode(byte[] b) {
        try {
            LogAnchor a = LogAnchor.decode(WHERE, b);
            ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(LogAnchor.MAGIC, new String(b, 0, 8, StandardCharsets.US_ASCII));
            assertEquals(LogAnchor.VERSION, le.getInt(LogAnchor.OFF_VERSION));
            assertEquals(LogAnchor.SIZE, le.getInt(LogAnchor.OFF_SIZE));
            assertEquals(new LogAnchor(le.getLong(LogAnchor.OFF_ENV_ID), le.getLong(LogAnchor.OFF_LOG_ID),
                    le.getLong(LogAnchor.OFF_MIN_END), le.getLong(LogAnchor.OFF_CREATED),
                    le.getLong(LogAnchor.OFF_CHECKPOINT)), a);
            return a;
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(WHERE), () -> "does not name the anchor: " + e);
            return null;
        } catch (Throwable t) {
            return fail("not a LibTpException for " + Arrays.toString(b) + ": " + t, t);
        }
    }

    @Property(tries = 2000)
    void randomBytes(@ForAll @Size(max = 100) byte[] b, @ForAll boolean magic, @ForAll boolean version,
                     @ForAll boolean crc) {
        if (magic && b.length >= 8) {
            System.arraycopy(LogAnchor.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
        }
        if (version && b.length >= LogAnchor.SIZE) {
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(LogAnchor.OFF_VERSION, LogAnchor.VERSION)
                    .putInt(LogAnchor.OFF_SIZE, LogAnchor.SIZE);
        }
        if (crc) {
            fixCrc(b);
        }
        decode(b);
    }

    static LogAnchor anchor(Random r) {
        long[] lsns = {0, Lsn.of(1, 64), Lsn.of(1 + r.nextInt(5), r.nextInt(1 << 16)), r.nextLong()};
        return new LogAnchor(r.nextLong(), r.nextLong(), lsns[r.nextInt(lsns.length)], r.nextLong(),
                lsns[r.nextInt(lsns.length)]);
    }

    /** One mutation of an anchor image: a bit flipped, a byte or field set, the image cut or extended. */
    static byte[] mutate(byte[] b, Random r) {
        switch (r.nextInt(6)) {
            case 0, 1 -> {
                if (b.length > 0) {
                    int bit = r.nextInt(b.length * 8);
                    b[bit / 8] ^= (byte) (1 << (bit % 8));
                }
            }
            case 2 -> {
                if (b.length > 0) {
                    b[r.nextInt(b.length)] = (byte) r.nextInt(256);
                }
            }
            case 3 -> b = Arrays.copyOf(b, r.nextInt(b.length + 1));
            case 4 -> {
                int n = b.length;
                b = Arrays.copyOf(b, n + 1 + r.nextInt(r.nextBoolean() ? 16 : 5000));
                for (int i = n; i < b.length; i++) {
                    b[i] = (byte) r.nextInt(256);
                }
            }
            default -> {
                // a field of the format set to an edge value
                int[] ints = {LogAnchor.OFF_VERSION, LogAnchor.OFF_SIZE};
                int[] longs = {LogAnchor.OFF_ENV_ID, LogAnchor.OFF_LOG_ID, LogAnchor.OFF_MIN_END, LogAnchor.OFF_CREATED,
                    LogAnchor.OFF_CHECKPOINT};
                ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
                if (r.nextBoolean()) {
                    int at = ints[r.nextInt(ints.length)];
                    int[] v = {0, -1, 1, 2, LogAnchor.VERSION + 1, 63, 65, Integer.MIN_VALUE, Integer.MAX_VALUE, r.nextInt()};
                    if (at + 4 <= b.length) {
                        le.putInt(at, v[r.nextInt(v.length)]);
                    }
                } else {
                    int at = longs[r.nextInt(longs.length)];
                    long[] v = {0, -1, 1, Long.MIN_VALUE, Long.MAX_VALUE, Lsn.of(1, 0), Lsn.of(Integer.MAX_VALUE, 0xFFFF_FFFFL),
                        0xFFFF_FFFFL, 64, r.nextLong()};
                    if (at + 8 <= b.length) {
                        le.putLong(at, v[r.nextInt(v.length)]);
                    }
                }
            }
        }
        return b;
    }

    @Property(tries = 2000)
    void mutatedAnchors(@ForAll long seed, @ForAll @IntRange(max = 4) int mutations, @ForAll boolean recomputeCrc) {
        Random r = new Random(seed);
        LogAnchor a = anchor(r);
        byte[] b = a.encode().array();
        for (int i = 0; i < mutations; i++) {
            b = mutate(b, r);
        }
        if (recomputeCrc) {
            fixCrc(b);
        }
        LogAnchor d = decode(b);
        if (mutations == 0) {
            assertEquals(a, d);
        }
    }

    /** Writes {@code b} as the anchor file of a new directory and reads it back with {@link LogAnchor#read}. */
    @Property(tries = 300)
    void anchorFiles(@ForAll long seed, @ForAll @IntRange(max = 4) int mutations, @ForAll boolean recomputeCrc)
            throws IOException {
        Random r = new Random(seed);
        byte[] b = anchor(r).encode().array();
        for (int i = 0; i < mutations; i++) {
            b = mutate(b, r);
        }
        if (recomputeCrc) {
            fixCrc(b);
        }
        Path dir = Files.createDirectory(root.resolve("f" + TRY.incrementAndGet()));
        try {
            Files.write(dir.resolve(LogAnchor.FILE), b);
            String where = dir.resolve(LogAnchor.FILE).toString();
            try {
                LogAnchor a = LogAnchor.read(new FileStorage(dir));
                // what it reads of a longer file is its first 4 KiB: the anchor is their first 64
                assertEquals(LogAnchor.decode(where, Arrays.copyOf(b, Math.min(b.length, 4096))), a);
            } catch (LibTpException e) {
                assertTrue(e.getMessage().contains(where), () -> "does not name the anchor: " + e);
            } catch (Throwable t) {
                fail("not a LibTpException for " + Arrays.toString(b) + ": " + t, t);
            }
        } finally {
            LogFuzzEnvironment.deleteTree(dir);
        }
        // no file: no anchor
        assertNull(LogAnchor.read(new FileStorage(root)));
    }

    /**
     * The template environment with a mutated copy of its own anchor (or a fuzzed one), opened
     * with recovery: it opens and its log reads back whole, or the open fails naming the anchor.
     * The checksum is recomputed in most tries, so that the anchor's values reach the log's open
     * (the end it must reach, the log id) and recovery (the checkpoint it names).
     */
    @Property(tries = 40)
    void openWithDamagedAnchor(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3) int mutations,
                               @ForAll @IntRange(max = 9) int recompute) throws IOException {
        Random r = new Random(seed);
        Path home = root.resolve("t" + TRY.incrementAndGet());
        LogFuzzEnvironment.copy(template, home);
        byte[] b = Files.readAllBytes(home.resolve(LogAnchor.FILE));
        byte[] original = b.clone();
        for (int i = 0; i < mutations; i++) {
            b = mutate(b, r);
        }
        if (recompute > 1) {
            fixCrc(b);
        }
        byte[] anchor = b;
        Files.write(home.resolve(LogAnchor.FILE), anchor);
        try {
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> open(home, anchor, original),
                    () -> "hang opening with anchor " + Arrays.toString(anchor));
            LogFuzzEnvironment.checkOpenFiles(openFiles, "anchor " + Arrays.toString(anchor));
        } finally {
            LogFuzzEnvironment.deleteTree(home);
        }
    }

    static void open(Path home, byte[] anchor, byte[] original) {
        try (TxnEnvironment tp = LogFuzzEnvironment.open(home)) {
            List<LogEntry> seen = new ArrayList<>();
            tp.log().scan(Lsn.NULL, e -> seen.add(e) && seen.size() <= records.size());
            assertTrue(seen.size() >= records.size(), () -> "the log reads back " + seen.size() + " of "
                    + records.size() + " records, with anchor " + Arrays.toString(anchor));
            for (int i = 0; i < records.size(); i++) {
                assertEquals(records.get(i).lsn(), seen.get(i).lsn());
                assertArrayEquals(records.get(i).payload(), seen.get(i).payload());
            }
        } catch (LibTpException e) {
            if (anchor.length >= LogAnchor.SIZE && Arrays.equals(Arrays.copyOf(anchor, LogAnchor.SIZE), original)) {
                fail("the template's own anchor was refused: " + e, e);
            }
            assertTrue(e.getMessage().contains(LogAnchor.FILE) || e.getMessage().contains("anchor"),
                    () -> "does not name the anchor: " + e);
        } catch (AssertionError e) {
            throw e;
        } catch (Throwable t) {
            fail("not a LibTpException with anchor " + Arrays.toString(anchor) + ": " + t, t);
        }
    }
}
