package org.libtp.bench.tpcb;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * {@code tpcb --processes 2}: two child JVMs, two threads each, durable commits with early lock
 * release, on one LibTP environment that the parent loaded and holds open; the parent sums
 * their results and checks the TPC-B invariant (and that the history grew by exactly the
 * commits the children counted) after they exit. The same for Berkeley DB C when the build has it
 * ({@code mvn -Pbdb}).
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class TpcbMultiProcessTest {
    @TempDir
    Path dir;

    @Test
    void twoJvmsKeepTheInvariant() throws Exception {
        twoJvms("libtp");
    }

    /** The same with Berkeley DB C, when this build has it (mvn -Pbdb). */
    @Test
    void twoBdbJvmsKeepTheInvariant() throws Exception {
        assumeTrue(TpcbEnginesTest.bdbBuilt(), "built without -Pbdb");
        twoJvms("bdb");
    }

    private void twoJvms(String engine) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = TpcbCommand.run(new String[] {"--engine", engine, "--scale", "2", "--accounts", "200",
                "--processes", "2", "--mpl", "2", "--seconds", "2", "--warmup", "1", "--cache-mb", "8",
                "--dir", dir.toString()}, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        String line = out.toString(StandardCharsets.UTF_8).trim();
        assertEquals(0, status, "stderr: " + err.toString(StandardCharsets.UTF_8));
        assertTrue(line.contains("\"processes\":2"), line);
        assertTrue(line.contains("\"invariantOk\":true"), line);
        assertTrue(!line.contains("\"commits\":0,"), "the children committed nothing: " + line);
    }
}
