package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.Seeds;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** Faults injected through the storage interface: failed force, torn tail, crash in recovery. */
class FaultInjectionTest {
    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
    static final LogConfig LOG = LogConfig.builder().fileSize(128 * 1024).bufferSize(16 * 1024).build();

    @TempDir
    Path dir;

    @Test
    void aFailedForceFailsTheEnvironmentAndIsNeverRetriedNorReportedAsSuccess() throws Exception {
        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        try (RegionEnvironment env = RegionEnvironment.open(dir, ENV); SharedLog log = SharedLog.open(env, fis, LOG)) {
            long a = log.append(1, 1, Lsn.NULL, new byte[] {1});
            log.flush(log.endLsn(), Durability.SYNC);
            String file = LogFileHeader.fileName(Lsn.file(a));
            long forces = fis.forceCount(file);
            log.append(1, 1, a, new byte[] {2});
            fis.failForceAfter(0);
            RunRecoveryException e = assertThrows(RunRecoveryException.class,
                    () -> log.flush(log.endLsn(), Durability.SYNC));
            assertTrue(e.getMessage().contains("force of log file " + file + " failed"), e.getMessage());
            assertEquals(forces + 1, fis.forceCount(file), "exactly one force attempt: never retried");
            assertTrue(env.isFailed());
            assertThrows(RunRecoveryException.class, () -> log.flush(log.endLsn(), Durability.SYNC));
            assertThrows(RunRecoveryException.class, () -> log.append(1, 1, a, new byte[] {3}));
            assertEquals(forces + 1, fis.forceCount(file), "no force after the failure either");
        }
        try (RegionEnvironment env = RegionEnvironment.open(dir, ENV)) {
            assertTrue(env.wasUnclean());
        }
    }

    @Test
    void tornUnforcedTailIsCutAndForcedRecordsSurvive() throws Exception {
        long seed = Seeds.seed("FaultInjectionTest.tornTail");
        Random rnd = new Random(seed);
        int rounds = Seeds.stress() ? 300 : 30;
        Map<Long, byte[]> durable = new HashMap<>();
        for (int round = 0; round < rounds; round++) {
            FaultInjectingStorage fis = new FaultInjectingStorage(dir);
            RegionEnvironment env = RegionEnvironment.open(dir, ENV);
            SharedLog log = SharedLog.open(env, fis, LOG);
            for (int i = 0; i < 20 + rnd.nextInt(200); i++) {
                byte[] p = ("r" + round + "." + i + "x".repeat(rnd.nextInt(600))).getBytes(StandardCharsets.UTF_8);
                long lsn = log.append(2, round, Lsn.NULL, p);
                switch (rnd.nextInt(4)) {
                    case 0 -> {
                        log.flush(log.endLsn(), Durability.SYNC);
                        durable.put(lsn, p);
                    }
                    case 1 -> log.flush(log.endLsn(), Durability.WRITE_NO_SYNC);
                    default -> {
                    }
                }
            }
            log.flush(log.endLsn(), Durability.WRITE_NO_SYNC); // unforced bytes in the file to tear
            fis.crash(rnd, FaultInjectingStorage.CrashMode.RANDOM);
            Path regions = env.regionDirectory();
            log.close(); // its flush fails on the crashed storage and fails the environment
            env.close();
            FaultInjectingStorage.loseSharedMemory(regions); // the power loss empties it too
            try (RegionEnvironment env2 = RegionEnvironment.open(dir, ENV);
                 SharedLog log2 = SharedLog.open(env2, new FileStorage(dir), LOG)) {
                for (Map.Entry<Long, byte[]> d : durable.entrySet()) {
                    assertArrayEquals(d.getValue(), log2.read(d.getKey()).payload(),
                            "round " + round + ": forced record " + Lsn.toString(d.getKey()));
                }
                int[] n = {0};
                log2.scan(Lsn.NULL, e -> ++n[0] > 0);
                assertTrue(n[0] >= durable.size());
            }
        }
    }

    @Test
    void aCrashDuringRecoveryIsFollowedByTheSameRecovery() throws Exception {
        long seed = Seeds.seed("FaultInjectionTest.crashInRecovery");
        Random rnd = new Random(seed);
        int rounds = Seeds.stress() ? 100 : 10;
        for (int round = 0; round < rounds; round++) {
            Path home = Files.createDirectory(dir.resolve("r" + round));
            // Committed work, then a loser whose changes reached the data file at a checkpoint.
            FaultInjectingStorage fis = new FaultInjectingStorage(home);
            TxnFixture f = new TxnFixture(home, 0, TxnConfig.builder().checkpointBytes(0).build(), fis);
            Txn c = f.tm.begin(Durability.SYNC);
            for (int s = 0; s < 20; s++) {
                f.store.put(c, s, 1000 + s);
            }
            f.tm.commit(c);
            Txn loser = f.tm.begin();
            for (int s = 10; s < 30; s++) {
                f.store.put(loser, s, -1);
            }
            f.tm.checkpoint(); // the loser's changes are now in slots.dat
            Path regions = f.env.regionDirectory();
            fis.crash(rnd, FaultInjectingStorage.CrashMode.RANDOM);
            closeQuietly(f);
            FaultInjectingStorage.loseSharedMemory(regions); // the power loss empties it too
            // Recovery on a storage that fails at a random force or write, then crashes.
            FaultInjectingStorage fis2 = new FaultInjectingStorage(home);
            if (rnd.nextBoolean()) {
                fis2.failForceAfter(rnd.nextInt(4));
            } else {
                fis2.failNextWrite();
            }
            try {
                TxnFixture g = new TxnFixture(home, 0, TxnConfig.defaults(), fis2);
                closeQuietly(g); // recovery got through before the fault: fine too
            } catch (RuntimeException expected) {
                // recovery failed part way
            }
            fis2.crash(rnd, FaultInjectingStorage.CrashMode.RANDOM);
            FaultInjectingStorage.loseSharedMemory(regions);
            // And a clean recovery now gives the one right state.
            try (TxnFixture h = new TxnFixture(home)) {
                for (int s = 0; s < 20; s++) {
                    assertEquals(1000 + s, h.store.get(s), "round " + round + " slot " + s);
                }
                for (int s = 20; s < 30; s++) {
                    assertEquals(0, h.store.get(s), "round " + round + " loser slot " + s);
                }
                assertFalse(h.env.isFailed());
            }
        }
    }

    private static void closeQuietly(TxnFixture f) {
        try {
            f.close();
        } catch (RuntimeException ignored) {
            // the storage has crashed: closing the log cannot flush
        }
    }
}
