package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.LibTpException;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.LogRecordCodec;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Function;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * The corruption matrix: for every kind of file an environment holds (data, meta, overflow and
 * free pages, the data file header, the catalog, the file registry, the log anchor, log record
 * headers and bodies), each kind of damage (a flipped bit, a zeroed sector, the file cut short)
 * after a clean close must end in one of two ways: the environment opens and every record reads
 * back exactly (the damage was in something no longer needed), or a {@link LibTpException} whose
 * message names the damaged file. Wrong data, a {@code java.lang.Error} or an exception outside
 * the library's hierarchy fail the test; damage off the read path (a free page) may also leave
 * every record intact with {@code verify} naming the file. The table it prints is in
 * docs/reliability.md.
 */
class CorruptionMatrixTest {
    @TempDir
    Path dir;

    static final int ROWS = 1500;
    static final int PAGE = 4096;

    static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i) {
        int n = i % 100 == 0 ? 6000 : 40 + i % 60; // every hundredth on overflow pages
        byte[] v = new byte[n];
        for (int k = 0; k < n; k++) {
            v[k] = (byte) (i * 31 + k);
        }
        return v;
    }

    /** An environment with database "a" (leaves, overflow pages, a free list), closed cleanly. */
    private Map<Integer, byte[]> build(Path home) {
        Map<Integer, byte[]> model = new TreeMap<>();
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
             Database a = env.openDatabase(null, "a", DatabaseConfig.builder().allowCreate(true).build())) {
            for (int i = 0; i < ROWS; i++) {
                a.put(null, key(i), value(i));
                model.put(i, value(i));
            }
            for (int i = 300; i < 700; i++) { // empties leaves: they go to the free list
                a.delete(null, key(i));
                model.remove(i);
            }
            a.compact();
        }
        return model;
    }

    /** Page numbers (of the access method, after the header page) of data file {@code f} with page type {@code type}. */
    static List<Long> pagesOfType(Path f, int type) throws IOException {
        byte[] b = Files.readAllBytes(f);
        List<Long> out = new ArrayList<>();
        for (long p = 0; (p + 2) * PAGE <= b.length; p++) {
            if (b[(int) ((p + 1) * PAGE) + 7] == type) {
                out.add(p);
            }
        }
        return out;
    }

    /** Offset of a record in the middle of the newest log file, and its length. */
    static long[] middleLogRecord(Path f) throws IOException {
        byte[] b = Files.readAllBytes(f);
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        List<long[]> recs = new ArrayList<>();
        int off = LogFileHeader.SIZE;
        while (off + LogRecordCodec.HEADER_SIZE <= b.length) {
            int len = le.getInt(off);
            if (len == 0) {
                break;
            }
            recs.add(new long[] {off, len});
            off += len;
        }
        return recs.get(recs.size() / 2);
    }

    record Target(String kind, String file, Function<Path, Long> offset) {
    }

    enum Damage { FLIP_BIT, ZERO_SECTOR, CUT_SHORT }

    private static Path newestLog(Path home) {
        try (Stream<Path> s = Files.list(home)) {
            return s.filter(p -> LogFileHeader.fileNumber(p.getFileName().toString()) > 0).sorted()
                    .reduce((x, y) -> y).orElseThrow();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    private static long page(long p, int within) {
        return (p + 1) * PAGE + within;
    }

    private static long firstOfType(Path home, String file, int type) {
        try {
            List<Long> ps = pagesOfType(home.resolve(file), type);
            if (ps.isEmpty()) {
                throw new IllegalStateException("no page of type " + type + " in " + file);
            }
            return page(ps.get(ps.size() / 2), 1000);
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    List<Target> targets() {
        return List.of(
                new Target("leaf page", "a.db", h -> firstOfType(h, "a.db", 3)),
                new Target("internal page (root)", "a.db", h -> page(1, 60)),
                new Target("meta page", "a.db", h -> page(0, 40)),
                new Target("overflow page", "a.db", h -> firstOfType(h, "a.db", 4)),
                new Target("free-list page", "a.db", h -> firstOfType(h, "a.db", 7)),
                new Target("data file header", "a.db", h -> 20L),
                new Target("catalog page", "catalog.libtp", h -> page(1, 100)),
                new Target("file registry", "__libtp.files", h -> 18L),
                new Target("log anchor", "__libtp.anchor", h -> 33L),
                new Target("log record header", "LOG", h -> {
                    try {
                        return middleLogRecord(newestLog(h))[0] + 4;
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }),
                new Target("log record body", "LOG", h -> {
                    try {
                        long[] r = middleLogRecord(newestLog(h));
                        return r[0] + LogRecordCodec.HEADER_SIZE + (r[1] - LogRecordCodec.HEADER_SIZE) / 2;
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }),
                new Target("log tail (final checkpoint)", "LOG", h -> {
                    try {
                        byte[] b = Files.readAllBytes(newestLog(h));
                        int end = b.length;
                        while (end > 0 && b[end - 1] == 0) {
                            end--;
                        }
                        return (long) end - 8;
                    } catch (IOException e) {
                        throw new RuntimeException(e);
                    }
                }));
    }

    private static void damage(Path f, long at, Damage d) throws IOException {
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            switch (d) {
                case FLIP_BIT -> {
                    raf.seek(at);
                    int v = raf.read();
                    raf.seek(at);
                    raf.write(v ^ 0x10);
                }
                case ZERO_SECTOR -> {
                    long s = at / 512 * 512;
                    raf.seek(s);
                    raf.write(new byte[(int) Math.min(512, raf.length() - s)]);
                }
                case CUT_SHORT -> raf.setLength(at);
            }
        }
    }

    /** "clean" or "refused", or fails. */
    private String outcome(Path home, Map<Integer, byte[]> model, String fileName) {
        try (Environment env = Environment.open(home, EnvironmentConfig.defaults());
             Database a = env.openDatabase(null, "a", DatabaseConfig.defaults())) {
            for (int i = 0; i < ROWS; i++) {
                byte[] got = a.get(null, key(i));
                byte[] want = model.get(i);
                if (!Arrays.equals(want, got)) {
                    return bad("WRONG DATA for key " + i + " after damage to " + fileName + ": "
                            + (got == null ? "absent" : got.length + " bytes") + ", expected "
                            + (want == null ? "absent" : want.length + " bytes"));
                }
            }
            try (Cursor c = a.openCursor(null)) {
                int n = 0;
                for (boolean ok = c.first(); ok; ok = c.next()) {
                    n++;
                }
                if (n != model.size()) {
                    return bad("WRONG DATA: a scan after damage to " + fileName + " found " + n + " records, expected "
                            + model.size());
                }
            }
            List<String> problems = a.verify();
            if (!problems.isEmpty() && String.join(" ", problems).contains(fileName)) {
                return "data intact, verify reports it"; // damage off the read path (a free page)
            }
            if (!problems.isEmpty()) {
                return bad("verify after damage to " + fileName + " reports " + problems + " though every record reads back");
            }
            return "clean";
        } catch (LibTpException e) {
            if (!e.getMessage().contains(fileName)) {
                return bad("the exception after damage to " + fileName + " does not name it: " + e);
            }
            return "refused (" + e.getClass().getSimpleName() + ")";
        } catch (RuntimeException | Error e) {
            return bad("damage to " + fileName + " ended in " + e + ", not a LibTpException");
        }
    }

    private final List<String> failures = new ArrayList<>();

    private String bad(String why) {
        failures.add(why);
        return "**FAIL**";
    }

    @Test
    void everyDamageIsRecoveredOrRefusedNamingTheFile() throws Exception {
        Path pristine = Files.createDirectory(dir.resolve("pristine"));
        Map<Integer, byte[]> model = build(pristine);
        StringBuilder table = new StringBuilder("| file kind | flipped bit | zeroed sector | cut short |\n|---|---|---|---|\n");
        int round = 0;
        for (Target t : targets()) {
            table.append("| ").append(t.kind());
            for (Damage d : Damage.values()) {
                Path home = Files.createDirectory(dir.resolve("r" + round++));
                try (Stream<Path> s = Files.list(pristine)) {
                    for (Path p : s.toList()) {
                        Files.copy(p, home.resolve(p.getFileName()));
                    }
                }
                Path f = t.file().equals("LOG") ? newestLog(home) : home.resolve(t.file());
                long at = t.offset().apply(home);
                damage(f, at, d);
                int before = failures.size();
                String o = outcome(home, model, f.getFileName().toString());
                if (failures.size() > before) {
                    failures.set(before, t.kind() + " / " + d + ": " + failures.get(before));
                }
                table.append(" | ").append(o);
            }
            table.append(" |\n");
        }
        System.out.println("CorruptionMatrixTest:\n" + table);
        assertTrue(failures.isEmpty(), String.join("\n", failures));
    }
}
