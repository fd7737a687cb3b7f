package org.libtp.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintStream;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code jmh [JMH args...]}: what {@code org.openjdk.jmh.Main} does, but returning an exit status
 * instead of calling {@link System#exit}. The arguments are JMH's own options, handed to it in
 * order: picocli takes only {@code --help} (this command's usage); {@code -h} is JMH's help.
 */
@Command(name = "jmh", customSynopsis = "jmh [JMH args...]",
        description = "run the JMH benchmarks (org.libtp.bench.jmh.*); e.g. jmh -f 1 -wi 3 -w 1s -i 5 -r 1s LatchBench"
                + "; 'jmh -h' lists JMH's options")
final class JmhCommand implements Callable<Integer> {
    @Option(names = "--help", usageHelp = true, description = "Show this help message and exit ('jmh -h': JMH's options).")
    boolean help;

    @Parameters(paramLabel = "JMH-ARGS", arity = "0..*", description = "JMH's options and benchmark patterns")
    List<String> args = new ArrayList<>();

    private final PrintStream err;

    /** {@code err}: this command's errors; JMH itself prints to {@link System#out}. */
    JmhCommand(PrintStream err) {
        this.err = err;
    }

    /** This command's line: every argument but {@code --help} is a parameter, options included. */
    static CommandLine commandLine(PrintStream err) {
        CommandLine cl = new CommandLine(new JmhCommand(err));
        cl.setUnmatchedOptionsArePositionalParams(true);
        return cl;
    }

    @Override
    public Integer call() throws Exception {
        return run(args.toArray(String[]::new), err);
    }

    private static int run(String[] args, PrintStream err) throws Exception {
        CommandLineOptions options;
        try {
            options = new CommandLineOptions(args);
        } catch (CommandLineOptionException e) {
            err.println("Error parsing JMH command line: " + e.getMessage());
            return 2;
        }
        Runner runner = new Runner(options);
        if (options.shouldHelp()) {
            options.showHelp();
            return 0;
        }
        if (options.shouldList()) {
            runner.list();
            return 0;
        }
        if (options.shouldListWithParams()) {
            runner.listWithParams(options);
            return 0;
        }
        if (options.shouldListProfilers()) {
            options.listProfilers();
            return 0;
        }
        if (options.shouldListResultFormats()) {
            options.listResultFormats();
            return 0;
        }
        try {
            Collection<RunResult> results = runner.run();
            // With -foe false (JMH's default) a failed benchmark is reported but has no result.
            return results.isEmpty() ? 1 : 0;
        } catch (NoBenchmarksException e) {
            err.println("No matching benchmarks. Misspelled regexp? Use 'jmh -l' to list them.");
            return 1;
        } catch (RunnerException e) {
            err.println("ERROR: " + e.getMessage());
            e.printStackTrace(err);
            return 1;
        }
    }
}
