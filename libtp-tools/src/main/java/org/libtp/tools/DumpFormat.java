package org.libtp.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * Berkeley DB's dump text format (db_dump / db_load, format version 3), as db5.3_dump writes it:
 *
 * <pre>
 * VERSION=3
 * format=bytevalue          (or print)
 * type=btree                (or recno)
 * database=NAME             (when the file holds several)
 * db_pagesize=4096
 * re_len=100                (fixed-length recno; re_pad=0x20, the pad byte, as db5.3_dump writes it)
 * keys=1                    (recno with record numbers as keys)
 * HEADER=END
 *  6b6579                   (each item on a line of its own after one space: hex pairs in
 *  76616c7565                bytevalue, printable ASCII with \\ and \hh escapes in print)
 * DATA=END
 * </pre>
 *
 * A btree section has key and data lines in turn; a recno section data lines only, or with
 * {@code keys=1} the record number (decimal ASCII, encoded like any item) before each. Several
 * sections may follow one another.
 */
final class DumpFormat {
    private DumpFormat() {
    }

    static String encode(byte[] b, boolean print) {
        StringBuilder s = new StringBuilder(b.length * 2 + 1).append(' ');
        for (byte x : b) {
            int c = x & 0xff;
            if (!print) {
                s.append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            } else if (c == '\\') {
                s.append("\\\\");
            } else if (c >= 0x20 && c < 0x7f) {
                s.append((char) c);
            } else {
                s.append('\\').append(Character.forDigit(c >> 4, 16)).append(Character.forDigit(c & 15, 16));
            }
        }
        return s.toString();
    }

    /** The bytes of an item line (its leading space included); {@code where} names the line in errors. */
    static byte[] decode(String line, boolean print, String where) {
        if (line.isEmpty() || line.charAt(0) != ' ') {
            throw new Tools.ToolException(where + ": an item line must start with one space, found '" + clip(line) + "'");
        }
        java.io.ByteArrayOutputStream out = new java.io.ByteArrayOutputStream(line.length() / 2);
        if (!print) {
            if ((line.length() - 1) % 2 != 0) {
                throw new Tools.ToolException(where + ": odd number of hex digits");
            }
            for (int i = 1; i < line.length(); i += 2) {
                out.write(hex(line.charAt(i), where) << 4 | hex(line.charAt(i + 1), where));
            }
            return out.toByteArray();
        }
        for (int i = 1; i < line.length(); i++) {
            char c = line.charAt(i);
            if (c != '\\') {
                if (c > 0xff) {
                    throw new Tools.ToolException(where + ": character U+" + Integer.toHexString(c) + " in print format");
                }
                out.write(c);
            } else if (i + 1 < line.length() && line.charAt(i + 1) == '\\') {
                out.write('\\');
                i++;
            } else if (i + 2 < line.length()) {
                out.write(hex(line.charAt(i + 1), where) << 4 | hex(line.charAt(i + 2), where));
                i += 2;
            } else {
                throw new Tools.ToolException(where + ": a \\ escape needs two hex digits");
            }
        }
        return out.toByteArray();
    }

    private static int hex(char c, String where) {
        int d = Character.digit(c, 16);
        if (d < 0) {
            throw new Tools.ToolException(where + ": '" + c + "' is not a hex digit");
        }
        return d;
    }

    static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "...";
    }

    static void header(PrintWriter out, boolean print, String type, String database, int pageSize, int recordLength,
                       boolean keys) {
        out.println("VERSION=3");
        out.println("format=" + (print ? "print" : "bytevalue"));
        out.println("type=" + type);
        if (database != null) {
            out.println("database=" + database);
        }
        out.println("db_pagesize=" + pageSize);
        if (recordLength > 0) {
            out.println("re_len=" + recordLength); // records are whole: re_pad never applies
        }
        if (keys) {
            out.println("keys=1");
        }
        out.println("HEADER=END");
    }

    /** A section's header, read up to HEADER=END; null at the end of the input. */
    static Map<String, String> readHeader(BufferedReader in, int[] lineNo) throws IOException {
        Map<String, String> h = new LinkedHashMap<>();
        String line;
        while ((line = in.readLine()) != null) {
            lineNo[0]++;
            if (line.isBlank() && h.isEmpty()) {
                continue;
            }
            if (line.equals("HEADER=END")) {
                if (!"3".equals(h.get("VERSION"))) {
                    throw new Tools.ToolException("line " + lineNo[0] + ": dump format VERSION=" + h.get("VERSION")
                            + "; this reads VERSION=3 (db_dump of Berkeley DB 3.0 and later)");
                }
                return h;
            }
            int eq = line.indexOf('=');
            if (eq <= 0) {
                throw new Tools.ToolException("line " + lineNo[0] + ": not a header line: '" + clip(line) + "'");
            }
            h.put(line.substring(0, eq), line.substring(eq + 1));
        }
        if (!h.isEmpty()) {
            throw new Tools.ToolException("the input ends inside a header (no HEADER=END)");
        }
        return null;
    }

    /** The pad byte of a recno section: {@code re_pad=0x30} as db_dump writes it, else the first character (db_load's reading); a space if absent. */
    static int pad(Map<String, String> h) {
        String v = h.get("re_pad");
        if (v == null || v.isEmpty()) {
            return 0x20;
        }
        if (v.length() > 2 && (v.startsWith("0x") || v.startsWith("0X"))) {
            try {
                return Integer.parseInt(v.substring(2), 16) & 0xff;
            } catch (NumberFormatException e) {
                throw new Tools.ToolException("re_pad=" + v + " is not a byte");
            }
        }
        return v.charAt(0) & 0xff;
    }

    static String type(Map<String, String> h, int lineNo) {
        String t = h.getOrDefault("type", "btree").toLowerCase(Locale.ROOT);
        if (!t.equals("btree") && !t.equals("recno")) {
            throw new Tools.ToolException("the section ending at line " + lineNo + " is a " + t + " database; LibTP "
                    + "loads btree and recno");
        }
        return t;
    }
}
