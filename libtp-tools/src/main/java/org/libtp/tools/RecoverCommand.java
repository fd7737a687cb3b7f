package org.libtp.tools;

import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code libtp recover}: Berkeley DB's db_recover (normal recovery). LibTP recovers at the first
 * open after a crash anyway; this runs it without an application, and says whether it was needed.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = "Run recovery if the environment was not closed cleanly (redo from the last checkpoint, "
                + "roll back unfinished transactions), then close it.")
final class RecoverCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Environment env = Tools.open(dir, false)) {
            spec.commandLine().getOut().println(env.wasRecovered()
                    ? "recovered " + dir + "; " + env.stats().log()
                    : "no recovery needed: " + dir + " was closed cleanly or is open in other processes");
        }
        return 0;
    }
}
