package org.libtp.core.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A child JVM driven over a control pipe: the parent writes commands to its stdin and reads its
 * answers, one per line, from its stdout; its stderr goes to the parent's (so a child's stack
 * trace reaches the user). Unlike {@link ChildJvm}, whose output is a log to search, each line
 * here is the next message of a conversation ({@link Phases}).
 */
public final class PipedChild implements AutoCloseable {
    private final String name;
    private final Process process;
    private final Writer in;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();

    private PipedChild(String name, Process process) {
        this.name = name;
        this.process = process;
        this.in = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                String line;
                while ((line = r.readLine()) != null) {
                    lines.add(line);
                }
            } catch (IOException e) {
                // the child is gone; expect() notices
            }
        }, name + " reader");
        reader.setDaemon(true);
        reader.start();
    }

    /** Starts {@code command} (e.g. from {@link ParentWatch#javaCommand}) as the child {@code name}. */
    public static PipedChild start(String name, List<String> command) throws IOException {
        ProcessBuilder pb = new ProcessBuilder(command);
        pb.redirectError(ProcessBuilder.Redirect.INHERIT); // stdin/stdout are the control pipe
        return new PipedChild(name, pb.start());
    }

    public String name() {
        return name;
    }

    public Process process() {
        return process;
    }

    /** Writes one command line. */
    public void send(String command) throws IOException {
        in.write(command);
        in.write('\n');
        in.flush();
    }

    /**
     * The next line, which must start with {@code prefix}.
     *
     * @throws IllegalStateException if the child says something else, dies or stays silent
     */
    public String expect(String prefix, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (true) {
            String line = lines.poll(200, TimeUnit.MILLISECONDS);
            if (line != null) {
                if (line.startsWith(prefix)) {
                    return line;
                }
                throw new IllegalStateException(name + " said '" + line + "', expected " + prefix);
            }
            if (!process.isAlive() && lines.isEmpty()) {
                throw new IllegalStateException(name + " died (exit status " + process.exitValue()
                        + "); see its output above");
            }
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("no " + prefix + " from " + name + " in " + timeout.toSeconds()
                        + " s");
            }
        }
    }

    /**
     * Closes the pipe (end of input tells a child its parent is done) and waits for the exit.
     * A child still running after {@code timeout} is killed, with a word on {@code System.err}.
     *
     * @throws IllegalStateException if the child exited with a non-zero status
     */
    public void finish(Duration timeout) throws IOException, InterruptedException {
        in.close();
        if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
            System.err.println(name + " did not exit; killing it");
            process.destroyForcibly();
        } else if (process.exitValue() != 0) {
            throw new IllegalStateException(name + " exited with status " + process.exitValue());
        }
    }

    /** SIGKILL, if still running. */
    @Override
    public void close() {
        process.destroyForcibly();
    }
}
