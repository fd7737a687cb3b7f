package org.libtp.tools;

import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code libtp archive}: Berkeley DB's db_archive for log files. */
@Command(name = "archive", mixinStandardHelpOptions = true,
        description = {"List the log files recovery no longer needs (after a checkpoint), or remove them.",
            "Back them up first if you keep log files for catastrophic recovery (keepLogFiles)."})
final class ArchiveCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = "--remove", description = "remove them")
    boolean remove;
    @Option(names = "--list", description = "list them (the default)")
    boolean list;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Environment env = Tools.open(dir, !remove)) {
            List<Path> files = env.archivableLogFiles();
            for (Path f : files) {
                out.println(f);
            }
            if (remove) {
                int n = env.removeArchivableLogFiles();
                out.println("removed " + n + " log file(s)");
            }
        }
        return 0;
    }
}
