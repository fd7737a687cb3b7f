package org.libtp.bench;

import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.NoBenchmarksException;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;

import java.io.PrintStream;
import java.util.Collection;

/**
 * {@code jmh [args...]}: what {@code org.openjdk.jmh.Main} does, but returning an exit status
 * instead of calling {@link System#exit}.
 */
final class JmhCommand {
    private JmhCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws Exception {
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
