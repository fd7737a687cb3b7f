package org.libtp.bench.report;

import org.libtp.bench.Json;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * {@code report}: turns the JSON lines of {@code commit}, {@code tpcb} and {@code oo1} runs into
 * the generated section of docs/benchmarks.md and its PNG charts (see {@link Report} for the
 * content, {@link Charts} for the charts, {@code libtp-bench/scripts/bench-report.sh} for the runs).
 *
 * <p>The section goes between {@value Report#BEGIN} and {@value Report#END} in the Markdown
 * file: it replaces what is there, or is appended at the end if the file has no markers (the
 * file is created if missing); text outside the markers is kept as is. {@code --md -} prints
 * the section instead. {@code --probe-machine DIR} only prints the {@code machine} JSON line
 * (date, JDK, CPU, cores, kernel, file system of DIR), which the script records before its runs
 * so that the report describes the machine the numbers come from.
 */
public final class ReportCommand {
    public static final String USAGE = "report [--md FILE|-] [--img DIR] [--note TEXT]... FILE.jsonl..."
            + " | report --probe-machine DIR";

    private ReportCommand() {
    }

    public static int run(String[] args, PrintStream out, PrintStream err) throws IOException {
        Path md = Paths.get("docs", "benchmarks.md");
        boolean stdout = false;
        Path img = null;
        List<String> notes = new ArrayList<>();
        List<Path> inputs = new ArrayList<>();
        for (int i = 0; i < args.length; i++) {
            String a = args[i];
            if (a.startsWith("--") && i + 1 >= args.length) {
                return usage(err, a + " needs a value");
            }
            switch (a) {
                case "--md" -> {
                    String v = args[++i];
                    stdout = v.equals("-");
                    md = stdout ? null : Paths.get(v);
                }
                case "--img" -> img = Paths.get(args[++i]);
                case "--note" -> notes.add(args[++i]);
                case "--probe-machine" -> {
                    System.setProperty("java.awt.headless", "true");
                    out.println(Json.line(Machine.probe(Paths.get(args[++i]))));
                    out.flush();
                    return 0;
                }
                default -> {
                    if (a.startsWith("--")) {
                        return usage(err, "unknown option '" + a + "'");
                    }
                    inputs.add(Paths.get(a));
                }
            }
        }
        if (inputs.isEmpty()) {
            return usage(err, "no input files");
        }
        for (Path p : inputs) {
            if (!Files.isRegularFile(p)) {
                return usage(err, "no such file: " + p);
            }
        }
        if (img == null) {
            img = md == null ? Paths.get("img") : md.toAbsolutePath().getParent().resolve("img");
        }
        System.setProperty("java.awt.headless", "true"); // XChart renders through AWT; no display needed

        ReportData data = ReportData.read(inputs);
        for (String w : data.warnings) {
            err.println("report: " + w);
        }
        String link = md == null ? img.toString()
                : md.toAbsolutePath().getParent().relativize(img.toAbsolutePath()).toString();
        link = link.replace('\\', '/');
        Report report = new Report(data, new Charts(img), link, inputs.stream().map(Path::toString).toList(), notes);
        String section = report.build();
        if (stdout) {
            out.print(section);
            out.flush();
        } else {
            String old = Files.exists(md) ? Files.readString(md, StandardCharsets.UTF_8) : "";
            String doc;
            try {
                doc = splice(old, section);
            } catch (IllegalArgumentException e) {
                err.println("report: " + md + ": " + e.getMessage());
                return 1;
            }
            Files.writeString(md, doc, StandardCharsets.UTF_8);
            List<Report.Target> t = report.evaluate();
            err.printf("report: %d result lines -> %s (%d PASS, %d MISS, %d without data), charts in %s%n", data.lines,
                    md, t.stream().filter(x -> x.result().equals(Report.PASS)).count(),
                    t.stream().filter(x -> x.result().equals(Report.MISS)).count(),
                    t.stream().filter(x -> x.result().equals(Report.NO_DATA)).count(), img);
        }
        return 0;
    }

    /**
     * {@code doc} with the lines from {@value Report#BEGIN} through {@value Report#END} replaced by
     * {@code section} (which carries both markers), or with {@code section} appended after a blank
     * line if {@code doc} has no begin marker. A marker counts only as a line of its own, so that
     * the text may name the markers.
     */
    static String splice(String doc, String section) {
        Matcher b = markerLine(Report.BEGIN).matcher(doc);
        if (!b.find()) {
            if (doc.isEmpty()) {
                return section;
            }
            String sep = doc.endsWith("\n\n") ? "" : doc.endsWith("\n") ? "\n" : "\n\n";
            return doc + sep + section;
        }
        Matcher e = markerLine(Report.END).matcher(doc);
        if (!e.find(b.end())) {
            throw new IllegalArgumentException("the file has a " + Report.BEGIN + " line but no " + Report.END
                    + " line after it; fix it by hand");
        }
        int after = e.end();
        if (after < doc.length() && doc.charAt(after) == '\r') {
            after++;
        }
        if (after < doc.length() && doc.charAt(after) == '\n') {
            after++; // the section ends with its own newline
        }
        return doc.substring(0, b.start()) + section + doc.substring(after);
    }

    private static Pattern markerLine(String marker) {
        return Pattern.compile("(?m)^[ \\t]*" + Pattern.quote(marker) + "[ \\t]*(?=\\r?$)");
    }

    private static int usage(PrintStream err, String why) {
        err.println("report: " + why);
        err.println("usage: " + USAGE);
        return 2;
    }
}
