package org.libtp.core.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.function.IntFunction;

/**
 * Multi-JVM test kit: starts a child JVM on the current test class path running a given main,
 * collects its output (stdout and stderr merged) line by line, waits with timeouts and kills it
 * with SIGKILL. Main scope of libtp-testkit, for every module's multi-JVM tests.
 *
 * <p>Children get no JVM flags beyond a heap limit (and, on JDK 22+, native access for JNA), so
 * every cross-process test also proves LibTP needs no flags. Extra flags for all children can be
 * given in the system property {@code libtp.test.childArgs} (space separated).
 *
 * <pre>{@code
 * try (ChildJvm c = ChildJvm.start(MyChild.class, dir.toString())) {
 *     c.awaitLine("READY", Duration.ofSeconds(30));
 *     c.kill();
 * }
 * }</pre>
 */
public final class ChildJvm implements AutoCloseable {
    private final String name;
    private final Process process;
    private final List<String> lines = new CopyOnWriteArrayList<>();
    private final Thread reader;

    private ChildJvm(String name, Process process) {
        this.name = name;
        this.process = process;
        this.reader = new Thread(this::pump, "child-output " + name);
        this.reader.setDaemon(true);
        this.reader.start();
    }

    /** Starts {@code main} in a new JVM with {@code args}. */
    public static ChildJvm start(Class<?> main, String... args) {
        return start(main, List.of(), args);
    }

    /** Starts {@code main} in a new JVM with extra JVM options and {@code args}. */
    public static ChildJvm start(Class<?> main, List<String> jvmOptions, String... args) {
        return startWithClassPath(classPath(), main, jvmOptions, args);
    }

    /**
     * As {@link #start(Class, List, String...)} on the given class path instead of the test's
     * (e.g. the test's without an optional dependency).
     */
    public static ChildJvm startWithClassPath(String classPath, Class<?> main, List<String> jvmOptions,
                                              String... args) {
        List<String> cmd = new ArrayList<>();
        cmd.add(javaBinary().toString());
        cmd.add("-Xmx256m");
        cmd.add("-XX:+UseSerialGC");
        if (Runtime.version().feature() >= 22) {
            cmd.add("--enable-native-access=ALL-UNNAMED");
        }
        String extra = System.getProperty("libtp.test.childArgs", "").trim();
        if (!extra.isEmpty()) {
            cmd.addAll(List.of(extra.split("\\s+")));
        }
        cmd.addAll(jvmOptions);
        cmd.add("-cp");
        cmd.add(classPath);
        cmd.add(main.getName());
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        try {
            return new ChildJvm(main.getSimpleName(), pb.start());
        } catch (IOException e) {
            throw new IllegalStateException("cannot start child JVM " + cmd, e);
        }
    }

    /** Starts {@code n} children; child {@code i} gets {@code args.apply(i)}. */
    public static List<ChildJvm> startAll(int n, Class<?> main, IntFunction<String[]> args) {
        List<ChildJvm> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            out.add(start(main, args.apply(i)));
        }
        return out;
    }

    /** The java launcher of the running JVM. */
    public static Path javaBinary() {
        return Paths.get(System.getProperty("java.home"), "bin", "java");
    }

    /** The test class path: surefire's when running under it, else this JVM's. */
    public static String classPath() {
        String cp = System.getProperty("surefire.test.class.path");
        return cp != null && !cp.isBlank() ? cp : System.getProperty("java.class.path");
    }

    private void pump() {
        try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                lines.add(line);
                synchronized (lines) {
                    lines.notifyAll();
                }
            }
        } catch (IOException e) {
            lines.add("[child output error: " + e + "]");
        } finally {
            synchronized (lines) {
                lines.notifyAll();
            }
        }
    }

    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Every line printed so far. */
    public List<String> output() {
        return List.copyOf(lines);
    }

    /** All output as one string, for assertion messages. */
    public String outputText() {
        return name + " (pid " + pid() + ") output:\n  " + String.join("\n  ", lines);
    }

    /**
     * Waits until a line starting with {@code prefix} appears and returns it.
     *
     * @throws AssertionError on timeout or if the child exits first
     */
    public String awaitLine(String prefix, Duration timeout) {
        long deadline = System.nanoTime() + timeout.toNanos();
        int seen = 0;
        synchronized (lines) {
            while (true) {
                for (; seen < lines.size(); seen++) {
                    if (lines.get(seen).startsWith(prefix)) {
                        return lines.get(seen);
                    }
                }
                if (!process.isAlive() && !reader.isAlive()) {
                    throw new AssertionError("child exited (code " + process.exitValue() + ") before printing '"
                            + prefix + "'. " + outputText());
                }
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new AssertionError("timed out after " + timeout + " waiting for '" + prefix + "'. "
                            + outputText());
                }
                try {
                    lines.wait(Math.max(1, Math.min(TimeUnit.NANOSECONDS.toMillis(left), 100)));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new AssertionError("interrupted", e);
                }
            }
        }
    }

    /** Lines starting with {@code prefix}. */
    public List<String> linesStartingWith(String prefix) {
        List<String> out = new ArrayList<>();
        for (String l : lines) {
            if (l.startsWith(prefix)) {
                out.add(l);
            }
        }
        return out;
    }

    /**
     * Waits for the child to exit and returns its exit code.
     *
     * @throws AssertionError if it is still running after {@code timeout} (it is then killed)
     */
    public int waitFor(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                kill();
                throw new AssertionError("child still running after " + timeout + "; killed. " + outputText());
            }
            reader.join(5_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        return process.exitValue();
    }

    /** Waits for a zero exit code, failing with the output otherwise. */
    public void assertExitsCleanly(Duration timeout) {
        int code = waitFor(timeout);
        if (code != 0) {
            throw new AssertionError("child exited with code " + code + ". " + outputText());
        }
    }

    /**
     * Sends SIGKILL (kill -9) and returns at once, so several children can be killed at nearly
     * the same instant. Uses the process handle, not {@link Process#destroyForcibly()}, which
     * also closes the output pipe and loses lines the child printed just before it died.
     */
    public void signalKill() {
        process.toHandle().destroyForcibly();
    }

    /** SIGKILL (kill -9), wait for the kernel to reap it, and read the rest of its output. */
    public void kill() {
        signalKill();
        try {
            process.waitFor(30, TimeUnit.SECONDS);
            reader.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    /**
     * SIGKILLs every child first (so they die at about the same moment, as in a machine crash),
     * then waits for each and drains its output.
     */
    public static void killAll(List<ChildJvm> children) {
        for (ChildJvm c : children) {
            c.signalKill();
        }
        for (ChildJvm c : children) {
            c.kill();
        }
    }

    /** Closes each: every child still alive is killed. */
    public static void closeAll(List<ChildJvm> children) {
        for (ChildJvm c : children) {
            c.close();
        }
    }
}
