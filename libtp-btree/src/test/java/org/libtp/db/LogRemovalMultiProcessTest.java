package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Log files recovery no longer needs are removed after checkpoints by default (before, 40 MiB of
 * writes left 170 MiB of logs), whichever process takes the checkpoint, and no process keeps a
 * handle on a removed file (its space would not be freed). With {@code keepLogFiles} they stay
 * until the application removes them.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class LogRemovalMultiProcessTest {
    @TempDir
    Path dir;

    /**
     * Small log files and checkpoint intervals, so that the bounds below count intervals. Without
     * torn-write protection: with it, each checkpoint also logs an image of every page it writes
     * (here the whole 5 MiB database per 2 MiB interval), which the log keeps on top; the
     * 200 MiB run below has the default settings, images included.
     */
    static EnvironmentConfig config(boolean keep) {
        return EnvironmentConfig.builder().logFileSize(1 << 20).logBufferSize(256 << 10).checkpointBytes(2 << 20)
                .durability(Durability.NO_SYNC).keepLogFiles(keep).tornWriteProtection(false).build();
    }

    static long logFiles(Path home) throws IOException {
        try (Stream<Path> s = Files.list(home)) {
            return s.filter(p -> LogFileHeader.fileNumber(p.getFileName().toString()) > 0).count();
        }
    }

    static long deletedHandles(String pid) throws IOException {
        return deletedFiles(pid).size();
    }

    /** The files process {@code pid} has open that were deleted (JNA keeps one of its own in /tmp). */
    static java.util.List<String> deletedFiles(String pid) throws IOException {
        java.util.List<String> n = new java.util.ArrayList<>();
        try (Stream<Path> fds = Files.list(Path.of("/proc", pid, "fd"))) {
            for (Path fd : fds.toList()) {
                try {
                    String target = Files.readSymbolicLink(fd).toString();
                    if (target.endsWith("(deleted)")) {
                        n.add(target);
                    }
                } catch (IOException gone) {
                    // closed meanwhile
                }
            }
        }
        return n;
    }

    /** Child: writes {@code args[1]} MiB of committed records, then reports its deleted-file handles. */
    public static final class Writer {
        public static void main(String[] args) throws Exception {
            try (Environment env = Environment.open(Path.of(args[0]), config(false));
                 Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
                write(db, Integer.parseInt(args[1]), 1);
                System.out.println("DELETED " + deletedHandles("self") + " " + deletedFiles("self"));
                System.in.read();
            }
        }
    }

    static void write(Database db, int mib, int salt) {
        byte[] v = new byte[1000];
        for (int i = 0; i < mib * 1024; i++) {
            v[0] = (byte) (i + salt);
            db.put(null, String.format("k%05d", i % 5000).getBytes(), v);
        }
    }

    @Test
    void checkpointsInEitherProcessRemoveOldLogFilesAndEveryHandleOnThem() throws Exception {
        try (Environment env = Environment.open(dir, config(false));
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build());
             ChildJvm child = ChildJvm.start(Writer.class, dir.toString(), "12")) {
            write(db, 12, 2);
            String line = child.awaitLine("DELETED ", Duration.ofSeconds(120));
            assertNotNull(line, child.outputText());
            assertTrue(!line.contains(dir.toString()), "the child keeps no handle on a removed log file: " + line);
            // Two checkpoints: the first may find pages the background checkpoint left to it and so
            // keep an older redo point; the second's horizon is past everything written before it.
            env.checkpoint();
            env.checkpoint();
            write(db, 1, 3); // opens the current file again: the parent closes its handles on removed ones
            assertEquals(java.util.List.of(), deletedFiles(Long.toString(ProcessHandle.current().pid())).stream()
                    .filter(f -> f.contains(dir.toString())).toList(), "this process keeps no handle on a removed log file");
            env.checkpoint(); // the count is taken right after a checkpoint, not a MiB of log later
            long files = logFiles(dir);
            assertTrue(files <= 10, files + " log files of 1 MiB for over 24 MiB of log (about two checkpoint intervals are kept)");
            child.process().getOutputStream().write('\n');
            child.process().getOutputStream().flush();
            child.assertExitsCleanly(Duration.ofSeconds(60));
        }
    }

    @Test
    void keepLogFilesKeepsThemUntilTheApplicationRemovesThem() throws Exception {
        try (Environment env = Environment.open(dir, config(true));
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            write(db, 8, 1);
            env.checkpoint();
            env.checkpoint(); // as above: the second's horizon is past everything written before the first
            long files = logFiles(dir);
            assertTrue(files >= 8, files + " log files kept");
            int archivable = env.archivableLogFiles().size();
            assertTrue(archivable >= files - 4, archivable + " of " + files + " archivable");
            assertEquals(archivable, env.removeArchivableLogFiles());
            assertEquals(files - archivable, logFiles(dir));
        }
        try (Environment env = Environment.open(dir, config(true));
             Database db = env.openDatabase(null, "t", DatabaseConfig.defaults())) {
            assertEquals(1000, db.get(null, "k00001".getBytes()).length, "recovery needs none of them");
        }
    }

    /** The yardstick of log removal, under -Pstress: 200 MiB of committed log with the default settings. */
    @Test
    void twoHundredMebibytesOfLogLeaveAFewFiles() throws Exception {
        if (!Seeds.stress()) {
            System.out.println("LogRemovalMultiProcessTest: the 200 MiB run is part of -Pstress");
            return;
        }
        try (Environment env = Environment.open(dir, EnvironmentConfig.builder().durability(Durability.NO_SYNC).build());
             Database db = env.openDatabase(null, "t", DatabaseConfig.builder().allowCreate(true).build())) {
            long before = env.stats().log().endLsn();
            write(db, 180, 1);
            long files = logFiles(dir);
            System.out.println("LogRemovalMultiProcessTest: " + files + " log files after 180 MiB of values "
                    + "(log end " + env.stats().log() + ")");
            assertTrue(files <= 8, files + " log files");
            assertTrue(env.stats().log().endLsn() > before);
        }
    }
}
