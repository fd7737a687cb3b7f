package org.libtp.bench.oo1;

import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The OO1 tests (paper 5.2), written once against {@link Oo1Store} so that every engine runs the
 * same code. Each test is one transaction; each returns the number of parts it fetched or
 * inserted.
 * <ul>
 * <li>lookup: 1,000 random part ids of 1..N fetched, the null procedure called with each x, y;
 * <li>forward traversal: from a random part, depth-first, follow every connection from it
 *     (from-index, then the connection record for its {@code to}, then the part) seven hops:
 *     1 + 3 + ... + 3^7 = 3280 parts, duplicates visited again;
 * <li>backward traversal: the same through the to-index, following connections into each part
 *     to their origin; the count varies with the in-degrees met;
 * <li>insert: 100 new parts (ids after the highest) with three connections each by the same
 *     90/10 rule, in one transaction committed with the store's durability.
 * </ul>
 * Randomness comes from the {@link SplittableRandom} given, so that runs with equal seeds do the
 * same work on every engine.
 */
public final class Oo1Workload {
    public static final int LOOKUPS = 1_000;
    public static final int HOPS = 7;
    public static final int INSERTS = 100;
    /** Parts a forward traversal visits: 1 + 3 + ... + 3^7. */
    public static final int FORWARD_PARTS = 3280;

    /** The tests, in the order {@code --test all} runs them. */
    public enum Test {
        LOOKUP, FORWARD, BACKWARD, INSERT;

        public String label() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    /** The null procedure: does nothing that can be optimized away. */
    static final Oo1Store.PartVisitor NULL_PROCEDURE = Oo1Workload::nullProcedure;
    private static int sink;

    private Oo1Workload() {
    }

    static void nullProcedure(int x, int y) {
        sink += x ^ y;
    }

    /** Runs {@code test} once on {@code store} ({@code parts}: the N the database was built with). */
    public static int run(Test test, Oo1Store store, int parts, SplittableRandom rnd) {
        return switch (test) {
            case LOOKUP -> store.read(r -> lookup(r, parts, rnd));
            case FORWARD -> {
                int root = 1 + rnd.nextInt(parts);
                yield store.read(r -> traverse(r, root, true));
            }
            case BACKWARD -> {
                int root = 1 + rnd.nextInt(parts);
                yield store.read(r -> traverse(r, root, false));
            }
            case INSERT -> store.write(w -> insert(w, parts, rnd));
        };
    }

    static int lookup(Oo1Store.Reader r, int parts, SplittableRandom rnd) {
        int found = 0;
        for (int i = 0; i < LOOKUPS; i++) {
            int id = 1 + rnd.nextInt(parts);
            if (!r.part(id, NULL_PROCEDURE)) {
                throw new IllegalStateException("OO1 lookup: part " + id + " is missing");
            }
            found++;
        }
        return found;
    }

    /** Depth-first traversal of {@link #HOPS} hops from {@code root}; returns the parts visited. */
    static int traverse(Oo1Store.Reader r, int root, boolean forward) {
        List<IntList> levels = new ArrayList<>();
        for (int i = 0; i < HOPS; i++) {
            levels.add(new IntList());
        }
        return visit(r, root, HOPS, forward, levels);
    }

    private static int visit(Oo1Store.Reader r, int id, int hops, boolean forward, List<IntList> levels) {
        if (!r.part(id, NULL_PROCEDURE)) {
            throw new IllegalStateException("OO1 traversal: part " + id + " is missing (a connection points to it)");
        }
        if (hops == 0) {
            return 1;
        }
        IntList next = levels.get(hops - 1);
        next.clear();
        if (forward) {
            r.connectionsFrom(id, next);
        } else {
            r.connectionsTo(id, next);
        }
        // levels[hops - 1] is this call's own: the calls below use lower levels, and the next
        // call with the same hops (a sibling) starts after this loop is done
        int n = 1;
        for (int i = 0; i < next.size(); i++) {
            n += visit(r, next.get(i), hops - 1, forward, levels);
        }
        return n;
    }

    /** Inserts {@link #INSERTS} parts after the highest id, three connections each. */
    static int insert(Oo1Store.Writer w, int parts, SplittableRandom rnd) {
        int base = w.maxPartId();
        int total = base + INSERTS;
        int near = Oo1Generator.near(parts);
        for (int k = 1; k <= INSERTS; k++) {
            int id = base + k;
            w.putPart(Oo1Generator.part(id, rnd));
            for (int j = 0; j < Oo1Generator.CONNECTIONS_PER_PART; j++) {
                w.addConnection(Oo1Generator.connection(id, total, near, rnd));
            }
        }
        return INSERTS;
    }
}
