package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.ChildJvm;

import java.io.RandomAccessFile;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * WRITE_NO_SYNC commits write nothing; the shared buffer holds them, and after kill -9 of every
 * process the next first opener salvages them into the log. A child JVM appends and commits at
 * WRITE_NO_SYNC, prints each acknowledged LSN, and is killed with SIGKILL; the parent reopens.
 */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 10, unit = java.util.concurrent.TimeUnit.MINUTES)
class LogSalvageTest {
    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
    static final LogConfig LOG = LogConfig.builder().fileSize(1024 * 1024).bufferSize(64 * 1024).build();

    @TempDir
    Path home;

    static byte[] payload(int i) {
        return ("commit " + i + " " + "v".repeat(i % 400)).getBytes(StandardCharsets.UTF_8);
    }

    /** Child: {@code count} WRITE_NO_SYNC commits, each acknowledged on stdout, then waits to be killed. */
    public static final class Committer {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int count = Integer.parseInt(args[1]);
            try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
                 SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
                // Small runs never reach half the buffer: nothing of them is written.
                int drainAt = count >= 100 ? count - 10 : -1;
                for (int i = 0; i < count; i++) {
                    if (i == drainAt) {
                        // The write-back thread writes the whole buffer once half is unwritten,
                        // whenever it gets to run: let it finish, then append a tail too small
                        // to trigger it, so that the last records are surely in the buffer only.
                        log.drainWriteBehindForTest();
                    }
                    long lsn = log.appendAndFlush(5, 1, Lsn.NULL, payload(i), Durability.WRITE_NO_SYNC);
                    System.out.println("ACK " + lsn + " " + i);
                }
                System.out.println("DONE " + env.regionDirectory() + " " + log.endLsn());
                Thread.sleep(600_000);
            }
        }
    }

    record Run(List<long[]> acked, Path regionDir, long end) {
    }

    private Run commitAndKill(int count) {
        try (ChildJvm c = ChildJvm.start(Committer.class, home.toString(), Integer.toString(count))) {
            String done = c.awaitLine("DONE ", Duration.ofSeconds(120));
            c.kill();
            List<long[]> acked = new ArrayList<>();
            for (String l : c.linesStartingWith("ACK ")) {
                String[] p = l.split(" ");
                acked.add(new long[] {Long.parseLong(p[1]), Integer.parseInt(p[2])});
            }
            String[] d = done.split(" ");
            return new Run(acked, Path.of(d[1]), Long.parseLong(d[2]));
        }
    }

    private int lengthOnDisk(long lsn) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(home.resolve(LogFileHeader.fileName(Lsn.file(lsn))).toFile(), "r")) {
            f.seek(Lsn.offset(lsn));
            return Integer.reverseBytes(f.readInt());
        }
    }

    @Test
    void writeNoSyncCommitsSurviveKillOfEveryProcess() throws Exception {
        // 300 commits: more than half the buffer, so the write-back thread wrote part of it and
        // the buffer's front moved: some records are in the file, the rest only in the buffer.
        Run run = commitAndKill(300);
        assertEquals(300, run.acked().size());
        long last = run.acked().get(run.acked().size() - 1)[0];
        assertEquals(0, lengthOnDisk(last), "the last commit was not written to the log file by the killed process");
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            assertEquals(run.end(), log.endLsn(), "the log ends where the killed process's buffer did");
            for (long[] a : run.acked()) {
                assertArrayEquals(payload((int) a[1]), log.read(a[0]).payload(), "commit " + a[1]);
            }
            assertTrue(lengthOnDisk(last) > 0, "salvaged into the file");
            assertEquals(null, env.keptRegion("log"), "the kept region is gone once salvaged");
            long[] seen = {0};
            log.scan(Lsn.NULL, e -> {
                seen[0]++;
                return true;
            });
            assertEquals(300, seen[0], "the log scans cleanly to its end");
            // and it goes on from there
            long more = log.appendAndFlush(5, 1, Lsn.NULL, payload(7), Durability.SYNC);
            assertEquals(run.end(), more);
        }
    }

    @Test
    void aFailedWriteOfTheSalvagedRecordsLeavesThemForTheNextOpen() throws Exception {
        Run run = commitAndKill(25);
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV)) {
            org.libtp.core.storage.FaultInjectingStorage fis = new org.libtp.core.storage.FaultInjectingStorage(home);
            fis.failForceAfter(0);
            org.libtp.core.EnvironmentAccessException e = assertThrows(org.libtp.core.EnvironmentAccessException.class,
                    () -> SharedLog.open(env, fis, LOG));
            assertTrue(e.getMessage().contains("salvaged") && e.getMessage().contains("next open"), e.getMessage());
            assertTrue(env.keptRegion("log") != null, "the kept region stays");
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            assertEquals(run.end(), log.endLsn());
            for (long[] a : run.acked()) {
                assertArrayEquals(payload((int) a[1]), log.read(a[0]).payload(), "commit " + a[1]);
            }
        }
    }

    @Test
    void aLastCloseThatNeverOpenedTheLogKeepsItsBuffer() throws Exception {
        // This process has the environment open, not the log; the committer dies; this process
        // then closes last, cleanly: the buffer is kept, not removed with the other regions.
        Run run;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV)) {
            run = commitAndKill(30);
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            assertEquals(run.end(), log.endLsn());
            for (long[] a : run.acked()) {
                assertArrayEquals(payload((int) a[1]), log.read(a[0]).payload(), "commit " + a[1]);
            }
        }
    }

    @Test
    void aBufferFromBeforeAMachineRestartIsNotSalvaged() throws Exception {
        Run run = commitAndKill(20);
        // What a restart changes: the boot id. The region file as a disk placement would keep it.
        try (RandomAccessFile f = new RandomAccessFile(run.regionDir().resolve("__libtp.rgn.log").toFile(), "rw")) {
            f.seek(LogLayout.OFF_BOOT_ID);
            f.writeLong(0x1234_5678_9abc_def0L);
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            long first = run.acked().get(0)[0];
            assertEquals(first, log.endLsn(), "unwritten WRITE_NO_SYNC commits are lost with the OS, as documented");
            assertEquals(null, env.keptRegion("log"));
        }
    }

    @Test
    void aDamagedRecordEndsTheSalvageAndADamagedRegionRefusesTheOpen() throws Exception {
        Run run = commitAndKill(20);
        Path rgn = run.regionDir().resolve("__libtp.rgn.log");
        long start;
        try (RandomAccessFile f = new RandomAccessFile(rgn.toFile(), "rw")) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(8).order(ByteOrder.nativeOrder());
            f.getChannel().read(b, LogLayout.OFF_BUFFER_START);
            start = b.getLong(0);
            long victim = run.acked().get(10)[0];
            long at = LogLayout.OFF_BUFFER + (victim - start) + LogRecordCodec.HEADER_SIZE;
            f.seek(at);
            int x = f.read();
            f.seek(at);
            f.write(x ^ 0x55);
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            assertEquals(run.acked().get(10)[0], log.endLsn(), "the records before the damaged one are salvaged");
            for (int i = 0; i < 10; i++) {
                assertArrayEquals(payload(i), log.read(run.acked().get(i)[0]).payload());
            }
        }

        // A kept region cut short: the open refuses, naming it, until it is deleted.
        Run second = commitAndKill(5);
        Path rgn2 = second.regionDir().resolve("__libtp.rgn.log");
        try (RandomAccessFile f = new RandomAccessFile(rgn2.toFile(), "rw")) {
            f.setLength(f.length() - 100);
        }
        Path kept;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV)) {
            kept = env.keptRegion("log");
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> SharedLog.open(env, new FileStorage(home), LOG));
            assertTrue(e.getMessage().contains(kept.toString()) && e.getMessage().contains("delete"), e.getMessage());
        }
        Files.delete(kept);
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LOG)) {
            assertFalse(log.endLsn() > second.acked().get(0)[0], "given up, as the message said");
        }
    }
}
