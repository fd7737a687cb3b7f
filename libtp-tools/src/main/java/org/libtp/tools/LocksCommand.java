package org.libtp.tools;

import org.libtp.core.env.RegionEnvironment.AttachedProcess;
import org.libtp.core.lock.LockObject;
import org.libtp.core.lock.LockTableSnapshot;
import org.libtp.core.txn.TransactionManager.ActiveTransaction;
import org.libtp.db.Environment;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;

/**
 * {@code libtp locks}: Berkeley DB's {@code db_stat -CA} — who holds and who waits for which lock,
 * by process and transaction, and the waits-for graph.
 */
@Command(name = "locks", mixinStandardHelpOptions = true,
        description = {"The lock table now: the attached processes, the active transactions, each locked page or file "
                + "with its holders and waiters, and who waits for whom (the waits-for graph)."})
final class LocksCommand implements Callable<Integer> {
    @Parameters(index = "0", paramLabel = "DIR", description = "the environment directory")
    Path dir;
    @Option(names = "--json", description = "one JSON object instead of text")
    boolean json;
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        try (Environment env = Tools.open(dir, true)) {
            List<AttachedProcess> procs = env.attachedProcesses();
            List<ActiveTransaction> txns = env.activeTransactions();
            LockTableSnapshot table = env.lockTable();
            long self = ProcessHandle.current().pid();
            Map<Integer, Long> pidOfSlot = new HashMap<>();
            procs.forEach(p -> pidOfSlot.put(p.slot(), p.pid()));
            Map<Long, ActiveTransaction> byId = new HashMap<>();
            txns.forEach(t -> byId.put(t.id(), t));
            // Requests grouped by object, holders then waiters (the snapshot's order).
            Map<String, List<LockTableSnapshot.Request>> objects = new LinkedHashMap<>();
            for (LockTableSnapshot.Request r : table.requests()) {
                objects.computeIfAbsent(object(env, r), k -> new ArrayList<>()).add(r);
            }
            if (json) {
                Map<String, Object> j = new LinkedHashMap<>();
                List<Object> ps = new ArrayList<>();
                for (AttachedProcess p : procs) {
                    ps.add(Map.of("slot", p.slot(), "pid", p.pid(), "attached", Instant.ofEpochMilli(p.attachedMillis())
                            .toString(), "alive", p.alive(), "thisTool", p.pid() == self));
                }
                j.put("processes", ps);
                List<Object> ts = new ArrayList<>();
                for (ActiveTransaction t : txns) {
                    ts.add(Map.of("id", t.id(), "processSlot", t.processSlot(), "pid", pidOfSlot.getOrDefault(t.processSlot(), 0L),
                            "state", t.state(), "began", Instant.ofEpochMilli(t.beginMillis()).toString()));
                }
                j.put("transactions", ts);
                Map<String, Object> locks = new LinkedHashMap<>();
                objects.forEach((o, rs) -> {
                    List<Object> l = new ArrayList<>();
                    for (LockTableSnapshot.Request r : rs) {
                        Map<String, Object> m = new LinkedHashMap<>();
                        m.put("txn", r.txnId());
                        m.put("mode", r.mode().name());
                        m.put("status", r.waiting() ? "waiting" : "held");
                        if (r.upgradeTo() != null) {
                            m.put("upgradeTo", r.upgradeTo().name());
                        }
                        l.add(m);
                    }
                    locks.put(o, l);
                });
                j.put("locks", locks);
                List<Object> edges = new ArrayList<>();
                table.waitsFor().forEach(e -> edges.add(List.of(e[0], e[1])));
                j.put("waitsFor", edges);
                out.println(Json.of(j));
                return 0;
            }
            out.println("environment " + dir.toAbsolutePath().normalize());
            out.println("processes:");
            for (AttachedProcess p : procs) {
                out.println("  slot " + p.slot() + "  pid " + p.pid() + "  attached " + Instant.ofEpochMilli(p.attachedMillis())
                        + (p.alive() ? "" : "  DEAD (its slot is freed at the next failCheck)")
                        + (p.pid() == self ? "  (this tool)" : ""));
            }
            out.println("transactions:" + (txns.isEmpty() ? " none" : ""));
            long now = System.currentTimeMillis();
            for (ActiveTransaction t : txns) {
                out.printf("  txn %d  %s  process slot %d (pid %d)  for %.1f s%n", t.id(), t.state(), t.processSlot(),
                        pidOfSlot.getOrDefault(t.processSlot(), 0L), (now - t.beginMillis()) / 1000.0);
            }
            out.println("locks:" + (objects.isEmpty() ? " none" : ""));
            objects.forEach((o, rs) -> {
                List<String> held = new ArrayList<>();
                List<String> waiting = new ArrayList<>();
                for (LockTableSnapshot.Request r : rs) {
                    String s = "txn " + r.txnId() + " " + r.mode() + (r.upgradeTo() != null ? " (waits to upgrade to "
                            + r.upgradeTo() + ")" : "");
                    (r.waiting() ? waiting : held).add(s);
                }
                out.println("  " + o + ": held by " + (held.isEmpty() ? "none" : String.join(", ", held))
                        + (waiting.isEmpty() ? "" : "; waiting: " + String.join(", ", waiting)));
            });
            out.println("waits-for:" + (table.waitsFor().isEmpty() ? " none" : ""));
            for (long[] e : table.waitsFor()) {
                out.println("  txn " + e[0] + " -> txn " + e[1]);
            }
        }
        return 0;
    }

    private static String object(Environment env, LockTableSnapshot.Request r) {
        String file;
        try {
            file = env.dataFileName(r.fileId());
        } catch (IllegalArgumentException gone) {
            file = "file " + r.fileId();
        }
        if (r.pageNo() == LockObject.WHOLE_FILE) {
            return file + " (whole file)";
        }
        return file + (r.pageNo() >= LockObject.RECORD ? " record " + (r.pageNo() & LockObject.MAX_RECORD_ID)
                : " page " + r.pageNo());
    }
}
