package org.libtp.bench.report;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.bench.BenchMain;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code report} on a small synthetic set of result lines: the Markdown holds the tables and the
 * targets evaluated (PASS and MISS cases), the charts are written, and only the text between the
 * generated markers is replaced.
 */
class ReportCommandTest {
    @TempDir
    Path dir;

    /** The synthetic results: raw force rate 1,000/s; see the expectations in {@link #markdownHasTablesAndTargets}. */
    private Path results() throws IOException {
        List<String> l = new ArrayList<>();
        l.add("{\"bench\":\"machine\",\"date\":\"2026-11-24T00:00:00Z\",\"jdk\":\"17.0.15 (test)\",\"cpu\":\"Test CPU\","
                + "\"cores\":2,\"availableProcessors\":2,\"memMiB\":4096,\"kernel\":\"Linux 6.1.0-test\","
                + "\"resultsDir\":\"/tmp/r\",\"fsType\":\"ext4\",\"fsSource\":\"/dev/vda\",\"fsMount\":\"/\"}");
        l.add("{\"bench\":\"commit\",\"level\":\"txn\",\"threads\":1,\"processes\":1,\"durability\":\"sync\","
                + "\"commitsPerSec\":1800.5,\"rawForcesPerSec\":1000.000,\"notes\":\"a \\\"quoted\\\" note\"}");
        l.add("[main] INFO a log line mixed into the file");
        l.add("{\"bench\":\"tpcb\",\"engine\":\"libtp\",\"broken");
        int s = 10;
        int a = 1_000_000;
        // durable, scale 10: MPL 1 980 (>= 0.95 x 1000: PASS; < 4 x fsync 300: MISS); MPL 8 3500 (>= 3 x 1000: PASS)
        l.add(tpcb("libtp", "sync", "full", 1, 1, s, a, 700, 0)); // replaced by the next line
        l.add(tpcb("libtp", "sync", "full", 1, 1, s, a, 980, 0));
        l.add(tpcb("libtp", "sync", "full", 2, 1, s, a, 1900, 3));
        l.add(tpcb("libtp", "sync", "full", 4, 1, s, a, 2500, 10));
        l.add(tpcb("libtp", "sync", "full", 8, 1, s, a, 3500, 40));
        l.add(tpcb("libtp", "sync", "full", 1, 4, s, a, 2000, 5)); // 0.8 x the 4 threads: MISS
        l.add(tpcb("fsync", "sync", "full", 1, 1, s, a, 300, 0));
        l.add(tpcb("fsync", "sync", "full", 8, 1, s, a, 900, 0));
        l.add(tpcb("je", "sync", "full", 1, 1, s, a, 800, 0));
        l.add(tpcb("sqlite", "sync", "full", 1, 1, s, a, 600, 0));
        // no-sync, scale 10: libtp 10000 >= 0.85 x notp 11000 (PASS), >= 1.5 x best peer 5000 (PASS); MPL 4 >= MPL 1
        l.add(tpcb("libtp", "nosync", "full", 1, 1, s, a, 10000, 0));
        l.add(tpcb("libtp", "nosync", "full", 4, 1, s, a, 15000, 20));
        l.add(tpcb("notp", "none", "full", 1, 1, s, a, 11000, 0));
        l.add(tpcb("flock", "none", "full", 1, 1, s, a, 10500, 0));
        l.add(tpcb("sqlite", "nosync", "full", 1, 1, s, a, 5000, 0));
        l.add(tpcb("lmdb", "nosync", "full", 1, 1, s, a, 4000, 0));
        // JDBC: durable MPL 8 1900 < 3 x the best JDBC peer 650 (MISS); no-sync MPL 1 8000 >= 1.5 x sqlite 5000
        // and >= 0.5 x libtp 10000 (both PASS); 4 processes work
        l.add(tpcb("libtp-jdbc", "sync", "full", 8, 1, s, a, 1900, 0));
        l.add(tpcb("h2-sql", "sync", "full", 8, 1, s, a, 650, 0));
        l.add(tpcb("libtp-jdbc", "nosync", "full", 1, 1, s, a, 8000, 0));
        l.add(tpcb("h2-sql", "nosync", "full", 1, 1, s, a, 3000, 0));
        l.add(tpcb("libtp-jdbc", "nosync", "full", 1, 4, s, a, 5000, 3));
        // scale 1, durable MPL 8: 1500 < 2 x 1000: MISS
        l.add(tpcb("libtp", "sync", "full", 8, 1, 1, 100_000, 1500, 0));
        // the paper's small database, read-only, with an invariant violation to show
        l.add(tpcb("libtp", "nosync", "readonly", 1, 1, 10, 1000, 30000, 0));
        l.add(tpcb("libtp", "nosync", "readonly", 2, 1, 10, 1000, 50000, 0));
        l.add(tpcb("notp", "none", "readonly", 1, 1, 10, 1000, 40000, 0));
        l.add(tpcb("libtp", "nosync", "full", 2, 1, 10, 1000, 9000, 900).replace("\"invariantOk\":true",
                "\"invariantOk\":false"));
        // OO1: libtp beats every peer cold (5 < 7), not warm (1.2 > 0.5)
        for (String[] o : new String[][] {
                {"libtp", "lookup", "cold", "5.0"}, {"libtp", "lookup", "warm", "1.2"},
                {"sqlite", "lookup", "cold", "7.0"}, {"sqlite", "lookup", "warm", "0.5"},
                {"lmdb", "lookup", "cold", "9.0"}, {"lmdb", "lookup", "warm", "0.9"},
                {"notp", "lookup", "cold", "4.0"}, {"notp", "lookup", "warm", "1.0"},
                {"libtp", "forward", "cold", "40.0"}, {"libtp", "forward", "warm", "12.0"},
                {"sqlite", "forward", "cold", "60.0"}, {"sqlite", "forward", "warm", "20.0"}}) {
            l.add(String.format(Locale.ROOT, "{\"bench\":\"oo1\",\"engine\":\"%s\",\"test\":\"%s\",\"cache\":\"%s\","
                    + "\"seconds\":0.005000,\"ms\":%s,\"sdMs\":0.100,\"minMs\":1.000,\"visited\":1000.000,"
                    + "\"parts\":20000,\"repeat\":3,\"durability\":\"%s\",\"cacheMiB\":64,\"seed\":42,"
                    + "\"loadSeconds\":0.300,\"jdk\":\"17.0.15\"%s}", o[0], o[1], o[2], o[3],
                    o[0].equals("notp") ? "none" : "sync",
                    o[2].equals("cold") ? ",\"osCacheDropped\":true" : ""));
        }
        // Operations (ops-bench.sh): load 0.9 x the put loop (PASS); TPC-B 0.5 x during full-speed backups (MISS),
        // 0.8 x at 300 MB/s (PASS), 1.0 x during yielding backups (3,000 twice) against the mean of the runs
        // around them (4,000, 2,000, 3,000) (PASS); these tpcb lines carry a phase and stay out of the TPC-B tables
        l.add("{\"bench\":\"load\",\"records\":1000,\"putPerSecond\":1000,\"loadPerSecond\":900,\"loadVsPut\":0.9,"
                + "\"db53PerSecond\":3000}");
        l.add("{\"phase\":\"without backup\"," + tpcb("libtp", "sync", "full", 8, 1, s, a, 4000, 0).substring(1));
        l.add("{\"bench\":\"backup\",\"rateMb\":0,\"backups\":3,\"bytes\":3000000000,\"ms\":3000,\"mbPerSecond\":1000}");
        l.add("{\"phase\":\"during backups\",\"backupRateMb\":0," + tpcb("libtp", "sync", "full", 8, 1, s, a, 2000, 0)
                .substring(1));
        l.add("{\"bench\":\"cp\",\"bytes\":1000,\"ms\":1,\"mbPerSecond\":2000}");
        l.add("{\"phase\":\"without backup\"," + tpcb("libtp", "sync", "full", 8, 1, s, a, 5000, 0).substring(1));
        l.add("{\"phase\":\"during backups\",\"backupRateMb\":300," + tpcb("libtp", "sync", "full", 8, 1, s, a, 4000, 0)
                .substring(1));
        l.add("{\"phase\":\"without backup\"," + tpcb("libtp", "sync", "full", 8, 1, s, a, 4000, 0).substring(1));
        l.add("{\"phase\":\"during backups\",\"backupRateMb\":0,\"backupYields\":true,"
                + tpcb("libtp", "sync", "full", 8, 1, s, a, 3000, 0).substring(1));
        l.add("{\"phase\":\"without backup after\"," + tpcb("libtp", "sync", "full", 8, 1, s, a, 2000, 0).substring(1));
        l.add("{\"phase\":\"during backups\",\"backupRateMb\":0,\"backupYields\":true,"
                + tpcb("libtp", "sync", "full", 8, 1, s, a, 3000, 0).substring(1));
        l.add("{\"phase\":\"without backup after\"," + tpcb("libtp", "sync", "full", 8, 1, s, a, 3000, 0).substring(1));
        Path f = dir.resolve("results.jsonl");
        Files.write(f, l, StandardCharsets.UTF_8);
        return f;
    }

    private static String tpcb(String engine, String durability, String txn, int mpl, int processes, int scale,
                               int accounts, double tps, long aborts) {
        long commits = Math.round(tps * 10);
        return String.format(Locale.ROOT, "{\"bench\":\"tpcb\",\"engine\":\"%s\",\"durability\":\"%s\",\"txn\":\"%s\","
                        + "\"mpl\":%d,\"processes\":%d,\"scale\":%d,\"accounts\":%d,\"seconds\":10.000,"
                        + "\"txnPerSec\":%.3f,\"commits\":%d,\"aborts\":%d,\"abortRate\":%.3f,\"invariantOk\":true,"
                        + "\"historyRows\":%d,\"elr\":true,\"cacheMiB\":256,\"loadSeconds\":0.000,\"jdk\":\"17.0.15\"}",
                engine, durability, txn, mpl, processes, scale, accounts, tps, commits, aborts,
                (double) aborts / (commits + aborts), commits);
    }

    private record Run(int status, String out, String err) {
    }

    private static Run report(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status;
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            String[] command = new String[args.length + 1];
            command[0] = "report";
            System.arraycopy(args, 0, command, 1, args.length);
            status = BenchMain.dispatch(command, o, e);
        }
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    /** The row of the targets table whose target text contains {@code what}. */
    private static String targetRow(String md, String what) {
        List<String> rows = md.lines().filter(x -> x.startsWith("| ") && x.contains(what)).toList();
        assertEquals(1, rows.size(), "one target row with '" + what + "': " + rows);
        return rows.get(0);
    }

    @Test
    void markdownHasTablesAndTargets() throws Exception {
        Path in = results();
        Path md = dir.resolve("docs").resolve("benchmarks.md");
        Files.createDirectories(md.getParent());
        Run r = report("--md", md.toString(), "--img", dir.resolve("docs/img").toString(), "--note", "synthetic",
                in.toString());
        assertEquals(0, r.status(), r.err());
        String s = Files.readString(md);

        // machine facts from the machine line, the raw force rate from the commit line
        assertTrue(s.contains("| CPU | Test CPU, 2 cores"), s);
        assertTrue(s.contains("| kernel | Linux 6.1.0-test |"), s);
        assertTrue(s.contains("| file system of the results | ext4"), s);
        assertTrue(s.contains("| raw force rate | 1,000 forces/s"), s);
        assertTrue(s.contains("| note | synthetic |"), s);
        // the two malformed lines are reported, the log line is ignored
        assertTrue(r.err().contains("results.jsonl:4"), r.err());
        assertFalse(r.err().contains("results.jsonl:3"), r.err());
        assertTrue(s.contains("1 replaced by later lines"), s);

        // TPC-B: the pivot (MPL columns), every result, the ratios
        assertTrue(s.contains("#### scale 10, 1,000,000 accounts, full transactions"), s);
        assertTrue(s.contains("| engine | durability | processes | MPL 1 | MPL 2 | MPL 4 | MPL 8 |"), s);
        assertTrue(s.contains("| libtp | sync | 1 | 980 | 1,900 (0.0 % aborts) | 2,500 (0.0 % aborts) |"
                + " 3,500 (0.1 % aborts) |"), s);
        assertTrue(s.contains("| libtp | sync | 4 × MPL | 2,000 (0.0 % aborts) |"), s);
        assertTrue(s.contains("| libtp | scale 10, 1,000,000 accounts | full | sync | 8 | 1 | 3,500 | 35,000 | 40 |"), s);
        assertTrue(s.contains("| libtp | scale 10, 1,000 accounts | full | nosync | 2 | 1 | 9,000 | 90,000 | 900 | 1.0 % |"
                + " **VIOLATED** |"), s);
        assertTrue(s.contains("| libtp | scale 10, 1,000,000 accounts | full | sync | 1 | 1 | 980 |"), s);
        assertFalse(s.contains("| 700 |"), "the replaced line is gone: " + s);
        assertTrue(s.contains("| scale 10, 1,000,000 accounts | full | 1 | 10,000 | 11,000 | 0.91 | 980 | 300 | 3.27 |"), s);
        assertTrue(s.contains("| scale 10, 1,000 accounts | readonly | 1 | 30,000 | 40,000 | 0.75 |"), s);

        // OO1: engine x test x cache in ms, fastest in bold
        assertTrue(s.contains("| engine | durability | lookup cold | lookup warm | forward cold | forward warm |"), s);
        assertTrue(s.contains("| libtp | sync | 5.00 | 1.20 | **40.0** | **12.0** |"), s);
        assertTrue(s.contains("| sqlite | sync | 7.00 | **0.500** | 60.0 | 20.0 |"), s);
        assertTrue(s.contains("| notp | none | **4.00** | 1.00 |  |  |"), s);

        // targets
        assertTrue(targetRow(s, "durable, MPL 1: libtp ≥ 0.95 × raw force rate").endsWith("| **PASS** |"), s);
        String fsync = targetRow(s, "durable, MPL 1: libtp ≥ 4 × fsync");
        assertTrue(fsync.endsWith("| **MISS** |"), fsync);
        assertTrue(fsync.contains("| 980 txn/s (3.27 ×) | ≥ 1,200 (4 × 300 fsync txn/s) |"), fsync);
        assertTrue(targetRow(s, "durable, MPL 8: libtp ≥ 3 ×").endsWith("| **PASS** |"), s);
        assertTrue(targetRow(s, "scale 1 (100,000 accounts), durable, MPL 8").endsWith("| **MISS** |"), s);
        assertTrue(targetRow(s, "libtp ≥ 0.85 × notp").endsWith("| **PASS** |"), s);
        String peer = targetRow(s, "1.5 × the best peer");
        assertTrue(peer.contains("(1.5 × 5,000 sqlite txn/s)") && peer.endsWith("| **PASS** |"), peer);
        assertTrue(targetRow(s, "libtp MPL 4 ≥ libtp MPL 1").endsWith("| **PASS** |"), s);
        assertTrue(targetRow(s, "4 processes × MPL 1 ≥ 0.9 × 4 threads").endsWith("| **MISS** |"), s);
        assertTrue(targetRow(s, "OO1 lookup, cold").endsWith("| **PASS** |"), s);
        assertTrue(targetRow(s, "OO1 lookup, warm").endsWith("| **MISS** |"), s);
        assertTrue(targetRow(s, "OO1 forward, warm").endsWith("| **PASS** |"), s);
        String jdbcSync = targetRow(s, "JDBC: TPC-B scale 10 (1,000,000 accounts), durable, MPL 8");
        assertTrue(jdbcSync.contains("(3 × 650 h2-sql txn/s)") && jdbcSync.endsWith("| **MISS** |"), jdbcSync);
        String jdbcPeer = targetRow(s, "no-sync, MPL 1: libtp-jdbc ≥ 1.5 × the best JDBC peer");
        assertTrue(jdbcPeer.contains("(1.5 × 5,000 sqlite txn/s)") && jdbcPeer.endsWith("| **PASS** |"), jdbcPeer);
        String jdbcRecord = targetRow(s, "libtp-jdbc ≥ 0.5 × libtp through the record API");
        assertTrue(jdbcRecord.contains("(0.80 ×)") && jdbcRecord.endsWith("| **PASS** |"), jdbcRecord);
        assertTrue(targetRow(s, "libtp-jdbc 4 processes × MPL 1 work").endsWith("| **PASS** |"), s);
        String load = targetRow(s, "Operations: libtp load of 1,000 records");
        assertTrue(load.contains("(0.90 ×)") && load.endsWith("| **PASS** |"), load);
        assertTrue(targetRow(s, "beside db5.3_load").contains("0.30 × (db5.3_load 3,000 records/s)"), s);
        String unthrottled = targetRow(s, "back to back at full speed (--full-speed)");
        assertTrue(unthrottled.contains("2,000 txn/s (0.50 ×)") && unthrottled.endsWith("| **MISS** |"), unthrottled);
        String rated = targetRow(s, "back to back at --rate 300 MB/s");
        assertTrue(rated.contains("(0.80 ×)") && rated.contains("0.7 × 5,000 txn/s just before")
                && rated.endsWith("| **PASS** |"), rated);
        String yielding = targetRow(s, "back to back yielding to commits (the default)");
        assertTrue(yielding.contains("3,000 txn/s (1.00 ×, mean of 2 runs)")
                && yielding.contains("0.7 × 3,000 txn/s without, the mean of 3 runs around them")
                && yielding.endsWith("| **PASS** |"), yielding);
        assertTrue(targetRow(s, "beside cp -r").contains("1,000 MB/s against 2,000 MB/s (0.50 ×)"), s);
        assertTrue(targetRow(s, "durable, MPL 8: libtp ≥ 3 ×").contains("3,500 txn/s"), "the phase lines stay out of TPC-B");
        assertTrue(s.contains("14 PASS, 6 MISS, 2 reported (comparisons without a bar), 0 without data."), s);

        // charts: written, non-empty PNGs, linked relative to the Markdown file
        for (String png : List.of("tpcb-s10-a1000000-full-sync.png", "tpcb-s10-a1000000-full-nosync.png",
                "tpcb-s1-a100000-full-sync.png", "tpcb-s10-a1000-readonly-nosync.png", "tpcb-aborts-libtp.png",
                "tpcb-ratio-notp.png", "tpcb-ratio-fsync.png", "oo1-p20000-cold.png", "oo1-p20000-warm.png")) {
            Path p = dir.resolve("docs/img").resolve(png);
            assertTrue(Files.size(p) > 1000, png + " is written");
            byte[] head = Files.readAllBytes(p);
            assertEquals((byte) 0x89, head[0], png + " is a PNG");
            assertEquals('P', head[1]);
            assertTrue(s.contains("](img/" + png + ")"), png + " is linked: " + s);
        }
        assertFalse(Files.exists(dir.resolve("docs/img/tpcb-s1-a100000-full-nosync.png")), "no chart without data");
    }

    @Test
    void replacesOnlyBetweenTheMarkers() throws Exception {
        Path in = results();
        Path md = dir.resolve("bench.md");
        String before = "# Benchmarks\n\nHand-written text that names the markers, `" + Report.BEGIN + "` and `"
                + Report.END + "`, in a sentence.\n\n";
        String after = "\n## Later section\n\nKept too.\n";
        Files.writeString(md, before + Report.BEGIN + "\nold generated text\n" + Report.END + "\n" + after);
        assertEquals(0, report("--md", md.toString(), in.toString()).status());
        String s = Files.readString(md);
        assertTrue(s.startsWith(before + Report.BEGIN + "\n"), s);
        assertTrue(s.endsWith(Report.END + "\n" + after), s);
        assertFalse(s.contains("old generated text"), s);
        assertTrue(s.contains("### Targets"), s);
        assertTrue(Files.size(dir.resolve("img/tpcb-ratio-notp.png")) > 0, "--img defaults to img/ next to the file");

        // a second run replaces its own section: still one, still the text around it
        assertEquals(0, report("--md", md.toString(), in.toString()).status());
        String again = Files.readString(md);
        assertEquals(1, again.lines().filter(Report.BEGIN::equals).count(), again);
        assertTrue(again.startsWith(before) && again.endsWith(Report.END + "\n" + after), again);

        // no markers: appended at the end
        Path plain = dir.resolve("plain.md");
        Files.writeString(plain, "# Only hand-written\n");
        assertEquals(0, report("--md", plain.toString(), in.toString()).status());
        String p = Files.readString(plain);
        assertTrue(p.startsWith("# Only hand-written\n\n" + Report.BEGIN + "\n"), p);
        assertTrue(p.endsWith(Report.END + "\n"), p);

        // a begin marker without an end is refused, the file left alone
        Path broken = dir.resolve("broken.md");
        Files.writeString(broken, "x\n" + Report.BEGIN + "\n");
        Run r = report("--md", broken.toString(), in.toString());
        assertNotEquals(0, r.status());
        assertEquals("x\n" + Report.BEGIN + "\n", Files.readString(broken));
        assertThrows(IllegalArgumentException.class, () -> ReportCommand.splice(Report.BEGIN + "\na\n", "s"));
        // markers named inside a line are not markers: appended
        assertEquals("see `" + Report.BEGIN + "`\n\nS\n", ReportCommand.splice("see `" + Report.BEGIN + "`\n", "S\n"));
    }

    @Test
    void noDataAndStdout() throws Exception {
        Path f = dir.resolve("only-commit.jsonl");
        Files.writeString(f, "{\"bench\":\"commit\",\"threads\":1,\"commitsPerSec\":5.0,\"rawForcesPerSec\":100.0}\n");
        Run r = report("--md", "-", "--img", dir.resolve("i").toString(), f.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith(Report.BEGIN), r.out());
        assertTrue(targetRow(r.out(), "durable, MPL 8: libtp ≥ 3 ×").endsWith("| no data |"), r.out());
        assertTrue(r.out().contains("0 PASS, 0 MISS, "), r.out());
        assertEquals(2, report("--md", "-").status(), "no input files");
        assertEquals(2, report("--bogus", "x", f.toString()).status());
    }

    @Test
    void parsesJsonLines() {
        Map<String, Object> m = JsonLine.parse(" {\"a\":\"x\\\"y\\u0041\\n\",\"b\":-1.5e3,\"c\":true,\"d\":null,"
                + "\"e\":[1,{\"f\":false}],\"g\":{}} ");
        assertEquals("x\"yA\n", m.get("a"));
        assertEquals(-1500.0, m.get("b"));
        assertEquals(Boolean.TRUE, m.get("c"));
        assertTrue(m.containsKey("d") && m.get("d") == null);
        assertEquals(List.of(1.0, Map.of("f", false)), m.get("e"));
        assertEquals(Map.of(), m.get("g"));
        assertThrows(IllegalArgumentException.class, () -> JsonLine.parse("{\"a\":1,}"));
        assertThrows(IllegalArgumentException.class, () -> JsonLine.parse("{\"a\":1} x"));
        assertThrows(IllegalArgumentException.class, () -> JsonLine.parse("[1]"));
        assertThrows(IllegalArgumentException.class, () -> JsonLine.parse("{\"a\":tru}"));
    }
}
