package org.libtp.tools;

import org.libtp.core.CorruptionException;
import org.libtp.db.Database;
import org.libtp.db.Environment;
import org.libtp.sql.exec.Engine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code libtp verify}: Berkeley DB's db_verify — every page of every database (checksums,
 * B-tree order and links, free list), and every SQL table's secondary indexes against the table.
 */
@Command(name = "verify", mixinStandardHelpOptions = true,
        description = {"Check every page and B-tree of the environment's databases, and the secondary indexes "
                + "of its SQL tables. Exit status 1 if a problem is found."})
final class VerifyCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = "--db", paramLabel = "NAME", description = "only this database")
    String db;
    @Option(names = {"-q", "--quiet"}, description = "print problems only, no progress bar")
    boolean quiet;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        int problems = 0;
        try (Environment env = Tools.open(dir, true);
             ProgressBar bar = ProgressBar.of(spec.commandLine().getErr(), "verify", "databases", quiet)) {
            List<String> names = new ArrayList<>(env.databaseNames());
            if (db != null) {
                if (!names.contains(db)) {
                    throw new Tools.ToolException("no database " + db + " in " + dir + " (libtp stat " + dir
                            + " lists them)");
                }
                names = List.of(db);
            }
            int done = 0;
            for (String n : names) {
                bar.at(done++, names.size());
                List<String> found;
                try (Database d = Load.open(env, n)) {
                    found = d.verify();
                } catch (CorruptionException e) {
                    found = List.of(e.getMessage());
                }
                problems += found.size();
                bar.clear();
                if (found.isEmpty()) {
                    if (!quiet) {
                        out.println("database " + n + ": ok");
                    }
                } else {
                    found.forEach(p -> out.println("database " + n + ": " + p));
                }
            }
            bar.at(done, names.size());
            if (db == null && names.contains("sql.schema")) {
                Engine sql = new Engine(env);
                try {
                    List<String> found = sql.verifyIndexes();
                    problems += found.size();
                    if (found.isEmpty()) {
                        if (!quiet) {
                            out.println("SQL indexes: ok");
                        }
                    } else {
                        found.forEach(p -> out.println("SQL: " + p));
                    }
                } finally {
                    sql.close();
                }
            }
        }
        out.println(problems == 0 ? "verify: no problems" : "verify: " + problems + " problem(s)");
        return problems == 0 ? 0 : Libtp.PROBLEMS;
    }
}
