package org.libtp.bench.ops;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.bench.BenchMain;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@code recovery}: a TPC-B child JVM killed with SIGKILL, then a fresh JVM that recovers, commits
 * and checks the invariant; one round on a small database.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class RecoveryBenchTest {
    @TempDir
    Path dir;

    @Test
    void aKilledRunIsRecoveredTimedAndConsistent() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = BenchMain.commandLine(new PrintStream(out, true, StandardCharsets.UTF_8),
                        new PrintStream(err, true, StandardCharsets.UTF_8))
                .execute("recovery", "--dir", dir.toString(), "--rounds", "1", "--kill-after", "4,4", "--accounts", "2000",
                        "--cache-mb", "8", "--durability", "nosync");
        String lines = out.toString(StandardCharsets.UTF_8);
        assertEquals(0, status, "stderr: " + err.toString(StandardCharsets.UTF_8) + " stdout: " + lines);
        assertTrue(lines.contains("\"bench\":\"recovery\",\"round\":1") && lines.contains("\"consistent\":true"), lines);
        assertTrue(lines.matches("(?s).*\"recordsRedone\":[1-9].*"), "the killed run left work for recovery: " + lines);
        assertTrue(lines.contains("\"bench\":\"recovery-summary\""), lines);
    }
}
