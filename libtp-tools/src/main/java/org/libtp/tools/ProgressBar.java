package org.libtp.tools;

import org.libtp.core.tp.HotBackup;
import java.io.PrintWriter;

/**
 * A one-line progress bar on standard error, redrawn at most ten times a second: only on a
 * terminal (an interactive console) and without {@code --quiet}, so that pipes, logs and tests
 * see none of it. A total of 0 or less is unknown: the bar shows the count and the elapsed time.
 */
final class ProgressBar implements HotBackup.Progress, AutoCloseable {
    private static final int WIDTH = 30;
    private final PrintWriter err;
    private final String label;
    private final String unit;
    private final boolean shown;
    private final long start = System.nanoTime();
    private long lastDraw;
    private boolean drawn;

    /** A bar for {@code label} counting {@code unit} ("B" for bytes, shown as MB), shown if on a terminal and not quiet. */
    static ProgressBar of(PrintWriter err, String label, String unit, boolean quiet) {
        return new ProgressBar(err, label, unit, !quiet && Tools.interactive());
    }

    ProgressBar(PrintWriter err, String label, String unit, boolean shown) {
        this.err = err;
        this.label = label;
        this.unit = unit;
        this.shown = shown;
    }

    @Override
    public void at(long done, long total) {
        if (!shown) {
            return;
        }
        long now = System.nanoTime();
        if (drawn && now - lastDraw < 100_000_000L && (total <= 0 || done < total)) {
            return;
        }
        lastDraw = now;
        drawn = true;
        err.print("\r" + line(done, total, (now - start) / 1_000_000L));
        err.flush();
    }

    /** The bar's text (without the carriage return). */
    String line(long done, long total, long millis) {
        StringBuilder b = new StringBuilder(label).append(' ');
        if (total > 0) {
            int filled = (int) Math.min(WIDTH, done * WIDTH / total);
            b.append('[').append("#".repeat(filled)).append(" ".repeat(WIDTH - filled)).append("] ");
            b.append(String.format("%3d%% ", Math.min(100, done * 100 / total)));
            b.append(amount(done)).append(" / ").append(amount(total));
        } else if (!unit.equals("s")) {
            b.append(amount(done));
        }
        b.append(String.format("  %.1f s", millis / 1000.0));
        return b.toString();
    }

    private String amount(long n) {
        return unit.equals("B") ? String.format("%.1f MB", n / 1e6) : n + " " + unit;
    }

    /** Erases the bar (before other output to the terminal); the next update draws it again. */
    void clear() {
        if (drawn) {
            err.print("\r" + " ".repeat(label.length() + WIDTH + 40) + "\r");
            err.flush();
            drawn = false;
        }
    }

    /** Ends the line, if a bar was drawn. */
    @Override
    public void close() {
        if (drawn) {
            err.println();
            err.flush();
        }
    }
}
