package org.libtp.bench.report;

import java.util.Locale;

/** Number formats of the report (Locale.ROOT, thousands separated). */
final class Fmt {
    private Fmt() {
    }

    /** 1,234,567 */
    static String count(long n) {
        return String.format(Locale.ROOT, "%,d", n);
    }

    /** A rate or a large value: 4,575; below 100 one decimal (12.3); "–" for NaN. */
    static String rate(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        return Math.abs(v) >= 100 ? String.format(Locale.ROOT, "%,.0f", v) : String.format(Locale.ROOT, "%.1f", v);
    }

    /** Milliseconds with three significant digits (0.123, 1.23, 12.3, 1,234). */
    static String ms(double v) {
        if (Double.isNaN(v)) {
            return "–";
        }
        double a = Math.abs(v);
        if (a >= 100) {
            return String.format(Locale.ROOT, "%,.0f", v);
        }
        if (a >= 10) {
            return String.format(Locale.ROOT, "%.1f", v);
        }
        if (a >= 1) {
            return String.format(Locale.ROOT, "%.2f", v);
        }
        return String.format(Locale.ROOT, "%.3f", v);
    }

    /** A ratio: 0.95 */
    static String ratio(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.2f", v);
    }

    /** A fraction as a percentage: 12.3 % */
    static String percent(double v) {
        return Double.isNaN(v) ? "–" : String.format(Locale.ROOT, "%.1f %%", v * 100);
    }

    /** A factor in a requirement: 0.95, 4, 1.5 */
    static String factor(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : String.valueOf(v);
    }
}
