package org.libtp.tools;

import org.libtp.core.LibTpException;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;

import java.nio.file.Files;
import java.nio.file.Path;

/** What the commands share: opening an environment as a tool does, and describing failures. */
final class Tools {
    private Tools() {
    }

    /** The files every environment directory has once it was opened. */
    static final String[] MARKERS = {"__libtp.anchor", "__libtp.files", "log.0000000001"};

    /**
     * Checks that {@code dir} is an environment directory (a tool must not create one where a
     * path was mistyped) and joins it with the settings of the processes that have it open.
     */
    static Environment open(Path dir, boolean readOnly) {
        requireEnvironment(dir);
        return Environment.join(dir, EnvironmentConfig.builder().readOnly(readOnly).build());
    }

    static void requireEnvironment(Path dir) {
        if (!Files.isDirectory(dir)) {
            throw new ToolException(dir + " is not a directory");
        }
        boolean any = false;
        for (String m : MARKERS) {
            any |= Files.exists(dir.resolve(m));
        }
        try (var s = Files.list(dir)) {
            any |= s.anyMatch(p -> p.getFileName().toString().startsWith("log."));
        } catch (java.io.IOException e) {
            throw new ToolException("cannot list " + dir + ": " + e.getMessage());
        }
        if (!any) {
            throw new ToolException(dir + " is not a LibTP environment (no log files, no __libtp.anchor); check the path");
        }
    }

    /**
     * True if standard input and output are a terminal (from JDK 22 on, {@code System.console()}
     * exists for redirected streams too, and {@code Console.isTerminal()} tells).
     */
    static boolean interactive() {
        java.io.Console c = System.console();
        if (c == null) {
            return false;
        }
        try {
            return (Boolean) java.io.Console.class.getMethod("isTerminal").invoke(c);
        } catch (ReflectiveOperationException before22) {
            return true;
        }
    }

    /** A failure as one line: LibTP's typed exceptions carry their own advice. */
    static String describe(Throwable e) {
        String m = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        if (e instanceof ToolException || e instanceof LibTpException) {
            return m;
        }
        return e.getClass().getSimpleName() + ": " + m;
    }

    /** A failure the tool detected itself (a bad path, a missing database). */
    static final class ToolException extends RuntimeException {
        private static final long serialVersionUID = 1L;

        ToolException(String message) {
            super(message);
        }
    }
}
