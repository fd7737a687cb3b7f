package org.libtp.tools;

import org.libtp.db.Database;
import org.libtp.db.DatabaseStats;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentStats;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.Callable;

/** {@code libtp stat}: Berkeley DB's db_stat. Counters of "this process" are the tool's own. */
@Command(name = "stat", mixinStandardHelpOptions = true,
        description = {"Statistics of an environment: log, locks, cache, transactions, and per database "
                + "pages, entries, depth and fill.", "Sections: all unless some are named."})
final class StatCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = "--log", description = "the log: end and flushed LSN, files, last checkpoint")
    boolean log;
    @Option(names = "--locks", description = "the lock table: locks and objects in use, waits, deadlocks")
    boolean locks;
    @Option(names = "--pool", description = "the buffer pool: hits, misses, dirty and pinned frames")
    boolean pool;
    @Option(names = "--txn", description = "transactions: active and the limit")
    boolean txn;
    @Option(names = "--processes", description = "the processes attached: slot, pid, since when, alive")
    boolean processes;
    @Option(names = "--db", paramLabel = "NAME", description = "one database's statistics (default: every database)")
    String db;
    @Option(names = "--json", description = "one JSON object instead of text")
    boolean json;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        boolean all = !log && !locks && !pool && !txn && !processes && db == null;
        PrintWriter out = spec.commandLine().getOut();
        try (Environment env = Tools.open(dir, true)) {
            EnvironmentStats s = env.stats();
            Map<String, Object> j = new LinkedHashMap<>();
            List<String> text = new ArrayList<>();
            if (all || log) {
                j.put("log", s.log());
                text.add(s.log().toString());
            }
            if (all || locks) {
                j.put("locks", s.locks());
                text.add(s.locks().toString());
            }
            if (all || pool) {
                j.put("cache", s.cache());
                text.add(s.cache().toString());
            }
            if (all || txn) {
                j.put("transactions", s.transactions());
                text.add(s.transactions().toString());
            }
            if (all || processes) {
                List<Object> ps = new ArrayList<>();
                long self = ProcessHandle.current().pid();
                StringBuilder b = new StringBuilder("processes:");
                for (var p : env.attachedProcesses()) {
                    ps.add(Map.of("slot", p.slot(), "pid", p.pid(), "alive", p.alive(), "thisTool", p.pid() == self,
                            "attached", java.time.Instant.ofEpochMilli(p.attachedMillis()).toString()));
                    b.append(" pid ").append(p.pid()).append(" (slot ").append(p.slot())
                            .append(p.pid() == self ? ", this tool" : "").append(p.alive() ? "" : ", DEAD").append(')');
                }
                j.put("processes", ps);
                text.add(b.toString());
            }
            if (all || db != null) {
                List<String> names = db != null ? List.of(db) : env.databaseNames();
                if (db != null && !env.databaseNames().contains(db)) {
                    throw new Tools.ToolException("no database " + db + " in " + dir + " (libtp stat " + dir
                            + " lists them)");
                }
                Map<String, Object> dbs = new LinkedHashMap<>();
                for (String n : names) {
                    try (Database d = Load.open(env, n)) {
                        DatabaseStats ds = d.stat();
                        dbs.put(n, ds);
                        text.add(String.format(Locale.ROOT, "database %s: %d entries, %d pages (%d leaves, %.1f %% full), "
                                + "%d levels, %d free pages", n, ds.entries(), ds.pages(), ds.leafPages(),
                                ds.leafFillPercent(), ds.levels(), ds.freePages()));
                    }
                }
                j.put("databases", dbs);
            }
            if (json) {
                out.println(Json.of(j));
            } else {
                out.println("environment " + dir.toAbsolutePath().normalize());
                text.forEach(t -> out.println("  " + t));
            }
        }
        return 0;
    }
}
