package org.libtp.db.elle;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * Checks a list-append history for isolation anomalies, after Elle (Kingsbury and Alvaro, "Elle:
 * Inferring Isolation Anomalies from Experimental Observations", VLDB 2020). Every key holds a
 * list; transactions append values that are unique per key and read whole lists. Because a list
 * keeps every value ever appended in order, the longest read of a key is its version order, and
 * each read tells exactly which appends it saw and which it missed: that yields write-write,
 * write-read and read-write dependencies between committed transactions without trusting the
 * database's own account of its order. A cycle in that graph is an isolation anomaly: G0 (ww
 * only), G1c (ww and wr), G-single (one rw), G2 (several rw). Strict two-phase locking allows none
 * of them, nor an aborted read (G1a), an intermediate read (G1b), reads of a key that are not
 * prefixes of one another, or a transaction that does not see its own appends.
 *
 * <p>Plain code without the database, so it can be shown to fail on histories written by hand.
 */
public final class ListAppendChecker {
    /** OK: commit acknowledged; FAIL: certainly aborted; INFO: unknown (killed before the acknowledgement). */
    public enum Status { OK, FAIL, INFO }

    /** One micro-operation: an append of {@code value} to {@code key}, or a read of {@code key} that returned {@code read}. */
    public record Op(boolean isAppend, long key, long value, List<Long> read) {
        public static Op append(long key, long value) {
            return new Op(true, key, value, null);
        }

        public static Op read(long key, List<Long> values) {
            return new Op(false, key, 0, List.copyOf(values));
        }

        @Override
        public String toString() {
            return isAppend ? "append(" + key + ", " + value + ")" : "read(" + key + ") = " + abbreviate(read);
        }
    }

    /** A transaction of the history: ids are unique; {@code label} says where it ran (for the report). */
    public record Txn(long id, String label, Status status, List<Op> ops) {
        public Txn {
            ops = List.copyOf(ops);
        }

        @Override
        public String toString() {
            return "T" + id + (label == null || label.isEmpty() ? "" : " (" + label + ")") + " " + status + " " + ops;
        }
    }

    /** What the check found; {@link #anomalies()} empty means the history is serializable. */
    public record Result(int ok, int fail, int info, int infoCommitted, int keys, int edges, Map<String, Integer> edgeTypes,
                         List<String> anomalies, Map<String, Integer> anomalyTypes) {
        public String summary() {
            return "transactions OK " + ok + ", FAIL " + fail + ", INFO " + info + " (" + infoCommitted
                    + " of them seen committed); keys " + keys + "; edges " + edges + " " + edgeTypes + "; anomalies "
                    + anomalies.size() + (anomalies.isEmpty() ? "" : " " + anomalyTypes);
        }

        /** Summary and every anomaly, for a failure message. */
        public String report() {
            StringBuilder b = new StringBuilder(summary());
            for (String a : anomalies) {
                b.append("\n\n").append(a);
            }
            return b.toString();
        }
    }

    static final int WW = 1;
    static final int WR = 2;
    static final int RW = 4;

    /** Why an edge exists, per type: the key and the values that show it. */
    private static final class Edge {
        final int from;
        final int to;
        int types;
        final String[] why = new String[3];

        Edge(int from, int to) {
            this.from = from;
            this.to = to;
        }

        void add(int type, String reason) {
            if ((types & type) == 0) {
                types |= type;
                why[Integer.numberOfTrailingZeros(type)] = reason;
            }
        }
    }

    private final List<Txn> txns;
    private final List<String> anomalies = new ArrayList<>();
    private final Map<String, Integer> anomalyTypes = new TreeMap<>();
    /** key -> value -> index of the transaction that appended it. */
    private final Map<Long, Map<Long, Integer>> appender = new HashMap<>();
    private final boolean[] committed;
    private final List<Map<Integer, Edge>> out = new ArrayList<>();

    private ListAppendChecker(List<Txn> history) {
        this.txns = List.copyOf(history);
        this.committed = new boolean[txns.size()];
    }

    /** Checks {@code history}. */
    public static Result check(List<Txn> history) {
        return new ListAppendChecker(history).run();
    }

    private void anomaly(String type, String text) {
        anomalyTypes.merge(type, 1, Integer::sum);
        anomalies.add(type + ": " + text);
    }

    private Result run() {
        Set<Long> ids = new HashSet<>();
        for (int i = 0; i < txns.size(); i++) {
            Txn t = txns.get(i);
            if (!ids.add(t.id())) {
                throw new IllegalArgumentException("transaction id " + t.id() + " twice");
            }
            for (Op op : t.ops()) {
                if (op.isAppend()) {
                    Integer prev = appender.computeIfAbsent(op.key(), k -> new HashMap<>()).putIfAbsent(op.value(), i);
                    if (prev != null) {
                        anomaly("duplicate-append", "value " + op.value() + " appended to key " + op.key()
                                + " twice (values must be unique per key):\n  " + txns.get(prev) + "\n  " + t);
                    }
                }
            }
            committed[i] = t.status() == Status.OK;
        }
        internalConsistency();
        // An INFO transaction whose append a committed reader saw has committed; that can make the
        // appends its own reads saw count too, hence the loop.
        for (boolean changed = true; changed; ) {
            changed = false;
            for (int i = 0; i < txns.size(); i++) {
                if (!committed[i]) {
                    continue;
                }
                for (Op op : txns.get(i).ops()) {
                    if (op.isAppend()) {
                        continue;
                    }
                    for (long v : op.read()) {
                        Integer w = appender.getOrDefault(op.key(), Map.of()).get(v);
                        if (w != null && !committed[w] && txns.get(w).status() == Status.INFO) {
                            committed[w] = true;
                            changed = true;
                        }
                    }
                }
            }
        }
        for (int i = 0; i < txns.size(); i++) {
            out.add(null);
        }
        Map<Long, List<Long>> order = versionOrders();
        for (Map.Entry<Long, List<Long>> e : order.entrySet()) {
            wwEdges(e.getKey(), e.getValue());
        }
        readEdges(order);
        cycles();
        int ok = 0;
        int fail = 0;
        int info = 0;
        int infoCommitted = 0;
        for (int i = 0; i < txns.size(); i++) {
            switch (txns.get(i).status()) {
                case OK -> ok++;
                case FAIL -> fail++;
                case INFO -> {
                    info++;
                    if (committed[i]) {
                        infoCommitted++;
                    }
                }
            }
        }
        int edges = 0;
        Map<String, Integer> edgeTypes = new TreeMap<>();
        for (Map<Integer, Edge> m : out) {
            if (m != null) {
                for (Edge e : m.values()) {
                    edges++;
                    for (int type : new int[] {WW, WR, RW}) {
                        if ((e.types & type) != 0) {
                            edgeTypes.merge(typeName(type), 1, Integer::sum);
                        }
                    }
                }
            }
        }
        return new Result(ok, fail, info, infoCommitted, appender.size(), edges, edgeTypes, List.copyOf(anomalies),
                anomalyTypes);
    }

    /**
     * Within one transaction a read of a key must return what the transaction last read of it
     * plus its own appends since, or, before any read, end with its own appends so far. Checked
     * for every transaction, also aborted ones: what they saw still came from the database.
     */
    private void internalConsistency() {
        for (Txn t : txns) {
            Map<Long, List<Long>> known = new HashMap<>(); // last read plus own appends since
            Map<Long, List<Long>> ownTail = new HashMap<>(); // own appends before any read
            for (Op op : t.ops()) {
                if (op.isAppend()) {
                    List<Long> k = known.get(op.key());
                    if (k != null) {
                        k.add(op.value());
                    } else {
                        ownTail.computeIfAbsent(op.key(), x -> new ArrayList<>()).add(op.value());
                    }
                    continue;
                }
                List<Long> k = known.get(op.key());
                if (k != null) {
                    if (!k.equals(op.read())) {
                        anomaly("internal", "T" + t.id() + " read key " + op.key() + " as " + abbreviate(op.read())
                                + " where its earlier read and own appends give " + abbreviate(k) + ":\n  " + t);
                    }
                } else {
                    List<Long> tail = ownTail.getOrDefault(op.key(), List.of());
                    List<Long> r = op.read();
                    if (r.size() < tail.size() || !r.subList(r.size() - tail.size(), r.size()).equals(tail)) {
                        anomaly("internal", "T" + t.id() + " read key " + op.key() + " as " + abbreviate(r)
                                + ", which does not end with its own appends " + tail + ":\n  " + t);
                    }
                }
                known.put(op.key(), new ArrayList<>(op.read()));
            }
        }
    }

    /**
     * Each key's version order: its longest read by a committed transaction. Every other
     * committed read must be a prefix of it, without duplicates or values nobody appended; and
     * no committed read may contain an aborted append (G1a) or end inside another transaction's
     * appends to the key (G1b).
     */
    private Map<Long, List<Long>> versionOrders() {
        Map<Long, List<Long>> longest = new TreeMap<>();
        Map<Long, Integer> longestBy = new HashMap<>();
        for (int i = 0; i < txns.size(); i++) {
            if (!committed[i]) {
                continue;
            }
            for (Op op : txns.get(i).ops()) {
                if (!op.isAppend()) {
                    List<Long> cur = longest.get(op.key());
                    if (cur == null || op.read().size() > cur.size()) {
                        longest.put(op.key(), op.read());
                        longestBy.put(op.key(), i);
                    }
                }
            }
        }
        for (int i = 0; i < txns.size(); i++) {
            if (!committed[i]) {
                continue;
            }
            Txn t = txns.get(i);
            for (Op op : t.ops()) {
                if (op.isAppend()) {
                    continue;
                }
                List<Long> r = op.read();
                List<Long> full = longest.get(op.key());
                if (!full.subList(0, r.size()).equals(r)) {
                    anomaly("incompatible-order", "two reads of key " + op.key()
                            + " are not prefixes of one another:\n  " + t + "\n  " + txns.get(longestBy.get(op.key())));
                }
                Map<Long, Integer> byValue = appender.getOrDefault(op.key(), Map.of());
                Set<Long> seen = new HashSet<>();
                for (long v : r) {
                    if (!seen.add(v)) {
                        anomaly("duplicate-element", "T" + t.id() + " read value " + v + " twice in key " + op.key()
                                + ":\n  " + t);
                    }
                    Integer w = byValue.get(v);
                    if (w == null) {
                        anomaly("garbage-read", "T" + t.id() + " read value " + v + " in key " + op.key()
                                + ", which no transaction appended:\n  " + t);
                    } else if (txns.get(w).status() == Status.FAIL) {
                        anomaly("G1a", "T" + t.id() + " (committed) read value " + v + " of key " + op.key()
                                + ", appended by aborted T" + txns.get(w).id() + ":\n  reader " + t + "\n  writer "
                                + txns.get(w));
                    }
                }
                if (!r.isEmpty()) {
                    long last = r.get(r.size() - 1);
                    Integer w = byValue.get(last);
                    if (w != null && w != i) {
                        List<Long> ownAppends = appendsOf(txns.get(w), op.key());
                        if (ownAppends.get(ownAppends.size() - 1) != last) {
                            anomaly("G1b", "T" + t.id() + " read key " + op.key() + " ending in " + last + ", an "
                                    + "intermediate append of T" + txns.get(w).id() + " (its last to that key is "
                                    + ownAppends.get(ownAppends.size() - 1) + "):\n  reader " + t + "\n  writer "
                                    + txns.get(w));
                        }
                    }
                }
            }
        }
        return longest;
    }

    private static List<Long> appendsOf(Txn t, long key) {
        List<Long> out = new ArrayList<>();
        for (Op op : t.ops()) {
            if (op.isAppend() && op.key() == key) {
                out.add(op.value());
            }
        }
        return out;
    }

    private Integer writer(long key, long value) {
        Integer w = appender.getOrDefault(key, Map.of()).get(value);
        return w != null && committed[w] ? w : null;
    }

    private void edge(int from, int to, int type, String why) {
        if (from == to) {
            return; // a transaction's own appends and reads order nothing between transactions
        }
        Map<Integer, Edge> m = out.get(from);
        if (m == null) {
            m = new HashMap<>(4);
            out.set(from, m);
        }
        m.computeIfAbsent(to, x -> new Edge(from, to)).add(type, why);
    }

    /** ww: the appender of each element of the version order precedes the appender of the next. */
    private void wwEdges(long key, List<Long> order) {
        for (int j = 0; j + 1 < order.size(); j++) {
            Integer a = writer(key, order.get(j));
            Integer b = writer(key, order.get(j + 1));
            if (a != null && b != null) {
                edge(a, b, WW, "key " + key + ": " + order.get(j) + " then " + order.get(j + 1));
            }
        }
    }

    /**
     * wr: the appender of the last element a read saw precedes the reader. rw: a reader that saw
     * the list up to element i precedes the appender of element i + 1, the append it missed.
     */
    private void readEdges(Map<Long, List<Long>> order) {
        for (int i = 0; i < txns.size(); i++) {
            if (!committed[i]) {
                continue;
            }
            for (Op op : txns.get(i).ops()) {
                if (op.isAppend()) {
                    continue;
                }
                List<Long> r = op.read();
                List<Long> full = order.get(op.key());
                if (!full.subList(0, r.size()).equals(r)) {
                    continue; // reported as incompatible-order: its position in the order is unknown
                }
                if (!r.isEmpty()) {
                    Integer w = writer(op.key(), r.get(r.size() - 1));
                    if (w != null) {
                        edge(w, i, WR, "key " + op.key() + ": read ending in " + r.get(r.size() - 1));
                    }
                }
                if (r.size() < full.size()) {
                    Integer w = writer(op.key(), full.get(r.size()));
                    if (w != null) {
                        edge(i, w, RW, "key " + op.key() + ": read " + (r.isEmpty() ? "empty" : "ending in "
                                + r.get(r.size() - 1)) + ", missed " + full.get(r.size()));
                    }
                }
            }
        }
    }

    private Collection<Edge> edges(int v) {
        Map<Integer, Edge> m = out.get(v);
        return m == null ? List.of() : m.values();
    }

    /** Strongly connected components with more than one transaction, restricted to edges of {@code mask}. */
    private List<List<Integer>> components(Collection<Integer> nodes, Set<Integer> within, int mask) {
        // Iterative Tarjan: a long run's graph is too deep for recursion.
        Map<Integer, Integer> index = new HashMap<>();
        Map<Integer, Integer> low = new HashMap<>();
        Deque<Integer> stack = new ArrayDeque<>();
        Set<Integer> onStack = new HashSet<>();
        List<List<Integer>> sccs = new ArrayList<>();
        int counter = 0;
        for (int root : nodes) {
            if (index.containsKey(root)) {
                continue;
            }
            Deque<int[]> call = new ArrayDeque<>(); // node, position in its edge list
            Map<Integer, List<Integer>> succ = new HashMap<>();
            call.push(new int[] {root, 0});
            index.put(root, counter);
            low.put(root, counter++);
            stack.push(root);
            onStack.add(root);
            while (!call.isEmpty()) {
                int[] frame = call.peek();
                int v = frame[0];
                List<Integer> s = succ.computeIfAbsent(v, x -> {
                    List<Integer> l = new ArrayList<>();
                    for (Edge e : edges(x)) {
                        if ((e.types & mask) != 0 && within.contains(e.to)) {
                            l.add(e.to);
                        }
                    }
                    return l;
                });
                if (frame[1] < s.size()) {
                    int w = s.get(frame[1]++);
                    if (!index.containsKey(w)) {
                        index.put(w, counter);
                        low.put(w, counter++);
                        stack.push(w);
                        onStack.add(w);
                        call.push(new int[] {w, 0});
                    } else if (onStack.contains(w)) {
                        low.put(v, Math.min(low.get(v), index.get(w)));
                    }
                    continue;
                }
                call.pop();
                succ.remove(v);
                if (!call.isEmpty()) {
                    int parent = call.peek()[0];
                    low.put(parent, Math.min(low.get(parent), low.get(v)));
                }
                if (low.get(v).equals(index.get(v))) {
                    List<Integer> scc = new ArrayList<>();
                    int w;
                    do {
                        w = stack.pop();
                        onStack.remove(w);
                        scc.add(w);
                    } while (w != v);
                    if (scc.size() > 1) {
                        sccs.add(scc);
                    }
                }
            }
        }
        return sccs;
    }

    /** Reports one concrete cycle per strongly connected component, the weakest kind it holds. */
    private void cycles() {
        List<Integer> nodes = new ArrayList<>();
        for (int i = 0; i < txns.size(); i++) {
            if (committed[i]) {
                nodes.add(i);
            }
        }
        Set<Integer> all = new HashSet<>(nodes);
        for (List<Integer> scc : components(nodes, all, WW | WR | RW)) {
            Set<Integer> in = new HashSet<>(scc);
            List<Edge> cycle = null;
            List<List<Integer>> ww = components(scc, in, WW);
            if (!ww.isEmpty()) {
                List<Integer> sub = ww.get(0);
                cycle = shortestCycle(sub.get(0), new HashSet<>(sub), WW);
            } else {
                int tries = 0;
                for (int start : scc) {
                    List<Edge> c = shortestCycle(start, in, WW | WR | RW);
                    if (c != null && (cycle == null || rwCount(c) < rwCount(cycle)
                            || rwCount(c) == rwCount(cycle) && c.size() < cycle.size())) {
                        cycle = c;
                    }
                    if (++tries == 64 || cycle != null && rwCount(cycle) == 0) {
                        break; // the search is for a readable example, not the best one
                    }
                }
            }
            String type = classify(cycle);
            StringBuilder b = new StringBuilder("a cycle of " + cycle.size() + " transactions (its component has "
                    + scc.size() + "):");
            for (Edge e : cycle) {
                b.append("\n  ").append(txns.get(e.from)).append("\n    -").append(label(e)).append("->");
            }
            b.append("\n  ").append(txns.get(cycle.get(0).from));
            anomaly(type, b.toString());
        }
    }

    private static int rwCount(List<Edge> cycle) {
        int n = 0;
        for (Edge e : cycle) {
            if ((e.types & (WW | WR)) == 0) {
                n++;
            }
        }
        return n;
    }

    private static String classify(List<Edge> cycle) {
        int rw = rwCount(cycle);
        if (rw == 1) {
            return "G-single";
        }
        if (rw > 1) {
            return "G2";
        }
        for (Edge e : cycle) {
            if ((e.types & WW) == 0) {
                return "G1c";
            }
        }
        return "G0";
    }

    /** The edge's weakest type (ww before wr before rw) and why it exists. */
    private static String label(Edge e) {
        for (int type : new int[] {WW, WR, RW}) {
            if ((e.types & type) != 0) {
                return typeName(type) + " (" + e.why[Integer.numberOfTrailingZeros(type)] + ")";
            }
        }
        throw new IllegalStateException();
    }

    private static String typeName(int type) {
        return type == WW ? "ww" : type == WR ? "wr" : "rw";
    }

    /**
     * A cycle through {@code start} within {@code in} over edges of {@code mask} with the fewest
     * rw-only edges, then the fewest edges (0-1 breadth-first search), or null.
     */
    private List<Edge> shortestCycle(int start, Set<Integer> in, int mask) {
        Map<Integer, Integer> dist = new HashMap<>();
        Map<Integer, Edge> via = new HashMap<>();
        Deque<Integer> queue = new ArrayDeque<>();
        dist.put(start, 0);
        queue.add(start);
        Edge closing = null;
        int best = Integer.MAX_VALUE;
        while (!queue.isEmpty()) {
            int v = queue.poll();
            for (Edge e : edges(v)) {
                if ((e.types & mask) == 0 || !in.contains(e.to)) {
                    continue;
                }
                int cost = (e.types & mask & (WW | WR)) != 0 ? 0 : 1;
                int d = dist.get(v) + cost;
                if (e.to == start) {
                    if (d < best) {
                        best = d;
                        closing = e;
                    }
                    continue;
                }
                Integer old = dist.get(e.to);
                if (old == null || d < old) {
                    dist.put(e.to, d);
                    via.put(e.to, e);
                    if (cost == 0) {
                        queue.addFirst(e.to);
                    } else {
                        queue.addLast(e.to);
                    }
                }
            }
        }
        if (closing == null) {
            return null;
        }
        List<Edge> path = new ArrayList<>();
        path.add(closing);
        for (int v = closing.from; v != start; v = via.get(v).from) {
            path.add(0, via.get(v));
        }
        return path;
    }

    static String abbreviate(List<Long> values) {
        if (values.size() <= 12) {
            return values.toString();
        }
        return "[" + values.get(0) + ", " + values.get(1) + ", " + values.get(2) + ", ... (" + (values.size() - 6)
                + " more) ..., " + values.get(values.size() - 3) + ", " + values.get(values.size() - 2) + ", "
                + values.get(values.size() - 1) + "] (" + values.size() + " values)";
    }

    /** Parses the one-line form {@code a<key>=<value>} / {@code r<key>=<v1>,<v2>,...} (empty after = for an empty list). */
    public static List<Op> parseOps(String[] tokens, int from) {
        List<Op> ops = new ArrayList<>();
        for (int i = from; i < tokens.length; i++) {
            String s = tokens[i];
            if (s.isEmpty()) {
                continue; // no ops: an attempt that failed in its first read
            }
            int eq = s.indexOf('=');
            long key = Long.parseLong(s.substring(1, eq));
            String rest = s.substring(eq + 1);
            if (s.charAt(0) == 'a') {
                ops.add(Op.append(key, Long.parseLong(rest)));
            } else if (s.charAt(0) == 'r') {
                List<Long> vs = new ArrayList<>();
                if (!rest.isEmpty()) {
                    for (String v : rest.split(",")) {
                        vs.add(Long.parseLong(v));
                    }
                }
                ops.add(Op.read(key, vs));
            } else {
                throw new IllegalArgumentException("not a micro-op: " + s);
            }
        }
        return ops;
    }

    /** The one-line form of {@code ops} that {@link #parseOps} reads. */
    public static String formatOps(List<Op> ops) {
        StringBuilder b = new StringBuilder();
        for (Op op : ops) {
            if (b.length() > 0) {
                b.append(' ');
            }
            if (op.isAppend()) {
                b.append('a').append(op.key()).append('=').append(op.value());
            } else {
                b.append('r').append(op.key()).append('=');
                for (int j = 0; j < op.read().size(); j++) {
                    b.append(j == 0 ? "" : ",").append(op.read().get(j));
                }
            }
        }
        return b.toString();
    }
}
