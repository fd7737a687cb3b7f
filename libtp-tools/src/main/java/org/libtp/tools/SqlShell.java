package org.libtp.tools;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * What the SQL shell does with its input, whatever the input is (a terminal through JLine,
 * standard input, {@code -c}, {@code .read}): SQL statements ending in {@code ;} go to the
 * connection, results are printed as aligned tables; lines starting with {@code .} are the
 * shell's own commands. Errors are printed and counted (the exit status reports them).
 */
final class SqlShell {
    /** Rows buffered to size the columns before the first is printed. */
    private static final int WIDTH_SAMPLE = 1000;
    private final Connection conn;
    private final PrintWriter out;
    private final PrintWriter err;
    private final SqlSplitter splitter = new SqlSplitter();
    private boolean timer;
    private boolean bail;
    private int errors;
    private boolean quit;
    private int readDepth;

    SqlShell(Connection conn, PrintWriter out, PrintWriter err) {
        this.conn = conn;
        this.out = out;
        this.err = err;
    }

    void bail(boolean on) {
        bail = on;
    }

    int errors() {
        return errors;
    }

    /** True once {@code .quit} was read (or an error with bail on). */
    boolean done() {
        return quit;
    }

    /** True if the input so far ends inside a statement (the prompt says so). */
    boolean continuing() {
        return !splitter.isEmpty();
    }

    /** Takes one line of input. */
    void line(String line) {
        if (quit) {
            return;
        }
        if (splitter.isEmpty() && line.strip().startsWith(".")) {
            dot(line.strip());
            return;
        }
        for (String sql : splitter.add(line)) {
            execute(sql);
            if (quit) {
                return;
            }
        }
        if (splitter.pending().startsWith(".")) {
            dot(splitter.rest()); // "SELECT ...; .schema" on one line
        }
    }

    /** Drops the statement being typed (Ctrl-C at the prompt). */
    void discard() {
        splitter.rest();
    }

    /** The input ended: a statement left without its semicolon runs as it is. */
    void end() {
        String rest = splitter.rest();
        if (!rest.isEmpty() && !quit) {
            execute(rest);
        }
    }

    /** Reads every line of {@code in}. */
    void read(BufferedReader in) throws IOException {
        String l;
        while (!quit && (l = in.readLine()) != null) {
            line(l);
        }
        end();
    }

    private void dot(String line) {
        String[] w = line.split("\\s+", 2);
        String arg = w.length > 1 ? w[1].strip() : "";
        try {
            switch (w[0].toLowerCase(Locale.ROOT)) {
                case ".quit", ".exit" -> quit = true;
                case ".help" -> help();
                case ".tables" -> {
                    List<String> t = SchemaScript.tables(conn.getMetaData());
                    if (!t.isEmpty()) {
                        out.println(String.join("  ", t));
                    }
                }
                case ".schema" -> {
                    List<String> names = arg.isEmpty() ? SchemaScript.tables(conn.getMetaData())
                            : List.of(tableName(arg));
                    if (!arg.isEmpty() && !SchemaScript.tables(conn.getMetaData()).contains(names.get(0))) {
                        error("no table " + arg + " (.tables lists them)");
                        return;
                    }
                    for (String t : names) {
                        for (String s : SchemaScript.create(conn.getMetaData(), t)) {
                            out.println(s + ";");
                        }
                    }
                }
                case ".timer" -> {
                    if (!arg.equalsIgnoreCase("on") && !arg.equalsIgnoreCase("off")) {
                        error(".timer takes on or off");
                        return;
                    }
                    timer = arg.equalsIgnoreCase("on");
                }
                case ".bail" -> bail = arg.equalsIgnoreCase("on");
                case ".read" -> {
                    if (arg.isEmpty()) {
                        error(".read takes a file name");
                        return;
                    }
                    if (readDepth > 16) {
                        error(".read nested too deeply (a file that reads itself?)");
                        return;
                    }
                    Path p = Path.of(arg);
                    if (!Files.isRegularFile(p)) {
                        error("cannot read " + arg + ": no such file");
                        return;
                    }
                    readDepth++;
                    try (BufferedReader in = Files.newBufferedReader(p, StandardCharsets.UTF_8)) {
                        read(in);
                    } finally {
                        readDepth--;
                    }
                }
                default -> error("unknown command " + w[0] + " (.help lists them)");
            }
        } catch (SQLException e) {
            error(e.getMessage() + " (SQLState " + e.getSQLState() + ")");
        } catch (IOException e) {
            error("cannot read " + arg + ": " + e.getMessage());
        }
        out.flush();
    }

    /** A table name as given: unquoted names are upper-cased, as SQL does. */
    private static String tableName(String s) {
        if (s.length() > 1 && s.startsWith("\"") && s.endsWith("\"")) {
            return s.substring(1, s.length() - 1).replace("\"\"", "\"");
        }
        return s.toUpperCase(Locale.ROOT);
    }

    private void help() {
        out.println(String.join(System.lineSeparator(),
                "SQL statements end with ';' (docs/sql.md has the dialect). BEGIN starts a transaction that",
                "COMMIT or ROLLBACK ends; otherwise each statement commits by itself.",
                ".tables            list the tables",
                ".schema [TABLE]    the CREATE statements of every table, or of TABLE",
                ".timer on|off      print each statement's time",
                ".read FILE         run the statements in FILE",
                ".bail on|off       stop at the first error",
                ".help              this text",
                ".quit, .exit       leave (so does end of input, Ctrl-D)"));
    }

    private void execute(String sql) {
        long t0 = System.nanoTime();
        try {
            String head = sql.strip().toUpperCase(Locale.ROOT).replaceAll("\\s+", " ");
            if (head.equals("BEGIN") || head.equals("BEGIN TRANSACTION") || head.equals("START TRANSACTION")) {
                if (!conn.getAutoCommit()) {
                    error("a transaction is already open (COMMIT or ROLLBACK it first)");
                    return;
                }
                conn.setAutoCommit(false);
            } else if ((head.equals("COMMIT") || head.equals("ROLLBACK")) && !conn.getAutoCommit()) {
                try {
                    if (head.equals("COMMIT")) {
                        conn.commit();
                    } else {
                        conn.rollback();
                    }
                } finally {
                    conn.setAutoCommit(true);
                }
            } else {
                try (Statement st = conn.createStatement()) {
                    if (st.execute(sql)) {
                        try (ResultSet rs = st.getResultSet()) {
                            table(rs);
                        }
                    } else {
                        int n = st.getUpdateCount();
                        if (!head.startsWith("CREATE") && !head.startsWith("DROP") && !head.startsWith("ALTER")) {
                            out.println(n + (n == 1 ? " row" : " rows") + " changed");
                        }
                    }
                }
            }
            if (timer) {
                out.printf("Time: %.3f ms%n", (System.nanoTime() - t0) / 1e6);
            }
        } catch (SQLException e) {
            error(e.getMessage() + " (SQLState " + e.getSQLState() + ")");
            try {
                if (!conn.getAutoCommit() && e.getSQLState() != null && e.getSQLState().startsWith("40")) {
                    err.println("the transaction was rolled back");
                    conn.setAutoCommit(true);
                }
            } catch (SQLException ignored) {
                // the connection is gone; the next statement says so
            }
        } catch (RuntimeException e) {
            error(e.toString());
        }
        out.flush();
    }

    private void error(String message) {
        errors++;
        out.flush();
        err.println("Error: " + message);
        err.flush();
        if (bail) {
            quit = true;
        }
    }

    /** Prints a result as a table: columns as wide as their widest value among the first rows. */
    private void table(ResultSet rs) throws SQLException {
        ResultSetMetaData md = rs.getMetaData();
        int n = md.getColumnCount();
        String[] head = new String[n];
        int[] width = new int[n];
        boolean[] right = new boolean[n];
        for (int i = 0; i < n; i++) {
            head[i] = md.getColumnLabel(i + 1);
            width[i] = head[i].length();
            int t = md.getColumnType(i + 1);
            right[i] = t == java.sql.Types.INTEGER || t == java.sql.Types.BIGINT || t == java.sql.Types.SMALLINT
                    || t == java.sql.Types.DECIMAL || t == java.sql.Types.DOUBLE || t == java.sql.Types.REAL;
        }
        List<String[]> sample = new ArrayList<>();
        long rows = 0;
        boolean more = true;
        while (sample.size() < WIDTH_SAMPLE && (more = rs.next())) {
            String[] r = row(rs, n);
            for (int i = 0; i < n; i++) {
                width[i] = Math.max(width[i], r[i].length());
            }
            sample.add(r);
        }
        print(head, width, new boolean[n]);
        StringBuilder sep = new StringBuilder();
        for (int i = 0; i < n; i++) {
            sep.append(i == 0 ? "" : "-+-").append("-".repeat(width[i]));
        }
        out.println(sep);
        for (String[] r : sample) {
            print(r, width, right);
            rows++;
        }
        while (more && rs.next()) {
            print(row(rs, n), width, right);
            rows++;
        }
        out.println("(" + rows + (rows == 1 ? " row)" : " rows)"));
    }

    private static String[] row(ResultSet rs, int n) throws SQLException {
        String[] r = new String[n];
        for (int i = 0; i < n; i++) {
            Object v = rs.getObject(i + 1);
            r[i] = v == null ? "NULL" : v instanceof byte[] b ? "X'" + java.util.HexFormat.of().formatHex(b) + "'"
                    : v instanceof java.math.BigDecimal d ? d.toPlainString() : v.toString();
        }
        return r;
    }

    private void print(String[] cells, int[] width, boolean[] right) {
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < cells.length; i++) {
            if (i > 0) {
                b.append(" | ");
            }
            String c = cells[i];
            String pad = " ".repeat(Math.max(0, width[i] - c.length()));
            b.append(right[i] ? pad + c : c + (i == cells.length - 1 ? "" : pad));
        }
        out.println(b);
    }
}
