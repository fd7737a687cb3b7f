package org.libtp.bench.oo1;

import java.util.SplittableRandom;

/**
 * The OO1 database, generated deterministically from a seed so that every engine stores the same
 * one (Cattell's OO1, paper 5.2). Parts 1..N get a random type among 10, x and y in [0, 99999]
 * and a build date within ten years; each has exactly three connections, each of which goes (90
 * %) to a part among the nearest 1 % of ids, {@code id ± N/200} wrapped into 1..N and never the
 * part itself, or (10 %) to any part. Connection types are random among 10, lengths in [1, 100].
 *
 * <p>As in the paper, the database is built in part-id order, with each part's connections and
 * index entries right after it: the from-index gets its keys in order, the to-index nearly at
 * random.
 */
public final class Oo1Generator {
    /** Connections from every part. */
    public static final int CONNECTIONS_PER_PART = 3;
    /** Parts per {@link Oo1Store#bulk} transaction while loading. */
    public static final int LOAD_BATCH = 2_000;
    private static final long BUILD_FROM = 631_152_000_000L; // 1990-01-01
    private static final long BUILD_SPAN = 10L * 365 * 24 * 3600 * 1000;

    private Oo1Generator() {
    }

    /** Half the width of the "nearest 1 %" window for a database of {@code parts} parts. */
    public static int near(int parts) {
        return Math.max(1, parts / 200);
    }

    /** Loads parts 1..{@code parts} and their connections into an empty {@code store}, then flushes it. */
    public static void load(Oo1Store store, int parts, long seed) {
        if (parts < 2) {
            throw new IllegalArgumentException("an OO1 database needs at least 2 parts, not " + parts);
        }
        SplittableRandom rnd = new SplittableRandom(seed);
        int near = near(parts);
        for (int from = 1; from <= parts; from += LOAD_BATCH) {
            int first = from;
            int last = Math.min(parts, from + LOAD_BATCH - 1);
            store.bulk(w -> {
                for (int id = first; id <= last; id++) {
                    w.putPart(part(id, rnd));
                    for (int j = 0; j < CONNECTIONS_PER_PART; j++) {
                        w.addConnection(connection(id, parts, near, rnd));
                    }
                }
                return null;
            });
        }
        store.flush();
    }

    /** Part {@code id} with random attributes. */
    public static Oo1Store.Part part(int id, SplittableRandom rnd) {
        return new Oo1Store.Part(id, "part-type" + rnd.nextInt(10), rnd.nextInt(100_000), rnd.nextInt(100_000),
                BUILD_FROM + rnd.nextLong(BUILD_SPAN));
    }

    /** A connection from {@code from} to a part of 1..{@code total} by the 90/10 rule. */
    public static Oo1Store.Connection connection(int from, int total, int near, SplittableRandom rnd) {
        int to;
        if (rnd.nextInt(10) < 9) {
            int off = rnd.nextInt(2 * near) - near; // [-near, near) without 0 below
            if (off >= 0) {
                off++;
            }
            to = wrap(from + off, total);
        } else {
            to = 1 + rnd.nextInt(total);
        }
        return new Oo1Store.Connection(from, to, "conn-type" + rnd.nextInt(10), 1 + rnd.nextInt(100));
    }

    /** {@code v} wrapped into 1..total. */
    static int wrap(int v, int total) {
        return Math.floorMod(v - 1, total) + 1;
    }
}
