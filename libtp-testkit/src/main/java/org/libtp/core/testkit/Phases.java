package org.libtp.core.testkit;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The measured-interval protocol between a harness and its worker JVMs, one line each way:
 * a child opens what it measures and answers {@code READY}; then {@code GO} starts its workers
 * (the warm-up), {@code MARK} starts the measured interval, {@code STOP} ends it and the child
 * answers {@code RESULT <fields...>} and exits. Every child is told each phase at about the same
 * instant, so the intervals of all processes overlap.
 */
public final class Phases {
    public static final String READY = "READY";
    public static final String GO = "GO";
    public static final String MARK = "MARK";
    public static final String STOP = "STOP";
    public static final String RESULT = "RESULT";

    private Phases() {
    }

    /** A child's side: what the three commands do. */
    public interface Worker {
        /** Starts the workers (the warm-up begins). */
        void go() throws Exception;

        /** The measured interval begins. */
        void mark() throws Exception;

        /** The measured interval ends: stop the workers and return the fields of the RESULT line. */
        String stop() throws Exception;
    }

    /**
     * Parent: waits for every child's READY, then sends GO, sleeps {@code warmupSeconds}, sends
     * MARK, sleeps {@code seconds}, sends STOP, and returns each child's RESULT fields (after the
     * word RESULT), in the children's order; finally waits for each to exit cleanly.
     */
    public static List<String[]> drive(List<PipedChild> children, double warmupSeconds, double seconds,
                                       Duration readyTimeout, Duration stopTimeout) throws Exception {
        for (PipedChild c : children) {
            c.expect(READY, readyTimeout);
        }
        sendAll(children, GO);
        sleepSeconds(warmupSeconds);
        sendAll(children, MARK);
        sleepSeconds(seconds);
        sendAll(children, STOP);
        List<String[]> results = new ArrayList<>();
        for (PipedChild c : children) {
            String[] f = c.expect(RESULT + " ", stopTimeout).split(" ");
            String[] fields = new String[f.length - 1];
            System.arraycopy(f, 1, fields, 0, fields.length);
            results.add(fields);
        }
        for (PipedChild c : children) {
            c.finish(stopTimeout);
        }
        return results;
    }

    private static void sendAll(List<PipedChild> children, String command) throws IOException {
        for (PipedChild c : children) {
            c.send(command);
        }
    }

    /** Sleeps the whole interval, however often woken early. */
    public static void sleepSeconds(double s) throws InterruptedException {
        long end = System.nanoTime() + (long) (s * 1e9);
        long left;
        while ((left = end - System.nanoTime()) > 0) {
            TimeUnit.NANOSECONDS.sleep(left);
        }
    }

    /**
     * Child: says READY on stdout, then obeys the commands on stdin until STOP, printing the
     * RESULT line. End of input means the parent died: the child halts ({@link ParentWatch#orphaned}).
     */
    public static void serve(String who, Worker worker) throws Exception {
        PrintStream out = System.out;
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        out.println(READY);
        out.flush();
        boolean marked = false;
        while (true) {
            String cmd = in.readLine();
            if (cmd == null) {
                ParentWatch.orphaned(who, "end of input (the parent died)");
                return;
            }
            switch (cmd) {
                case GO -> worker.go();
                case MARK -> {
                    worker.mark();
                    marked = true;
                }
                case STOP -> {
                    String fields = worker.stop();
                    if (!marked) {
                        throw new IllegalStateException("STOP before MARK");
                    }
                    out.println(RESULT + " " + fields);
                    out.flush();
                    return;
                }
                default -> throw new IllegalStateException("unknown command '" + cmd + "' from the parent");
            }
        }
    }
}
