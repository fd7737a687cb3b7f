package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FileStorage;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class SharedLogTest {
    @TempDir
    Path home;

    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
    static final LogConfig SMALL = LogConfig.builder().fileSize(64 * 1024).bufferSize(16 * 1024).build();

    static byte[] payload(int i) {
        return ("record " + i + " " + "x".repeat(i % 300)).getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void appendReadScanAcrossFilesAndReopen() {
        List<Long> lsns = new ArrayList<>();
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            for (int i = 0; i < 2_000; i++) {
                lsns.add(log.append(7, i, i == 0 ? Lsn.NULL : lsns.get(i - 1), payload(i)));
            }
            assertTrue(log.fileNumbers().length > 3, "small files must have switched");
            for (int i = 0; i < lsns.size(); i += 37) { // from files and from the buffer
                LogEntry e = log.read(lsns.get(i));
                assertEquals(7, e.type());
                assertEquals(i, e.txnId());
                assertArrayEquals(payload(i), e.payload());
            }
            log.flush(log.endLsn(), Durability.SYNC);
            assertEquals(log.endLsn(), log.flushedLsn());
            List<Long> back = new ArrayList<>();
            log.scanBackward(lsns.get(1_999), e -> back.add(e.lsn()) && back.size() < 10);
            assertEquals(lsns.get(1_999), back.get(0));
            assertEquals(lsns.get(1_990), back.get(9));
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            List<LogEntry> all = new ArrayList<>();
            log.scan(Lsn.NULL, all::add);
            assertEquals(2_000, all.size());
            for (int i = 0; i < all.size(); i++) {
                assertEquals(lsns.get(i), all.get(i).lsn());
                assertArrayEquals(payload(i), all.get(i).payload());
            }
            long next = log.append(8, 1, Lsn.NULL, new byte[] {1});
            assertTrue(next > lsns.get(1_999));
        }
    }

    /**
     * A forward scan reads files through a 1 MiB window: records of many sizes across several
     * window boundaries and across files, the newest only in the shared buffer, all come back as
     * appended; a damaged record in the middle of a window is still a CorruptionException
     * naming its LSN, and one past the window's reach too.
     */
    @Test
    void scanThroughTheWindowSeesEveryRecordAndReportsDamage() throws Exception {
        LogConfig big = LogConfig.builder().fileSize(3L << 20).bufferSize(256 * 1024).build();
        List<Long> lsns = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        java.util.Random r = new java.util.Random(7);
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), big)) {
            long written = 0;
            for (int i = 0; written < (7L << 20); i++) {
                byte[] p = new byte[r.nextInt(4) == 0 ? r.nextInt(120_000) : r.nextInt(400)];
                r.nextBytes(p);
                lsns.add(log.append(7, i, Lsn.NULL, p));
                payloads.add(p);
                written += p.length + LogRecordCodec.HEADER_SIZE;
            }
            assertTrue(log.fileNumbers().length >= 3, "several files");
            List<LogEntry> all = new ArrayList<>();
            log.scan(Lsn.NULL, all::add); // the last records are in the shared buffer only
            assertEquals(lsns.size(), all.size());
            for (int i = 0; i < all.size(); i++) {
                assertEquals(lsns.get(i), all.get(i).lsn());
                assertArrayEquals(payloads.get(i), all.get(i).payload(), "record " + i);
            }
            List<LogEntry> tail = new ArrayList<>();
            log.scan(lsns.get(lsns.size() / 2), tail::add);
            assertEquals(lsns.size() - lsns.size() / 2, tail.size());
            log.flush(log.endLsn(), Durability.SYNC);
        }
        // Damage a record well inside the first file's second MiB.
        int victim = 0;
        while (Lsn.file(lsns.get(victim)) == Lsn.file(lsns.get(0)) && Lsn.offset(lsns.get(victim)) < (3L << 19)) {
            victim++;
        }
        long bad = lsns.get(victim);
        Path f = home.resolve(LogFileHeader.fileName(Lsn.file(bad)));
        try (RandomAccessFile raf = new RandomAccessFile(f.toFile(), "rw")) {
            raf.seek(Lsn.offset(bad) + LogRecordCodec.HEADER_SIZE);
            raf.write(payloads.get(victim).length > 0 ? ~payloads.get(victim)[0] : 1);
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), big)) {
            int[] seen = {0};
            CorruptionException e = assertThrows(CorruptionException.class, () -> log.scan(Lsn.NULL, x -> ++seen[0] > 0));
            assertTrue(e.getMessage().contains(Lsn.toString(bad)), e.getMessage());
            assertEquals(victim, seen[0], "every record before the damaged one was seen");
        }
    }

    @Test
    void unforcedCommitsStayInTheBufferAndSyncForces() throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            long a = log.append(1, 1, Lsn.NULL, new byte[] {42});
            log.flush(a + 33, Durability.NO_SYNC);
            assertEquals(0, readLength(log, a), "NO_SYNC must not write");
            log.flush(a + 33, Durability.WRITE_NO_SYNC);
            assertTrue(log.buffersUnforcedCommits(), "this machine has a boot id");
            assertEquals(0, readLength(log, a), "WRITE_NO_SYNC leaves the record in the buffer (salvaged after a crash)");
            long forces = log.forceCount();
            LogManager.ForceTotals all = log.forceTotals();
            log.flush(a + 33, Durability.SYNC);
            assertEquals(forces + 1, log.forceCount());
            assertEquals(all.forces() + 1, log.forceTotals().forces(), "counted in the region too");
            assertTrue(log.forceTotals().meanMicrosSince(all) > 0, "with its duration");
            log.flush(a + 33, Durability.SYNC);
            assertEquals(forces + 1, log.forceCount(), "already flushed: no second force");
            assertEquals(33, readLength(log, a), "written by SYNC");
        }
    }

    @Test
    void cleanCloseMakesNoSyncRecordsDurable() {
        long a;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            a = log.append(1, 1, Lsn.NULL, payload(5));
            log.flush(log.endLsn(), Durability.NO_SYNC);
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            assertArrayEquals(payload(5), log.read(a).payload());
        }
    }

    private int readLength(SharedLog log, long lsn) throws Exception {
        try (RandomAccessFile f = new RandomAccessFile(home.resolve(LogFileHeader.fileName(Lsn.file(lsn))).toFile(), "r")) {
            f.seek(Lsn.offset(lsn));
            return Integer.reverseBytes(f.readInt());
        }
    }

    @Test
    void tornTailIsTruncatedAndCorruptionInsideIsReported() throws Exception {
        long a;
        long b;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            a = log.append(1, 1, Lsn.NULL, payload(1));
            b = log.append(1, 1, a, payload(2));
            log.flush(log.endLsn(), Durability.SYNC);
        }
        // Tear the last record: flip a payload byte.
        Path f = home.resolve(LogFileHeader.fileName(Lsn.file(b)));
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.seek(Lsn.offset(b) + LogRecordCodec.HEADER_SIZE + 2);
            r.write('#');
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            assertEquals(b, log.endLsn(), "the log ends before the torn record");
            assertArrayEquals(payload(1), log.read(a).payload());
            assertThrows(IllegalArgumentException.class, () -> log.read(b));
            long c = log.append(1, 2, Lsn.NULL, payload(3));
            assertEquals(b, c, "the torn record's space is reused");
            log.flush(log.endLsn(), Durability.SYNC);
            // Now damage a record that is not at the tail: reading it is a CorruptionException.
            try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
                r.seek(Lsn.offset(a) + LogRecordCodec.HEADER_SIZE + 1);
                r.write('#');
            }
            CorruptionException e = assertThrows(CorruptionException.class, () -> log.read(a));
            assertTrue(e.getMessage().contains(Lsn.toString(a)) && e.getMessage().contains(f.getFileName().toString()),
                    e.getMessage());
        }
    }

    @Test
    void damageBeforeACheckpointIsCorruptionNotATornTail() throws Exception {
        long a;
        long end;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            a = log.append(1, 1, Lsn.NULL, payload(1));
            long b = log.append(1, 1, a, payload(2));
            log.flush(log.endLsn(), Durability.SYNC); // as a checkpoint does before its record
            byte[] ckp = org.libtp.core.log.record.LogRecords.encode(
                    new org.libtp.core.log.record.LogRecord.Checkpoint(b, java.util.List.of()));
            log.append(org.libtp.core.log.record.RecordType.CHECKPOINT.id(), 0, Lsn.NULL, ckp);
            log.flush(log.endLsn(), Durability.SYNC);
            end = log.endLsn();
        }
        Path f = home.resolve(LogFileHeader.fileName(Lsn.file(a)));
        byte[] before = java.nio.file.Files.readAllBytes(f);
        try (RandomAccessFile r = new RandomAccessFile(f.toFile(), "rw")) {
            r.seek(Lsn.offset(a) + LogRecordCodec.HEADER_SIZE + 1);
            r.write('#');
        }
        byte[] damaged = java.nio.file.Files.readAllBytes(f);
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV)) {
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> SharedLog.open(env, new FileStorage(home), SMALL));
            assertTrue(e.getMessage().contains("synced log is corrupt") && e.getMessage().contains(Lsn.toString(a)),
                    e.getMessage());
        }
        assertArrayEquals(damaged, java.nio.file.Files.readAllBytes(f), "nothing was truncated");
        assertTrue(before.length == damaged.length && end > a);
    }

    @Test
    void codecAndHeaderLayouts() {
        assertEquals(0, LogRecordCodec.OFF_LENGTH);
        assertEquals(4, LogRecordCodec.OFF_CRC);
        assertEquals(8, LogRecordCodec.OFF_TYPE);
        assertEquals(12, LogRecordCodec.OFF_RESERVED);
        assertEquals(16, LogRecordCodec.OFF_TXN);
        assertEquals(24, LogRecordCodec.OFF_PREV_LSN);
        assertEquals(32, LogRecordCodec.HEADER_SIZE);
        assertEquals(0, LogFileHeader.OFF_MAGIC);
        assertEquals(8, LogFileHeader.OFF_VERSION);
        assertEquals(16, LogFileHeader.OFF_FILE_NUMBER);
        assertEquals(24, LogFileHeader.OFF_FILE_SIZE);
        assertEquals(32, LogFileHeader.OFF_LOG_ID);
        assertEquals(60, LogFileHeader.OFF_CRC);
        assertEquals(64, LogFileHeader.SIZE);
        ByteBuffer r = LogRecordCodec.encode(3, 99, Lsn.of(2, 100), new byte[] {1, 2, 3});
        LogEntry e = LogRecordCodec.decode("test", Lsn.of(1, 64), r.array());
        assertEquals(3, e.type());
        assertEquals(99, e.txnId());
        assertEquals(Lsn.of(2, 100), e.prevLsn());
        assertArrayEquals(new byte[] {1, 2, 3}, e.payload());
        r.array()[LogRecordCodec.HEADER_SIZE] ^= 1;
        assertThrows(CorruptionException.class, () -> LogRecordCodec.decode("test", Lsn.of(1, 64), r.array()));
        assertEquals("log.0000000012", LogFileHeader.fileName(12));
        assertEquals(12, LogFileHeader.fileNumber("log.0000000012"));
        assertEquals(-1, LogFileHeader.fileNumber("log.12"));
        assertEquals(Lsn.of(3, 77), Lsn.of(Lsn.file(Lsn.of(3, 77)), Lsn.offset(Lsn.of(3, 77))));
        assertTrue(Lsn.of(1, 0xFFFF_FFFFL) < Lsn.of(2, 0));
        ByteBuffer h = LogFileHeader.encode(5, 1 << 20, 1234);
        assertEquals(1234, LogFileHeader.validate("x", h, 5));
        assertThrows(CorruptionException.class, () -> LogFileHeader.validate("x", LogFileHeader.encode(5, 1 << 20, 1), 6));
        ByteBuffer bad = LogFileHeader.encode(5, 1 << 20, 1).order(ByteOrder.LITTLE_ENDIAN);
        bad.array()[0] = 'X';
        assertThrows(org.libtp.core.VersionMismatchException.class, () -> LogFileHeader.validate("x", bad, 5));
    }

    @Test
    void nextLogFileIsPreparedAheadAndLeftoversAreCleared() throws Exception {
        java.nio.file.Path stale = home.resolve(LogFileHeader.fileName(7) + LogFiles.READY);
        java.nio.file.Files.write(stale, new byte[] {1, 2, 3});
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            assertTrue(!java.nio.file.Files.exists(stale), "leftovers of the last run are deleted at open");
            java.nio.file.Path ready = home.resolve(LogFileHeader.fileName(2) + LogFiles.READY);
            int i = 0;
            while (Lsn.offset(log.endLsn()) < SMALL.fileSize() / 2 + 1024) {
                log.append(1, 1, Lsn.NULL, payload(i++));
            }
            long deadline = System.currentTimeMillis() + 10_000;
            while (!java.nio.file.Files.exists(ready) && System.currentTimeMillis() < deadline) {
                Thread.sleep(5);
            }
            assertTrue(java.nio.file.Files.exists(ready), "file 2 prepared ahead once file 1 is half full");
            while (Lsn.file(log.endLsn()) == 1) {
                log.append(1, 1, Lsn.NULL, payload(i++));
            }
            assertTrue(!java.nio.file.Files.exists(ready), "the switch took the prepared file");
            assertEquals(2, log.fileNumbers().length);
            long lsn = log.append(1, 1, Lsn.NULL, payload(42));
            assertArrayEquals(payload(42), log.read(lsn).payload());
        }
    }

    /**
     * Every file but the last ends with a file-end record, and a switch cut short after writing
     * it (no room for the next file, or the process died) leaves one at the end of the last file:
     * the log continues there and the next append writes over it.
     */
    @Test
    void everyFileButTheLastEndsWithAFileEndRecordAndOneInTheLastIsWrittenOver() throws Exception {
        List<Long> lsns = new ArrayList<>();
        long stray;
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            for (int i = 0; Lsn.file(log.endLsn()) < 3; i++) {
                lsns.add(log.append(7, 1, Lsn.NULL, payload(i)));
            }
            log.flush(log.endLsn(), Durability.SYNC);
            stray = log.endLsn();
        }
        // what a switch stopped after its file-end record leaves behind
        try (RandomAccessFile f = new RandomAccessFile(home.resolve(LogFileHeader.fileName(3)).toFile(), "rw")) {
            f.seek(Lsn.offset(stray));
            f.write(LogRecordCodec.fileEnd(4).array());
        }
        List<LogEntry> printed = LogFuzzEnvironment.records(home); // the reader, which fails on damage
        List<Long> ends = printed.stream().filter(e -> e.type() == LogRecordCodec.FILE_END_TYPE).map(LogEntry::lsn).toList();
        assertEquals(3, ends.size(), "files 1 and 2 end with one, and the stray one in file 3: " + ends);
        assertEquals(stray, ends.get(2));
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            assertEquals(stray, log.endLsn(), "the log continues at the stray file-end record");
            assertEquals(3, log.fileNumbers().length);
            lsns.add(log.append(7, 1, Lsn.NULL, payload(999)));
            assertEquals(stray, lsns.get(lsns.size() - 1));
            for (int i = 1000; Lsn.file(log.endLsn()) < 4; i++) {
                lsns.add(log.append(7, 1, Lsn.NULL, payload(i)));
            }
        }
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            List<Long> scanned = new ArrayList<>();
            log.scan(Lsn.NULL, e -> scanned.add(e.lsn()));
            assertEquals(lsns, scanned, "every record, none of the file-end records");
            assertThrows(IllegalArgumentException.class, () -> log.append(LogRecordCodec.FILE_END_TYPE, 0, Lsn.NULL,
                    new byte[4]), "the log manager's own type");
        }
    }

    @Test
    void scanFromTheEndOfAFullFileContinuesInTheNext() {
        try (RegionEnvironment env = RegionEnvironment.open(home, ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL)) {
            // Fill file 1 until the next record cannot fit, remember that end position.
            long before = log.endLsn();
            while (true) {
                // every file keeps room for its file-end record
                long left = SMALL.fileSize() - Lsn.offset(log.endLsn()) - LogRecordCodec.FILE_END_SIZE;
                if (left < LogRecordCodec.HEADER_SIZE) {
                    break; // not even a header fits: the next record goes to file 2
                }
                // Big records, then one sized to leave less than a header's worth.
                int payload = left >= 1000 + 2 * LogRecordCodec.HEADER_SIZE + 16 ? 1000
                        : (int) Math.max(0, left - LogRecordCodec.HEADER_SIZE - 16);
                before = log.append(1, 1, Lsn.NULL, new byte[payload]);
            }
            long tail = log.endLsn(); // in file 1, too close to its end for any record but its file-end record
            assertEquals(1, Lsn.file(tail));
            long next = log.append(1, 1, Lsn.NULL, new byte[] {9});
            assertEquals(Lsn.of(2, LogFileHeader.SIZE), next);
            log.flush(log.endLsn(), Durability.SYNC);
            List<Long> seen = new ArrayList<>();
            log.scan(tail, e -> seen.add(e.lsn())); // e.g. a checkpoint's redo LSN
            assertEquals(List.of(next), seen);
            seen.clear();
            log.scan(before, e -> seen.add(e.lsn()));
            assertEquals(List.of(before, next), seen);
        }
    }

    @Test
    void badArgumentsAndClosedHandles() {
        RegionEnvironment env = RegionEnvironment.open(home, ENV);
        SharedLog log = SharedLog.open(env, new FileStorage(home), SMALL);
        assertThrows(IllegalArgumentException.class, () -> log.append(1, 1, 0, null));
        assertThrows(IllegalArgumentException.class, () -> log.append(1, 1, 0, new byte[16 * 1024]));
        assertThrows(IllegalArgumentException.class, () -> log.read(Lsn.of(9, 64)));
        assertThrows(IllegalArgumentException.class, () -> log.read(Lsn.NULL));
        assertThrows(IllegalArgumentException.class, () -> LogConfig.builder().fileSize(10).build());
        log.close();
        assertThrows(IllegalStateException.class, () -> log.append(1, 1, 0, new byte[1]));
        env.close();
    }
}
