package org.libtp.tools;

import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code libtp recover}: Berkeley DB's db_recover (normal recovery; {@code -c}: catastrophic).
 * LibTP recovers at the first open after a crash anyway; this runs it without an application,
 * and says whether it was needed.
 */
@Command(name = "recover", mixinStandardHelpOptions = true,
        description = {"Run recovery if the environment was not closed cleanly (redo from the last checkpoint, "
                + "roll back unfinished transactions), then close it.",
            "--catastrophic redoes every log file there is, for data files older than the last checkpoint says "
                + "(files copied by hand while the environment ran); no process may have it open."})
final class RecoverCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = {"-c", "--catastrophic"}, description = "redo the whole log, not only after the last checkpoint")
    boolean catastrophic;
    @Option(names = {"-q", "--quiet"}, description = "no progress display")
    boolean quiet;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        Tools.requireEnvironment(dir);
        long t0 = System.nanoTime();
        // Recovery runs inside the open and reports no fraction: the display counts the time; it
        // ends (and its line with it) before the result is printed.
        String result;
        Ticker ticker = Ticker.start(ProgressBar.of(spec.commandLine().getErr(), "recover", "s", quiet));
        try {
            if (catastrophic) {
                try {
                    Environment.recoverCatastrophically(dir, EnvironmentConfig.defaults());
                } catch (IllegalStateException e) {
                    throw new Tools.ToolException(e.getMessage());
                }
                result = "recovered " + dir + " catastrophically (the whole log) in "
                        + (System.nanoTime() - t0) / 1_000_000 + " ms";
            } else {
                try (Environment env = Tools.open(dir, false)) {
                    result = env.wasRecovered()
                            ? "recovered " + dir + " in " + (System.nanoTime() - t0) / 1_000_000 + " ms; " + env.stats().log()
                            : "no recovery needed: " + dir + " was closed cleanly or is open in other processes";
                }
            }
        } finally {
            ticker.close();
        }
        spec.commandLine().getOut().println(result);
        return 0;
    }

    /** Redraws an indeterminate bar with the elapsed seconds from a daemon thread. */
    static final class Ticker implements AutoCloseable {
        private final ProgressBar bar;
        private final Thread thread;
        private volatile boolean done;

        private Ticker(ProgressBar bar) {
            this.bar = bar;
            this.thread = new Thread(() -> {
                long t0 = System.nanoTime();
                while (!done) {
                    bar.at((System.nanoTime() - t0) / 1_000_000_000L, 0);
                    try {
                        Thread.sleep(200);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "libtp-progress");
            thread.setDaemon(true);
        }

        static Ticker start(ProgressBar bar) {
            Ticker t = new Ticker(bar);
            t.thread.start();
            return t;
        }

        @Override
        public void close() {
            done = true;
            thread.interrupt();
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            bar.close();
        }
    }
}
