package org.libtp.core.tp;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.concurrent.Callable;

/**
 * Runs work on a thread of its own at a lower CPU priority, and waits for it: a hot backup's
 * copying then takes the processor only when the committing threads leave it idle. On Linux a
 * thread's nice value is its own ({@code setpriority(PRIO_PROCESS, 0, n)} from the thread), and
 * an unprivileged process may raise it but not lower it again, hence a thread that ends with the
 * work rather than the caller's. Elsewhere, or without libc, the work runs at normal priority.
 */
final class BackgroundThread {
    private static final Logger LOG = LoggerFactory.getLogger(BackgroundThread.class);
    /** The nice value of the copying thread (0 normal, 19 lowest). */
    static final int NICE = 10;
    private static final String PROBLEM;

    static {
        String problem = null;
        if (!Platform.isLinux()) {
            problem = "not Linux";
        } else {
            try {
                Native.register(BackgroundThread.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            } catch (LinkageError | RuntimeException t) { // no libc or no JNA dispatch: normal priority
                problem = "cannot bind libc: " + t;
            }
        }
        PROBLEM = problem;
    }

    private static native int setpriority(int which, int who, int prio);

    private BackgroundThread() {
    }

    /** Lowers the calling thread's CPU priority to {@code nice}; false if it could not. */
    static boolean lowerPriority(int nice) {
        if (PROBLEM != null) {
            return false;
        }
        return setpriority(0 /* PRIO_PROCESS */, 0 /* the calling thread */, nice) == 0;
    }

    /**
     * Runs {@code work} on a new thread named {@code name} at nice {@link #NICE}, waits for it
     * (an interrupt of the caller is kept for after: the work's file channels would close on
     * one) and returns its result or throws what it threw.
     */
    static <T> T run(String name, Callable<T> work) throws Exception {
        Object[] result = new Object[1];
        Throwable[] failure = new Throwable[1];
        Thread t = new Thread(() -> {
            if (!lowerPriority(NICE)) {
                LOG.debug("{}: runs at normal priority ({})", name, PROBLEM == null ? "setpriority failed" : PROBLEM);
            }
            try {
                result[0] = work.call();
            } catch (Throwable e) { // handed to the caller, which rethrows it as the work would have
                failure[0] = e;
            }
        }, name);
        t.setDaemon(true);
        t.start();
        boolean interrupted = false;
        while (true) {
            try {
                t.join();
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
        if (failure[0] instanceof Exception e) {
            throw e;
        }
        if (failure[0] instanceof Error e) {
            throw e;
        }
        @SuppressWarnings("unchecked")
        T r = (T) result[0];
        return r;
    }
}
