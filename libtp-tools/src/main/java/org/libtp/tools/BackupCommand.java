package org.libtp.tools;

import org.libtp.core.tp.BackupConfig;
import org.libtp.core.tp.HotBackup;
import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code libtp backup}: Berkeley DB's db_hotbackup. Applications keep committing meanwhile;
 * restore the copy with {@code libtp restore}.
 */
@Command(name = "backup", mixinStandardHelpOptions = true,
        description = {"Hot backup: copy the environment into DEST while applications keep committing (the data files, "
                + "then the log from the last checkpoint on). The copy holds every transaction committed before "
                + "the backup began; restore it with 'libtp restore DEST TARGET'.",
            "DEST must be new or empty; with --incremental it must hold an earlier backup of this environment, and only "
                + "the log written since (and data files created since) is copied: keep log files between incremental "
                + "backups (EnvironmentConfig.keepLogFiles)."})
final class BackupCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Parameters(index = "1", paramLabel = "DEST", description = "the backup directory")
    Path dest;
    @Option(names = "--incremental", description = "add the log written since the last backup into DEST")
    boolean incremental;
    @Option(names = "--rate", paramLabel = "MB", description = "copy at most MB megabytes per second (default: no fixed limit)")
    double rateMb;
    @Option(names = "--full-speed", description = "do not slow down while the copy makes durable commits' log forces "
            + "slower (by default the backup yields the disk to committing processes)")
    boolean fullSpeed;
    @Option(names = {"-q", "--quiet"}, description = "no progress bar")
    boolean quiet;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        if (rateMb < 0) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--rate must not be negative");
        }
        HotBackup.Result r;
        try (Environment env = Tools.open(dir, false);
             ProgressBar bar = ProgressBar.of(spec.commandLine().getErr(), "backup", "B", quiet)) {
            r = env.backup(dest, BackupConfig.builder().incremental(incremental)
                    .maxBytesPerSecond((long) (rateMb * 1e6)).yieldToCommits(!fullSpeed).progress(bar).build());
        } catch (IllegalArgumentException | IllegalStateException e) {
            throw new Tools.ToolException(e.getMessage());
        }
        spec.commandLine().getOut().println(r);
        return 0;
    }
}
