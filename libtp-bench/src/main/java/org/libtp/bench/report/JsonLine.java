package org.libtp.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Parses one JSON object (the one-line objects the harnesses print, {@link org.libtp.bench.report.Json})
 * into a map: strings, numbers (as {@link Double}), booleans, {@code null}, and nested arrays
 * ({@link List}) and objects ({@link Map}) for completeness. No dependency for so little.
 */
final class JsonLine {
    private final String s;
    private int i;

    private JsonLine(String s) {
        this.s = s;
    }

    /** The object on {@code line}; {@link IllegalArgumentException} if it is not exactly one JSON object. */
    static Map<String, Object> parse(String line) {
        JsonLine p = new JsonLine(line);
        p.skipSpace();
        if (p.peek() != '{') {
            throw p.error("expected '{'");
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> m = (Map<String, Object>) p.value();
        p.skipSpace();
        if (p.i != p.s.length()) {
            throw p.error("text after the object");
        }
        return m;
    }

    private Object value() {
        skipSpace();
        char c = peek();
        switch (c) {
            case '{' -> {
                i++;
                Map<String, Object> m = new LinkedHashMap<>();
                skipSpace();
                if (peek() == '}') {
                    i++;
                    return m;
                }
                while (true) {
                    skipSpace();
                    if (peek() != '"') {
                        throw error("expected a key");
                    }
                    String k = string();
                    skipSpace();
                    expect(':');
                    m.put(k, value());
                    skipSpace();
                    char d = next();
                    if (d == '}') {
                        return m;
                    }
                    if (d != ',') {
                        i--;
                        throw error("expected ',' or '}'");
                    }
                }
            }
            case '[' -> {
                i++;
                List<Object> l = new ArrayList<>();
                skipSpace();
                if (peek() == ']') {
                    i++;
                    return l;
                }
                while (true) {
                    l.add(value());
                    skipSpace();
                    char d = next();
                    if (d == ']') {
                        return l;
                    }
                    if (d != ',') {
                        i--;
                        throw error("expected ',' or ']'");
                    }
                }
            }
            case '"' -> {
                return string();
            }
            case 't' -> {
                word("true");
                return Boolean.TRUE;
            }
            case 'f' -> {
                word("false");
                return Boolean.FALSE;
            }
            case 'n' -> {
                word("null");
                return null;
            }
            default -> {
                return number();
            }
        }
    }

    private String string() {
        expect('"');
        StringBuilder b = new StringBuilder();
        while (true) {
            char c = next();
            if (c == '"') {
                return b.toString();
            }
            if (c != '\\') {
                b.append(c);
                continue;
            }
            char e = next();
            switch (e) {
                case '"', '\\', '/' -> b.append(e);
                case 'b' -> b.append('\b');
                case 'f' -> b.append('\f');
                case 'n' -> b.append('\n');
                case 'r' -> b.append('\r');
                case 't' -> b.append('\t');
                case 'u' -> {
                    if (i + 4 > s.length()) {
                        throw error("short \\u escape");
                    }
                    try {
                        b.append((char) Integer.parseInt(s.substring(i, i + 4), 16));
                    } catch (NumberFormatException x) {
                        throw error("bad \\u escape");
                    }
                    i += 4;
                }
                default -> throw error("bad escape '\\" + e + "'");
            }
        }
    }

    private Double number() {
        int start = i;
        while (i < s.length() && "+-0123456789.eE".indexOf(s.charAt(i)) >= 0) {
            i++;
        }
        if (start == i) {
            throw error("unexpected character");
        }
        try {
            return Double.valueOf(s.substring(start, i));
        } catch (NumberFormatException x) {
            i = start;
            throw error("bad number");
        }
    }

    private void word(String w) {
        if (!s.startsWith(w, i)) {
            throw error("expected " + w);
        }
        i += w.length();
    }

    private void skipSpace() {
        while (i < s.length() && Character.isWhitespace(s.charAt(i))) {
            i++;
        }
    }

    private char peek() {
        if (i >= s.length()) {
            throw error("unexpected end");
        }
        return s.charAt(i);
    }

    private char next() {
        char c = peek();
        i++;
        return c;
    }

    private void expect(char c) {
        if (next() != c) {
            i--;
            throw error("expected '" + c + "'");
        }
    }

    private IllegalArgumentException error(String what) {
        return new IllegalArgumentException(what + " at column " + (i + 1));
    }
}
