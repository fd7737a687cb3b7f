package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.testkit.Seeds;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The checkpoint that ends recovery writes no pages (the next checkpoint writes them), and
 * updates of the same length are logged as one update in place: a crash with losers that updated
 * in place, a second crash right after the recovery (the redone pages still unwritten), then a
 * recovery that redid more than two checkpoint intervals, which writes them at open. The same
 * with values in overflow chains, which updates of the same length overwrite in place.
 */
class RecoveryCheckpointTest {
    @TempDir
    Path dir;

    static final int KEYS = 400;

    static byte[] key(int i) {
        return String.format("k%05d", i).getBytes(StandardCharsets.UTF_8);
    }

    /** Inline values of one length: every update is in place in the leaf. */
    static final int INLINE_LENGTH = 24;
    /** Over the inline limit of a 4 KiB page: a one-page overflow chain, overwritten in place. */
    static final int OVERFLOW_LENGTH = 2_500;

    int length = INLINE_LENGTH;

    byte[] value(Random rnd) {
        byte[] v = new byte[length]; // one length: every update is in place
        rnd.nextBytes(v);
        return v;
    }

    /** No checkpoint but the open's: recovery redoes every change of the workload. */
    static EnvironmentConfig config() {
        return EnvironmentConfig.builder().checkpointBytes(0).checkpointSeconds(0).build();
    }

    private static void check(Database db, Map<Integer, byte[]> model, long seed) {
        for (int i = 0; i < KEYS; i++) {
            assertArrayEquals(model.get(i), db.get(null, key(i)), "key " + i + ", seed " + seed);
        }
        assertEquals(java.util.List.of(), db.verify(), "seed " + seed);
    }

    private static void crash(FaultInjectingStorage fis, Environment env, Database db) throws Exception {
        fis.crash(new Random(1), FaultInjectingStorage.CrashMode.KEEP_ALL); // as kill -9: the OS keeps every write
        try {
            db.close();
            env.close();
        } catch (RuntimeException expected) {
            // the storage is gone
        }
    }

    @Test
    void recoveryWritesNoPagesAndASecondCrashBeforeTheNextCheckpointLosesNothing() throws Exception {
        crashTwiceAndRecover();
    }

    @Test
    void overflowValuesOverwrittenInPlaceByLosersAreRestoredByRecovery() throws Exception {
        length = OVERFLOW_LENGTH;
        crashTwiceAndRecover();
    }

    private void crashTwiceAndRecover() throws Exception {
        long seed = Seeds.seed("RecoveryCheckpointTest");
        Random rnd = new Random(seed);
        Map<Integer, byte[]> model = new HashMap<>();
        FaultInjectingStorage first = new FaultInjectingStorage(dir);
        Environment env1 = Environment.open(dir, config(), first);
        Database db1 = env1.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
        env1.runInTransaction(t -> {
            for (int i = 0; i < KEYS; i++) {
                byte[] v = value(rnd);
                db1.put(t, key(i), v);
                model.put(i, v);
            }
        });
        for (int n = 0; n < 200; n++) {
            Transaction t = env1.beginTransaction();
            Map<Integer, byte[]> mine = new HashMap<>();
            for (int k = 0; k < 5; k++) {
                int i = rnd.nextInt(KEYS);
                byte[] v = value(rnd);
                db1.put(t, key(i), v);
                mine.put(i, v);
            }
            if (rnd.nextInt(4) == 0) {
                t.abort(); // undone in place, its compensations logged
            } else {
                t.commit();
                model.putAll(mine);
            }
        }
        Transaction loser = env1.beginTransaction(); // updates in place, never ends
        for (int i = 0; i < KEYS; i += 7) {
            db1.put(loser, key(i), value(rnd));
        }
        try (Database other = env1.openDatabase(null, "u", DatabaseConfig.builder().allowCreate(true).build())) {
            env1.runInTransaction(t -> other.put(t, key(1), key(1))); // its forced commit carries the loser's records
        }
        crash(first, env1, db1);

        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        Environment env = Environment.open(dir, config(), fis);
        Database db = env.openDatabase(null, "t", DatabaseConfig.defaults());
        assertTrue(env.wasRecovered());
        assertEquals(0, env.stats().cache().writes(), "the checkpoint ending recovery wrote pages: " + env.stats().cache());
        assertTrue(env.stats().cache().dirtyFrames() > 0, "redo left the changed pages dirty in the pool: " + env.stats());
        check(db, model, seed);
        crash(fis, env, db); // again, before any checkpoint wrote what recovery redid

        // With checkpoints every 16 KiB of log, this recovery redid far more than two intervals
        // (two crashes in a row): the checkpoint ending it writes the pages, bounding the next one.
        env = Environment.open(dir, EnvironmentConfig.builder().checkpointBytes(16 * 1024).checkpointSeconds(0).build());
        db = env.openDatabase(null, "t", DatabaseConfig.defaults());
        try {
            assertTrue(env.wasRecovered());
            assertTrue(env.stats().cache().writes() > 0, "the redone pages written at open: " + env.stats().cache());
            check(db, model, seed);
            byte[] v = value(rnd);
            Database d = db;
            env.runInTransaction(t -> d.put(t, key(2), v));
            model.put(2, v);
            check(db, model, seed);
        } finally {
            db.close();
            env.close();
        }
        try (Environment e = Environment.open(dir, EnvironmentConfig.defaults());
             Database d = e.openDatabase(null, "t", DatabaseConfig.defaults())) {
            check(d, model, seed);
            assertTrue(Arrays.equals(model.get(2), d.get(null, key(2))));
        }
    }
}
