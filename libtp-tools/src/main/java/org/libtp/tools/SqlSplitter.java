package org.libtp.tools;

import java.util.ArrayList;
import java.util.List;

/**
 * Cuts SQL text into statements at the semicolons that are outside string literals
 * ({@code '...'}), quoted identifiers ({@code "..."}) and comments ({@code -- ...},
 * {@code /* ... *&#47;}). Fed line by line, it keeps an unfinished statement until its end comes.
 */
final class SqlSplitter {
    private final StringBuilder pending = new StringBuilder();
    private char quote; // 0, '\'' or '"'
    private boolean blockComment;

    /** Adds a line; returns the statements it completed (without their semicolons), possibly none. */
    List<String> add(String line) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int n = line.length();
        while (i < n) {
            char c = line.charAt(i);
            if (blockComment) {
                if (c == '*' && i + 1 < n && line.charAt(i + 1) == '/') {
                    blockComment = false;
                    pending.append("*/");
                    i += 2;
                    continue;
                }
                pending.append(c);
                i++;
                continue;
            }
            if (quote != 0) {
                pending.append(c);
                if (c == quote) {
                    if (i + 1 < n && line.charAt(i + 1) == quote) {
                        pending.append(quote); // a doubled quote stands for itself
                        i += 2;
                        continue;
                    }
                    quote = 0;
                }
                i++;
                continue;
            }
            if (c == '-' && i + 1 < n && line.charAt(i + 1) == '-') {
                break; // the rest of the line is a comment
            }
            if (c == '/' && i + 1 < n && line.charAt(i + 1) == '*') {
                blockComment = true;
                pending.append("/*");
                i += 2;
                continue;
            }
            if (c == '\'' || c == '"') {
                quote = c;
                pending.append(c);
                i++;
                continue;
            }
            if (c == ';') {
                String s = pending.toString().strip();
                if (!s.isEmpty()) {
                    out.add(s);
                }
                pending.setLength(0);
                i++;
                continue;
            }
            pending.append(c);
            i++;
        }
        if (pending.length() > 0) {
            pending.append('\n');
        }
        return out;
    }

    /** True if no statement is unfinished (nothing but blanks pending). */
    boolean isEmpty() {
        return pending.toString().isBlank() && quote == 0 && !blockComment;
    }

    /** The unfinished statement's text so far, stripped (outside quotes and comments only). */
    String pending() {
        return quote == 0 && !blockComment ? pending.toString().strip() : "";
    }

    /** The unfinished statement, taken away (the input ended without its semicolon). */
    String rest() {
        String s = pending.toString().strip();
        pending.setLength(0);
        quote = 0;
        blockComment = false;
        return s;
    }
}
