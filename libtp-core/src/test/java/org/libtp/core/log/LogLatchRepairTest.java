package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.sync.LatchLayout;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log region's latches when their holder died: the latch word is made to name an owner id
 * whose registry slot no process holds (what a SIGKILL leaves), with the shared state as a
 * holder killed at that point leaves it. The next appender takes the latch over and goes on.
 */
class LogLatchRepairTest {
    @TempDir
    Path home;

    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).latchCheckMillis(20)
            .build();
    static final LogConfig SMALL = LogConfig.builder().fileSize(64 * 1024).bufferSize(16 * 1024).build();

    private static void dieHolding(RegionEnvironment env, long latchOffset) {
        Memory mem = env.region(SharedLog.spec(SMALL)).memory();
        assertTrue(mem.compareAndSetInt(latchOffset + LatchLayout.WORD, 0, env.config().maxProcesses() << 1));
    }

    private static byte[] payload(int i) {
        return ("record " + i).getBytes(java.nio.charset.StandardCharsets.UTF_8);
    }

    @Test
    void eachLatchIsTakenOverAndAFileSwitchCutShortIsFinished() throws Exception {
        List<Long> lsns = new ArrayList<>();
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            lsns.add(log.append(7, 1, Lsn.NULL, payload(0)));

            dieHolding(env, LogLayout.OFF_LOG_LATCH); // between two appends: nothing half-done
            lsns.add(log.append(7, 1, Lsn.NULL, payload(1)));
            assertEquals(1, env.latchRepairs());

            // A switch cut short after the next file was renamed into place, before the end moved.
            int n = Lsn.file(log.endLsn());
            Region region = env.region(SharedLog.spec(SMALL));
            LogFiles files = filesOf(log);
            log.flush(log.endLsn(), Durability.SYNC);
            files.createFile(n + 1);
            dieHolding(env, LogLayout.OFF_LOG_LATCH);
            long c = log.append(7, 1, Lsn.NULL, payload(2));
            lsns.add(c);
            assertEquals(n + 1, Lsn.file(c), "the repair finished the switch: the record went to the new file");
            assertEquals(LogFileHeader.SIZE, Lsn.offset(c));
            assertTrue(region.memory().getLongVolatile(LogLayout.OFF_ALLOCATED) > c);

            dieHolding(env, LogLayout.OFF_WRITE_LATCH); // killed in a write(2): the next writer writes again
            lsns.add(log.append(7, 1, Lsn.NULL, payload(3)));
            log.flush(log.endLsn(), Durability.SYNC);
            dieHolding(env, LogLayout.OFF_ALLOC_LATCH); // killed zero-filling ahead
            for (int i = 4; i < 2_000; i++) { // into the next file: its switch takes the alloc latch
                lsns.add(log.append(7, 1, Lsn.NULL, payload(i)));
            }
            log.flush(log.endLsn(), Durability.SYNC);
            assertEquals(4, env.latchRepairs());
            assertFalse(env.isFailed());
            for (int i = 0; i < lsns.size(); i++) {
                assertArrayEquals(payload(i), log.read(lsns.get(i)).payload());
            }
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            List<LogEntry> all = new ArrayList<>();
            log.scan(Lsn.NULL, all::add);
            assertEquals(lsns.size(), all.size(), "every record is in the log after a reopen");
            for (int i = 0; i < lsns.size(); i++) {
                assertEquals(lsns.get(i), all.get(i).lsn());
            }
        }
        assertTrue(Files.exists(home.resolve(LogFileHeader.fileName(2))));
    }

    private static LogFiles filesOf(SharedLog log) throws ReflectiveOperationException {
        java.lang.reflect.Field f = SharedLog.class.getDeclaredField("files");
        f.setAccessible(true);
        return (LogFiles) f.get(log);
    }
}
