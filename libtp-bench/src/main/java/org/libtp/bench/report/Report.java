package org.libtp.bench.report;

import org.libtp.bench.report.ReportData.Oo1;
import org.libtp.bench.report.ReportData.Shape;
import org.libtp.bench.report.ReportData.Tpcb;

import java.io.IOException;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Builds the generated Markdown section of docs/benchmarks.md from a {@link ReportData}: machine
 * facts, the targets evaluated from the data, TPC-B tables and charts, the paper's
 * ratios, OO1 tables and charts.
 */
final class Report {
    static final String BEGIN = "<!-- generated:begin -->";
    static final String END = "<!-- generated:end -->";

    /** One row of the ratio table: libtp over its baselines at one shape, txn kind and MPL. */
    record RatioRow(Shape shape, String txn, int mpl, Tpcb libtpNosync, Tpcb notp, Tpcb libtpSync, Tpcb fsync) {
        double notpRatio() {
            return libtpNosync == null || notp == null ? Double.NaN : libtpNosync.txnPerSec() / notp.txnPerSec();
        }

        double fsyncRatio() {
            return libtpSync == null || fsync == null ? Double.NaN : libtpSync.txnPerSec() / fsync.txnPerSec();
        }
    }

    /** One evaluated target. {@code result} is PASS, MISS or "no data". */
    record Target(String target, String measured, String required, String result) {
    }

    static final String PASS = "PASS";
    static final String MISS = "MISS";
    static final String NO_DATA = "no data";
    /** A comparison the targets ask to report, not to pass. */
    static final String REPORTED = "reported";

    /** The section's fixed beginning (after the begin marker): what produced it and how. */
    private static final String INTRO = """
            <!-- Written by `java -jar libtp-bench.jar report` (org.libtp.bench.report.ReportCommand):
                 edits between these markers are lost at the next run. -->
            ## Generated report: TPC-B, OO1 and JDBC

            Everything between the `generated` markers of this file, and the charts it shows (`docs/img/`),
            is produced by one script, run from the repository root:

            ```sh
            libtp-bench/scripts/bench-report.sh            # the full matrix: about an hour with the defaults
            QUICK=1 libtp-bench/scripts/bench-report.sh    # smoke run: 1 s runs, small databases, MPL 1 and 4 (~2.5 min);
                                               # its report goes to bench-results/<date>-quick/, not docs/
            DRY_RUN=1 libtp-bench/scripts/bench-report.sh  # print the runs only
            ```

            It builds `libtp-bench/target/libtp-bench.jar` if missing, then writes JSON lines to
            `bench-results/<date>/` (git-ignored): `machine.jsonl` (the facts below), `commit.jsonl`
            (`commit --threads 1`: the raw force rate of the disk), `tpcb.jsonl` (every engine at scale 10
            with MPL 1, 2, 4, 8, durable then no-sync, the JDBC engines libtp-jdbc and h2-sql included; scale 1
            for libtp, sqlite and lmdb; `--processes 4 --mpl 1` for libtp and libtp-jdbc; the paper's small database `--scale 10 --accounts 1000`, read-only and full
            no-sync, MPL 1 to 8, for libtp, notp and flock) and `oo1.jsonl` (every engine, `--cold`), with the
            stderr of each command next to them. Each engine and database size has one `--dir` under the
            results directory, so each database is loaded once. It ends with `java -jar
            libtp-bench/target/libtp-bench.jar report --md docs/benchmarks.md --img docs/img
            bench-results/<date>/*.jsonl`, which can be rerun alone on kept results; a later JSON line for the
            same configuration replaces an earlier one, so a redone run can be appended to the files. Settings
            (environment, defaults in brackets): `SECONDS_PER_RUN` (10), `WARMUP` (3), `MPLS` ("1 2 4 8"),
            `SMALL_MPLS` ("1 2 3 4 5 6 7 8"), `ENGINES` (all eight), `JDBC_ENGINES`, `SCALE1_ENGINES`, `SMALL_ENGINES`,
            `PROC_ENGINES`, `ACCOUNTS_S10` and `ACCOUNTS_S1` (TPC-B scaling: 100,000 per branch), `CACHE_MB`
            (256), `OO1_PARTS` (20000), `OO1_REPEAT` (3), `OUT`, `MD`, `IMG`, `KEEP_DBS` (0: the databases are
            deleted at the end), `QUICK`; the script's header lists them all. The operations targets (bulk
            load, hot backup) come from `libtp-bench/scripts/ops-bench.sh`, whose `ops.jsonl` is given to
            `report` with the others.

            Engines: `libtp` (TP mode: page locks, write-ahead log, group commit); the paper's three
            baselines on the same access methods: `notp` (no locks, no log; the threads of the process take
            turns), `flock` (notp plus an exclusive file lock around each transaction) and `fsync` (notp plus,
            at commit, every changed page written and the data files forced); the peers `sqlite`, `h2`
            (MVStore), `je` (Berkeley DB Java Edition), `lmdb` and, with `BDB=1`, `bdb` (Berkeley DB C); through
            JDBC and SQL: `libtp-jdbc` (LibTP's driver, prepared statements), `h2-sql` (H2's SQL engine) and
            `sqlite` (which is sqlite-jdbc for every run). "Durable" = commits forced to disk
            (`--durability sync`; fsync always); "no-sync" = commits not forced (`--durability nosync`: libtp
            writes its log to the OS at commit; notp and flock have no log, durability `none`).
            """;

    private final ReportData d;
    private final Charts charts;
    /** How the Markdown links the image directory ("img", or the directory as given). */
    private final String imgLink;
    private final List<String> inputs;
    private final List<String> notes;
    private final StringBuilder md = new StringBuilder();

    Report(ReportData d, Charts charts, String imgLink, List<String> inputs, List<String> notes) {
        this.d = d;
        this.charts = charts;
        this.imgLink = imgLink.isEmpty() || imgLink.endsWith("/") ? imgLink : imgLink + "/";
        this.inputs = inputs;
        this.notes = notes;
    }

    /** The section, markers included, and writes the charts. */
    String build() throws IOException {
        List<RatioRow> ratios = ratios();
        line(BEGIN);
        md.append(INTRO);
        line("");
        machine();
        targets(ratios);
        tpcb(ratios);
        oo1();
        if (!d.warnings.isEmpty()) {
            line("### Input warnings");
            line("");
            for (String w : d.warnings) {
                line("- " + w);
            }
            line("");
        }
        line(END);
        return md.toString();
    }

    // ------------------------------------------------------------------ machine

    private void machine() {
        Map<String, Object> m = d.machine != null ? d.machine : Machine.probe(java.nio.file.Paths.get("."));
        line("### Machine and inputs");
        line("");
        if (d.machine == null) {
            line("No `machine` line in the inputs: the facts below are of the machine that generated the report.");
            line("");
        }
        Set<String> jdks = new TreeSet<>();
        d.tpcb.values().stream().map(Tpcb::jdk).filter(j -> j != null).forEach(jdks::add);
        d.oo1.values().stream().map(Oo1::jdk).filter(j -> j != null).forEach(jdks::add);
        line("| | |");
        line("|---|---|");
        line("| measured | " + ReportData.str(m, "date", Machine.UNKNOWN) + " (report generated "
                + Instant.now().truncatedTo(ChronoUnit.SECONDS) + ") |");
        line("| JDK | " + ReportData.str(m, "jdk", Machine.UNKNOWN)
                + (jdks.isEmpty() ? "" : "; runs: " + String.join(", ", jdks)) + " |");
        line("| CPU | " + ReportData.str(m, "cpu", Machine.UNKNOWN) + ", " + ReportData.str(m, "cores", "?")
                + " cores (" + ReportData.str(m, "availableProcessors", "?") + " available to the JVM) |");
        Object mem = m.get("memMiB");
        if (mem instanceof Double md && md > 0) {
            line("| memory | " + Fmt.count(md.longValue()) + " MiB |");
        }
        line("| kernel | " + ReportData.str(m, "kernel", Machine.UNKNOWN) + " |");
        line("| file system of the results | " + ReportData.str(m, "fsType", Machine.UNKNOWN) + " ("
                + ReportData.str(m, "fsSource", "?") + " on " + ReportData.str(m, "fsMount", "?") + ", for "
                + "`" + ReportData.str(m, "resultsDir", "?") + "`) |");
        double raw = d.rawForcesPerSec();
        line("| raw force rate | " + (Double.isNaN(raw) ? NO_DATA + " (no `commit` line)"
                : Fmt.rate(raw) + " forces/s (one thread appending 256 bytes and calling `FileChannel.force`"
                + (d.commits.size() > 1 ? "; median of " + d.commits.size() + " `commit` lines" : "") + ")") + " |");
        if (!d.commits.isEmpty()) {
            StringBuilder b = new StringBuilder();
            for (ReportData.Commit c : d.commits) {
                b.append(b.length() == 0 ? "" : "; ").append(c.level()).append(' ').append(c.durability()).append(", ")
                        .append(c.threads()).append(" thread(s) × ").append(c.processes()).append(" process(es): ")
                        .append(Fmt.rate(c.commitsPerSec())).append(" commits/s");
            }
            line("| commit benchmark | " + b + " |");
        }
        line("| inputs | " + d.lines + " result lines" + (d.replaced > 0 ? " (" + d.replaced + " replaced by later "
                + "lines of the same configuration)" : "") + " from " + String.join(", ", inputs.stream()
                .map(s -> "`" + s + "`").toList()) + " |");
        for (String n : notes) {
            line("| note | " + n + " |");
        }
        line("");
    }

    // ------------------------------------------------------------------ targets

    private void targets(List<RatioRow> ratios) {
        List<Target> t = evaluate();
        line("### Targets");
        line("");
        line("Evaluated mechanically from the result lines; \"scale 10\" and \"scale 1\" are the databases of");
        line("that scale with the most accounts among the full-transaction runs (the TPC-B database unless only");
        line("smaller ones were run), one process unless said. A MISS is reported as measured.");
        line("");
        line("| # | target | measured | required | result |");
        line("|---|---|---|---|---|");
        int n = 1;
        for (Target x : t) {
            String r = x.result().equals(NO_DATA) ? NO_DATA : "**" + x.result() + "**";
            line("| " + n++ + " | " + x.target() + " | " + x.measured() + " | " + x.required() + " | " + r + " |");
        }
        long pass = t.stream().filter(x -> x.result().equals(PASS)).count();
        long miss = t.stream().filter(x -> x.result().equals(MISS)).count();
        line("");
        long reported = t.stream().filter(x -> x.result().equals(REPORTED)).count();
        line(pass + " PASS, " + miss + " MISS, " + (reported > 0 ? reported + " reported (comparisons without a bar), " : "")
                + (t.size() - pass - miss - reported) + " without data.");
        line("");
    }

    /** The targets: TPC-B and OO1, then the JDBC driver's, then the operations'. */
    List<Target> evaluate() {
        List<Target> out = new ArrayList<>();
        double raw = d.rawForcesPerSec();
        Shape s10 = d.mainShape(10);
        Shape s1 = d.mainShape(1);
        String at10 = s10 == null ? "scale 10" : "scale 10 (" + Fmt.count(s10.accounts()) + " accounts)";
        String at1 = s1 == null ? "scale 1" : "scale 1 (" + Fmt.count(s1.accounts()) + " accounts)";

        Tpcb sync1 = d.find("libtp", s10, "full", "sync", 1, 1);
        out.add(atLeast("TPC-B " + at10 + ", durable, MPL 1: libtp ≥ 0.95 × raw force rate", sync1, 0.95, raw,
                "raw forces/s"));
        Tpcb fsync1 = d.find("fsync", s10, "full", "sync", 1, 1);
        out.add(atLeast("TPC-B " + at10 + ", durable, MPL 1: libtp ≥ 4 × fsync", sync1, 4,
                fsync1 == null ? Double.NaN : fsync1.txnPerSec(), "fsync txn/s"));
        out.add(atLeast("TPC-B " + at10 + ", durable, MPL 8: libtp ≥ 3 × raw force rate",
                d.find("libtp", s10, "full", "sync", 8, 1), 3, raw, "raw forces/s"));
        out.add(atLeast("TPC-B " + at1 + ", durable, MPL 8: libtp ≥ 2 × raw force rate",
                d.find("libtp", s1, "full", "sync", 8, 1), 2, raw, "raw forces/s"));
        Tpcb nosync1 = d.find("libtp", s10, "full", "nosync", 1, 1);
        Tpcb notp1 = notp(s10, "full", 1);
        out.add(atLeast("TPC-B " + at10 + ", no-sync, MPL 1: libtp ≥ 0.85 × notp", nosync1, 0.85,
                notp1 == null ? Double.NaN : notp1.txnPerSec(), "notp txn/s"));
        Tpcb best = null;
        for (String peer : ReportData.PEERS) {
            Tpcb p = d.find(peer, s10, "full", "nosync", 1, 1);
            if (p != null && (best == null || p.txnPerSec() > best.txnPerSec())) {
                best = p;
            }
        }
        out.add(atLeast("TPC-B " + at10 + ", no-sync, MPL 1: libtp ≥ 1.5 × the best peer (sqlite, h2, je, lmdb, bdb where measured)",
                nosync1, 1.5, best == null ? Double.NaN : best.txnPerSec(),
                best == null ? "best peer txn/s" : best.engine() + " txn/s"));
        Tpcb nosync4 = d.find("libtp", s10, "full", "nosync", 4, 1);
        out.add(atLeast("TPC-B " + at10 + ", no-sync: libtp MPL 4 ≥ libtp MPL 1", nosync4, 1,
                nosync1 == null ? Double.NaN : nosync1.txnPerSec(), "libtp MPL 1 txn/s"));
        List<Tpcb> multi = d.tpcbSorted().stream().filter(t -> t.engine().equals("libtp") && t.processes() > 1).toList();
        if (multi.isEmpty()) {
            out.add(new Target("TPC-B: libtp `--processes 4` (MPL 1 each) ≥ 0.9 × libtp 4 threads in one process",
                    NO_DATA, "≥ 0.9 × one process", NO_DATA));
        }
        for (Tpcb m : multi) {
            int threads = m.processes() * m.mpl();
            Tpcb one = d.find("libtp", m.shape(), m.txn(), m.durability(), threads, 1);
            out.add(atLeast("TPC-B scale " + m.scale() + " (" + Fmt.count(m.accounts()) + " accounts)"
                            + (m.txn().equals("readonly") ? ", read-only" : "") + ", "
                            + (m.durable() ? "durable" : "no-sync") + ": libtp " + m.processes() + " processes × MPL "
                            + m.mpl() + " ≥ 0.9 × " + threads + " threads in one process", m, 0.9,
                    one == null ? Double.NaN : one.txnPerSec(), "one-process txn/s"));
        }
        out.addAll(oo1Targets());
        out.addAll(jdbcTargets(s10, at10));
        out.addAll(opsTargets());
        return out;
    }

    /** The libtp command's operations: bulk load, and what a hot backup costs a TPC-B run. */
    private List<Target> opsTargets() {
        List<Target> out = new ArrayList<>();
        Map<String, Object> load = last("load", null);
        if (load == null) {
            out.add(new Target("Operations: libtp load ≥ 0.8 × a Database.put loop", NO_DATA, "≥ 0.8 ×", NO_DATA));
        } else {
            double ratio = ReportData.num(load, "loadVsPut");
            out.add(new Target("Operations: libtp load of " + Fmt.count((long) ReportData.num(load, "records"))
                    + " records ≥ 0.8 × a Database.put loop (transactions of 10,000)",
                    Fmt.rate(ReportData.num(load, "loadPerSecond")) + " records/s (" + Fmt.ratio(ratio) + " ×)",
                    "≥ " + Fmt.rate(0.8 * ReportData.num(load, "putPerSecond")) + " (0.8 × "
                            + Fmt.rate(ReportData.num(load, "putPerSecond")) + " put records/s)", ratio >= 0.8 ? PASS : MISS));
            double bdb = ReportData.num(load, "db53PerSecond");
            out.add(new Target("Operations: libtp load beside db5.3_load on the same dump (a ratio to report)",
                    bdb > 0 ? Fmt.ratio(ReportData.num(load, "loadPerSecond") / bdb) + " × (db5.3_load "
                            + Fmt.rate(bdb) + " records/s)" : NO_DATA, "reported", bdb > 0 ? REPORTED : NO_DATA));
        }
        // The "during backups" lines against the "without backup" lines around them: a block starts at a
        // "without backup" line and takes the "during backups" and "without backup after" lines that
        // follow (ops-bench.sh alternates them); one block per kind of backup, the last one kept.
        Map<Object, BackupBlock> byKind = new java.util.LinkedHashMap<>();
        List<Map<String, Object>> without = null;
        List<Map<String, Object>> during = null;
        for (Map<String, Object> m : d.ops) {
            if ("without backup".equals(m.get("phase"))) {
                without = new ArrayList<>(List.of(m));
                during = new ArrayList<>();
            } else if ("during backups".equals(m.get("phase")) && without != null) {
                during.add(m);
                byKind.put(m.getOrDefault("backupRateMb", 0.0) + "/" + m.getOrDefault("backupYields", false),
                        new BackupBlock(without, during));
            } else if ("without backup after".equals(m.get("phase")) && without != null) {
                without.add(m);
            }
        }
        if (byKind.isEmpty()) {
            out.add(new Target("Operations: TPC-B during hot backups ≥ 0.7 × without", NO_DATA, "≥ 0.7 ×", NO_DATA));
        }
        for (BackupBlock block : byKind.values()) {
            List<Map<String, Object>> ws = block.without();
            List<Map<String, Object>> ds = block.during();
            Map<String, Object> m = ds.get(0);
            double rate = m.get("backupRateMb") == null ? 0 : ReportData.num(m, "backupRateMb");
            boolean yields = Boolean.TRUE.equals(m.get("backupYields"));
            double w = ws.stream().mapToDouble(x -> ReportData.num(x, "txnPerSec")).average().orElse(0);
            double dur = ds.stream().mapToDouble(x -> ReportData.num(x, "txnPerSec")).average().orElse(0);
            double r = dur / w;
            String kind = yields ? (rate > 0 ? "yielding to commits, at most " + Fmt.count((long) rate) + " MB/s"
                    : "yielding to commits (the default)")
                    : rate > 0 ? "at --rate " + Fmt.count((long) rate) + " MB/s" : "at full speed (--full-speed)";
            out.add(new Target("Operations: TPC-B scale 10, durable, MPL 8, while hot backups run back to back "
                    + kind + " ≥ 0.7 × without",
                    Fmt.rate(dur) + " txn/s (" + Fmt.ratio(r) + " ×" + (ds.size() > 1 ? ", mean of " + ds.size() + " runs" : "")
                            + ")",
                    "≥ " + Fmt.rate(0.7 * w) + " (0.7 × " + Fmt.rate(w) + " txn/s "
                            + (ws.size() > 1 ? "without, the mean of " + ws.size() + " runs around them)" : "just before)"),
                    r >= 0.7 ? PASS : MISS));
        }
        // The last backup line without a fixed rate, and the cp -r of the same directory that followed it.
        Map<String, Object> bk = null;
        Map<String, Object> cp = null;
        for (Map<String, Object> m : d.ops) {
            if ("backup".equals(m.get("bench")) && ReportData.num(m, "rateMb") == 0) {
                bk = m;
                cp = null;
            } else if ("cp".equals(m.get("bench")) && bk != null && cp == null) {
                cp = m;
            }
        }
        out.add(new Target("Operations: hot backup throughput beside cp -r of the same directory (a ratio to report)",
                bk == null || cp == null ? NO_DATA : Fmt.rate(ReportData.num(bk, "mbPerSecond")) + " MB/s against "
                        + Fmt.rate(ReportData.num(cp, "mbPerSecond")) + " MB/s (" + Fmt.ratio(ReportData.num(bk, "mbPerSecond")
                        / ReportData.num(cp, "mbPerSecond")) + " ×)", "reported", bk == null || cp == null ? NO_DATA : REPORTED));
        return out;
    }

    /** TPC-B runs without backups and the runs with backups of one kind between them. */
    private record BackupBlock(List<Map<String, Object>> without, List<Map<String, Object>> during) {
    }

    /** The last operations line of {@code bench} (and {@code phase}, if given), or null. */
    private Map<String, Object> last(String bench, String phase) {
        Map<String, Object> found = null;
        for (Map<String, Object> m : d.ops) {
            if (bench.equals(m.get("bench")) && (phase == null || phase.equals(m.get("phase")))) {
                found = m;
            }
        }
        return found;
    }

    /** The JDBC driver's targets: libtp-jdbc against the JDBC peers and against libtp's record API. */
    private List<Target> jdbcTargets(Shape s10, String at10) {
        List<Target> out = new ArrayList<>();
        Tpcb sync8 = d.find("libtp-jdbc", s10, "full", "sync", 8, 1);
        Tpcb bestSync = bestOf(ReportData.JDBC_PEERS, s10, "sync", 8);
        out.add(atLeast("JDBC: TPC-B " + at10 + ", durable, MPL 8: libtp-jdbc ≥ 3 × the best JDBC peer (sqlite, h2-sql)",
                sync8, 3, bestSync == null ? Double.NaN : bestSync.txnPerSec(),
                bestSync == null ? "best JDBC peer txn/s" : bestSync.engine() + " txn/s"));
        Tpcb nosync1 = d.find("libtp-jdbc", s10, "full", "nosync", 1, 1);
        Tpcb bestNosync = bestOf(ReportData.JDBC_PEERS, s10, "nosync", 1);
        out.add(atLeast("JDBC: TPC-B " + at10 + ", no-sync, MPL 1: libtp-jdbc ≥ 1.5 × the best JDBC peer (sqlite, h2-sql)",
                nosync1, 1.5, bestNosync == null ? Double.NaN : bestNosync.txnPerSec(),
                bestNosync == null ? "best JDBC peer txn/s" : bestNosync.engine() + " txn/s"));
        Tpcb record1 = d.find("libtp", s10, "full", "nosync", 1, 1);
        out.add(atLeast("JDBC: TPC-B " + at10 + ", no-sync, MPL 1: libtp-jdbc ≥ 0.5 × libtp through the record API",
                nosync1, 0.5, record1 == null ? Double.NaN : record1.txnPerSec(), "libtp txn/s"));
        List<Tpcb> multi = d.tpcbSorted().stream()
                .filter(t -> t.engine().equals("libtp-jdbc") && t.processes() > 1).toList();
        if (multi.isEmpty()) {
            out.add(new Target("JDBC: TPC-B libtp-jdbc `--processes 4` works and keeps the invariant", NO_DATA,
                    "commits in every process, invariant holds", NO_DATA));
        }
        for (Tpcb m : multi) {
            boolean ok = m.commits() > 0 && Boolean.TRUE.equals(m.invariantOk());
            out.add(new Target("JDBC: TPC-B scale " + m.scale() + ", " + (m.durable() ? "durable" : "no-sync")
                    + ": libtp-jdbc " + m.processes() + " processes × MPL " + m.mpl() + " work and keep the invariant",
                    Fmt.rate(m.txnPerSec()) + " txn/s, invariant " + (m.invariantOk() == null ? "not checked"
                            : m.invariantOk() ? "holds" : "BROKEN"), "commits, invariant holds", ok ? PASS : MISS));
        }
        return out;
    }

    private Tpcb bestOf(List<String> engines, Shape shape, String durability, int mpl) {
        Tpcb best = null;
        for (String e : engines) {
            Tpcb p = d.find(e, shape, "full", durability, mpl, 1);
            if (p != null && (best == null || p.txnPerSec() > best.txnPerSec())) {
                best = p;
            }
        }
        return best;
    }

    private static Target atLeast(String name, Tpcb measured, double factor, double reference, String refName) {
        String required = Double.isNaN(reference) ? "≥ " + Fmt.factor(factor) + " × " + refName + " (" + NO_DATA + ")"
                : "≥ " + Fmt.rate(factor * reference) + " (" + Fmt.factor(factor) + " × " + Fmt.rate(reference) + " "
                + refName + ")";
        if (measured == null) {
            return new Target(name, NO_DATA, required, NO_DATA);
        }
        String m = Fmt.rate(measured.txnPerSec()) + " txn/s";
        if (Double.isNaN(reference)) {
            return new Target(name, m, required, NO_DATA);
        }
        m += " (" + Fmt.ratio(measured.txnPerSec() / reference) + " ×)";
        return new Target(name, m, required, measured.txnPerSec() >= factor * reference ? PASS : MISS);
    }

    /** OO1: libtp faster than every peer, each test and cache (and database size). */
    private List<Target> oo1Targets() {
        List<Target> out = new ArrayList<>();
        List<Oo1> libtp = d.oo1.values().stream().filter(o -> o.engine().equals("libtp"))
                .sorted(Comparator.comparingInt(Oo1::parts).thenComparing(o -> ReportData.TESTS.indexOf(o.test()))
                        .thenComparing(Oo1::cache)).toList();
        if (libtp.isEmpty()) {
            out.add(new Target("OO1: libtp faster than every peer, each test, cold and warm", NO_DATA,
                    "< the fastest peer", NO_DATA));
            return out;
        }
        boolean severalSizes = libtp.stream().map(Oo1::parts).distinct().count() > 1;
        for (Oo1 l : libtp) {
            String name = "OO1 " + l.test() + ", " + l.cache() + (severalSizes ? ", " + Fmt.count(l.parts()) + " parts"
                    : "") + ": libtp faster than every peer";
            Oo1 best = null;
            for (String peer : ReportData.PEERS) {
                Oo1 p = d.oo1.get(peer + "/" + l.test() + "/" + l.cache() + "/" + l.parts() + "/" + l.durability());
                if (p != null && (best == null || p.ms() < best.ms())) {
                    best = p;
                }
            }
            String m = Fmt.ms(l.ms()) + " ms";
            if (best == null) {
                out.add(new Target(name, m, "< the fastest peer (" + NO_DATA + ")", NO_DATA));
                continue;
            }
            m += " (" + Fmt.ratio(l.ms() / best.ms()) + " × the fastest peer's time)";
            out.add(new Target(name, m, "< " + Fmt.ms(best.ms()) + " ms (" + best.engine() + ")",
                    l.ms() < best.ms() ? PASS : MISS));
        }
        return out;
    }

    // ------------------------------------------------------------------ TPC-B

    private Tpcb notp(Shape s, String txn, int mpl) {
        for (String dur : List.of("none", "nosync", "sync")) {
            Tpcb t = d.find("notp", s, txn, dur, mpl, 1);
            if (t != null) {
                return t;
            }
        }
        return null;
    }

    List<RatioRow> ratios() {
        List<RatioRow> out = new ArrayList<>();
        for (Shape s : d.shapes()) {
            for (String txn : List.of("full", "readonly")) {
                Set<Integer> mpls = new TreeSet<>();
                d.tpcb.values().stream().filter(t -> t.shape().equals(s) && t.txn().equals(txn) && t.processes() == 1)
                        .forEach(t -> mpls.add(t.mpl()));
                for (int mpl : mpls) {
                    RatioRow r = new RatioRow(s, txn, mpl, d.find("libtp", s, txn, "nosync", mpl, 1), notp(s, txn, mpl),
                            d.find("libtp", s, txn, "sync", mpl, 1), d.find("fsync", s, txn, "sync", mpl, 1));
                    if (!Double.isNaN(r.notpRatio()) || !Double.isNaN(r.fsyncRatio())) {
                        out.add(r);
                    }
                }
            }
        }
        return out;
    }

    private void tpcb(List<RatioRow> ratios) throws IOException {
        line("### TPC-B");
        line("");
        if (d.tpcb.isEmpty()) {
            line(NO_DATA + ".");
            line("");
            return;
        }
        line("Transactions per second over the measured interval (warm-up excluded), summed over processes.");
        line("Aborts are deadlock victims (counted, not retried). \"invariant\": the sums of accounts, tellers,");
        line("branches and history agree after the run and the history grew by exactly the commits counted.");
        line("");
        List<Charts.Png> pngs = charts.tpcbThroughput(d);
        for (Shape s : d.shapes()) {
            for (String txn : List.of("full", "readonly")) {
                List<Tpcb> rows = d.tpcbSorted().stream().filter(t -> t.shape().equals(s) && t.txn().equals(txn)).toList();
                if (rows.isEmpty()) {
                    continue;
                }
                line("#### " + s.label() + (txn.equals("readonly") ? ", read-only transactions" : ", full transactions"));
                line("");
                String tag = "tpcb-" + s.fileTag() + "-" + txn + "-";
                for (Charts.Png p : pngs) {
                    if (p.file().startsWith(tag)) {
                        image(p);
                    }
                }
                pivot(rows);
            }
        }
        for (Charts.Png p : charts.abortRate(d)) {
            line("#### Abort rate (the paper's figure 9)");
            line("");
            image(p);
        }
        line("#### The paper's ratios");
        line("");
        line("LIBTP/NOTP: libtp without forced commits over notp (no locks, no log), the cost of locking and logging;");
        line("LIBTP/FSYNC: libtp with durable commits over fsync (every modified page forced at commit), the gain of");
        line("the log. One process, equal MPL and database.");
        line("");
        if (ratios.isEmpty()) {
            line(NO_DATA + ".");
            line("");
        } else {
            for (Charts.Png p : charts.ratios(ratios)) {
                image(p);
            }
            line("| database | txn | MPL | libtp no-sync | notp | LIBTP/NOTP | libtp durable | fsync | LIBTP/FSYNC |");
            line("|---|---|---|---|---|---|---|---|---|");
            for (RatioRow r : ratios) {
                line("| " + r.shape().label() + " | " + r.txn() + " | " + r.mpl() + " | " + tps(r.libtpNosync()) + " | "
                        + tps(r.notp()) + " | " + Fmt.ratio(r.notpRatio()) + " | " + tps(r.libtpSync()) + " | "
                        + tps(r.fsync()) + " | " + Fmt.ratio(r.fsyncRatio()) + " |");
            }
            line("");
        }
        line("#### Every TPC-B result");
        line("");
        line("| engine | database | txn | durability | MPL | processes | txn/s | commits | aborts | abort rate | invariant |");
        line("|---|---|---|---|---|---|---|---|---|---|---|");
        for (Tpcb t : d.tpcbSorted()) {
            line("| " + t.engine() + " | " + t.shape().label() + " | " + t.txn() + " | " + t.durability() + " | "
                    + t.mpl() + " | " + t.processes() + " | " + Fmt.rate(t.txnPerSec()) + " | " + Fmt.count(t.commits())
                    + " | " + Fmt.count(t.aborts()) + " | " + Fmt.percent(t.abortRate()) + " | "
                    + (t.invariantOk() == null ? "–" : t.invariantOk() ? "ok" : "**VIOLATED**") + " |");
        }
        line("");
    }

    /** txn/s of one shape and txn kind: a row per engine, durability and process count; a column per MPL. */
    private void pivot(List<Tpcb> rows) {
        Set<Integer> mpls = new TreeSet<>();
        Map<String, Map<Integer, Tpcb>> byRow = new LinkedHashMap<>();
        for (Tpcb t : rows) {
            mpls.add(t.mpl());
            String key = t.engine() + " | " + t.durability() + " | " + (t.processes() == 1 ? "1" : t.processes()
                    + " × MPL");
            byRow.computeIfAbsent(key, k -> new TreeMap<>()).put(t.mpl(), t);
        }
        StringBuilder h = new StringBuilder("| engine | durability | processes |");
        StringBuilder sep = new StringBuilder("|---|---|---|");
        for (int m : mpls) {
            h.append(" MPL ").append(m).append(" |");
            sep.append("---|");
        }
        line(h.toString());
        line(sep.toString());
        for (Map.Entry<String, Map<Integer, Tpcb>> e : byRow.entrySet()) {
            StringBuilder b = new StringBuilder("| " + e.getKey() + " |");
            for (int m : mpls) {
                Tpcb t = e.getValue().get(m);
                b.append(' ').append(t == null ? "" : Fmt.rate(t.txnPerSec())
                        + (t.aborts() > 0 ? " (" + Fmt.percent(t.abortRate()) + " aborts)" : "")
                        + (Boolean.FALSE.equals(t.invariantOk()) ? " **invariant VIOLATED**" : "")).append(" |");
            }
            line(b.toString());
        }
        line("");
    }

    private static String tps(Tpcb t) {
        return t == null ? "–" : Fmt.rate(t.txnPerSec());
    }

    // ------------------------------------------------------------------ OO1

    private void oo1() throws IOException {
        line("### OO1");
        line("");
        if (d.oo1.isEmpty()) {
            line(NO_DATA + ".");
            line("");
            return;
        }
        line("Mean time of one run in milliseconds (one transaction: begin, the test, commit); lower is better,");
        line("the fastest engine of each column in bold. lookup: 1,000 random parts; forward: a 7-hop traversal");
        line("from a random part (3,280 parts); backward: the same along the reverse connections; insert: 100");
        line("parts with three connections each. Cold: the store reopened and the OS page cache dropped before");
        line("each timed run; warm: after one untimed run.");
        line("");
        for (Charts.Png p : charts.oo1(d)) {
            image(p);
        }
        Map<Integer, List<Oo1>> groups = new TreeMap<>();
        for (Oo1 o : d.oo1.values()) {
            groups.computeIfAbsent(o.parts(), k -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<Integer, List<Oo1>> ge : groups.entrySet()) {
            List<Oo1> g = ge.getValue();
            List<String> cols = new ArrayList<>();
            for (String t : ReportData.TESTS) {
                for (String c : List.of("cold", "warm")) {
                    if (g.stream().anyMatch(o -> o.test().equals(t) && o.cache().equals(c))) {
                        cols.add(t + "/" + c);
                    }
                }
            }
            Set<String> rows = new LinkedHashSet<>(); // engine/durability
            g.stream().sorted(Comparator.comparingInt((Oo1 o) -> ReportData.engineRank(o.engine()))
                    .thenComparing(Oo1::engine).thenComparing(Oo1::durability))
                    .forEach(o -> rows.add(o.engine() + "/" + o.durability()));
            int repeat = g.stream().mapToInt(Oo1::repeat).max().orElse(0);
            line("#### " + Fmt.count(ge.getKey()) + " parts" + (repeat > 0 ? ", mean of " + repeat + " timed runs" : ""));
            line("");
            StringBuilder h = new StringBuilder("| engine | durability |");
            StringBuilder sep = new StringBuilder("|---|---|");
            for (String c : cols) {
                h.append(' ').append(c.replace('/', ' ')).append(" |");
                sep.append("---|");
            }
            line(h.toString());
            line(sep.toString());
            for (String row : rows) {
                String[] ed = row.split("/");
                StringBuilder b = new StringBuilder("| " + ed[0] + " | " + ed[1] + " |");
                for (String c : cols) {
                    String[] tc = c.split("/");
                    Oo1 o = d.oo1.get(ed[0] + "/" + tc[0] + "/" + tc[1] + "/" + ge.getKey() + "/" + ed[1]);
                    double best = g.stream().filter(x -> x.test().equals(tc[0]) && x.cache().equals(tc[1]))
                            .mapToDouble(Oo1::ms).min().orElse(Double.NaN);
                    String v = o == null ? "" : Fmt.ms(o.ms());
                    b.append(' ').append(o != null && o.ms() == best ? "**" + v + "**" : v).append(" |");
                }
                line(b.toString());
            }
            line("");
            if (g.stream().anyMatch(o -> Boolean.FALSE.equals(o.osCacheDropped()))) {
                line("Some cold runs could not drop the OS page cache (not root?): their \"cold\" is the engine's own "
                        + "cache only.");
                line("");
            }
        }
    }

    // ------------------------------------------------------------------ output

    private void image(Charts.Png p) {
        line("![" + p.title() + "](" + imgLink + p.file() + ")");
        line("");
    }

    private void line(String s) {
        md.append(s).append('\n');
    }
}
