package org.libtp.tools;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The runnable jar end to end, as an operator runs it (after package: {@code mvn verify}). */
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class LibtpJarIT {
    @TempDir
    Path dir;

    record Result(int status, String out, String err) {
    }

    static Result run(String stdin, String... args) throws Exception {
        Path jar = Path.of("target", "libtp.jar");
        assertTrue(Files.isRegularFile(jar), "the shaded jar " + jar.toAbsolutePath() + " (built by package)");
        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-jar",
                jar.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).start();
        p.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
        p.getOutputStream().close();
        byte[] out = p.getInputStream().readAllBytes();
        byte[] err = p.getErrorStream().readAllBytes();
        assertTrue(p.waitFor(120, TimeUnit.SECONDS), "libtp " + String.join(" ", args) + " ends");
        return new Result(p.exitValue(), new String(out, StandardCharsets.UTF_8), new String(err, StandardCharsets.UTF_8));
    }

    @Test
    void anOperatorsDay() throws Exception {
        Path env = dir.resolve("env");
        Files.createDirectories(env);
        Result v = run("", "--version");
        assertEquals(0, v.status());
        assertTrue(v.out().startsWith("libtp "), v.out());
        Result make = run("CREATE TABLE t (id INT PRIMARY KEY, name VARCHAR(10));\nINSERT INTO t VALUES (1, 'one'), (2, 'two');\n",
                "sql", "--create", env.toString());
        assertEquals(0, make.status(), make.err());
        assertEquals("", make.err(), "no warnings (JNA native access, logging) on standard error");
        Result stat = run("", "stat", env.toString());
        assertEquals(0, stat.status(), stat.err());
        assertTrue(stat.out().contains("database sql.t"), stat.out());
        Result backup = run("", "backup", "--quiet", env.toString(), dir.resolve("bk").toString());
        assertEquals(0, backup.status(), backup.err());
        Result restore = run("", "restore", "--quiet", dir.resolve("bk").toString(), dir.resolve("copy").toString());
        assertEquals(0, restore.status(), restore.err());
        Result verify = run("", "verify", dir.resolve("copy").toString());
        assertEquals(0, verify.status(), verify.out() + verify.err());
        Result q = run("", "sql", dir.resolve("copy").toString(), "-c", "SELECT name FROM t ORDER BY id");
        assertEquals("NAME\n----\none\ntwo\n(2 rows)\n", q.out().replace("\r", ""));
        Result bad = run("", "stat", dir.resolve("nowhere").toString());
        assertEquals(3, bad.status());
        assertTrue(bad.err().startsWith("libtp stat: ") && bad.err().contains("is not a directory"), bad.err());
    }
}
