package org.libtp.bench;

import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

import java.io.PrintStream;
import java.io.PrintWriter;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * Main class of {@code libtp-bench.jar}: {@code java -jar libtp-bench.jar <command> [args...]}.
 *
 * <p>One picocli command, {@code libtp-bench}, with a subcommand per harness (commit, tpcb,
 * oo1...), each an annotated picocli command: its options, their defaults and {@code --help}
 * are picocli's; it runs with them and returns an exit status, never calling
 * {@link System#exit}; only {@link #main} does, once, at the end. {@code jmh} alone hands its
 * arguments on untouched, to JMH's own parser.
 */
public final class BenchMain {

    /** The top command: only subcommands, and help. */
    @Command(name = "libtp-bench", mixinStandardHelpOptions = true, version = "libtp-bench",
            description = "LibTP's benchmarks: the paper's TPC-B and OO1, commit throughput, operations, JMH.",
            synopsisSubcommandLabel = "<command>", commandListHeading = "%nCommands:%n")
    static final class Top implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            // no command: the overview, as 'help' prints it
            return new Help().overview(spec.commandLine());
        }
    }

    /** {@code help [COMMAND]}: every command with its options, or one command's whole usage. */
    @Command(name = "help", customSynopsis = "help [COMMAND]", description = "this text; 'help COMMAND' for one command's options")
    static final class Help implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Parameters(arity = "0..1", paramLabel = "COMMAND", description = "a command")
        String command;

        @Override
        public Integer call() {
            CommandLine top = spec.commandLine().getParent();
            if (command == null) {
                return overview(top);
            }
            CommandLine sub = top.getSubcommands().get(command);
            if (sub == null) {
                top.getErr().println("unknown command '" + command + "'");
                return 2;
            }
            sub.usage(top.getOut());
            return 0;
        }

        int overview(CommandLine top) {
            PrintWriter out = top.getOut();
            out.println("usage: java -jar libtp-bench.jar <command> [args...]");
            out.println("commands:");
            for (Map.Entry<String, CommandLine> e : top.getSubcommands().entrySet()) {
                CommandSpec s = e.getValue().getCommandSpec();
                String[] synopsis = s.usageMessage().customSynopsis();
                String usage = synopsis.length > 0 ? synopsis[0]
                        : oneLine(e.getValue());
                out.println("  " + usage);
                out.println("      " + String.join(" ", s.usageMessage().description()));
            }
            out.flush();
            return 0;
        }
    }

    private BenchMain() {
    }

    /** A command's synopsis on one line, without the top command's name. */
    static String oneLine(CommandLine line) {
        String[] custom = line.getCommandSpec().usageMessage().customSynopsis();
        String synopsis = custom.length > 0 ? String.join(" ", custom) : line.getHelp().synopsis(0);
        String one = String.join(" ", synopsis.trim().split("\\s+"));
        return one.startsWith("libtp-bench ") && line.getParent() != null ? one.substring("libtp-bench ".length()) : one;
    }

    /** The command line: {@code libtp-bench} and its subcommands, writing to {@code out} and {@code err}. */
    public static CommandLine commandLine(PrintStream out, PrintStream err) {
        CommandLine cl = new CommandLine(new Top());
        cl.addSubcommand(JmhCommand.commandLine(err));
        cl.addSubcommand(new PingPong.Cli(out, err));
        cl.addSubcommand(new CommitCommand(out, err));
        cl.addSubcommand(withSynopsis(new CommandLine(new org.libtp.bench.tpcb.TpcbCli(out, err)),
                org.libtp.bench.tpcb.TpcbCommand.USAGE));
        cl.addSubcommand(withSynopsis(new CommandLine(new org.libtp.bench.oo1.Oo1Cli(out, err)),
                org.libtp.bench.oo1.Oo1Command.USAGE));
        cl.addSubcommand(new org.libtp.bench.ops.LoadBench(out, err));
        cl.addSubcommand(new org.libtp.bench.ops.BackupBench(out));
        cl.addSubcommand(new org.libtp.bench.ops.RecoveryBench(out, err));
        cl.addSubcommand(new org.libtp.bench.report.ReportCommand(out, err));
        cl.addSubcommand(new Help());
        // after the subcommands: these setters reach the subcommands added so far
        cl.setExpandAtFiles(false);
        cl.setCaseInsensitiveEnumValuesAllowed(true);
        cl.setOverwrittenOptionsAllowed(true); // as the hand-written parsers did: a repeated option's last value wins
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        cl.setParameterExceptionHandler((e, args) -> {
            CommandLine line = e.getCommandLine();
            if (line == cl && e instanceof CommandLine.UnmatchedArgumentException) {
                line.getErr().println("unknown command '" + e.getCommandLine().getParseResult().unmatched().get(0) + "'");
            } else {
                line.getErr().println(e.getMessage());
            }
            line.getErr().println("usage: " + oneLine(line) + "; 'java -jar libtp-bench.jar help"
                    + (line == cl ? "" : " " + line.getCommandName()) + "' says more");
            return 2;
        });
        cl.setExecutionExceptionHandler((e, line, parsed) -> {
            throw e; // a harness's failure is main's to report (stack trace, status 1)
        });
        return cl;
    }

    /** The harness's own synopsis (one line, the engines listed) in place of picocli's. */
    private static CommandLine withSynopsis(CommandLine sub, String usage) {
        sub.getCommandSpec().usageMessage().customSynopsis(usage);
        return sub;
    }

    public static void main(String[] args) {
        int status;
        try {
            status = dispatch(args, System.out, System.err);
        } catch (Throwable t) {
            t.printStackTrace();
            status = 1;
        }
        System.out.flush();
        System.exit(status);
    }

    /** Runs the command named by {@code args[0]}; returns its exit status (2 for a usage error). */
    public static int dispatch(String[] args, PrintStream out, PrintStream err) throws Exception {
        return commandLine(out, err).execute(args);
    }
}
