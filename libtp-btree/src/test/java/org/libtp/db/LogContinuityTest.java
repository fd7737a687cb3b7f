package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.LibTpException;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.LogRecordCodec;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.testkit.ChildJvm;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The log's continuity: a log cut short, emptied after its commit records or deleted, under data
 * pages that carry its LSNs, is refused at open with nothing changed on disk (before, the open
 * ran recovery over what was left and kept 2 of 2,000 rows, or started a new log at (1, 64) whose
 * lower LSNs made redo skip every later change); a page whose LSN lies beyond the end of the log
 * is refused when read; {@link Environment#resetLog} is the documented way out.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class LogContinuityTest {
    static final int ROWS = 2000;

    @TempDir
    Path dir;

    static byte[] key(int i) {
        return String.format("key%06d", i).getBytes(StandardCharsets.UTF_8);
    }

    static byte[] value(int i, int version) {
        return ("value " + i + " v" + version + " " + "x".repeat(40)).getBytes(StandardCharsets.UTF_8);
    }

    private static DatabaseConfig create() {
        return DatabaseConfig.builder().allowCreate(true).build();
    }

    /** One committed transaction of {@link #ROWS} puts, then a clean close. */
    private void populate() {
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", create())) {
            try (Transaction t = env.beginTransaction()) {
                for (int i = 0; i < ROWS; i++) {
                    db.put(t, key(i), value(i, 0));
                }
                t.commit();
            }
        }
    }

    private List<Path> logFiles() throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            return s.filter(p -> LogFileHeader.fileNumber(p.getFileName().toString()) > 0).sorted().toList();
        }
    }

    /** Every file but the regions (shared memory, rebuilt at open), by name, with its bytes. */
    private Map<String, byte[]> snapshot() throws IOException {
        Map<String, byte[]> out = new TreeMap<>();
        try (Stream<Path> s = Files.list(dir)) {
            for (Path p : s.toList()) {
                String n = p.getFileName().toString();
                if (!n.startsWith("__libtp.rgn") && !n.equals("__libtp.env") && !n.equals("__libtp.lock")) {
                    out.put(n, Files.readAllBytes(p));
                }
            }
        }
        return out;
    }

    private void assertUnchanged(Map<String, byte[]> before) throws IOException {
        Map<String, byte[]> after = snapshot();
        assertEquals(before.keySet(), after.keySet());
        for (String n : before.keySet()) {
            assertArrayEquals(before.get(n), after.get(n), n + " changed");
        }
    }

    /** Offsets of the records of {@code type} in log file {@code f}, and (last element) the end of the records. */
    static List<Long> recordOffsets(Path f, RecordType type) throws IOException {
        byte[] b = Files.readAllBytes(f);
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        List<Long> out = new java.util.ArrayList<>();
        int off = LogFileHeader.SIZE;
        while (off + LogRecordCodec.HEADER_SIZE <= b.length) {
            int len = le.getInt(off + LogRecordCodec.OFF_LENGTH);
            if (len == 0) {
                break;
            }
            if (le.getInt(off + LogRecordCodec.OFF_TYPE) == type.id()) {
                out.add((long) off);
            }
            off += len;
        }
        out.add((long) off);
        return out;
    }

    private CorruptionException refusedOpen() {
        return assertThrows(CorruptionException.class, () -> {
            try (Environment env = Environment.open(dir, EnvironmentConfig.defaults())) {
                env.openDatabase(null, "t", create()).close();
            }
        });
    }

    /**
     * Log files keep the size they were created with: a run with another logFileSize continues
     * in a new file of its size (before, the next run wrote past the end of a smaller file, and a
     * run with the smaller size again refused the log as damaged).
     */
    @Test
    void theLogFileSizeMayChangeBetweenRuns() {
        List<EnvironmentConfig> runs = List.of(
                EnvironmentConfig.builder().logFileSize(1 << 20).logBufferSize(256 << 10).build(),
                EnvironmentConfig.defaults(),
                EnvironmentConfig.builder().logFileSize(1 << 20).logBufferSize(256 << 10).build(),
                EnvironmentConfig.builder().logFileSize(2 << 20).logBufferSize(64 << 10).build());
        byte[] v = new byte[3000];
        int run = 0;
        for (EnvironmentConfig c : runs) {
            try (Environment env = Environment.open(dir, c);
                 Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
                for (int i = 0; i < 400; i++) {
                    v[0] = (byte) run;
                    db.put(null, ("r" + run + "-" + i).getBytes(StandardCharsets.US_ASCII), v);
                }
                for (int r = 0; r <= run; r++) {
                    for (int i = 0; i < 400; i++) {
                        byte[] got = db.get(null, ("r" + r + "-" + i).getBytes(StandardCharsets.US_ASCII));
                        assertNotNull(got, "run " + run + ": record " + r + "-" + i);
                        assertEquals((byte) r, got[0]);
                    }
                }
                assertEquals(List.of(), db.verify());
            }
            run++;
        }
    }

    @Test
    void aLogCutShortAfterACleanCloseIsRefusedAndNothingChanges() throws IOException {
        populate();
        Path last = logFiles().get(logFiles().size() - 1);
        List<Long> ends = recordOffsets(last, RecordType.CHECKPOINT);
        long dataEnd = ends.get(ends.size() - 1);
        try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
            f.setLength(dataEnd - 300);
        }
        Map<String, byte[]> before = snapshot();
        CorruptionException e = refusedOpen();
        assertTrue(e.getMessage().contains(last.getFileName().toString()) && e.getMessage().contains("cut short"),
                e.getMessage());
        assertUnchanged(before);
    }

    /** A log file emptied (shorter than its header): refused, naming the path and the way out. */
    @Test
    void anEmptiedLogFileIsRefusedNamingItsPathAndTheWayOut() throws IOException {
        populate();
        Path last = logFiles().get(logFiles().size() - 1);
        try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
            f.setLength(0);
        }
        Map<String, byte[]> before = snapshot();
        CorruptionException e = refusedOpen();
        assertTrue(e.getMessage().contains(last.toString()) && e.getMessage().contains("shorter than its")
                && e.getMessage().contains("resetLog") && e.getMessage().contains("backup"), e.getMessage());
        assertUnchanged(before);
    }

    @Test
    void aLogWhoseCommitRecordIsGoneIsRefusedAndNothingChanges() throws IOException {
        populate();
        Path last = logFiles().get(logFiles().size() - 1);
        List<Long> commits = recordOffsets(last, RecordType.TXN_COMMIT);
        long lastCommit = commits.get(commits.size() - 2);
        long dataEnd = commits.get(commits.size() - 1);
        // Zeros, not a shorter file: the file keeps its size, only the records are gone.
        try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
            f.seek(lastCommit);
            f.write(new byte[(int) (dataEnd - lastCommit)]);
        }
        Map<String, byte[]> before = snapshot();
        CorruptionException e = refusedOpen();
        assertTrue(e.getMessage().contains("ends in log.") && e.getMessage().contains("at LSN") && e.getMessage().contains("resetLog"), e.getMessage());
        assertUnchanged(before);
    }

    @Test
    void deletedLogFilesAreRefusedAndLogResetStartsOverWithoutLosingLaterCommits() throws Exception {
        populate();
        for (Path p : logFiles()) {
            Files.delete(p);
        }
        Map<String, byte[]> before = snapshot();
        CorruptionException e = refusedOpen();
        assertTrue(e.getMessage().contains("every log file") && e.getMessage().contains("missing"), e.getMessage());
        assertUnchanged(before);

        assertTrue(Environment.resetLog(dir) > 0);
        // Another JVM commits 20 durable updates after the reset and is killed: every one survives.
        try (ChildJvm child = ChildJvm.start(Updater.class, dir.toString(), "20")) {
            assertNotNull(child.awaitLine("DONE", Duration.ofSeconds(60)), child.outputText());
            child.kill();
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
             Database db = env.openDatabase(null, "t", create())) {
            for (int i = 0; i < ROWS; i++) {
                assertArrayEquals(value(i, i < 20 ? 1 : 0), db.get(null, key(i)), "row " + i);
            }
            assertEquals(List.of(), db.verify());
        }
    }

    /** Child: {@code n} durable update transactions, then DONE, then waits to be killed. */
    public static final class Updater {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            int n = Integer.parseInt(args[1]);
            Environment env = Environment.open(home, EnvironmentConfig.defaults());
            Database db = env.openDatabase(null, "t", create());
            for (int i = 0; i < n; i++) {
                try (Transaction t = env.beginTransaction()) {
                    db.put(t, key(i), value(i, 1));
                    t.commit();
                }
            }
            System.out.println("DONE");
            Thread.sleep(600_000);
        }
    }

    @Test
    void aPageWhoseLsnIsBeyondTheEndOfTheLogIsRefusedWhenRead() throws Exception {
        // Regions in the environment directory, so that the test can remove the log buffer too.
        try (ChildJvm child = ChildJvm.start(PageWriter.class, List.of("-Dlibtp.regions=env_dir"), dir.toString())) {
            assertNotNull(child.awaitLine("SYNCED", Duration.ofSeconds(60)), child.outputText());
            child.kill();
        }
        // The log buffer, which the next open would salvage the log's last records from (it
        // still holds them: written records leave it only when it needs the room), is gone.
        Files.delete(dir.resolve("__libtp.rgn.log"));
        // The log loses everything after the checkpoint (zeros, so the file keeps its size and
        // the anchor's minimum is still reached): the pages written by sync() are ahead of it.
        Path last = logFiles().get(logFiles().size() - 1);
        List<Long> ckps = recordOffsets(last, RecordType.CHECKPOINT);
        long lastCkp = ckps.get(ckps.size() - 2);
        long end = ckps.get(ckps.size() - 1);
        byte[] b = Files.readAllBytes(last);
        int ckpLen = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getInt((int) lastCkp);
        try (RandomAccessFile f = new RandomAccessFile(last.toFile(), "rw")) {
            f.seek(lastCkp + ckpLen);
            f.write(new byte[(int) (end - lastCkp - ckpLen)]);
        }
        // Refused at the first read of such a page: here recovery's redo reads it (a later
        // record of the same page survived); otherwise opening the tree or a get would.
        LibTpException e = assertThrows(CorruptionException.class, () -> {
            try (Environment env = Environment.open(dir, EnvironmentConfig.defaults());
                 Database db = env.openDatabase(null, "t", create())) {
                for (int i = 0; i < 100; i++) {
                    db.get(null, key(i));
                }
            }
        });
        assertTrue(e.getMessage().contains("beyond the end of the log") && e.getMessage().contains("t.db"),
                e.getMessage());
    }

    /** Child: rows, a checkpoint, more durable updates, every page written; SYNCED; waits to be killed. */
    public static final class PageWriter {
        public static void main(String[] args) throws Exception {
            Path home = Path.of(args[0]);
            Environment env = Environment.open(home, EnvironmentConfig.defaults());
            Database db = env.openDatabase(null, "t", create());
            for (int i = 0; i < 100; i++) {
                db.put(null, key(i), value(i, 0));
            }
            env.checkpoint();
            for (int i = 0; i < 100; i++) {
                db.put(null, key(i), value(i, 1));
            }
            env.sync();
            System.out.println("SYNCED");
            Thread.sleep(600_000);
        }
    }
}
