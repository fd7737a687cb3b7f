package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.log.Durability;
import org.libtp.core.testkit.ChildJvm;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;
import org.libtp.core.storage.FileStorage;

import java.io.RandomAccessFile;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The buffer pool under kill -9: the write-ahead rule and redo/undo of pages. */
@org.junit.jupiter.api.Tag("crash")
@org.junit.jupiter.api.Tag("multi-jvm")
@org.junit.jupiter.api.Timeout(value = 60, unit = java.util.concurrent.TimeUnit.MINUTES)
class BufferCrashTest {
    static final int PAGES = 300;

    @TempDir
    Path dir;

    /** Child: changes page 0 in a transaction it never commits, pushes the page out, waits. */
    public static final class EvictUncommitted {
        public static void main(String[] args) throws Exception {
            try (PageFixture f = new PageFixture(Path.of(args[0]), 16, 0)) {
                Txn t = f.tm.begin(Durability.NO_SYNC);
                f.add(t, 0, 0, 4242);
                for (int p = 1; p <= 40; p++) {
                    f.get(p, 0);
                }
                System.out.println("EVICTED " + f.bp.stats().writes());
                Thread.sleep(Long.MAX_VALUE);
            }
        }
    }

    @Test
    void anUncommittedPageOnDiskIsUndoneByRecovery() throws Exception {
        Path home = Files.createDirectory(dir.resolve("env"));
        try (ChildJvm c = ChildJvm.start(EvictUncommitted.class, home.toString())) {
            c.awaitLine("EVICTED", Duration.ofSeconds(60));
            assertEquals(4242, onDisk(home, 0, 0), "the uncommitted change reached the data file");
            c.signalKill();
            c.kill();
        }
        try (PageFixture f = new PageFixture(home, 16, 0)) {
            assertEquals(0, f.get(0, 0), "recovery undid the change (its log record was forced first)");
        }
        assertEquals(0, onDisk(home, 0, 0), "and the final checkpoint wrote the undone page");
    }

    private static long onDisk(Path home, long page, int slot) throws Exception {
        try (RandomAccessFile raf = new RandomAccessFile(home.resolve(PageFixture.FILE).toFile(), "r")) {
            byte[] b = new byte[8];
            raf.seek((page + 1) * 4096 + PageFixture.offset(slot)); // after the header page
            raf.readFully(b);
            return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong();
        }
    }

    /**
     * Child: transactions adding 1 to its slot of page 0 (its commit counter) and of 3 random
     * other pages, through a small pool; prints each acknowledged (durable) commit.
     */
    public static final class Worker {
        public static void main(String[] args) throws Exception {
            int proc = Integer.parseInt(args[1]);
            Random rnd = new Random(Long.parseLong(args[2]));
            try (PageFixture f = new PageFixture(Path.of(args[0]), 24, 250,
                    TxnConfig.builder().checkpointBytes(256 * 1024).build(), new FileStorage(Path.of(args[0])))) {
                System.out.println("READY");
                while (true) {
                    Txn t = f.tm.begin(Durability.SYNC);
                    long n = f.add(t, 0, proc, 1);
                    for (int k = 0; k < 3; k++) {
                        f.add(t, 1 + rnd.nextInt(PAGES - 1), proc, 1);
                    }
                    if (rnd.nextInt(6) == 0) {
                        f.tm.abort(t);
                    } else {
                        f.tm.commit(t);
                        System.out.println("ACK " + n);
                    }
                }
            }
        }
    }

    @Test
    void acknowledgedCommitsSurviveKillOfEveryProcessWhilePagesAreEvicted() throws Exception {
        long seed = Seeds.seed("BufferCrashTest");
        Random rnd = new Random(seed);
        int rounds = Seeds.rounds(6, 200);
        Path home = Files.createDirectory(dir.resolve("env"));
        long[] acked = new long[3];
        for (int round = 0; round < rounds; round++) {
            List<ChildJvm> cs = ChildJvm.startAll(3, Worker.class,
                    i -> new String[] {home.toString(), Integer.toString(i), Long.toString(rnd.nextLong())});
            try {
                for (ChildJvm c : cs) {
                    c.awaitLine("READY", Duration.ofSeconds(60));
                }
                Thread.sleep(100 + rnd.nextInt(600));
                ChildJvm.killAll(cs);
            } finally {
                ChildJvm.closeAll(cs);
            }
            for (int i = 0; i < 3; i++) {
                for (String l : cs.get(i).linesStartingWith("ACK ")) {
                    acked[i] = Math.max(acked[i], Long.parseLong(l.substring(4).trim()));
                }
            }
            try (PageFixture f = new PageFixture(home, 24, 0)) {
                for (int proc = 0; proc < 3; proc++) {
                    long counter = f.get(0, proc);
                    assertTrue(counter == acked[proc] || counter == acked[proc] + 1, "round " + round + " process "
                            + proc + ": counter " + counter + ", acknowledged " + acked[proc] + " (seed " + seed + ")");
                    long sum = 0;
                    for (int p = 1; p < PAGES; p++) {
                        sum += f.get(p, proc);
                    }
                    assertEquals(3 * counter, sum, "round " + round + " process " + proc
                            + ": a partial transaction is visible (seed " + seed + ")");
                    acked[proc] = counter;
                }
                assertEquals(0, f.tm.activeCount());
                f.tm.checkpoint();
                f.tm.removeLogFiles();
            }
        }
        System.out.println("BufferCrashTest: " + rounds + " kill -9 rounds, commits acknowledged per process "
                + java.util.Arrays.toString(acked));
    }
}
