package org.libtp.tools;

import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.nio.file.Path;
import java.util.concurrent.Callable;

/**
 * {@code libtp deadlock}: Berkeley DB's {@code db_deadlock} (one pass). LibTP looks for a cycle
 * whenever a request blocks and once a second in one process anyway; this is one more pass, now.
 */
@Command(name = "deadlock", mixinStandardHelpOptions = true,
        description = {"Run one deadlock detection pass now: a transaction in each waits-for cycle is chosen as the "
                + "victim (its wait ends with a deadlock error). LibTP also checks whenever a lock request blocks and "
                + "every second, so this rarely finds one."})
final class DeadlockCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        try (Environment env = Tools.open(dir, true)) {
            int victims = env.detectDeadlocks();
            spec.commandLine().getOut().println(victims == 0 ? "deadlock: no waits-for cycle"
                    : "deadlock: " + victims + " transaction(s) chosen as victims");
        }
        return 0;
    }
}
