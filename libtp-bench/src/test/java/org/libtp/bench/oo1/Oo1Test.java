package org.libtp.bench.oo1;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.SplittableRandom;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/**
 * Every engine stores the same OO1 database and runs the same tests: each one is checked against
 * an in-memory reference store ({@link MemoryStore}) loaded from the same seed, so equal counts
 * here mean equal counts across engines.
 */
class Oo1Test {
    static final int PARTS = 2_000;
    static final long SEED = 7;
    static final int[] ROOTS = {1, 2, 777, 1_000, PARTS};

    /** The reference's traversal counts from each of {@link #ROOTS}: forward, backward. */
    static int[][] expected;
    /** The reference's to-ids of the connections from the 100 parts of the first insert. */
    static List<Integer> expectedInsertTargets;

    /** Every engine of this build: bdb too when it was built with -Pbdb. */
    static List<String> engines() {
        List<String> l = new ArrayList<>(Oo1Engines.NAMES);
        if (bdbBuilt()) {
            l.add("bdb");
        }
        return l;
    }

    /** True if this build has Berkeley DB C (mvn -Pbdb) and its jar is on the class path. */
    static boolean bdbBuilt() {
        try {
            Class.forName(Oo1Engines.BDB_CLASS);
            Class.forName("com.sleepycat.db.Environment");
            return true;
        } catch (ClassNotFoundException | LinkageError e) {
            return false;
        }
    }

    @BeforeAll
    static void reference() {
        MemoryStore m = new MemoryStore();
        Oo1Generator.load(m, PARTS, SEED);
        expected = traversals(m);
        assertEquals(PARTS, maxId(m));
        Oo1Workload.run(Oo1Workload.Test.INSERT, m, PARTS, new SplittableRandom(SEED));
        expectedInsertTargets = insertTargets(m);
    }

    private static int maxId(Oo1Store s) {
        return s.read(Oo1Store.Reader::maxPartId);
    }

    private static int[][] traversals(Oo1Store s) {
        int[][] t = new int[ROOTS.length][2];
        for (int i = 0; i < ROOTS.length; i++) {
            int root = ROOTS[i];
            t[i][0] = s.read(r -> Oo1Workload.traverse(r, root, true));
            t[i][1] = s.read(r -> Oo1Workload.traverse(r, root, false));
        }
        return t;
    }

    private static List<Integer> insertTargets(Oo1Store s) {
        return s.read(r -> {
            List<Integer> l = new ArrayList<>();
            IntList to = new IntList();
            for (int id = PARTS + 1; id <= PARTS + Oo1Workload.INSERTS; id++) {
                to.clear();
                r.connectionsFrom(id, to);
                for (int i = 0; i < to.size(); i++) {
                    l.add(to.get(i));
                }
            }
            return l;
        });
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("engines")
    void engineStoresAndRunsTheSameDatabase(String engine, @TempDir Path dir) {
        StoreOptions o = new StoreOptions(dir, true, 16L << 20);
        try (Oo1Store s = Oo1Engines.open(engine, o)) {
            Oo1Generator.load(s, PARTS, SEED);
            assertEquals(new Oo1Store.Counts(PARTS, 3L * PARTS, 3L * PARTS, 3L * PARTS), s.counts(), engine);
            long[] in = s.read(r -> {
                IntList l = new IntList();
                long into = 0;
                for (int id = 1; id <= PARTS; id++) {
                    l.clear();
                    r.connectionsFrom(id, l);
                    assertEquals(3, l.size(), engine + ": connections from part " + id);
                    for (int i = 0; i < l.size(); i++) {
                        assertTrue(l.get(i) >= 1 && l.get(i) <= PARTS, engine + ": connection to " + l.get(i));
                    }
                    l.clear();
                    r.connectionsTo(id, l);
                    into += l.size();
                }
                return new long[] {into, r.maxPartId()};
            });
            assertEquals(3L * PARTS, in[0], engine + ": connections into all parts");
            assertEquals(PARTS, in[1], engine + ": highest id");
            boolean past = s.read(r -> r.part(PARTS + 1, (x, y) -> { }));
            assertFalse(past, engine + ": part past the end");

            assertEquals(Oo1Workload.LOOKUPS, Oo1Workload.run(Oo1Workload.Test.LOOKUP, s, PARTS, new SplittableRandom(1)));
            assertEquals(Oo1Workload.FORWARD_PARTS,
                    Oo1Workload.run(Oo1Workload.Test.FORWARD, s, PARTS, new SplittableRandom(2)));
            int[][] t = traversals(s);
            for (int i = 0; i < ROOTS.length; i++) {
                assertEquals(Oo1Workload.FORWARD_PARTS, t[i][0], engine + ": forward from " + ROOTS[i]);
                assertEquals(expected[i][1], t[i][1], engine + ": backward from " + ROOTS[i]);
            }

            assertEquals(Oo1Workload.INSERTS, Oo1Workload.run(Oo1Workload.Test.INSERT, s, PARTS, new SplittableRandom(SEED)));
            int n = PARTS + Oo1Workload.INSERTS;
            assertEquals(new Oo1Store.Counts(n, 3L * n, 3L * n, 3L * n), s.counts(), engine + " after the insert");
            assertEquals(expectedInsertTargets, insertTargets(s), engine + ": the insert's connections");
        }
        // reopened: the data is there, the record numbers continue
        try (Oo1Store s = Oo1Engines.open(engine, o)) {
            assertEquals(PARTS + Oo1Workload.INSERTS, maxId(s), engine + " reopened");
            Oo1Workload.run(Oo1Workload.Test.INSERT, s, PARTS, new SplittableRandom(3));
            int n = PARTS + 2 * Oo1Workload.INSERTS;
            assertEquals(new Oo1Store.Counts(n, 3L * n, 3L * n, 3L * n), s.counts(), engine + " after a second insert");
            int forward = s.read(r -> Oo1Workload.traverse(r, n, true));
            assertEquals(Oo1Workload.FORWARD_PARTS, forward, engine);
        }
    }

    @Test
    void commandPrintsOneLinePerTestAndCache(@TempDir Path dir) {
        Oo1Command.Options o = Oo1Command.parse(new String[] {"--engine", "libtp", "--parts", "500", "--repeat", "2",
                "--cold", "--dir", dir.toString(), "--cache-mb", "16"});
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        List<Map<String, Object>> lines = Oo1Command.runAll(o, dir, new PrintStream(err, true, StandardCharsets.UTF_8),
                new PrintStream(out, true, StandardCharsets.UTF_8), () -> false);
        assertEquals(8, lines.size());
        String[] printed = out.toString(StandardCharsets.UTF_8).split("\n");
        assertEquals(8, printed.length);
        assertTrue(printed[0].startsWith("{\"bench\":\"oo1\",\"engine\":\"libtp\",\"test\":\"lookup\",\"cache\":\"cold\""),
                printed[0]);
        assertTrue(printed[0].contains("\"osCacheDropped\":false"), printed[0]);
        assertTrue(printed[3].contains("\"test\":\"forward\",\"cache\":\"warm\""), printed[3]);
        assertTrue(printed[3].contains("\"visited\":3280.000"), printed[3]);
        assertTrue(printed[1].contains("\"visited\":1000.000"), printed[1]);
        assertTrue(printed[7].contains("\"durability\":\"sync\""), printed[7]);
        // 1 warm-up + 2 cold + 1 warm-up + 2 warm inserts of 100 parts each
        try (Oo1Store s = Oo1Engines.open("libtp", o.storeOptions(dir))) {
            assertEquals(500 + 6 * Oo1Workload.INSERTS, maxId(s));
        }
        // the database is reused, and a different one refused
        List<Map<String, Object>> again = Oo1Command.runAll(Oo1Command.parse(new String[] {"--engine", "libtp", "--parts",
                "500", "--repeat", "1", "--test", "lookup", "--cache-mb", "16"}), dir, System.err, null, () -> false);
        assertEquals(1, again.size());
        assertEquals(0.0, again.get(0).get("loadSeconds"));
        assertThrows(IllegalArgumentException.class, () -> Oo1Command.runAll(Oo1Command.parse(new String[] {"--engine",
                "libtp", "--parts", "600", "--cache-mb", "16"}), dir, System.err, null, () -> false));
    }

    @Test
    void badArgumentsAreUsageErrors() {
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8);
        assertEquals(2, Oo1Command.run(new String[] {"--engine", "nope"}, System.out, e));
        assertEquals(2, Oo1Command.run(new String[] {"--engine", "libtp", "--test", "sideways"}, System.out, e));
        assertEquals(2, Oo1Command.run(new String[] {"--engine", "libtp", "--durability", "maybe"}, System.out, e));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains("usage: oo1 --engine"));
    }

    @Test
    void bdbWithoutTheProfileIsAClearError(@TempDir Path dir) {
        assumeFalse(bdbBuilt(), "built with -Pbdb");
        // classes left in target/ by an earlier -Pbdb build, without db.jar: the other message
        boolean stale = Oo1Test.class.getClassLoader().getResource(Oo1Engines.BDB_CLASS.replace('.', '/') + ".class") != null;
        String expected = stale ? "not on the class path" : "not in this build";
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> Oo1Engines.open("bdb", new StoreOptions(dir, true, 16L << 20)));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
        assertEquals("bdb", Oo1Command.parse(new String[] {"--engine", "bdb"}).engine());
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        assertEquals(1, Oo1Command.run(new String[] {"--engine", "bdb", "--dir", dir.toString()}, System.out,
                new PrintStream(err, true, StandardCharsets.UTF_8)));
        assertTrue(err.toString(StandardCharsets.UTF_8).contains(expected), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void nearConnectionsStayWithinOnePercent() {
        SplittableRandom rnd = new SplittableRandom(11);
        int near = Oo1Generator.near(20_000);
        assertEquals(100, near);
        int local = 0;
        for (int i = 0; i < 10_000; i++) {
            int from = 1 + rnd.nextInt(20_000);
            Oo1Store.Connection c = Oo1Generator.connection(from, 20_000, near, rnd);
            assertTrue(c.to() >= 1 && c.to() <= 20_000, "to " + c.to());
            int d = Math.abs(c.to() - from);
            if (Math.min(d, 20_000 - d) <= near && c.to() != from) {
                local++;
            }
        }
        assertTrue(local >= 8_900 && local <= 9_200, "near connections " + local + " of 10000");
    }

    /** The reference: the same records in Java collections. */
    static final class MemoryStore implements Oo1Store, Oo1Store.Writer {
        final TreeMap<Integer, Part> parts = new TreeMap<>();
        final List<Connection> connections = new ArrayList<>();
        final TreeMap<Integer, List<Integer>> from = new TreeMap<>();
        final TreeMap<Integer, List<Integer>> to = new TreeMap<>();

        @Override
        public String engine() {
            return "memory";
        }

        @Override
        public String durability() {
            return "none";
        }

        @Override
        public <T> T read(ReadTask<T> task) {
            return task.run(this);
        }

        @Override
        public <T> T write(WriteTask<T> task) {
            return task.run(this);
        }

        @Override
        public void bulk(WriteTask<?> task) {
            task.run(this);
        }

        @Override
        public void flush() {
        }

        @Override
        public Counts counts() {
            return new Counts(parts.size(), connections.size(), connections.size(), connections.size());
        }

        @Override
        public void close() {
        }

        @Override
        public boolean part(int id, PartVisitor v) {
            Part p = parts.get(id);
            if (p != null) {
                v.visit(p.x(), p.y());
            }
            return p != null;
        }

        @Override
        public void connectionsFrom(int id, IntList toIds) {
            for (int recno : from.getOrDefault(id, List.of())) {
                toIds.add(connections.get(recno - 1).to());
            }
        }

        @Override
        public void connectionsTo(int id, IntList fromIds) {
            for (int recno : to.getOrDefault(id, List.of())) {
                fromIds.add(connections.get(recno - 1).from());
            }
        }

        @Override
        public int maxPartId() {
            return parts.isEmpty() ? 0 : parts.lastKey();
        }

        @Override
        public void putPart(Part p) {
            parts.put(p.id(), p);
        }

        @Override
        public long addConnection(Connection c) {
            connections.add(c);
            int recno = connections.size();
            from.computeIfAbsent(c.from(), k -> new ArrayList<>()).add(recno);
            to.computeIfAbsent(c.to(), k -> new ArrayList<>()).add(recno);
            return recno;
        }
    }
}
