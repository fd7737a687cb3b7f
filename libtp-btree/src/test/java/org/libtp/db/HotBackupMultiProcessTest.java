package org.libtp.db;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.tp.BackupConfig;
import org.libtp.core.tp.HotBackup;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Hot backup while two other JVMs commit transfers: the restored copy, recovered
 * catastrophically, keeps the sum of the balances, holds every transfer acknowledged before the
 * backup began, and verifies clean; likewise after an incremental backup on top. With small log
 * files and frequent checkpoints, the processes remove log files while the backup copies them,
 * unless its pin holds them.
 */
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 15, unit = java.util.concurrent.TimeUnit.MINUTES)
class HotBackupMultiProcessTest {
    static final int ACCOUNTS = 100;
    static final long BALANCE = 1000;
    /** A database of some megabytes the transfers also update, so that the copy meets page writes. */
    static final int BULK = 6000;
    /** In "acct": how many transfers "log" holds (the two change in one transaction). */
    static final byte[] COUNT = "count".getBytes(StandardCharsets.US_ASCII);

    @TempDir
    Path tmp;

    static EnvironmentConfig config(boolean keepLogs) {
        return EnvironmentConfig.builder().logFileSize(1 << 20).logBufferSize(256 << 10).checkpointBytes(256 << 10)
                .keepLogFiles(keepLogs).lockTimeoutMillis(10_000).build();
    }

    static byte[] key(int i) {
        return String.format("a%04d", i).getBytes(StandardCharsets.US_ASCII);
    }

    static byte[] longValue(long v) {
        return ByteBuffer.allocate(8).putLong(v).array();
    }

    /** Child: commits transfers (durably) until killed; prints {@code ACK id} after each commit returns. */
    public static final class Transfers {
        public static void main(String[] args) throws Exception {
            Path dir = Path.of(args[0]);
            String me = args[1];
            Random rnd = new Random(Long.parseLong(args[2]));
            boolean keep = Boolean.parseBoolean(args[3]);
            try (Environment env = Environment.open(dir, config(keep));
                 Database acct = env.openDatabase(null, "acct", DatabaseConfig.defaults());
                 Database log = env.openDatabase(null, "log", DatabaseConfig.defaults());
                 Database bulk = env.openDatabase(null, "bulk", DatabaseConfig.defaults())) {
                System.out.println("READY");
                byte[] filler = new byte[300];
                for (long seq = 0; ; seq++) {
                    int a = rnd.nextInt(ACCOUNTS);
                    int b = rnd.nextInt(ACCOUNTS);
                    long amount = 1 + rnd.nextInt(50);
                    String id = me + ":" + seq;
                    rnd.nextBytes(filler);
                    env.runInTransaction(t -> {
                        long va = ByteBuffer.wrap(acct.getForUpdate(t, key(a))).getLong();
                        acct.put(t, key(a), longValue(va - amount));
                        long vb = ByteBuffer.wrap(acct.getForUpdate(t, key(b))).getLong();
                        acct.put(t, key(b), longValue(vb + amount));
                        log.put(t, id.getBytes(StandardCharsets.US_ASCII), filler);
                        long n = ByteBuffer.wrap(acct.getForUpdate(t, COUNT)).getLong();
                        acct.put(t, COUNT, longValue(n + 1));
                        bulk.put(t, key(rnd.nextInt(BULK)), new byte[1000]);
                    });
                    System.out.println("ACK " + id);
                }
            }
        }
    }

    /**
     * A copy that takes its time (a large environment on a slow disk): a third of the way it
     * waits a second, during which the children commit, checkpoints write pages and remove log
     * files (but not those the backup pinned), so that the data files are copied at different
     * points of the log.
     */
    private static HotBackup.Progress slowly() {
        boolean[] waited = {false};
        return (done, total) -> {
            if (!waited[0] && done > total / 3) {
                waited[0] = true;
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
        };
    }

    private Set<String> acked(List<ChildJvm> children) {
        Set<String> out = new HashSet<>();
        for (ChildJvm c : children) {
            for (String l : c.linesStartingWith("ACK ")) {
                out.add(l.substring(4));
            }
        }
        return out;
    }

    private void awaitAcks(List<ChildJvm> children, int atLeast) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        while (acked(children).size() < atLeast) {
            for (ChildJvm c : children) {
                assertTrue(c.isAlive(), "child died: " + c.outputText());
            }
            assertTrue(System.nanoTime() < deadline, "children acknowledged " + acked(children).size());
            Thread.sleep(20);
        }
    }

    private static void create(Path dir, boolean keep) {
        try (Environment env = Environment.open(dir, config(keep));
             Database acct = env.openDatabase(null, "acct", DatabaseConfig.builder().allowCreate(true).build());
             Database log = env.openDatabase(null, "log", DatabaseConfig.builder().allowCreate(true).build());
             Database bulk = env.openDatabase(null, "bulk", DatabaseConfig.builder().allowCreate(true).build())) {
            env.runInTransaction(t -> {
                for (int i = 0; i < ACCOUNTS; i++) {
                    acct.put(t, key(i), longValue(BALANCE));
                }
                acct.put(t, COUNT, longValue(0));
            });
            byte[] v = new byte[1000];
            for (int from = 0; from < BULK; from += 500) {
                int f = from;
                env.runInTransaction(Durability.NO_SYNC, false, t -> {
                    for (int i = f; i < f + 500; i++) {
                        bulk.put(t, key(i), v);
                    }
                });
            }
        }
    }

    /** Restores {@code backup} into {@code target} and checks the copy; returns the transfers it holds. */
    private static int check(Path backup, Path target, Set<String> mustHold) {
        Environment.restore(backup, target);
        try (Environment env = Environment.open(target, config(true));
             Database acct = env.openDatabase(null, "acct", DatabaseConfig.defaults());
             Database log = env.openDatabase(null, "log", DatabaseConfig.defaults())) {
            long sum = 0;
            for (int i = 0; i < ACCOUNTS; i++) {
                sum += ByteBuffer.wrap(acct.get(null, key(i))).getLong();
            }
            assertEquals(ACCOUNTS * BALANCE, sum, "sum of the balances in the restored copy");
            Set<String> missing = new HashSet<>();
            for (String id : mustHold) {
                if (log.get(null, id.getBytes(StandardCharsets.US_ASCII)) == null) {
                    missing.add(id);
                }
            }
            assertEquals(Set.of(), missing, "transfers acknowledged before the backup began, missing from it");
            assertEquals(List.of(), acct.verify());
            assertEquals(List.of(), log.verify());
            assertEquals(log.stat().entries(), ByteBuffer.wrap(acct.get(null, COUNT)).getLong(),
                    "transfers in \"log\" and their count in \"acct\", changed in one transaction each");
            try (Database bulk = env.openDatabase(null, "bulk", DatabaseConfig.defaults())) {
                assertEquals(List.of(), bulk.verify());
                assertEquals(BULK, bulk.stat().entries());
            }
            return (int) log.stat().entries();
        }
    }

    @Test
    void fullBackupWhileTwoJvmsCommitHoldsEveryTransferAcknowledgedBefore() throws Exception {
        Path dir = tmp.resolve("env");
        java.nio.file.Files.createDirectories(dir);
        create(dir, false);
        long seed = Seeds.seed("HotBackupMultiProcessTest.full");
        List<ChildJvm> children = ChildJvm.startAll(2, Transfers.class,
                i -> new String[] {dir.toString(), "c" + i, Long.toString(seed + i), "false"});
        try (Environment env = Environment.open(dir, config(false))) {
            for (ChildJvm c : children) {
                assertNotNull(c.awaitLine("READY", Duration.ofSeconds(60)), c.outputText());
            }
            awaitAcks(children, 300);
            Set<String> before = acked(children);
            HotBackup.Result r = env.backup(tmp.resolve("backup"), BackupConfig.builder().progress(slowly()).build());
            Set<String> after = acked(children);
            System.out.println("HotBackupMultiProcessTest: " + r + "; " + before.size() + " transfers acknowledged "
                    + "before it began, " + after.size() + " when it ended");
            assertTrue(after.size() > before.size(), "the children committed during the backup");
            assertTrue(r.logFiles() >= 1 && r.dataFiles() >= 3, r.toString());
            // The backup yields to commits by the log region's force counters: it saw the children's forces.
            assertTrue(r.undisturbedForceMicros() > 0, "the backup measured the other JVMs' forces: " + r);
            ChildJvm.killAll(children);
            int held = check(tmp.resolve("backup"), tmp.resolve("restored"), before);
            assertTrue(held >= before.size(), held + " transfers restored");
        } finally {
            ChildJvm.closeAll(children);
        }
    }

    @Test
    void incrementalBackupAddsTheTransfersCommittedSince() throws Exception {
        Path dir = tmp.resolve("env");
        java.nio.file.Files.createDirectories(dir);
        create(dir, true);
        long seed = Seeds.seed("HotBackupMultiProcessTest.incremental");
        List<ChildJvm> children = ChildJvm.startAll(2, Transfers.class,
                i -> new String[] {dir.toString(), "c" + i, Long.toString(seed + i), "true"});
        Path backup = tmp.resolve("backup");
        try (Environment env = Environment.open(dir, config(true))) {
            for (ChildJvm c : children) {
                assertNotNull(c.awaitLine("READY", Duration.ofSeconds(60)), c.outputText());
            }
            awaitAcks(children, 200);
            Set<String> before = acked(children);
            env.backup(backup, BackupConfig.builder().progress(slowly()).build());
            int first = check(backup, tmp.resolve("restored1"), before);
            awaitAcks(children, acked(children).size() + 300);
            Set<String> beforeIncremental = acked(children);
            HotBackup.Result r = env.backup(backup, BackupConfig.builder().incremental(true).progress(slowly()).build());
            assertTrue(r.incremental() && r.logFiles() >= 1, r.toString());
            ChildJvm.killAll(children);
            int second = check(backup, tmp.resolve("restored2"), beforeIncremental);
            assertTrue(second > first, "the incremental copy adds transfers: " + first + " then " + second);
        } finally {
            ChildJvm.closeAll(children);
        }
    }

    /** Child: takes a backup at 1 MB/s (so that it is still copying when killed); prints COPYING once it copies. */
    public static final class SlowBackup {
        public static void main(String[] args) throws Exception {
            try (Environment env = Environment.join(Path.of(args[0]), EnvironmentConfig.defaults())) {
                boolean[] said = {false};
                env.backup(Path.of(args[1]), BackupConfig.builder().maxBytesPerSecond(1_000_000).progress((d, t) -> {
                    if (!said[0]) {
                        said[0] = true;
                        System.out.println("COPYING");
                    }
                }).build());
                System.out.println("DONE");
            }
        }
    }

    /**
     * kill -9 of a process in the middle of a hot backup: its copy is refused (never taken for a
     * backup), its pin on the log files is ignored (they are removed again, and the next backup
     * runs), and that next backup restores whole.
     */
    @Test
    void aBackupKilledMidwayIsRefusedAndLeavesNoPin() throws Exception {
        Path dir = tmp.resolve("env");
        java.nio.file.Files.createDirectories(dir);
        create(dir, false);
        Path killed = tmp.resolve("killed");
        try (Environment env = Environment.open(dir, config(false));
             Database acct = env.openDatabase(null, "acct", DatabaseConfig.defaults())) {
            try (ChildJvm child = ChildJvm.start(SlowBackup.class, dir.toString(), killed.toString())) {
                assertNotNull(child.awaitLine("COPYING", Duration.ofSeconds(60)), child.outputText());
                int firstBefore = firstLogFile(dir);
                child.kill();
                assertTrue(!child.outputText().contains("DONE"), "killed while copying: " + child.outputText());
                // The dead owner's pin is ignored: checkpoints remove log files again.
                byte[] v = new byte[1000];
                for (int i = 0; i < 3000; i++) {
                    acct.put(null, key(i % ACCOUNTS + ACCOUNTS), v);
                }
                env.checkpoint();
                env.checkpoint();
                assertTrue(firstLogFile(dir) > firstBefore, "log files removed after the backup's process died: "
                        + firstBefore + " then " + firstLogFile(dir));
                env.backup(tmp.resolve("next")); // no "a hot backup is running"
            }
        }
        IllegalArgumentException e = org.junit.jupiter.api.Assertions.assertThrows(IllegalArgumentException.class,
                () -> Environment.restore(killed, tmp.resolve("r1")));
        assertTrue(e.getMessage().contains("did not finish"), e.getMessage());
        org.junit.jupiter.api.Assertions.assertThrows(CorruptionException.class,
                () -> Environment.open(killed, config(true)).close());
        check(tmp.resolve("next"), tmp.resolve("r2"), Set.of());
    }

    private static int firstLogFile(Path dir) throws java.io.IOException {
        try (var s = java.nio.file.Files.list(dir)) {
            return s.mapToInt(p -> LogFileHeader.fileNumber(p.getFileName().toString()))
                    .filter(n -> n > 0).min().orElse(0);
        }
    }
}
