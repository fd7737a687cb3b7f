package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.SelfDeadlockException;
import org.libtp.core.storage.FaultInjectingStorage;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

/**
 * Record locks in one process: two transactions of one thread show who waits for whom without
 * threads (a wait for a transaction of the same thread is refused at once with
 * {@link SelfDeadlockException}). Updates of different keys of one leaf and appends to one
 * recno run side by side; the same key, a reader or an insert on that leaf, and an update that
 * changes the value's length wait; abort and recovery undo only the loser's record.
 */
class RecordLockTest {
    @TempDir
    Path dir;

    static byte[] key(int i) {
        return String.format("key%03d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] val(String s) {
        byte[] v = new byte[40];
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        System.arraycopy(b, 0, v, 0, b.length);
        return v;
    }

    static final DatabaseConfig BTREE = DatabaseConfig.builder().allowCreate(true).build();
    static final DatabaseConfig RECNO = DatabaseConfig.builder().allowCreate(true).type(DatabaseType.RECNO)
            .recordLength(16).build();

    private static void load(Environment env, Database db) {
        env.runInTransaction(t -> {
            for (int i = 0; i < 20; i++) { // 20 small entries: one leaf
                db.put(t, key(i), val("v" + i));
            }
        });
    }

    /**
     * Makes the leaf of the test keys contended (hot) in this process: the first update of a leaf
     * takes its WRITE lock (one lock call); the next transaction that finds it taken marks the
     * leaf, and updates there lock records from then on.
     */
    private static void heat(Environment env, Database db) {
        Transaction x = env.beginTransaction();
        try {
            db.update(x, key(10), v -> v); // the leaf's WRITE: nobody else on it
            waits(env, y -> db.update(y, key(11), v -> v), "an update on a leaf another one WRITE-locked");
        } finally {
            x.abort();
        }
    }

    /** Runs {@code op} in a new transaction, which must be refused (it would wait), and aborts it. */
    private static void waits(Environment env, java.util.function.Consumer<Transaction> op, String what) {
        Transaction c = env.beginTransaction();
        try {
            assertThrows(SelfDeadlockException.class, () -> op.accept(c), what + " waits");
        } finally {
            c.abort();
        }
    }

    @Test
    void updatesOfDifferentKeysOfOneLeafRunSideBySide() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", BTREE)) {
            load(env, db);
            heat(env, db);
            Transaction a = env.beginTransaction();
            Transaction b = env.beginTransaction();
            db.update(a, key(1), v -> val("a1"));
            db.update(b, key(2), v -> val("b2")); // another record of the leaf: no wait
            db.update(b, key(3), v -> val("b3"));
            waits(env, c -> db.update(c, key(1), v -> val("c1")), "the same key");
            waits(env, c -> db.get(c, key(5)), "a reader of the leaf (page READ)");
            waits(env, c -> db.put(c, key(7), val("c7")), "a put (page WRITE)");
            waits(env, c -> db.put(c, "key004x".getBytes(StandardCharsets.UTF_8), val("new")), "an insert");
            waits(env, c -> db.delete(c, key(9)), "a delete");
            assertNull(db.update(b, "key999".getBytes(StandardCharsets.UTF_8), v -> v), "an absent key");
            a.abort();
            b.commit();
            assertArrayEquals(val("v1"), db.get(null, key(1)), "the loser's record undone");
            assertArrayEquals(val("b2"), db.get(null, key(2)));
            assertArrayEquals(val("b3"), db.get(null, key(3)));
            assertEquals(java.util.List.of(), db.verify());
        }
    }

    @Test
    void anUncontendedLeafTakesOneLockCallAHotOneTwo() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", BTREE)) {
            load(env, db);
            long cold = requestsOfOneUpdate(env, db);
            heat(env, db);
            long hot = requestsOfOneUpdate(env, db);
            assertEquals(cold + 1, hot, "IWRITE on the leaf and WRITE on the record, in place of the leaf's WRITE");
        }
    }

    private static long requestsOfOneUpdate(Environment env, Database db) {
        try (Transaction t = env.beginTransaction()) {
            long r0 = env.stats().locks().requests();
            db.update(t, key(1), v -> v);
            long n = env.stats().locks().requests() - r0;
            t.commit();
            return n;
        }
    }

    @Test
    void anUpdateThatChangesTheLengthTakesThePage() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", BTREE)) {
            load(env, db);
            heat(env, db);
            Transaction a = env.beginTransaction();
            db.update(a, key(1), v -> val("a1"));
            db.update(null, key(3), v -> val("auto3")); // a record beside a's
            waits(env, c -> db.update(c, key(2), v -> Arrays.copyOf(v, 60)), "a longer value (a delete and insert)");
            a.commit();
            db.update(null, key(2), v -> Arrays.copyOf(v, 60));
            assertEquals(60, db.get(null, key(2)).length);
            assertArrayEquals(val("a1"), db.get(null, key(1)));
        }
    }

    @Test
    void aRegisteredKeyOrderLocksTheLeaf() {
        // Under a registered order two byte strings may be one key: a hash of the bytes cannot name it.
        java.util.Comparator<byte[]> caseless = (x, y) -> new String(x, StandardCharsets.UTF_8)
                .compareToIgnoreCase(new String(y, StandardCharsets.UTF_8));
        EnvironmentConfig cfg = EnvironmentConfig.builder().keyOrder("caseless", caseless).build();
        try (Environment env = Environment.open(dir, cfg);
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true)
                     .keyOrder("caseless").build())) {
            load(env, db);
            Transaction a = env.beginTransaction();
            db.update(a, key(1), v -> val("a1"));
            waits(env, c -> db.update(c, "KEY001".getBytes(StandardCharsets.UTF_8), v -> val("c1")),
                    "the same key in other bytes");
            waits(env, c -> db.update(c, key(2), v -> val("c2")), "another key of the leaf");
            a.commit();
        }
    }

    @Test
    void appendsRunSideBySideAndAnAbortedAppendLeavesItsNumberAbsent() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database r = env.openDatabase(null, "r", RECNO)) {
            byte[] x = new byte[16];
            Arrays.fill(x, (byte) 'x');
            byte[] y = new byte[16];
            Arrays.fill(y, (byte) 'y');
            Transaction a = env.beginTransaction();
            Transaction b = env.beginTransaction();
            assertEquals(1, r.append(a, x));
            assertEquals(2, r.append(b, y)); // no wait for a
            assertEquals(3, r.append(a, x));
            waits(env, c -> r.count(c), "the count");
            waits(env, c -> r.get(c, 1L), "a reader");
            waits(env, c -> r.put(c, 4L, x), "a put past the end");
            a.abort();
            b.commit();
            assertEquals(3, r.count(null), "the count does not go back");
            assertNull(r.get(null, 1L));
            assertArrayEquals(y, r.get(null, 2L));
            assertNull(r.get(null, 3L));
            assertEquals(4, r.append(null, x));
            assertEquals(java.util.List.of(), r.verify());
        }
    }

    @Test
    void recoveryUndoesTheLosersRecordsAndKeepsTheWinnersOnTheSamePages() throws Exception {
        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        Environment env = Environment.open(dir, EnvironmentConfig.defaults(), fis);
        Database db = env.openDatabase(null, "t", BTREE);
        Database r = env.openDatabase(null, "r", RECNO);
        load(env, db);
        heat(env, db);
        byte[] x = new byte[16];
        Arrays.fill(x, (byte) 'x');
        byte[] y = new byte[16];
        Arrays.fill(y, (byte) 'y');
        Transaction loser = env.beginTransaction();
        Transaction winner = env.beginTransaction();
        db.update(loser, key(1), v -> val("lost"));
        db.update(winner, key(2), v -> val("won"));
        assertEquals(1, r.append(loser, x));
        assertEquals(2, r.append(winner, y));
        db.update(loser, key(3), v -> val("lost"));
        winner.commit(); // durable: forces the loser's records before it too
        fis.crash(new Random(1), FaultInjectingStorage.CrashMode.KEEP_ALL); // as kill -9
        try {
            r.close();
            db.close();
            env.close();
        } catch (RuntimeException expected) {
            // the storage is gone
        }
        try (Environment e2 = Environment.open(dir, EnvironmentConfig.defaults());
             Database d2 = e2.openDatabase(null, "t", BTREE);
             Database r2 = e2.openDatabase(null, "r", RECNO)) {
            assertArrayEquals(val("v1"), d2.get(null, key(1)));
            assertArrayEquals(val("won"), d2.get(null, key(2)));
            assertArrayEquals(val("v3"), d2.get(null, key(3)));
            assertEquals(2, r2.count(null));
            assertNull(r2.get(null, 1L), "the loser's append");
            assertArrayEquals(y, r2.get(null, 2L));
            assertEquals(java.util.List.of(), d2.verify());
            assertEquals(java.util.List.of(), r2.verify());
        }
    }
}
