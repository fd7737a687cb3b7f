package org.libtp.tools;

import org.jline.reader.EndOfFileException;
import org.jline.reader.LineReader;
import org.jline.reader.LineReaderBuilder;
import org.jline.reader.UserInterruptException;
import org.jline.terminal.Terminal;
import org.jline.terminal.TerminalBuilder;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code libtp sql}: an interactive SQL shell over the JDBC driver, as SQLite's {@code sqlite3}
 * or H2's Shell: line editing and history on a terminal (JLine), statements from {@code -c} or
 * standard input otherwise.
 */
@Command(name = "sql", mixinStandardHelpOptions = true,
        description = {"Run SQL on the environment through the LibTP JDBC driver: interactively on a terminal (line "
                + "editing, history in ~/.libtp_history, .help for the shell's own commands), else the statements "
                + "given with -c or read from standard input. Exit status 1 if a statement failed."})
final class SqlCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = {"-c", "--command"}, paramLabel = "SQL",
            description = "run these statements (or .commands) and exit; may be given more than once")
    List<String> commands;
    @Option(names = "--bail", description = "stop at the first error")
    boolean bail;
    @Option(names = "--create", description = "make DIR a new environment if it is missing or an empty directory")
    boolean create;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (create && !Files.exists(dir)) {
            Files.createDirectories(dir); // as sqlite3 makes its file
        }
        if (!(create && Files.isDirectory(dir) && isEmpty(dir))) {
            try {
                Tools.requireEnvironment(dir);
            } catch (Tools.ToolException e) {
                boolean fresh = !Files.exists(dir) || (Files.isDirectory(dir) && isEmpty(dir));
                throw fresh && !create ? new Tools.ToolException(e.getMessage()
                        + " (to make a new environment there: libtp sql --create " + dir + ")") : e;
            }
        }
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        try (Connection conn = DriverManager.getConnection("jdbc:libtp:" + dir.toAbsolutePath() + ";join=true")) {
            SqlShell shell = new SqlShell(conn, out, err);
            shell.bail(bail);
            if (commands != null) {
                for (String c : commands) {
                    for (String line : c.split("\n", -1)) {
                        shell.line(line);
                    }
                    shell.end();
                }
            } else if (Tools.interactive()) {
                try (Terminal t = TerminalBuilder.builder().system(true).build()) {
                    interactive(shell, t, Path.of(System.getProperty("user.home"), ".libtp_history"));
                }
            } else {
                shell.read(new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)));
            }
            out.flush();
            return shell.errors() == 0 ? 0 : Libtp.PROBLEMS;
        } catch (SQLException e) {
            throw new Tools.ToolException("cannot connect to " + dir + ": " + e.getMessage() + " (SQLState "
                    + e.getSQLState() + ")");
        }
    }

    /** The read-eval-print loop on a terminal; Ctrl-C drops the statement being typed, Ctrl-D ends. */
    static void interactive(SqlShell shell, Terminal terminal, Path history) {
        LineReader reader = LineReaderBuilder.builder().terminal(terminal).appName("libtp")
                .variable(LineReader.HISTORY_FILE, history).build();
        reader.setOpt(LineReader.Option.DISABLE_EVENT_EXPANSION); // '!' is SQL's (!=), not history's
        PrintWriter w = terminal.writer();
        w.println("LibTP SQL shell: statements end with ';', .help lists the shell's commands, .quit leaves.");
        w.flush();
        while (!shell.done()) {
            String line;
            try {
                line = reader.readLine(shell.continuing() ? "   ...> " : "libtp> ");
            } catch (UserInterruptException e) {
                shell.discard();
                continue;
            } catch (EndOfFileException e) {
                break;
            }
            shell.line(line);
        }
        shell.end();
    }

    private static boolean isEmpty(Path d) throws IOException {
        try (var s = Files.list(d)) {
            return s.findAny().isEmpty();
        }
    }
}
