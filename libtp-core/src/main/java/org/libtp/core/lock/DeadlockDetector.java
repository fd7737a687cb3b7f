package org.libtp.core.lock;

import java.util.Arrays;

/**
 * The cycle search of a detection pass (paper 4.1), on a waits-for graph already copied out of
 * the lock table: nodes are lockers (transaction slots), an edge W -&gt; H means W waits for H.
 * Pure Java over arrays, no shared memory, so it is tested on its own.
 *
 * <p>Victims are chosen one cycle at a time: a depth-first search finds a cycle, the policy
 * picks one transaction of it, that node is removed (its wait is the one refused) and the search
 * starts again, until no cycle is left; then every victim whose wait would close no cycle with
 * the others' refused is spared again, so the set is minimal (a smallest set is NP-hard). A
 * lone cycle therefore costs exactly one victim. Each search is O(V + E); there are at most 2V.
 */
final class DeadlockDetector {
    private DeadlockDetector() {
    }

    /**
     * @param nodes      node count (node ids 0..nodes-1)
     * @param from       edge sources
     * @param to         edge targets
     * @param edges      how many of {@code from}/{@code to} are used
     * @param txnIds     the transaction id of each node (for the policies)
     * @param lockCounts the lock count of each node (for {@link VictimPolicy#FEWEST_LOCKS})
     * @return the victims, in the order chosen
     */
    static int[] victims(int nodes, int[] from, int[] to, int edges, long[] txnIds, int[] lockCounts,
                         VictimPolicy policy) {
        if (edges == 0) {
            return new int[0];
        }
        // Compressed adjacency: out-edges of u are adj[start[u] .. start[u+1]).
        int[] start = new int[nodes + 1];
        for (int i = 0; i < edges; i++) {
            start[from[i] + 1]++;
        }
        for (int u = 0; u < nodes; u++) {
            start[u + 1] += start[u];
        }
        int[] adj = new int[edges];
        int[] fill = Arrays.copyOf(start, nodes);
        for (int i = 0; i < edges; i++) {
            adj[fill[from[i]]++] = to[i];
        }
        boolean[] removed = new boolean[nodes];
        int[] out = new int[0];
        int[] color = new int[nodes];
        int[] stack = new int[nodes];
        int[] next = new int[nodes];
        int[] pos = new int[nodes];
        while (true) {
            int[] cycle = findCycle(nodes, start, adj, removed, color, stack, next, pos);
            if (cycle == null) {
                break;
            }
            int v = choose(cycle, txnIds, lockCounts, policy);
            removed[v] = true;
            out = Arrays.copyOf(out, out.length + 1);
            out[out.length - 1] = v;
        }
        if (out.length < 2) {
            return out;
        }
        // A victim chosen early may be redundant: its cycle may also run through a later victim
        // (FIFO edges make such overlapping cycles common). Give each back its wait unless that
        // closes a cycle again, so the set is minimal.
        int kept = 0;
        for (int v : out) {
            removed[v] = false;
            if (findCycle(nodes, start, adj, removed, color, stack, next, pos) != null) {
                removed[v] = true;
                out[kept++] = v;
            }
        }
        return Arrays.copyOf(out, kept);
    }

    /** Iterative DFS with colors (0 white, 1 on the stack, 2 done); returns one cycle's nodes or null. */
    private static int[] findCycle(int nodes, int[] start, int[] adj, boolean[] removed, int[] color, int[] stack,
                                   int[] next, int[] pos) {
        Arrays.fill(color, 0);
        for (int root = 0; root < nodes; root++) {
            if (removed[root] || color[root] != 0 || start[root] == start[root + 1]) {
                continue;
            }
            int top = 0;
            stack[0] = root;
            next[root] = start[root];
            pos[root] = 0;
            color[root] = 1;
            while (top >= 0) {
                int u = stack[top];
                if (next[u] < start[u + 1]) {
                    int v = adj[next[u]++];
                    if (removed[v]) {
                        continue;
                    }
                    if (color[v] == 1) {
                        return Arrays.copyOfRange(stack, pos[v], top + 1);
                    }
                    if (color[v] == 0) {
                        color[v] = 1;
                        next[v] = start[v];
                        stack[++top] = v;
                        pos[v] = top;
                    }
                } else {
                    color[u] = 2;
                    top--;
                }
            }
        }
        return null;
    }

    static int choose(int[] cycle, long[] txnIds, int[] lockCounts, VictimPolicy policy) {
        int best = cycle[0];
        for (int i = 1; i < cycle.length; i++) {
            int c = cycle[i];
            boolean better = switch (policy) {
                case YOUNGEST -> txnIds[c] > txnIds[best];
                case OLDEST -> txnIds[c] < txnIds[best];
                case FEWEST_LOCKS -> lockCounts[c] < lockCounts[best]
                        || lockCounts[c] == lockCounts[best] && txnIds[c] > txnIds[best];
            };
            if (better) {
                best = c;
            }
        }
        return best;
    }
}
