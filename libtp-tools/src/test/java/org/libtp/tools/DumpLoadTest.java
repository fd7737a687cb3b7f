package org.libtp.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.DatabaseType;
import org.libtp.db.Environment;
import org.libtp.db.Transaction;
import org.libtp.db.EnvironmentConfig;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.libtp.tools.ToolsTest.libtp;

/**
 * dump / load round trips (binary keys and values, values larger than a page, recno), and with
 * Berkeley DB C's own db5.3_dump / db5.3_load where they are installed (Debian's db5.3-util).
 */
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class DumpLoadTest {
    @TempDir
    Path dir;

    static final long SEED = Long.getLong("libtp.seed", System.nanoTime());

    private Path source(Random r, List<byte[][]> pairs, List<byte[]> records) throws Exception {
        Path env = dir.resolve("src");
        Files.createDirectories(env);
        try (Environment e = Environment.open(env, EnvironmentConfig.defaults());
             Database b = e.openDatabase(null, "bin", DatabaseConfig.builder().allowCreate(true).build());
             Database q = e.openDatabase(null, "rec", DatabaseConfig.builder().allowCreate(true)
                     .type(DatabaseType.RECNO).recordLength(16).build())) {
            for (int i = 0; i < 300; i++) {
                byte[] k = new byte[1 + r.nextInt(40)];
                r.nextBytes(k);
                byte[] v = new byte[i % 50 == 0 ? 10_000 + r.nextInt(5000) : r.nextInt(100)];
                r.nextBytes(v);
                b.put(null, k, v);
            }
            for (int i = 0; i < 40; i++) {
                byte[] v = new byte[16];
                r.nextBytes(v);
                records.add(v);
                q.append(null, v);
            }
            try (Cursor c = b.openCursor(null)) {
                for (boolean ok = c.first(); ok; ok = c.next()) {
                    pairs.add(new byte[][] {c.key(), c.data()});
                }
            }
        }
        return env;
    }

    private static void check(Path env, List<byte[][]> pairs, List<byte[]> records) {
        try (Environment e = Environment.open(env, EnvironmentConfig.defaults());
             Database b = e.openDatabase(null, "bin", DatabaseConfig.defaults());
             Database q = e.openDatabase(null, "rec", DatabaseConfig.builder().type(DatabaseType.RECNO)
                     .recordLength(16).build())) {
            List<byte[][]> got = new ArrayList<>();
            try (Cursor c = b.openCursor(null)) {
                for (boolean ok = c.first(); ok; ok = c.next()) {
                    got.add(new byte[][] {c.key(), c.data()});
                }
            }
            assertEquals(pairs.size(), got.size(), "seed " + SEED);
            for (int i = 0; i < pairs.size(); i++) {
                assertArrayEquals(pairs.get(i)[0], got.get(i)[0], "seed " + SEED);
                assertArrayEquals(pairs.get(i)[1], got.get(i)[1], "seed " + SEED);
            }
            assertEquals(records.size(), q.count(null));
            for (int i = 0; i < records.size(); i++) {
                assertArrayEquals(records.get(i), q.get(null, i + 1), "seed " + SEED);
            }
        }
    }

    @Test
    void roundTripInBothFormats() throws Exception {
        System.out.println("DumpLoadTest seed " + SEED + " (replay with -Dlibtp.seed=" + SEED + ")");
        List<byte[][]> pairs = new ArrayList<>();
        List<byte[]> records = new ArrayList<>();
        Path src = source(new Random(SEED), pairs, records);
        for (String[] format : new String[][] {{}, {"-p"}, {"-k"}}) {
            Path dump = dir.resolve("all" + format.length + (format.length > 0 ? format[0] : "") + ".dump");
            List<String> args = new ArrayList<>(List.of("dump", src.toString(), "-f", dump.toString()));
            args.addAll(List.of(format));
            ToolsTest.Run d = libtp(args.toArray(String[]::new));
            assertEquals(0, d.status(), d.err());
            Path dst = dir.resolve("dst" + dump.getFileName());
            Files.createDirectories(dst);
            ToolsTest.Run l = libtp("load", dst.toString(), "--create", "-f", dump.toString(), "--batch", "7");
            assertEquals(0, l.status(), l.err());
            assertTrue(l.out().contains("loaded " + (pairs.size() + records.size()) + " records"), l.out());
            check(dst, pairs, records);
        }
    }

    @Test
    void aRecnoDumpWithRecordNumbersKeepsItsAbsentRecords() throws Exception {
        Path src = dir.resolve("holes");
        Files.createDirectories(src);
        DatabaseConfig recno = DatabaseConfig.builder().allowCreate(true).type(DatabaseType.RECNO).recordLength(4).build();
        try (Environment e = Environment.open(src, EnvironmentConfig.defaults());
             Database q = e.openDatabase(null, "rec", recno)) {
            for (int i = 1; i <= 6; i++) {
                q.append(null, ("r" + i + "xx").substring(0, 4).getBytes());
            }
            q.delete(null, 2L); // deleted in the middle
            try (Transaction t = e.beginTransaction()) {
                q.append(t, "gone".getBytes()); // number 7, aborted: absent
            }
            assertEquals(8, q.append(null, "last".getBytes()));
        }
        Path dump = dir.resolve("holes.dump");
        ToolsTest.Run d = libtp("dump", src.toString(), "-k", "-s", "rec", "-f", dump.toString());
        assertEquals(0, d.status(), d.err());
        Path dst = dir.resolve("holes-dst");
        Files.createDirectories(dst);
        ToolsTest.Run l = libtp("load", dst.toString(), "--create", "-s", "rec", "-f", dump.toString());
        assertEquals(0, l.status(), l.err());
        try (Environment e = Environment.open(dst, EnvironmentConfig.defaults());
             Database q = e.openDatabase(null, "rec", recno)) {
            assertEquals(8, q.count(null));
            assertArrayEquals("r1xx".getBytes(), q.get(null, 1L));
            assertNull(q.get(null, 2L));
            assertArrayEquals("r6xx".getBytes(), q.get(null, 6L));
            assertNull(q.get(null, 7L));
            assertArrayEquals("last".getBytes(), q.get(null, 8L));
            assertEquals(List.of(), q.verify());
        }
    }

    @Test
    void badInputIsRefusedWithTheLine() throws Exception {
        Path env = dir.resolve("e");
        Files.createDirectories(env);
        Path bad = dir.resolve("bad.dump");
        Files.writeString(bad, "VERSION=3\nformat=bytevalue\ntype=btree\nHEADER=END\n 6b\n zz\nDATA=END\n");
        ToolsTest.Run r = libtp("load", env.toString(), "--create", "--db", "x", "-f", bad.toString());
        assertEquals(3, r.status());
        assertTrue(r.err().contains("line 6") && r.err().contains("hex digit"), r.err());
        Files.writeString(bad, "VERSION=3\ntype=hash\nHEADER=END\nDATA=END\n");
        r = libtp("load", env.toString(), "--db", "x", "-f", bad.toString());
        assertEquals(3, r.status());
        assertTrue(r.err().contains("hash"), r.err());
        Files.writeString(bad, "VERSION=3\ntype=btree\nHEADER=END\n 6b\n");
        r = libtp("load", env.toString(), "--db", "x", "-f", bad.toString());
        assertEquals(3, r.status());
        assertTrue(r.err().contains("no DATA=END"), r.err());
    }

    private static boolean installed(String tool) {
        for (String p : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(p, tool))) {
                return true;
            }
        }
        return false;
    }

    private static void run(Path cwd, String... cmd) throws Exception {
        Process p = new ProcessBuilder(cmd).directory(cwd.toFile()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes());
        assertTrue(p.waitFor(60, TimeUnit.SECONDS), String.join(" ", cmd));
        assertEquals(0, p.exitValue(), String.join(" ", cmd) + ": " + out);
    }

    @Test
    void berkeleyDbReadsOurDumpsAndWeReadItsDumps() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(installed("db5.3_dump") && installed("db5.3_load"),
                "Berkeley DB's db5.3-util is not installed (apt-get install db5.3-util)");
        List<byte[][]> pairs = new ArrayList<>();
        List<byte[]> records = new ArrayList<>();
        Path src = source(new Random(SEED), pairs, records);
        Path bdb = dir.resolve("bdb");
        Files.createDirectories(bdb);
        for (String db : new String[] {"bin", "rec"}) {
            Path ours = bdb.resolve(db + ".libtp.dump");
            assertEquals(0, libtp("dump", src.toString(), "--db", db, "-f", ours.toString()).status());
            run(bdb, "db5.3_load", "-f", ours.toString(), db + ".bdb");               // LibTP -> Berkeley DB
            run(bdb, "db5.3_dump", "-f", db + ".bdb.dump", db + ".bdb");               // Berkeley DB -> text
        }
        Path back = dir.resolve("back");
        Files.createDirectories(back);
        for (String db : new String[] {"bin", "rec"}) {
            ToolsTest.Run l = libtp("load", back.toString(), "--create", "--db", db, "-f",
                    bdb.resolve(db + ".bdb.dump").toString());
            assertEquals(0, l.status(), l.err());
        }
        check(back, pairs, records);
    }
}
