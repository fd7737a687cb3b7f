package org.libtp.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The result lines of the {@code commit}, {@code tpcb} and {@code oo1} commands (and the
 * {@code machine} line of {@code report --probe-machine}), read from JSON-lines files.
 *
 * <p>Lines that do not start with '{' (log output mixed into a file) are skipped; a line that
 * starts with '{' but does not parse, or has no known {@code bench}, is skipped with a warning. A
 * later line for the same configuration (same engine, durability, txn, MPL, processes, scale and
 * accounts for TPC-B; same engine, test, cache, parts and durability for OO1) replaces an earlier
 * one, so that a rerun of one configuration can simply be appended.
 */
final class ReportData {

    /** Engine order of the reports: the paper's four, then the peers. */
    static final List<String> ENGINES = List.of("libtp", "notp", "flock", "fsync", "sqlite", "h2", "je", "lmdb", "bdb",
            "libtp-jdbc", "h2-sql");
    /** The peers (other embedded stores), as opposed to libtp and its three baselines. */
    static final List<String> PEERS = List.of("sqlite", "h2", "je", "lmdb", "bdb");
    /** The peers reached through JDBC and SQL (sqlite is sqlite-jdbc; h2-sql is H2's SQL engine). */
    static final List<String> JDBC_PEERS = List.of("sqlite", "h2-sql");
    /** OO1 test order. */
    static final List<String> TESTS = List.of("lookup", "forward", "backward", "insert");

    /** One {@code tpcb} line. {@code durability} is sync, nosync, or none (notp, flock). */
    record Tpcb(String engine, String durability, String txn, int mpl, int processes, int scale, int accounts,
                double txnPerSec, long commits, long aborts, double abortRate, Boolean invariantOk, double seconds,
                String jdk) {
        /** A forced commit: sync (libtp sync, fsync, peers in sync mode). */
        boolean durable() {
            return durability.equals("sync");
        }

        Shape shape() {
            return new Shape(scale, accounts);
        }

        String key() {
            return engine + "/" + durability + "/" + txn + "/" + mpl + "/" + processes + "/" + scale + "/" + accounts;
        }
    }

    /** A TPC-B database size. */
    record Shape(int scale, int accounts) implements Comparable<Shape> {
        @Override
        public int compareTo(Shape o) {
            return scale != o.scale ? Integer.compare(o.scale, scale) : Integer.compare(o.accounts, accounts);
        }

        String label() {
            return "scale " + scale + ", " + Fmt.count(accounts) + " accounts";
        }

        String fileTag() {
            return "s" + scale + "-a" + accounts;
        }
    }

    /** One {@code oo1} line. */
    record Oo1(String engine, String test, String cache, int parts, String durability, double ms, double sdMs,
               double visited, int repeat, Boolean osCacheDropped, String jdk) {
        String key() {
            return engine + "/" + test + "/" + cache + "/" + parts + "/" + durability;
        }
    }

    /** One {@code commit} line. */
    record Commit(String level, int threads, int processes, String durability, double commitsPerSec,
                  double rawForcesPerSec) {
    }

    final Map<String, Tpcb> tpcb = new LinkedHashMap<>();
    final Map<String, Oo1> oo1 = new LinkedHashMap<>();
    final List<Commit> commits = new ArrayList<>();
    /** The last {@code machine} line, or null. */
    Map<String, Object> machine;
    /**
     * The operations benchmark's lines (scripts/ops-bench.sh): {@code load}, {@code backup},
     * {@code cp}, and its {@code tpcb} lines, which carry a {@code phase} and stay out of the
     * TPC-B tables (the backup's rate is in its "during backups" line). Later lines last.
     */
    final List<Map<String, Object>> ops = new ArrayList<>();
    final List<String> warnings = new ArrayList<>();
    int lines;
    int replaced;

    /** Reads every file in order. */
    static ReportData read(List<Path> files) throws IOException {
        ReportData d = new ReportData();
        for (Path f : files) {
            List<String> all = Files.readAllLines(f, StandardCharsets.UTF_8);
            for (int n = 0; n < all.size(); n++) {
                d.add(all.get(n).strip(), f.getFileName() + ":" + (n + 1));
            }
        }
        return d;
    }

    /** Adds one line ({@code where} names it in warnings). */
    void add(String line, String where) {
        if (!line.startsWith("{")) {
            return;
        }
        Map<String, Object> m;
        try {
            m = JsonLine.parse(line);
        } catch (IllegalArgumentException e) {
            warnings.add(where + ": not a JSON object (" + e.getMessage() + "); skipped");
            return;
        }
        lines++;
        String bench = str(m, "bench", "");
        try {
            if (m.containsKey("phase") || bench.equals("load") || bench.equals("backup") || bench.equals("cp")) {
                ops.add(m);
                return;
            }
            switch (bench) {
                case "tpcb" -> {
                    Tpcb t = new Tpcb(str(m, "engine", "?"), str(m, "durability", "?"), str(m, "txn", "full"),
                            integer(m, "mpl"), integer(m, "processes", 1), integer(m, "scale"), integer(m, "accounts"),
                            num(m, "txnPerSec"), (long) num(m, "commits"), (long) num(m, "aborts"),
                            num(m, "abortRate"), bool(m, "invariantOk"), num(m, "seconds"), str(m, "jdk", null));
                    if (tpcb.put(t.key(), t) != null) {
                        replaced++;
                    }
                }
                case "oo1" -> {
                    Oo1 o = new Oo1(str(m, "engine", "?"), str(m, "test", "?"), str(m, "cache", "warm"),
                            integer(m, "parts"), str(m, "durability", "?"), num(m, "ms"), num(m, "sdMs"),
                            num(m, "visited"), integer(m, "repeat", 0), bool(m, "osCacheDropped"), str(m, "jdk", null));
                    if (oo1.put(o.key(), o) != null) {
                        replaced++;
                    }
                }
                case "commit" -> commits.add(new Commit(str(m, "level", "txn"), integer(m, "threads", 1),
                        integer(m, "processes", 1), str(m, "durability", "?"), num(m, "commitsPerSec"),
                        num(m, "rawForcesPerSec")));
                case "machine" -> machine = m;
                default -> {
                    lines--;
                    warnings.add(where + ": unknown bench '" + bench + "'; skipped");
                }
            }
        } catch (IllegalArgumentException e) {
            lines--;
            warnings.add(where + ": " + e.getMessage() + "; skipped");
        }
    }

    // ------------------------------------------------------------------ queries

    /** Every TPC-B line, sorted: shape, txn, durable first, engine order, processes, MPL. */
    List<Tpcb> tpcbSorted() {
        List<Tpcb> l = new ArrayList<>(tpcb.values());
        l.sort(Comparator.comparing(Tpcb::shape).thenComparing(Tpcb::txn)
                .thenComparing(t -> !t.durable())
                .thenComparing(t -> engineRank(t.engine())).thenComparing(Tpcb::engine)
                .thenComparing(Tpcb::durability)
                .thenComparingInt(Tpcb::processes).thenComparingInt(Tpcb::mpl));
        return l;
    }

    /** The shapes present (largest scale first, then largest account count), with their txn kinds. */
    List<Shape> shapes() {
        return tpcb.values().stream().map(Tpcb::shape).distinct().sorted().toList();
    }

    /**
     * The database the targets of scale {@code scale} are read from: the shape of that scale with
     * the most accounts among the full-transaction lines (the TPC-B database; the paper's small one
     * has 1,000 accounts), or null.
     */
    Shape mainShape(int scale) {
        return tpcb.values().stream().filter(t -> t.scale() == scale && t.txn().equals("full"))
                .map(Tpcb::shape).max(Comparator.comparingInt(Shape::accounts)).orElse(null);
    }

    /** The line of one configuration (full transactions unless {@code txn} says), or null. */
    Tpcb find(String engine, Shape shape, String txn, String durability, int mpl, int processes) {
        if (shape == null) {
            return null;
        }
        return tpcb.get(engine + "/" + durability + "/" + txn + "/" + mpl + "/" + processes + "/" + shape.scale()
                + "/" + shape.accounts());
    }

    /** The raw force rate of the disk: the median over the commit lines, or NaN. */
    double rawForcesPerSec() {
        double[] v = commits.stream().mapToDouble(Commit::rawForcesPerSec).filter(x -> x > 0).sorted().toArray();
        if (v.length == 0) {
            return Double.NaN;
        }
        return v.length % 2 == 1 ? v[v.length / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
    }

    static int engineRank(String engine) {
        int i = ENGINES.indexOf(engine);
        return i < 0 ? ENGINES.size() : i;
    }

    // ------------------------------------------------------------------ fields

    static String str(Map<String, Object> m, String k, String dflt) {
        Object v = m.get(k);
        if (v instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
            return Long.toString(d.longValue()); // the parser reads every number as a double: 2, not 2.0
        }
        return v == null ? dflt : v.toString();
    }

    static double num(Map<String, Object> m, String k) {
        Object v = m.get(k);
        if (v instanceof Double d) {
            return d;
        }
        if (v == null) {
            return Double.NaN;
        }
        throw new IllegalArgumentException("field " + k + " is not a number: " + v);
    }

    static int integer(Map<String, Object> m, String k) {
        double d = num(m, k);
        if (Double.isNaN(d)) {
            throw new IllegalArgumentException("no field " + k);
        }
        return (int) d;
    }

    static int integer(Map<String, Object> m, String k, int dflt) {
        return m.get(k) == null ? dflt : integer(m, k);
    }

    static Boolean bool(Map<String, Object> m, String k) {
        Object v = m.get(k);
        return v instanceof Boolean b ? b : null;
    }
}
