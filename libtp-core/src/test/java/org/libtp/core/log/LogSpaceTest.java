package org.libtp.core.log;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.storage.FileStorage;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log on a full disk: records of changes not made yet are refused with
 * {@link OutOfSpaceException} once the next log file cannot be created, nothing half-built is
 * left, records that may use the reserve still go in, and the log goes on once space returns.
 * Before, the failed creation failed the environment and left {@code log.N.new} behind.
 */
class LogSpaceTest {
    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0).build();
    static final LogConfig LOG = LogConfig.builder().fileSize(128 * 1024).bufferSize(16 * 1024).build();

    @TempDir
    Path dir;

    private List<String> names() throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            return s.map(p -> p.getFileName().toString()).sorted().toList();
        }
    }

    @Test
    void aFullDiskRefusesNewWorkKeepsTheReserveAndRecovers() throws Exception {
        FaultInjectingStorage fis = new FaultInjectingStorage(dir);
        List<Long> lsns = new ArrayList<>();
        List<byte[]> payloads = new ArrayList<>();
        try (RegionEnvironment env = RegionEnvironment.open(dir, ENV); SharedLog log = SharedLog.open(env, fis, LOG)) {
            fis.diskFull(true); // no new file can be made; the current one is preallocated (a hole is not modelled)
            byte[] p = new byte[1000];
            OutOfSpaceException refused = null;
            for (int i = 0; i < 1000 && refused == null; i++) {
                try {
                    p[0] = (byte) i;
                    lsns.add(log.append(100, 1, Lsn.NULL, p.clone(), false));
                    payloads.add(p.clone());
                } catch (OutOfSpaceException e) {
                    refused = e;
                }
            }
            assertTrue(refused != null, "the first file fills up");
            assertTrue(refused.getMessage().contains("log.0000000002") && refused.getMessage().contains(dir.toString()),
                    refused.getMessage());
            assertFalse(env.isFailed(), "a refused record does not fail the environment");
            // The next file may still be being prepared ahead in the background (log.N.prep):
            // its build fails on the full disk too and deletes it; nothing may stay behind.
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (names().stream().anyMatch(n -> n.endsWith(".new") || n.endsWith(".prep"))
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);
            }
            assertFalse(names().stream().anyMatch(n -> n.endsWith(".new") || n.endsWith(".prep")), names().toString());
            assertEquals(1, Lsn.file(log.endLsn()));
            // The reserve: records that must not fail (compensations, aborts) still go in.
            for (int i = 0; i < 10; i++) {
                lsns.add(log.append(2, 1, Lsn.NULL, new byte[500]));
                payloads.add(new byte[500]);
            }
            assertThrows(OutOfSpaceException.class, () -> log.ensureSpace(1000), "asking first is refused too");
            fis.diskFull(false); // space returns
            lsns.add(log.append(100, 1, Lsn.NULL, new byte[] {7}, false));
            payloads.add(new byte[] {7});
            assertEquals(2, Lsn.file(lsns.get(lsns.size() - 1)), "the next file could be made");
            log.flush(log.endLsn(), Durability.SYNC);
        }
        try (RegionEnvironment env = RegionEnvironment.open(dir, ENV); SharedLog log = SharedLog.open(env, new FileStorage(dir), LOG)) {
            for (int i = 0; i < lsns.size(); i++) {
                assertArrayEquals(payloads.get(i), log.read(lsns.get(i)).payload(), "record " + i);
            }
        }
    }

    @Test
    void logFilesTakeDiskOnlyAheadOfTheirRecords() throws Exception {
        LogConfig big = LogConfig.builder().fileSize(8 << 20).build();
        try (RegionEnvironment env = RegionEnvironment.open(dir, ENV); SharedLog log = SharedLog.open(env, new FileStorage(dir), big)) {
            log.append(100, 1, Lsn.NULL, new byte[100], false);
            log.flush(log.endLsn(), Durability.SYNC);
            Path f = dir.resolve(LogFileHeader.fileName(1));
            assertEquals(8 << 20, Files.size(f), "full length");
            long used = diskBytes(f);
            assertTrue(used <= 2 << 20, "an almost empty 8 MiB log file takes " + used + " bytes of disk");
            for (int i = 0; i < 3000; i++) { // 3 MB of records: the file is allocated ahead of them
                log.append(100, 1, Lsn.NULL, new byte[1000], false);
            }
            log.flush(log.endLsn(), Durability.SYNC);
            assertTrue(diskBytes(f) >= Lsn.offset(log.endLsn()), "allocated at least up to the records");
        }
    }

    /** Bytes of disk {@code du} counts for one file. */
    static long diskBytes(Path f) throws Exception {
        Process p = new ProcessBuilder("du", "-B1", f.toString()).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes()).trim();
        p.waitFor();
        return Long.parseLong(out.split("\\s+")[0]);
    }
}
