package org.libtp.tools;

import org.libtp.core.log.Lsn;
import java.lang.reflect.RecordComponent;
import java.util.Locale;
import java.util.Map;

/** A small JSON writer for the tools' records and maps (numbers, strings, booleans, nesting). */
final class Json {
    private Json() {
    }

    static String of(Object o) {
        StringBuilder b = new StringBuilder();
        write(b, o);
        return b.toString();
    }

    private static void write(StringBuilder b, Object o) {
        if (o == null) {
            b.append("null");
        } else if (o instanceof Map<?, ?> m) {
            b.append('{');
            boolean first = true;
            for (Map.Entry<?, ?> e : m.entrySet()) {
                b.append(first ? "" : ",");
                first = false;
                string(b, String.valueOf(e.getKey()));
                b.append(':');
                write(b, e.getValue());
            }
            b.append('}');
        } else if (o instanceof Iterable<?> l) {
            b.append('[');
            boolean first = true;
            for (Object x : l) {
                b.append(first ? "" : ",");
                first = false;
                write(b, x);
            }
            b.append(']');
        } else if (o instanceof Record r) {
            b.append('{');
            boolean first = true;
            for (RecordComponent c : r.getClass().getRecordComponents()) {
                b.append(first ? "" : ",");
                first = false;
                string(b, c.getName());
                b.append(':');
                try {
                    Object v = c.getAccessor().invoke(r);
                    if (c.getName().endsWith("Lsn") && v instanceof Long lsn) {
                        v = Lsn.toString(lsn); // "(file,offset)", as printlog shows them
                    }
                    write(b, v);
                } catch (ReflectiveOperationException e) {
                    throw new IllegalStateException(e);
                }
            }
            b.append('}');
        } else if (o instanceof Double d) {
            b.append(d.isNaN() || d.isInfinite() ? "null" : String.format(Locale.ROOT, "%.3f", d));
        } else if (o instanceof Number || o instanceof Boolean) {
            b.append(o);
        } else {
            string(b, o.toString());
        }
    }

    private static void string(StringBuilder b, String s) {
        b.append('"');
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
        b.append('"');
    }
}
