package org.libtp.bench.report;

import java.util.Locale;
import java.util.Map;

/** The one-line JSON objects the harnesses print (no dependency for so little). */
public final class Json {
    private Json() {
    }

    /** {@code {"k":v,...}} in the map's order; strings quoted, numbers and booleans bare. */
    public static String line(Map<String, ?> fields) {
        StringBuilder b = new StringBuilder("{");
        for (Map.Entry<String, ?> e : fields.entrySet()) {
            if (b.length() > 1) {
                b.append(',');
            }
            b.append('"').append(e.getKey()).append("\":").append(value(e.getValue()));
        }
        return b.append('}').toString();
    }

    private static String value(Object v) {
        if (v == null) {
            return "null";
        }
        if (v instanceof Double d) {
            return d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.3f", d);
        }
        if (v instanceof Number || v instanceof Boolean) {
            return v.toString();
        }
        String s = v.toString();
        StringBuilder b = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> {
                    if (c < 0x20) {
                        b.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
                    } else {
                        b.append(c);
                    }
                }
            }
        }
        return b.append('"').toString();
    }
}
