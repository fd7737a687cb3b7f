package org.libtp.tools;

import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.DatabaseType;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.Transaction;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.Callable;

/** {@code libtp dump}: Berkeley DB's db_dump, in its text format ({@link DumpFormat}). */
@Command(name = "dump", mixinStandardHelpOptions = true,
        description = {"Write databases in Berkeley DB's db_dump text format (db5.3_load reads it), each in one "
                + "read-only transaction.", "Without --db: every database, each a section naming it.",
            "--sql: the SQL tables as CREATE TABLE, CREATE INDEX and INSERT statements instead, all in one "
                + "transaction (libtp sql DIR < FILE loads them)."})
final class DumpCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = {"-s", "--db"}, paramLabel = "NAME", description = "the database to dump")
    String db;
    @Option(names = {"-p", "--print"}, description = "printable characters as themselves (format=print)")
    boolean print;
    @Option(names = {"-k", "--keys"}, description = "recno: write record numbers as keys (keys=1)")
    boolean keys;
    @Option(names = {"-f", "--file"}, paramLabel = "FILE", description = "write to FILE instead of standard output")
    Path file;
    @Option(names = "--sql", description = "SQL tables as SQL statements")
    boolean sql;
    @Option(names = "--table", paramLabel = "TABLE", description = "with --sql: only this table")
    String table;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws IOException {
        if (sql) {
            return sql();
        }
        if (table != null) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--table goes with --sql");
        }
        try (Environment env = Tools.open(dir, true)) {
            List<String> names = env.databaseNames();
            if (db != null && !names.contains(db)) {
                throw new Tools.ToolException("no database " + db + " in " + dir + " (libtp stat " + dir + " lists them)");
            }
            PrintWriter out = file == null ? spec.commandLine().getOut()
                    : new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.US_ASCII));
            try {
                for (String n : db != null ? List.of(db) : names) {
                    dump(env, n, db == null, out);
                }
            } finally {
                out.flush();
                if (file != null) {
                    out.close();
                }
            }
        }
        return 0;
    }

    /** The SQL tables as statements, read in one read-only transaction (a consistent snapshot under 2PL). */
    private int sql() throws IOException {
        if (db != null || print || keys) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "--sql takes no --db, --print or --keys");
        }
        Tools.requireEnvironment(dir);
        PrintWriter out = file == null ? spec.commandLine().getOut()
                : new PrintWriter(Files.newBufferedWriter(file, StandardCharsets.UTF_8));
        try (java.sql.Connection c = java.sql.DriverManager.getConnection("jdbc:libtp:" + dir.toAbsolutePath() + ";join=true")) {
            c.setReadOnly(true);
            c.setAutoCommit(false);
            java.sql.DatabaseMetaData md = c.getMetaData();
            List<String> tables = SchemaScript.tables(md);
            if (table != null) {
                String name = table.startsWith("\"") ? table.substring(1, table.length() - 1) : table.toUpperCase(java.util.Locale.ROOT);
                if (!tables.contains(name)) {
                    throw new Tools.ToolException("no table " + table + " in " + dir + " (libtp sql " + dir + " -c .tables)");
                }
                tables = List.of(name);
            }
            out.println("-- LibTP SQL dump of " + dir.toAbsolutePath() + "; load it with: libtp sql DIR < FILE");
            out.println("BEGIN;");
            for (String t : tables) {
                for (String ddl : SchemaScript.create(md, t)) {
                    out.println(ddl + ";");
                }
                try (java.sql.Statement st = c.createStatement();
                     java.sql.ResultSet rs = st.executeQuery("SELECT * FROM " + SchemaScript.identifier(t))) {
                    int n = rs.getMetaData().getColumnCount();
                    String head = "INSERT INTO " + SchemaScript.identifier(t) + " VALUES (";
                    while (rs.next()) {
                        StringBuilder b = new StringBuilder(head);
                        for (int i = 1; i <= n; i++) {
                            b.append(i > 1 ? ", " : "").append(SchemaScript.literal(rs.getObject(i)));
                        }
                        out.println(b.append(");"));
                    }
                }
            }
            out.println("COMMIT;");
            c.commit();
        } catch (java.sql.SQLException e) {
            throw new Tools.ToolException("cannot dump the SQL tables of " + dir + ": " + e.getMessage() + " (SQLState "
                    + e.getSQLState() + ")");
        } finally {
            out.flush();
            if (file != null) {
                out.close();
            }
        }
        return 0;
    }

    private void dump(Environment env, String name, boolean named, PrintWriter out) {
        try (Database d = Load.open(env, name)) {
            int pageSize = env.config().pageSize();
            try (Transaction t = env.beginTransaction(Durability.NO_SYNC, true)) {
                if (d.config().type() == DatabaseType.RECNO) {
                    DumpFormat.header(out, print, "recno", named ? name : null, pageSize, d.config().recordLength(), keys);
                    long n = d.count(t);
                    for (long i = 1; i <= n; i++) {
                        byte[] v = d.get(t, i);
                        if (v == null) {
                            continue; // a deleted record: only -k keeps the numbering
                        }
                        if (keys) {
                            out.println(DumpFormat.encode(Long.toString(i).getBytes(StandardCharsets.US_ASCII), print));
                        }
                        out.println(DumpFormat.encode(v, print));
                    }
                } else {
                    DumpFormat.header(out, print, "btree", named ? name : null, pageSize, 0, false);
                    try (Cursor c = d.openCursor(t)) {
                        for (boolean ok = c.first(); ok; ok = c.next()) {
                            out.println(DumpFormat.encode(c.key(), print));
                            out.println(DumpFormat.encode(c.data(), print));
                        }
                    }
                }
                t.commit();
            }
            out.println("DATA=END");
        }
    }
}
