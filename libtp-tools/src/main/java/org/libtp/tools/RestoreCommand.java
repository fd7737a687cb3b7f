package org.libtp.tools;

import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code libtp restore}: a backup into a new environment directory, recovered catastrophically. */
@Command(name = "restore", mixinStandardHelpOptions = true,
        description = {"Copy the backup in BACKUP into TARGET (new or empty) and recover it catastrophically (the whole "
                + "copied log is redone, unfinished transactions rolled back): TARGET is then an environment holding "
                + "every transaction committed before the backup (or its last incremental) began. BACKUP is not changed."})
final class RestoreCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "BACKUP", description = "a directory written by libtp backup")
    Path backup;
    @Parameters(index = "1", paramLabel = "TARGET", description = "the new environment directory")
    Path target;
    @Option(names = {"-q", "--quiet"}, description = "no progress bar")
    boolean quiet;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        long bytes;
        long t0 = System.nanoTime();
        try (ProgressBar bar = ProgressBar.of(spec.commandLine().getErr(), "restore", "B", quiet)) {
            bytes = Environment.restore(backup, target, bar);
        } catch (IllegalArgumentException e) {
            throw new Tools.ToolException(e.getMessage());
        }
        spec.commandLine().getOut().println("restored " + backup + " into " + target + ": " + bytes + " bytes copied, "
                + "recovered, in " + (System.nanoTime() - t0) / 1_000_000 + " ms");
        return 0;
    }
}
