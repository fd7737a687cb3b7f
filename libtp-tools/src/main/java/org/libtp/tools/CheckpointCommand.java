package org.libtp.tools;

import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code libtp checkpoint}: Berkeley DB's db_checkpoint, once. */
@Command(name = "checkpoint", mixinStandardHelpOptions = true,
        description = "Take a checkpoint now: dirty pages written, a checkpoint record forced, so that recovery "
                + "starts later in the log and older log files can be archived.")
final class CheckpointCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Environment env = Tools.open(dir, false)) {
            env.checkpoint();
            spec.commandLine().getOut().println("checkpoint taken; " + env.stats().log());
        }
        return 0;
    }
}
