package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.testkit.Seeds;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Fixed-length records against an ArrayList model, with aborts and reopen; bad record numbers. */
class RecnoTest {
    static final int LEN = 40;

    @TempDir
    Path dir;

    static final DatabaseConfig RECNO = DatabaseConfig.builder().type(DatabaseType.RECNO).recordLength(LEN)
            .allowCreate(true).build();

    static byte[] rec(Random rnd) {
        byte[] b = new byte[LEN];
        rnd.nextBytes(b);
        return b;
    }

    @Test
    void randomOperationsMatchAnArrayListAcrossAbortAndReopen() {
        long seed = Seeds.seed("RecnoTest");
        Random rnd = new Random(seed);
        List<byte[]> model = new ArrayList<>(); // index n-1; null = absent
        EnvironmentConfig cfg = EnvironmentConfig.builder().cacheBytes(1 << 20).durability(Durability.NO_SYNC).build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "r", RECNO)) {
            for (int i = 0; i < 300; i++) {
                List<byte[]> mine = new ArrayList<>(model);
                try (Transaction t = env.beginTransaction()) {
                    for (int k = 0; k < 8; k++) {
                        int op = rnd.nextInt(4);
                        if (op == 0 || mine.isEmpty()) {
                            byte[] r = rec(rnd);
                            assertEquals(mine.size() + 1, db.append(t, r), "seed " + seed);
                            mine.add(r);
                        } else if (op == 1) {
                            long n = 1 + rnd.nextInt(mine.size());
                            byte[] r = rec(rnd);
                            db.put(t, n, r);
                            mine.set((int) n - 1, r);
                        } else if (op == 2) {
                            long n = 1 + rnd.nextInt(mine.size());
                            assertEquals(mine.get((int) n - 1) != null, db.delete(t, n), "seed " + seed);
                            mine.set((int) n - 1, null);
                        } else {
                            long n = 1 + rnd.nextInt(mine.size() + 2);
                            byte[] want = n <= mine.size() ? mine.get((int) n - 1) : null;
                            assertArrayEquals(want, db.get(t, n), "seed " + seed);
                        }
                    }
                    if (rnd.nextInt(3) > 0) {
                        t.commit();
                        model = mine;
                    } else { // aborted on close: the count does not go back; the numbers taken stay absent
                        while (model.size() < mine.size()) {
                            model.add(null);
                        }
                    }
                }
            }
            check(db, model, seed);
        }
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "r", RECNO)) {
            check(db, model, seed);
        }
    }

    private static void check(Database db, List<byte[]> model, long seed) {
        assertEquals(model.size(), db.count(null), "seed " + seed);
        for (int n = 1; n <= model.size(); n++) {
            assertArrayEquals(model.get(n - 1), db.get(null, n), "record " + n + " seed " + seed);
        }
        try (Cursor c = db.openCursor(null)) { // forwards and backwards over the present records
            for (int n = 1; n <= model.size(); n++) {
                if (model.get(n - 1) != null) {
                    assertTrue(c.next(), "seed " + seed);
                    assertEquals(n, c.recno());
                    assertArrayEquals(model.get(n - 1), c.data());
                }
            }
            assertFalse(c.next());
            for (int n = model.size(); n >= 1; n--) {
                if (model.get(n - 1) != null) {
                    assertEquals(n, c.recno(), "seed " + seed);
                    if (n > 1 && model.subList(0, n - 1).stream().anyMatch(x -> x != null)) {
                        assertTrue(c.prev());
                    }
                }
            }
        }
    }

    @Test
    void configReportsTheStoredRecordLengthAfterReopen() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "r", RECNO)) {
            assertEquals(LEN, db.config().recordLength());
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "r", DatabaseConfig.builder().type(DatabaseType.RECNO).build())) {
            assertEquals(100, DatabaseConfig.builder().build().recordLength(), "what the caller passed");
            assertEquals(LEN, db.config().recordLength(), "what the database stores");
            assertEquals(DatabaseType.RECNO, db.config().type());
            assertFalse(db.config().allowCreate());
        }
        java.util.Comparator<byte[]> reverse = (x, y) -> java.util.Arrays.compareUnsigned(y, x);
        EnvironmentConfig orders = EnvironmentConfig.builder().keyOrder("reverse", reverse).build();
        try (Environment env = Environment.open(dir, orders)) {
            env.openDatabase(null, "b", DatabaseConfig.builder().allowCreate(true).keyOrder("reverse").build()).close();
            try (Database b = env.openDatabase(null, "b", DatabaseConfig.defaults())) {
                assertEquals("reverse", b.config().keyOrder(), "the recorded key order, not the caller's null");
            }
        }
    }

    @Test
    void verifyChecksEveryDataPage() throws Exception {
        // Without the page images logged before page writes: the open's torn-page repair would
        // otherwise rewrite the damaged page from its image before verify could see it.
        EnvironmentConfig noImages = EnvironmentConfig.builder().tornWriteProtection(false).build();
        try (Environment env = Environment.open(dir, noImages);
             Database db = env.openDatabase(null, "r", RECNO)) {
            Random rnd = new Random(2);
            for (int i = 0; i < 300; i++) { // 99 records of 41 bytes per 4 KiB page: pages 1..4
                db.append(null, rec(rnd));
            }
            db.delete(null, 150L);
            assertEquals(java.util.List.of(), db.verify());
        }
        try (java.io.RandomAccessFile f = new java.io.RandomAccessFile(dir.resolve("r.db").toFile(), "rw")) {
            f.seek(3 * 4096 + 32 + 5 * (1 + LEN)); // page 2 (after the header page), record 105's presence byte
            f.write(7);
        }
        try (Environment env = Environment.open(dir, noImages);
             Database db = env.openDatabase(null, "r", DatabaseConfig.builder().type(DatabaseType.RECNO).build())) {
            java.util.List<String> problems = db.verify();
            assertEquals(1, problems.size(), problems.toString());
            assertTrue(problems.get(0).startsWith("page 2: "), problems.toString());
        }
    }

    @Test
    void badRecordNumbersAndTypes() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "r", RECNO)) {
            Random rnd = new Random(1);
            assertEquals(1, db.append(null, rec(rnd)));
            assertThrows(IllegalArgumentException.class, () -> db.get(null, 0L), "recno 0");
            assertThrows(IllegalArgumentException.class, () -> db.get(null, -5L), "negative");
            assertNull(db.get(null, 2L), "past the end");
            assertFalse(db.delete(null, 7L));
            IllegalArgumentException gap = assertThrows(IllegalArgumentException.class, () -> db.put(null, 3L, rec(rnd)));
            assertTrue(gap.getMessage().contains("past the end"), gap.getMessage());
            assertThrows(IllegalArgumentException.class, () -> db.append(null, new byte[LEN + 1]), "wrong length");
            assertThrows(IllegalStateException.class, () -> db.get(null, new byte[] {1}), "B-tree method on recno");
            try (Database bt = env.openDatabase(null, "b", DatabaseConfig.builder().allowCreate(true).build())) {
                assertThrows(IllegalStateException.class, () -> bt.append(null, rec(rnd)), "recno method on a B-tree");
                IllegalArgumentException wrong = assertThrows(IllegalArgumentException.class,
                        () -> env.openDatabase(null, "b", RECNO));
                assertTrue(wrong.getMessage().contains("BTREE"), wrong.getMessage());
            }
            db.put(null, 2L, rec(rnd)); // one past the end appends
            assertEquals(2, db.count(null));
        }
    }
}
