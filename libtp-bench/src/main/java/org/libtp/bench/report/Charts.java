package org.libtp.bench.report;

import org.knowm.xchart.BitmapEncoder;
import org.knowm.xchart.CategoryChart;
import org.knowm.xchart.CategoryChartBuilder;
import org.knowm.xchart.CategorySeries;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.internal.chartpart.Chart;
import org.knowm.xchart.style.AxesChartStyler;
import org.knowm.xchart.style.Styler;
import org.knowm.xchart.style.markers.SeriesMarkers;
import org.libtp.bench.report.ReportData.Oo1;
import org.libtp.bench.report.ReportData.Shape;
import org.libtp.bench.report.ReportData.Tpcb;

import java.awt.BasicStroke;
import java.awt.Color;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The PNG charts of the report (XChart, rendered headless). Each method writes its charts into
 * the image directory and returns them, to be linked from the Markdown; a chart with no data is
 * not written.
 */
final class Charts {
    /** A written chart: its file name (in the image directory) and title. */
    record Png(String file, String title) {
    }

    private static final int WIDTH = 900;
    private static final int HEIGHT = 520;

    /** One color per engine, the same in every chart. */
    private static final Map<String, Color> COLORS = Map.ofEntries(
            Map.entry("libtp-jdbc", new Color(0xE3, 0x77, 0xC2)),
            Map.entry("h2-sql", new Color(0x63, 0x79, 0x39)),
            Map.entry("libtp", new Color(0xD6, 0x27, 0x28)),
            Map.entry("notp", new Color(0x7F, 0x7F, 0x7F)),
            Map.entry("flock", new Color(0xBC, 0xBD, 0x22)),
            Map.entry("fsync", new Color(0x8C, 0x56, 0x4B)),
            Map.entry("sqlite", new Color(0x1F, 0x77, 0xB4)),
            Map.entry("h2", new Color(0x2C, 0xA0, 0x2C)),
            Map.entry("je", new Color(0x94, 0x67, 0xBD)),
            Map.entry("lmdb", new Color(0xFF, 0x7F, 0x0E)),
            Map.entry("bdb", new Color(0x17, 0xBE, 0xCF)));
    private static final Color[] OTHER = {new Color(0x17, 0xBE, 0xCF), new Color(0xE3, 0x77, 0xC2),
            new Color(0x39, 0x3B, 0x79), new Color(0x63, 0x79, 0x39), new Color(0x84, 0x3C, 0x39)};

    private final Path dir;

    Charts(Path dir) {
        this.dir = dir;
    }

    /**
     * TPC-B throughput against MPL, one line per engine (one process), for each shape and
     * transaction kind present: one chart of the durable engines (sync) and one of the others
     * (nosync, and notp/flock which have no durability).
     */
    List<Png> tpcbThroughput(ReportData d) throws IOException {
        List<Png> out = new ArrayList<>();
        for (Shape shape : d.shapes()) {
            for (String txn : List.of("full", "readonly")) {
                for (boolean durable : List.of(true, false)) {
                    List<Tpcb> rows = d.tpcbSorted().stream().filter(t -> t.shape().equals(shape)
                            && t.txn().equals(txn) && t.processes() == 1 && t.durable() == durable).toList();
                    if (rows.isEmpty()) {
                        continue;
                    }
                    String title = "TPC-B" + (txn.equals("readonly") ? " read-only" : "") + ", " + shape.label()
                            + (durable ? ", durable commits (sync)" : ", no-sync commits");
                    XYChart c = xy(title, "MPL (threads)", "transactions/s");
                    c.getStyler().setYAxisMin(0.0);
                    Map<String, List<Tpcb>> byEngine = group(rows, t -> t.engine()
                            + (t.durability().equals("none") ? " (no log)" : ""));
                    int other = 0;
                    for (Map.Entry<String, List<Tpcb>> e : byEngine.entrySet()) {
                        List<Tpcb> l = e.getValue();
                        XYSeries s = c.addSeries(e.getKey(), l.stream().mapToDouble(Tpcb::mpl).toArray(),
                                l.stream().mapToDouble(Tpcb::txnPerSec).toArray());
                        style(s, color(l.get(0).engine(), other++), l.get(0).engine().equals("libtp"));
                    }
                    xRangeMpl(c, rows.stream().mapToInt(Tpcb::mpl).max().orElse(1));
                    out.add(save(c, "tpcb-" + shape.fileTag() + "-" + txn + "-" + (durable ? "sync" : "nosync")
                            + ".png", title));
                }
            }
        }
        return out;
    }

    /** The paper's figure 9: libtp's abort rate (deadlock victims) against MPL. */
    List<Png> abortRate(ReportData d) throws IOException {
        List<Tpcb> rows = d.tpcbSorted().stream().filter(t -> t.engine().equals("libtp") && t.processes() == 1).toList();
        if (rows.isEmpty()) {
            return List.of();
        }
        String title = "TPC-B abort rate of libtp (deadlock victims) against MPL";
        XYChart c = xy(title, "MPL (threads)", "aborted transactions (%)");
        c.getStyler().setYAxisMin(0.0);
        c.getStyler().setYAxisDecimalPattern("0.#");
        Map<String, List<Tpcb>> groups = group(rows, t -> t.shape().label()
                + (t.txn().equals("readonly") ? ", read-only" : "") + ", " + t.durability());
        int i = 0;
        double max = 0;
        for (Map.Entry<String, List<Tpcb>> e : groups.entrySet()) {
            List<Tpcb> l = e.getValue();
            double[] y = l.stream().mapToDouble(t -> Double.isNaN(t.abortRate()) ? 0 : 100 * t.abortRate()).toArray();
            for (double v : y) {
                max = Math.max(max, v);
            }
            style(c.addSeries(e.getKey(), l.stream().mapToDouble(Tpcb::mpl).toArray(), y), palette(i++), false);
        }
        if (max < 1) {
            c.getStyler().setYAxisMax(1.0); // all (near) zero: keep the axis readable
        }
        xRangeMpl(c, rows.stream().mapToInt(Tpcb::mpl).max().orElse(1));
        return List.of(save(c, "tpcb-aborts-libtp.png", title));
    }

    /**
     * The paper's ratios against MPL, one chart each: LIBTP/NOTP (libtp without forced commits over
     * the unprotected engine) and LIBTP/FSYNC (libtp durable over the force-every-write baseline),
     * a line per database and transaction kind, and a dashed line at 1 (equal throughput).
     */
    List<Png> ratios(List<Report.RatioRow> rows) throws IOException {
        List<Png> out = new ArrayList<>();
        for (boolean notp : List.of(true, false)) {
            Map<String, List<double[]>> series = new java.util.LinkedHashMap<>();
            int maxMpl = 1;
            for (Report.RatioRow r : rows) {
                double v = notp ? r.notpRatio() : r.fsyncRatio();
                if (!Double.isNaN(v)) {
                    String where = r.shape().label() + (r.txn().equals("readonly") ? ", read-only" : "");
                    series.computeIfAbsent(where, k -> new ArrayList<>()).add(new double[] {r.mpl(), v});
                    maxMpl = Math.max(maxMpl, r.mpl());
                }
            }
            if (series.isEmpty()) {
                continue;
            }
            String title = notp ? "TPC-B, LIBTP/NOTP: libtp no-sync over notp (no locks, no log)"
                    : "TPC-B, LIBTP/FSYNC: libtp durable over fsync (pages forced at commit)";
            XYChart c = xy(title, "MPL (threads)", "throughput ratio");
            c.getStyler().setYAxisMin(0.0);
            c.getStyler().setYAxisDecimalPattern("0.0#");
            int i = 0;
            for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
                List<double[]> p = e.getValue();
                style(c.addSeries(e.getKey(), p.stream().mapToDouble(v -> v[0]).toArray(),
                        p.stream().mapToDouble(v -> v[1]).toArray()), palette(i++), false);
            }
            XYSeries one = c.addSeries("1 (equal)", new double[] {0, maxMpl + 1}, new double[] {1, 1});
            one.setMarker(SeriesMarkers.NONE);
            one.setLineColor(Color.GRAY);
            one.setLineStyle(new BasicStroke(1.2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_ROUND, 10f,
                    new float[] {6f, 4f}, 0f));
            xRangeMpl(c, maxMpl);
            out.add(save(c, notp ? "tpcb-ratio-notp.png" : "tpcb-ratio-fsync.png", title));
        }
        return out;
    }

    /** OO1: mean time of each test per engine, a grouped bar chart per database size and cache, log y. */
    List<Png> oo1(ReportData d) throws IOException {
        List<Png> out = new ArrayList<>();
        Map<Integer, List<Oo1>> byParts = new TreeMap<>();
        for (Oo1 o : d.oo1.values()) {
            byParts.computeIfAbsent(o.parts(), k -> new ArrayList<>()).add(o);
        }
        for (Map.Entry<Integer, List<Oo1>> p : byParts.entrySet()) {
            for (String cache : List.of("cold", "warm")) {
                List<Oo1> rows = p.getValue().stream().filter(o -> o.cache().equals(cache) && o.ms() > 0).toList();
                if (rows.isEmpty()) {
                    continue;
                }
                List<String> tests = ReportData.TESTS.stream()
                        .filter(t -> rows.stream().anyMatch(o -> o.test().equals(t))).toList();
                String title = "OO1, " + Fmt.count(p.getKey()) + " parts, " + cache + " cache: mean time per run"
                        + " (lower is better)";
                CategoryChart c = new CategoryChartBuilder().width(WIDTH).height(HEIGHT).title(title)
                        .xAxisTitle("test").yAxisTitle("ms (log scale)").build();
                common(c.getStyler());
                c.getStyler().setYAxisLogarithmic(true);
                c.getStyler().setYAxisDecimalPattern("#,##0.###");
                c.getStyler().setAvailableSpaceFill(0.85);
                c.getStyler().setOverlapped(false);
                double min = Double.MAX_VALUE;
                double max = 0;
                Map<String, List<Oo1>> byEngine = group(rows.stream().sorted(
                        java.util.Comparator.comparing((Oo1 o) -> ReportData.engineRank(o.engine()))
                                .thenComparing(Oo1::engine).thenComparing(Oo1::durability)).toList(), o -> o.engine()
                        + (rows.stream().filter(x -> x.engine().equals(o.engine())).map(Oo1::durability).distinct()
                        .count() > 1 ? " (" + o.durability() + ")" : ""));
                int other = 0;
                for (Map.Entry<String, List<Oo1>> e : byEngine.entrySet()) {
                    List<Double> y = new ArrayList<>();
                    for (String t : tests) {
                        Double v = e.getValue().stream().filter(o -> o.test().equals(t)).map(Oo1::ms)
                                .findFirst().orElse(null);
                        y.add(v);
                        if (v != null) {
                            min = Math.min(min, v);
                            max = Math.max(max, v);
                        }
                    }
                    CategorySeries s = c.addSeries(e.getKey(), tests, y);
                    s.setFillColor(color(e.getValue().get(0).engine(), other++));
                }
                // whole decades around the data, so that the smallest bar is visible
                c.getStyler().setYAxisMin(Math.pow(10, Math.floor(Math.log10(min))));
                c.getStyler().setYAxisMax(Math.pow(10, Math.ceil(Math.log10(max * 1.0001))));
                out.add(save(c, "oo1-p" + p.getKey() + "-" + cache + ".png", title));
            }
        }
        return out;
    }

    // ------------------------------------------------------------------ helpers

    private static XYChart xy(String title, String x, String y) {
        XYChart c = new XYChartBuilder().width(WIDTH).height(HEIGHT).title(title).xAxisTitle(x).yAxisTitle(y).build();
        common(c.getStyler());
        c.getStyler().setYAxisDecimalPattern("#,###");
        c.getStyler().setXAxisDecimalPattern("0");
        return c;
    }

    private static void common(AxesChartStyler s) {
        s.setChartBackgroundColor(Color.WHITE);
        s.setPlotBackgroundColor(Color.WHITE);
        s.setPlotBorderColor(Color.GRAY);
        s.setPlotGridLinesColor(new Color(0xDD, 0xDD, 0xDD));
        s.setChartTitleBoxVisible(false);
        s.setLegendPosition(Styler.LegendPosition.OutsideE);
        s.setLegendBorderColor(Color.LIGHT_GRAY);
    }

    /** MPL axis from 0 to a little past the highest MPL, integer ticks. */
    private static void xRangeMpl(XYChart c, int maxMpl) {
        c.getStyler().setXAxisMin(0.0);
        c.getStyler().setXAxisMax((double) Math.max(2, maxMpl + 1));
    }

    private static void style(XYSeries s, Color color, boolean bold) {
        s.setMarker(SeriesMarkers.CIRCLE);
        s.setLineColor(color);
        s.setMarkerColor(color);
        s.setLineWidth(bold ? 3f : 1.8f);
    }

    private static Color color(String engine, int i) {
        Color c = COLORS.get(engine);
        return c != null ? c : palette(i);
    }

    /** The i-th color of a chart whose series are not engines. */
    private static Color palette(int i) {
        Color[] all = {COLORS.get("libtp"), COLORS.get("sqlite"), COLORS.get("h2"), COLORS.get("lmdb"),
                COLORS.get("je"), OTHER[0], OTHER[1], OTHER[2], OTHER[3], OTHER[4], COLORS.get("fsync")};
        return all[i % all.length];
    }

    private static <T> Map<String, List<T>> group(List<T> rows, java.util.function.Function<T, String> key) {
        Map<String, List<T>> m = new java.util.LinkedHashMap<>();
        for (T t : rows) {
            m.computeIfAbsent(key.apply(t), k -> new ArrayList<>()).add(t);
        }
        return m;
    }

    private Png save(Chart<?, ?> chart, String file, String title) throws IOException {
        Files.createDirectories(dir);
        Path f = dir.resolve(file);
        try (OutputStream os = Files.newOutputStream(f)) {
            BitmapEncoder.saveBitmap(chart, os, BitmapEncoder.BitmapFormat.PNG);
        }
        return new Png(file, title);
    }
}
