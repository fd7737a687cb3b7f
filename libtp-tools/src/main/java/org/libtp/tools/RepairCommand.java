package org.libtp.tools;

import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import picocli.CommandLine.ArgGroup;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code libtp repair}: the offline repairs the open's refusals name, for operators without a
 * Java program: a new log ({@link Environment#resetLog}, Berkeley DB's {@code db_load -r lsn}),
 * the file registry rebuilt from the data files' headers, a damaged catalog salvaged. No process
 * may have the environment open; each says what it did and that {@code libtp verify} comes next.
 */
@Command(name = "repair", mixinStandardHelpOptions = true,
        description = {"Offline repairs that a refused open names (no process may have the environment open):",
            "--reset-log starts a new, empty log: every page LSN is set to 0 and the log files are deleted (the way "
                + "out when the log was lost, cut short or damaged; changes of transactions the log no longer holds "
                + "may remain in part); --rebuild-registry rewrites __libtp.files from the data files' headers; "
                + "--rebuild-catalog moves a damaged catalog aside and enters every data file into a new one (it "
                + "starts a new log too). Run 'libtp verify DIR' afterwards."})
final class RepairCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;

    @ArgGroup(exclusive = true, multiplicity = "1")
    What what;

    static final class What {
        @picocli.CommandLine.Option(names = "--reset-log", required = true,
                description = "start a new log (page LSNs set to 0, log files deleted)")
        boolean resetLog;
        @picocli.CommandLine.Option(names = "--rebuild-registry", required = true,
                description = "rewrite the file registry __libtp.files from the data files' headers")
        boolean rebuildRegistry;
        @picocli.CommandLine.Option(names = "--rebuild-catalog", required = true,
                description = "salvage a damaged catalog: a new one naming every data file")
        boolean rebuildCatalog;
    }

    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Tools.requireEnvironment(dir);
        String done;
        try {
            if (what.resetLog) {
                long pages = Environment.resetLog(dir);
                done = "started a new log for " + dir + ": " + pages + " pages had their LSN set to 0";
            } else if (what.rebuildRegistry) {
                int files = Environment.rebuildFileRegistry(dir);
                done = "rebuilt the file registry of " + dir + ": " + files + " data files";
            } else {
                List<String> names = Environment.rebuildCatalog(dir, EnvironmentConfig.defaults());
                done = "rebuilt the catalog of " + dir + " (the damaged one is in a damaged-* subdirectory; a new "
                        + "log was started): " + names.size() + " databases " + names;
            }
        } catch (IllegalStateException e) {
            throw new Tools.ToolException(e.getMessage()); // open in another process: say so, status 3
        }
        spec.commandLine().getOut().println(done + ". Check it with 'libtp verify " + dir + "'.");
        return 0;
    }
}
