package org.libtp.db;

import org.libtp.core.CorruptionException;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.SelfDeadlockException;
import org.libtp.core.testkit.Seeds;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class RecordApiTest {
    @TempDir
    Path dir;

    static byte[] b(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static final DatabaseConfig CREATE = DatabaseConfig.builder().allowCreate(true).build();

    static Path mkdir(Path p) {
        try {
            return java.nio.file.Files.createDirectories(p);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void aMissingDirectoryIsAnErrorNotANewEnvironment() {
        Path missing = dir.resolve("no-such-dir");
        EnvironmentAccessException e = assertThrows(EnvironmentAccessException.class,
                () -> Environment.open(missing, EnvironmentConfig.defaults()));
        assertTrue(e.getMessage().contains(missing.toString()) && e.getMessage().contains("does not exist; create it first"),
                e.getMessage());
        assertFalse(java.nio.file.Files.exists(missing), "nothing was created");
    }

    @Test
    void everyModeStoresAndReads() {
        for (OpenMode mode : OpenMode.values()) {
            Path home = mkdir(dir.resolve(mode.name()));
            EnvironmentConfig cfg = EnvironmentConfig.builder().mode(mode).cacheBytes(1 << 20).build();
            try (Environment env = Environment.open(home, cfg); Database db = env.openDatabase(null, "d", CREATE)) {
                for (int i = 0; i < 2000; i++) {
                    db.put(null, b("k" + i), b("v" + i));
                }
                assertArrayEquals(b("v7"), db.get(null, b("k7")));
                assertFalse(db.putIfAbsent(null, b("k7"), b("x")));
                assertTrue(db.delete(null, b("k7")));
                assertNull(db.get(null, b("k7")));
                assertEquals(1999, db.stat().entries(), mode.name());
                assertEquals(List.of(), db.verify());
            }
            try (Environment env = Environment.open(home, cfg);
                 Database db = env.openDatabase(null, "d", DatabaseConfig.defaults())) {
                assertArrayEquals(b("v1999"), db.get(null, b("k1999")), mode + " after reopen");
                assertEquals(List.of("d"), env.databaseNames());
            }
        }
    }

    @Test
    void updateReadsModifiesAndWritesInOneStep() {
        for (OpenMode mode : OpenMode.values()) {
            Path home = mkdir(dir.resolve("u" + mode));
            EnvironmentConfig cfg = EnvironmentConfig.builder().mode(mode).cacheBytes(1 << 20).build();
            try (Environment env = Environment.open(home, cfg); Database db = env.openDatabase(null, "d", CREATE)) {
                for (int i = 0; i < 500; i++) {
                    db.put(null, b("k" + i), b("v" + i));
                }
                assertArrayEquals(b("w7"), db.update(null, b("k7"), v -> b("w" + new String(v, StandardCharsets.UTF_8).substring(1))));
                assertArrayEquals(b("w7"), db.get(null, b("k7")));
                // another length goes through a delete and an insert
                assertArrayEquals(b("longer value"), db.update(null, b("k8"), v -> b("longer value")));
                assertArrayEquals(b("longer value"), db.get(null, b("k8")));
                byte[] big = new byte[3000]; // an overflow value
                db.update(null, b("k9"), v -> big);
                assertArrayEquals(big, db.get(null, b("k9")));
                boolean[] called = {false};
                assertNull(db.update(null, b("absent"), v -> {
                    called[0] = true;
                    return v;
                }));
                assertFalse(called[0]);
                assertThrows(IllegalArgumentException.class, () -> db.update(null, b("k1"), v -> null));
                assertThrows(IllegalStateException.class, () -> db.update(null, b("k1"), v -> {
                    throw new IllegalStateException("the function failed");
                }));
                assertArrayEquals(b("v1"), db.get(null, b("k1")), mode + ": a failed update changed nothing");
                assertEquals(List.of(), db.verify());
                if (mode == OpenMode.TP) {
                    try (Transaction t = env.beginTransaction()) {
                        db.update(t, b("k2"), v -> b("x2"));
                        assertArrayEquals(b("x2"), db.get(t, b("k2")));
                        t.abort();
                    }
                    assertArrayEquals(b("v2"), db.get(null, b("k2")), "an aborted update is rolled back");
                    try (Transaction r = env.beginTransaction(Durability.SYNC, true)) {
                        assertThrows(IllegalStateException.class, () -> db.update(r, b("k2"), v -> v));
                        r.commit();
                    }
                }
            }
            try (Environment env = Environment.open(home, cfg); Database db = env.openDatabase(null, "d", CREATE)) {
                assertArrayEquals(b("w7"), db.get(null, b("k7")), mode + " after reopen");
                assertArrayEquals(b("longer value"), db.get(null, b("k8")));
            }
        }
    }

    @Test
    void getForUpdateWriteLocksThePage() {
        EnvironmentConfig cfg = EnvironmentConfig.builder().cacheBytes(1 << 20).lockTimeoutMillis(200).build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "d", CREATE)) {
            db.put(null, b("k"), b("v"));
            assertNull(db.getForUpdate(null, b("absent")));
            try (Transaction t1 = env.beginTransaction()) {
                assertArrayEquals(b("v"), db.getForUpdate(t1, b("k")));
                try (Transaction t2 = env.beginTransaction()) {
                    // A shared read of the page would wait for t1's write lock (a plain get would not):
                    // in the same thread, whose t1 cannot end meanwhile, it is refused at once.
                    assertThrows(SelfDeadlockException.class, () -> db.get(t2, b("k")));
                    t2.abort();
                }
                db.put(t1, b("k"), b("w"));
                t1.commit();
            }
            try (Transaction r = env.beginTransaction(Durability.SYNC, true)) {
                assertThrows(IllegalStateException.class, () -> db.getForUpdate(r, b("k")));
                assertArrayEquals(b("w"), db.get(r, b("k")));
                r.commit();
            }
        }
    }

    @Test
    void cursorsAndTransactionsMatchAModel() {
        long seed = Seeds.seed("RecordApiTest");
        Random rnd = new Random(seed);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        EnvironmentConfig cfg = EnvironmentConfig.builder().cacheBytes(1 << 20).durability(Durability.NO_SYNC).build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "m", CREATE)) {
            for (int i = 0; i < 300; i++) {
                TreeMap<byte[], byte[]> mine = new TreeMap<>(model);
                try (Transaction t = env.beginTransaction()) {
                    for (int k = 0; k < 10; k++) {
                        byte[] key = b("key" + rnd.nextInt(2000));
                        if (rnd.nextInt(4) == 0) {
                            assertEquals(mine.remove(key) != null, db.delete(t, key), "seed " + seed);
                        } else {
                            byte[] data = b("d" + rnd.nextInt());
                            db.put(t, key, data);
                            mine.put(key, data);
                        }
                    }
                    if (rnd.nextInt(3) > 0) {
                        t.commit();
                        model = mine;
                    } // else: closed uncommitted = aborted
                }
            }
            check(db, model, seed);
        }
        try (Environment env = Environment.open(dir, cfg);
             Database db = env.openDatabase(null, "m", DatabaseConfig.defaults())) {
            check(db, model, seed);
        }
    }

    private static void check(Database db, TreeMap<byte[], byte[]> model, long seed) {
        try (Cursor c = db.openCursor(null)) {
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertTrue(c.next(), "seed " + seed);
                assertArrayEquals(e.getKey(), c.key(), "seed " + seed);
                assertArrayEquals(e.getValue(), c.data(), "seed " + seed);
            }
            assertFalse(c.next());
            assertTrue(c.last() || model.isEmpty());
            for (Map.Entry<byte[], byte[]> e : model.descendingMap().entrySet()) {
                assertArrayEquals(e.getKey(), c.key(), "backwards, seed " + seed);
                if (!e.getKey().equals(model.firstKey())) {
                    assertTrue(c.prev(), "seed " + seed);
                }
            }
            assertFalse(c.prev());
            if (!model.isEmpty()) {
                byte[] mid = model.keySet().toArray(new byte[0][])[model.size() / 2];
                assertTrue(c.seek(mid));
                assertArrayEquals(model.get(mid), c.data());
                byte[] probe = Arrays.copyOf(mid, mid.length + 1);
                assertEquals(model.ceilingKey(probe) != null, c.seekRange(probe));
            }
        }
        assertEquals(List.of(), db.verify());
    }

    @Test
    void cursorPutAndDelete() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "c", CREATE)) {
            for (int i = 0; i < 10; i++) {
                db.put(null, b("k" + i), b("v" + i));
            }
            try (Transaction t = env.beginTransaction(); Cursor c = db.openCursor(t)) {
                while (c.next()) {
                    if (c.key()[1] % 2 == 0) {
                        c.delete();
                    } else {
                        c.put(b("odd"));
                    }
                }
                t.commit();
            }
            assertNull(db.get(null, b("k4")));
            assertArrayEquals(b("odd"), db.get(null, b("k5")));
            assertEquals(5, db.stat().entries());
        }
    }

    @Test
    void aCursorWithoutATransactionReadsInAReadOnlyOneOfItsOwn() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().lockTimeoutMillis(300).build());
             Database db = env.openDatabase(null, "c", CREATE)) {
            db.put(null, b("k"), b("v"));
            try (Cursor c = db.openCursor(null)) {
                assertTrue(c.first());
                IllegalStateException e = assertThrows(IllegalStateException.class, () -> c.put(b("w")));
                assertTrue(e.getMessage().contains("pass a transaction"), e.getMessage());
                assertThrows(IllegalStateException.class, c::delete);
                assertArrayEquals(b("v"), c.data());
                // Its transaction holds a read lock: a reader shares it, a writer would wait for it
                // (in this same thread, which holds the cursor, it is refused at once).
                assertArrayEquals(b("v"), db.get(null, b("k")));
                assertThrows(SelfDeadlockException.class, () -> db.put(null, b("k"), b("x")));
            }
            assertArrayEquals(b("v"), db.get(null, b("k")), "nothing changed");
            db.put(null, b("k"), b("w")); // the cursor's read lock is gone with it
        }
    }

    @Test
    void closingTheEnvironmentAbortsTransactionsAndClosesCursorsLeftOpen() {
        Environment env = Environment.open(dir, EnvironmentConfig.defaults());
        Database db = env.openDatabase(null, "c", CREATE);
        db.put(null, b("kept"), b("1"));
        Transaction t = env.beginTransaction();
        db.put(t, b("lost"), b("2"));
        Database other = env.openDatabase(null, "other", CREATE); // t write-locked c's only page
        other.put(null, b("x"), b("y"));
        Cursor own = other.openCursor(null);
        assertTrue(own.first());
        Cursor inTxn = db.openCursor(t);
        assertTrue(inTxn.first());
        Transaction done = env.beginTransaction();
        done.commit();
        java.io.ByteArrayOutputStream err = new java.io.ByteArrayOutputStream();
        java.io.PrintStream saved = System.err;
        System.setErr(new java.io.PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            env.close();
        } finally {
            System.setErr(saved);
        }
        assertFalse(t.isActive(), "aborted by close");
        assertFalse(own.isOpen());
        assertFalse(inTxn.isOpen());
        String log = err.toString(StandardCharsets.UTF_8);
        assertTrue(log.contains("WARN") && log.contains("transaction " + t.id() + " is still active; aborting it"), log);
        assertEquals(1, log.lines().filter(l -> l.contains("aborting it")).count(), "one line per transaction: " + log);
        assertEquals(2, log.lines().filter(l -> l.contains("is still open; closing it")).count(), "one per cursor: " + log);
        t.close(); // nothing left to do
        assertThrows(IllegalStateException.class, t::commit);
        try (Environment again = Environment.open(dir, EnvironmentConfig.defaults());
             Database d = again.openDatabase(null, "c", DatabaseConfig.defaults())) {
            assertArrayEquals(b("1"), d.get(null, b("kept")));
            assertNull(d.get(null, b("lost")), "rolled back");
            Cursor c = d.openCursor(null);
            assertTrue(c.first());
            d.close();
            assertFalse(c.isOpen(), "closing a database closes its cursors");
            assertEquals(0, again.stats().transactions().active(), "and ends their transactions");
        }
    }

    /**
     * A backward scan across leaves that deletes emptied and compaction unlinked visits every key
     * below its start (RecordApiModelPropertyTest has the sequence that once stopped early).
     */
    @Test
    void aBackwardScanCrossesEmptiedLeaves() {
        EnvironmentConfig small = EnvironmentConfig.builder().pageSize(512).cacheBytes(64 * 512).build();
        try (Environment env = Environment.open(dir, small);
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            TreeMap<String, String> model = new TreeMap<>();
            for (int i = 0; i < 600; i++) {
                String k = String.format("key%04d", i);
                db.put(null, k.getBytes(StandardCharsets.UTF_8), new byte[20]);
                model.put(k, k);
            }
            for (int from : new int[] {100, 300, 450}) {
                for (int i = from; i < from + 60; i++) {
                    String k = String.format("key%04d", i);
                    db.delete(null, k.getBytes(StandardCharsets.UTF_8));
                    model.remove(k);
                }
            }
            db.compact(); // unlinks the emptied leaves: their neighbours take over their key ranges
            for (int i = 600; i < 700; i += 7) { // and more splits
                String k = String.format("key%04d", i);
                db.put(null, k.getBytes(StandardCharsets.UTF_8), new byte[20]);
                model.put(k, k);
            }
            for (String top : new String[] {"key0699", "key0599", "key0500", "key0362", "key0170", "key0160", "key0130"}) {
                List<String> got = new java.util.ArrayList<>();
                try (Cursor c = db.openCursor(null, KeyRange.atMost(top.getBytes(StandardCharsets.UTF_8)))) {
                    for (boolean ok = c.last(); ok; ok = c.prev()) {
                        got.add(new String(c.key(), StandardCharsets.UTF_8));
                    }
                }
                assertEquals(new java.util.ArrayList<>(model.headMap(top, true).descendingKeySet()), got, "backward from " + top);
            }
        }
    }

    /** Names whose files would look like the environment's own (log files, __libtp*) work too. */
    @Test
    void databasesNamedLikeTheEnvironmentsOwnFiles() {
        List<String> names = List.of("log", "log.old", "__libtp", "login");
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            for (String n : names) {
                try (Database db = env.openDatabase(null, n, DatabaseConfig.builder().allowCreate(true).build())) {
                    db.put(null, n.getBytes(), n.getBytes());
                }
            }
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            for (String n : names) {
                try (Database db = env.openDatabase(null, n, DatabaseConfig.defaults())) {
                    assertArrayEquals(n.getBytes(), db.get(null, n.getBytes()), n);
                }
            }
        }
    }

    @Test
    void catalogChangesAreTransactional() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            try (Transaction t = env.beginTransaction()) {
                env.openDatabase(t, "gone", CREATE).put(t, b("a"), b("1"));
                t.abort();
            }
            assertThrows(DatabaseNotFoundException.class, () -> env.openDatabase(null, "gone", DatabaseConfig.defaults()));
            env.openDatabase(null, "x", CREATE).put(null, b("a"), b("1"));
            env.renameDatabase(null, "x", "y");
            assertEquals(List.of("y"), env.databaseNames());
            try (Database y = env.openDatabase(null, "y", DatabaseConfig.defaults())) {
                assertArrayEquals(b("1"), y.get(null, b("a")));
            }
            try (Transaction t = env.beginTransaction()) {
                env.removeDatabase(t, "y");
                t.abort();
            }
            assertEquals(List.of("y"), env.databaseNames());
            env.removeDatabase(null, "y");
            assertEquals(List.of(), env.databaseNames());
            assertThrows(DatabaseNotFoundException.class, () -> env.removeDatabase(null, "y"));
            DatabaseNotFoundException rn = assertThrows(DatabaseNotFoundException.class,
                    () -> env.renameDatabase(null, "y", "z"));
            assertTrue(rn.getMessage().contains("database y does not exist"), rn.getMessage());
            env.openDatabase(null, "x2", CREATE).close();
            assertThrows(IllegalArgumentException.class, () -> env.renameDatabase(null, "x2", "x2"),
                    "renaming onto an existing name is still a bad argument");
            // Created again: empty (a new file), not the removed database's pages.
            try (Database y2 = env.openDatabase(null, "y", CREATE)) {
                assertNull(y2.get(null, b("a")));
                assertEquals(0, y2.stat().entries());
            }
        }
    }

    @Test
    void deletedRangesAreReclaimedAndCompactFindsWhatIsLeft() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "r", CREATE)) {
            byte[] v = new byte[300];
            try (Transaction t = env.beginTransaction()) {
                for (int i = 0; i < 2000; i++) {
                    db.put(t, b(String.format("k%06d", i)), v);
                }
                t.commit();
            }
            long leaves = db.stat().leafPages();
            try (Transaction t = env.beginTransaction()) {
                for (int i = 0; i < 2000; i++) {
                    if (i != 1500) {
                        db.delete(t, b(String.format("k%06d", i)));
                    }
                }
                t.commit();
            }
            DatabaseStats st = db.stat();
            assertTrue(st.leafPages() <= 3, st + " (from " + leaves + " leaves)");
            assertTrue(st.freePages() >= leaves - 3, st.toString());
            assertEquals(List.of(), db.verify());
            long pages = st.pages();
            for (int i = 0; i < 2000; i++) { // the free pages are used before the file grows
                db.put(null, b(String.format("j%06d", i)), v);
            }
            assertTrue(db.stat().pages() <= pages + 3, db.stat() + ", was " + st);
            assertTrue(db.compact() >= 0);
            assertEquals(List.of(), db.verify());
        }
    }

    @Test
    void misuseGetsClearExceptions() {
        Environment env = Environment.open(dir, EnvironmentConfig.defaults());
        Database db = env.openDatabase(null, "bad", CREATE);
        assertThrows(IllegalArgumentException.class, () -> db.put(null, new byte[0], b("x")), "empty key");
        assertThrows(IllegalArgumentException.class, () -> db.put(null, new byte[db.maxKeyLength() + 1], b("x")));
        assertThrows(IllegalArgumentException.class, () -> db.put(null, null, b("x")));
        assertThrows(IllegalArgumentException.class, () -> db.put(null, b("k"), null));
        assertThrows(IllegalArgumentException.class, () -> env.openDatabase(null, "../x", CREATE));
        assertThrows(DatabaseNotFoundException.class, () -> env.openDatabase(null, "missing", DatabaseConfig.defaults()));
        Transaction ro = env.beginTransaction(Durability.SYNC, true);
        assertNull(db.get(ro, b("k")));
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> db.put(ro, b("k"), b("v")));
        assertTrue(e.getMessage().contains("read-only"), e.getMessage());
        ro.commit();
        assertThrows(IllegalStateException.class, () -> db.get(ro, b("k")), "finished transaction");
        Database readOnly = env.openDatabase(null, "bad", DatabaseConfig.builder().readOnly(true).build());
        assertThrows(IllegalStateException.class, () -> readOnly.delete(null, b("k")));
        Cursor c = db.openCursor(null);
        assertThrows(IllegalStateException.class, c::key, "not positioned");
        c.close();
        assertThrows(IllegalStateException.class, c::next);
        db.close();
        assertThrows(IllegalStateException.class, () -> db.get(null, b("k")));
        env.close();
        assertThrows(IllegalStateException.class, env::beginTransaction);
        assertThrows(IllegalStateException.class, () -> readOnly.get(null, b("k")));
        try (Environment plain = Environment.open(mkdir(dir.resolve("p")), EnvironmentConfig.builder().mode(OpenMode.SHARED).build())) {
            assertThrows(IllegalStateException.class, plain::beginTransaction);
        }
    }

    @Test
    void aCorruptedPageGivesCorruptionExceptionNeverWrongData() throws Exception {
        // Without torn-write protection: with it, pages the closing checkpoint wrote are rewritten
        // from their logged images at the next open (TornPageTest); this is about what nothing repairs.
        EnvironmentConfig cfg = EnvironmentConfig.builder().tornWriteProtection(false).build();
        try (Environment env = Environment.open(dir, cfg);
             Database db = env.openDatabase(null, "c", CREATE)) {
            for (int i = 0; i < 3000; i++) {
                db.put(null, b(String.format("k%05d", i)), b("value-" + i));
            }
        }
        Path file = dir.resolve("c.db");
        try (java.io.RandomAccessFile raf = new java.io.RandomAccessFile(file.toFile(), "rw")) {
            for (long page = 2; (page + 1) * 4096 < raf.length(); page++) { // every page but the meta and root
                raf.seek((page + 1) * 4096 + 3000); // after the header page
                int v = raf.read();
                raf.seek((page + 1) * 4096 + 3000); // after the header page
                raf.write(v ^ 0x40);
            }
        }
        try (Environment env = Environment.open(dir, cfg);
             Database db = env.openDatabase(null, "c", DatabaseConfig.defaults())) {
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> db.get(null, b("k01234")));
            assertTrue(e.getMessage().contains("c.db") && e.getMessage().contains("checksum"), e.getMessage());
            assertFalse(db.verify().isEmpty(), "verify reports it");
        }
    }

    @Test
    void zeroCopyReadsSeeTheBytesWhileThePageIsPinned() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "z", CREATE)) {
            db.put(null, b("k"), b("hello, pages"));
            assertEquals("hello, pages", db.get(null, b("k"), v -> {
                byte[] out = new byte[v.remaining()];
                v.get(out);
                return new String(out, StandardCharsets.UTF_8);
            }));
            assertEquals(12, (int) db.get(null, b("k"), java.nio.ByteBuffer::remaining));
            assertTrue(db.get(null, b("k"), java.nio.ByteBuffer::isReadOnly));
            assertNull(db.get(null, b("absent"), v -> 1));
            assertThrows(IllegalStateException.class, () -> db.get(null, b("k"), v -> db.get(null, b("k"))),
                    "calling back in under the page latch is refused, not a deadlock");
        }
    }

    @Test
    void aRegisteredKeyOrderWorksInTpModeThroughAbortAndReopen() {
        java.util.Comparator<byte[]> reverse = (x, y) -> Arrays.compareUnsigned(y, x);
        EnvironmentConfig cfg = EnvironmentConfig.builder().keyOrder("reverse", reverse).build();
        DatabaseConfig rev = DatabaseConfig.builder().allowCreate(true).keyOrder("reverse").build();
        try (Environment env = Environment.open(dir, cfg); Database db = env.openDatabase(null, "r", rev)) {
            for (int i = 0; i < 2000; i++) {
                db.put(null, b(String.format("k%05d", i)), b("v" + i));
            }
            try (Transaction t = env.beginTransaction()) { // deletes undone: re-inserted in the reverse order
                for (int i = 0; i < 2000; i += 2) {
                    db.delete(t, b(String.format("k%05d", i)));
                }
                t.abort();
            }
            assertEquals(List.of(), db.verify());
            try (Cursor c = db.openCursor(null)) {
                assertTrue(c.first());
                assertArrayEquals(b("k01999"), c.key(), "reverse order");
                assertTrue(c.next());
                assertArrayEquals(b("k01998"), c.key());
            }
            assertEquals(2000, db.stat().entries());
            assertThrows(IllegalArgumentException.class, () -> env.openDatabase(null, "r", DatabaseConfig.builder().keyOrder("other").build()),
                    "an unregistered order");
        }
        EnvironmentConfig two = EnvironmentConfig.builder().keyOrder("reverse", reverse)
                .keyOrder("bytes", Arrays::compareUnsigned).build();
        try (Environment env = Environment.open(dir, two)) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> env.openDatabase(null, "r", DatabaseConfig.builder().keyOrder("bytes").build()));
            assertTrue(e.getMessage().contains("reverse"), e.getMessage());
            try (Database db = env.openDatabase(null, "r", DatabaseConfig.defaults())) { // null: the recorded order
                assertArrayEquals(b("v1999"), db.get(null, b("k01999")));
            }
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
            IllegalStateException e = assertThrows(IllegalStateException.class,
                    () -> env.openDatabase(null, "r", DatabaseConfig.defaults()));
            assertTrue(e.getMessage().contains("reverse"), e.getMessage());
        }
    }

    @Test
    void theDocumentedSizeLimitsHold() {
        for (int pageSize : new int[] {4096, 65536}) {
            Path home = mkdir(dir.resolve("p" + pageSize));
            EnvironmentConfig cfg = EnvironmentConfig.builder().pageSize(pageSize).cacheBytes(64L * pageSize)
                    .logBufferSize(Math.max(1 << 20, 4 * pageSize)).durability(Durability.NO_SYNC).build();
            try (Environment env = Environment.open(home, cfg); Database db = env.openDatabase(null, "s", CREATE)) {
                assertEquals((pageSize - 48) / 8 - 8, db.maxKeyLength(), "the formula in the Javadoc");
                byte[] longest = new byte[db.maxKeyLength()];
                Arrays.fill(longest, (byte) 'k');
                db.put(null, longest, b("ok"));
                assertArrayEquals(b("ok"), db.get(null, longest));
                db.put(null, b("empty"), new byte[0]);
                assertArrayEquals(new byte[0], db.get(null, b("empty")));
            }
        }
        assertEquals(498, (4096 - 48) / 8 - 8);
        byte[] big = new byte[20 << 20]; // far above a quarter page: overflow pages
        new Random(7).nextBytes(big);
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "big", CREATE)) {
            db.put(null, b("big"), big);
            assertArrayEquals(big, db.get(null, b("big")));
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "big", CREATE)) {
            assertArrayEquals(big, db.get(null, b("big")), "after reopen");
            assertEquals(List.of(), db.verify());
        }
    }

    @Test
    void largeValuesGoToOverflowPagesThroughAbortAndReopen() {
        Random rnd = new Random(5);
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().cacheBytes(1 << 20).build());
             Database db = env.openDatabase(null, "big", CREATE)) {
            for (int i = 0; i < 60; i++) {
                byte[] v = new byte[rnd.nextInt(3) == 0 ? 10 : 1000 + rnd.nextInt(30_000)];
                rnd.nextBytes(v);
                try (Transaction t = env.beginTransaction()) {
                    byte[] k = b("k" + rnd.nextInt(40));
                    db.put(t, k, v);
                    assertArrayEquals(v, db.get(t, k));
                    if (i % 4 == 3) {
                        t.abort();
                    } else {
                        t.commit();
                        model.put(k, v);
                    }
                }
            }
            for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                assertArrayEquals(e.getValue(), db.get(null, e.getKey()));
                assertEquals(e.getValue().length, (int) db.get(null, e.getKey(), java.nio.ByteBuffer::remaining));
            }
            assertEquals(List.of(), db.verify());
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "big", DatabaseConfig.defaults())) {
            try (Cursor c = db.openCursor(null)) {
                for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
                    assertTrue(c.next());
                    assertArrayEquals(e.getValue(), c.data());
                }
            }
        }
    }
}
