package org.libtp.tools;

import org.libtp.core.log.LogPrinter;
import org.libtp.core.storage.FileStorage;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.Callable;

/** {@code libtp printlog}: Berkeley DB's db_printlog. Reads the files; opens no environment. */
@Command(name = "printlog", mixinStandardHelpOptions = true,
        description = "Print every log record, one line each, from the log files (nothing is opened or changed). "
                + "Exit status 1 if a damaged record stops it.")
final class PrintlogCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        Tools.requireEnvironment(dir);
        var out = spec.commandLine().getOut();
        PrintStream ps = new PrintStream(new java.io.OutputStream() {
            @Override
            public void write(int b) {
                out.write(b);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                out.write(new String(b, off, len, StandardCharsets.UTF_8));
            }
        }, false, StandardCharsets.UTF_8);
        boolean ok = LogPrinter.print(new FileStorage(dir), ps);
        ps.flush();
        out.flush();
        return ok ? 0 : Libtp.PROBLEMS;
    }
}
