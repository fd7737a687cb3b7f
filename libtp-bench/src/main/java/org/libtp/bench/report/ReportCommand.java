package org.libtp.bench.report;

import org.libtp.bench.report.Json;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
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
@Command(name = "report", sortOptions = false,
        customSynopsis = "report [--md FILE|-] [--img DIR] [--note TEXT]... FILE.jsonl... | report --probe-machine DIR",
        description = "the generated section of docs/benchmarks.md (between its generated markers) and its PNG charts, from the"
                + " JSON lines of commit, tpcb and oo1 runs: machine facts, the performance targets evaluated,"
                + " TPC-B and OO1 tables, the paper's ratios; libtp-bench/scripts/bench-report.sh runs the whole matrix")
public final class ReportCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help message and exit.")
    boolean help;

    @Option(names = "--md", paramLabel = "FILE|-", defaultValue = "docs/benchmarks.md",
            description = "the Markdown file whose generated section is replaced, - to print the section"
                    + " (default: ${DEFAULT-VALUE})")
    String mdOption;

    @Option(names = "--img", paramLabel = "DIR",
            description = "where the charts go (default: img next to the Markdown file, or ./img with --md -)")
    Path imgOption;

    @Option(names = "--note", paramLabel = "TEXT", description = "a note for the report's facts table; may be repeated")
    List<String> notes = new ArrayList<>();

    @Option(names = "--probe-machine", paramLabel = "DIR",
            description = "only print the machine JSON line (date, JDK, CPU, cores, kernel, file system of DIR)")
    Path probeMachine;

    @Parameters(paramLabel = "FILE.jsonl", arity = "0..*", description = "the JSON lines of the runs")
    List<Path> inputs = new ArrayList<>();

    private final PrintStream out;
    private final PrintStream err;

    public ReportCommand(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws IOException {
        if (probeMachine != null) {
            System.setProperty("java.awt.headless", "true");
            out.println(Json.line(Machine.probe(probeMachine)));
            out.flush();
            return 0;
        }
        if (inputs.isEmpty()) {
            throw new ParameterException(spec.commandLine(), "no input files");
        }
        for (Path p : inputs) {
            if (!Files.isRegularFile(p)) {
                throw new ParameterException(spec.commandLine(), "no such file: " + p);
            }
        }
        boolean stdout = mdOption.equals("-");
        Path md = stdout ? null : Paths.get(mdOption);
        Path img = imgOption;
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
}
