package org.libtp.bench.tpcb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** {@code tpcb} reports the log forces of the measured interval and the commits each carried (libtp, one process). */
class TpcbGroupCommitTest {
    @TempDir
    Path dir;

    private static String run(Path dir, String engine, String durability) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TpcbCommand.run(new String[] {"--engine", engine, "--scale", "1", "--accounts", "1000",
                "--mpl", "2", "--seconds", "1", "--warmup", "0.5", "--cache-mb", "8", "--durability", durability,
                "--dir", dir.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, status, "stderr: " + err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).trim();
    }

    private static double field(String line, String name) {
        Matcher m = Pattern.compile("\"" + name + "\":([0-9.]+)").matcher(line);
        assertTrue(m.find(), name + " in " + line);
        return Double.parseDouble(m.group(1));
    }

    @Test
    void durableCommitsReportForcesAndCommitsPerForce() throws Exception {
        String line = run(dir.resolve("sync"), "libtp", "sync");
        double commits = field(line, "commits");
        double perForce = field(line, "commitsPerForce");
        assertTrue(commits > 0 && field(line, "logForcesPerSec") > 0, line);
        // every durable commit waited for a force; two workers put at most two in one (plus page-write forces)
        assertTrue(perForce > 0 && perForce <= 2.0, line);
        double waits = field(line, "lockWaitsPerTxn"); // one branch: the two workers meet on its record
        assertTrue(waits >= 0 && waits < 10, line);
    }

    @Test
    void anEngineWithoutTheLogManagerReportsNoForces() throws Exception {
        String line = run(dir.resolve("notp"), "notp", "nosync");
        assertFalse(line.contains("commitsPerForce"), line);
        assertFalse(line.contains("lockWaitsPerTxn"), line);
    }
}
