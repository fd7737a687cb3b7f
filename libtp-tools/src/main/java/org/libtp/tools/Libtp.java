package org.libtp.tools;

import picocli.CommandLine;
import picocli.CommandLine.Command;

import java.io.PrintWriter;

/**
 * The {@code libtp} command: what Berkeley DB's {@code db_stat}, {@code db_verify},
 * {@code db_checkpoint}, {@code db_archive}, {@code db_printlog} and {@code db_recover} do, for
 * a LibTP environment directory, whether or not applications have it open (a tool joins with
 * their settings: {@link org.libtp.db.Environment#join}).
 *
 * <p>Exit status: 0 done; 1 done, and problems found (verify); 2 bad usage; 3 the environment
 * could not be used (the message says why and what to do).
 */
@Command(name = "libtp", mixinStandardHelpOptions = true, versionProvider = Libtp.Version.class,
        description = "Operate a LibTP environment directory: statistics, checks, checkpoints, log files.",
        subcommands = {StatCommand.class, VerifyCommand.class, CheckpointCommand.class, ArchiveCommand.class,
            PrintlogCommand.class, RecoverCommand.class, RepairCommand.class, DumpCommand.class, LoadCommand.class,
            BackupCommand.class, RestoreCommand.class, SqlCommand.class, LocksCommand.class, DeadlockCommand.class,
            CommandLine.HelpCommand.class},
        exitCodeListHeading = "%nExit status:%n",
        exitCodeList = {"0:done", "1:done, problems found (verify)", "2:bad usage",
            "3:the environment could not be used (see the message)"})
public final class Libtp implements Runnable {
    /** Problems found (verify). */
    static final int PROBLEMS = 1;
    /** The environment could not be opened or used. */
    static final int UNUSABLE = 3;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    public static void main(String[] args) {
        System.exit(commandLine().execute(args));
    }

    /** The command line with LibTP's error handling: a typed failure is a message and status 3, not a stack trace. */
    public static CommandLine commandLine() {
        CommandLine c = new CommandLine(new Libtp());
        c.setExecutionExceptionHandler((e, cmd, parsed) -> {
            PrintWriter err = cmd.getErr();
            err.println("libtp " + cmd.getCommandName() + ": " + Tools.describe(e));
            err.flush();
            return UNUSABLE;
        });
        return c;
    }

    @Override
    public void run() {
        throw new CommandLine.ParameterException(spec.commandLine(), "name a command (libtp help lists them)");
    }

    static final class Version implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            String v = Libtp.class.getPackage().getImplementationVersion();
            return new String[] {"libtp " + (v == null ? "(development build)" : v)};
        }
    }
}
