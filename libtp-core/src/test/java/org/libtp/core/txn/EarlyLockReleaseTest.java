package org.libtp.core.txn;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockNotGrantedException;
import org.libtp.core.buffer.PageFixture;
import org.libtp.core.lock.LockManager;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.log.Durability;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.testkit.Seeds;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Early lock release (TxnConfig.earlyLockRelease): a committer's locks go once its commit record
 * is in the log buffer, its commit returns after the force; a read-only transaction's commit
 * waits until the log is durable past the last early release; and after a power loss every
 * acknowledged commit, and everything an acknowledged reader saw, is there.
 */
class EarlyLockReleaseTest {
    @TempDir
    Path dir;

    /** Blocks every force of a log file while the gate is closed. */
    static final class GatedStorage implements Storage {
        final FileStorage delegate;
        volatile CountDownLatch gate = new CountDownLatch(0);
        final AtomicLong blocked = new AtomicLong();

        GatedStorage(Path dir) {
            delegate = new FileStorage(dir);
        }

        @Override
        public Path directory() {
            return delegate.directory();
        }

        @Override
        public StorageFile open(String name, boolean create) throws IOException {
            StorageFile f = delegate.open(name, create);
            if (!name.startsWith("log")) {
                return f;
            }
            return new StorageFile() {
                @Override
                public String name() {
                    return f.name();
                }

                @Override
                public int read(ByteBuffer dst, long position) throws IOException {
                    return f.read(dst, position);
                }

                @Override
                public void write(ByteBuffer src, long position) throws IOException {
                    f.write(src, position);
                }

                @Override
                public void force() throws IOException {
                    blocked.incrementAndGet();
                    try {
                        gate.await();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    } finally {
                        blocked.decrementAndGet();
                    }
                    f.force();
                }

                @Override
                public long size() throws IOException {
                    return f.size();
                }

                @Override
                public void truncate(long size) throws IOException {
                    f.truncate(size);
                }

                @Override
                public void preallocate(long size) throws IOException {
                    f.preallocate(size);
                }

                @Override
                public void close() throws IOException {
                    f.close();
                }
            };
        }

        @Override
        public boolean exists(String name) throws IOException {
            return delegate.exists(name);
        }

        @Override
        public List<String> list(String prefix) throws IOException {
            return delegate.list(prefix);
        }

        @Override
        public void delete(String name) throws IOException {
            delegate.delete(name);
        }

        @Override
        public void rename(String from, String to) throws IOException {
            delegate.rename(from, to);
        }

        @Override
        public void forceDirectory() throws IOException {
            delegate.forceDirectory();
        }
    }

    private static TxnConfig config(boolean elr) {
        return TxnConfig.builder().earlyLockRelease(elr).durability(Durability.SYNC).checkpointBytes(0)
                .checkpointSeconds(0).build();
    }

    @Test
    void locksGoBeforeTheForceAndAReaderWaitsForIt() throws Exception {
        GatedStorage gs = new GatedStorage(dir);
        try (PageFixture f = new PageFixture(dir, 16, 0, config(true), gs)) {
            LockManager lm = f.tp.locks();
            LockObject x = new LockObject(f.file, 1);
            Txn t1 = f.tm.begin(Durability.SYNC);
            lm.lock(t1, x, LockMode.WRITE, 0);
            f.add(t1, 1, 0, 7);
            gs.gate = new CountDownLatch(1);
            CompletableFuture<Void> c1 = CompletableFuture.runAsync(() -> f.tm.commit(t1));
            // t1 sits in its force; its lock must be free already.
            Txn t2 = f.tm.begin(Durability.SYNC);
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
            while (true) {
                try {
                    lm.lock(t2, x, LockMode.READ, LockManager.NOWAIT);
                    break;
                } catch (LockNotGrantedException e) {
                    assertTrue(System.nanoTime() < deadline, "the committer's lock was not released before its force");
                    Thread.sleep(1);
                }
            }
            assertFalse(c1.isDone(), "the commit returned before its force");
            assertEquals(7, f.get(1, 0));
            CompletableFuture<Void> c2 = CompletableFuture.runAsync(() -> f.tm.commit(t2));
            Thread.sleep(200);
            assertFalse(c2.isDone(), "a reader of early-released data committed before that data was durable");
            gs.gate.countDown();
            c1.get(10, TimeUnit.SECONDS);
            c2.get(10, TimeUnit.SECONDS);
            assertTrue(f.tp.log().flushedLsn() >= f.tp.log().endLsn() - 1 || f.tp.log().flushedLsn() > 0);
        }
    }

    @Test
    void withoutEarlyReleaseTheLocksAreHeldThroughTheForce() throws Exception {
        GatedStorage gs = new GatedStorage(dir);
        try (PageFixture f = new PageFixture(dir, 16, 0, config(false), gs)) {
            LockManager lm = f.tp.locks();
            LockObject x = new LockObject(f.file, 1);
            Txn t1 = f.tm.begin(Durability.SYNC);
            lm.lock(t1, x, LockMode.WRITE, 0);
            f.add(t1, 1, 0, 7);
            gs.gate = new CountDownLatch(1);
            CompletableFuture<Void> c1 = CompletableFuture.runAsync(() -> f.tm.commit(t1));
            while (gs.blocked.get() == 0) {
                Thread.sleep(1);
            }
            Txn t2 = f.tm.begin(Durability.SYNC);
            long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(300);
            while (System.nanoTime() < until) {
                assertThrows(LockNotGrantedException.class, () -> lm.lock(t2, x, LockMode.READ, LockManager.NOWAIT));
                Thread.sleep(5);
            }
            gs.gate.countDown();
            c1.get(10, TimeUnit.SECONDS);
            lm.lock(t2, x, LockMode.READ, 0);
            f.tm.commit(t2);
        }
    }

    /**
     * Transfers between counters, each also incrementing a hot counter C, commit with early lock
     * release; readers read C in read-only transactions. A simulated power loss at a random
     * moment; after recovery the total is unchanged, C counts exactly the surviving transfers,
     * and C is at least every value an acknowledged reader saw and every acknowledged transfer
     * count.
     */
    @Test
    void powerLossKeepsEveryAcknowledgedCommitAndEveryAcknowledgedRead() throws Exception {
        long seed = Seeds.seed("EarlyLockReleaseTest.powerLoss");
        Random rnd = new Random(seed);
        int rounds = Seeds.stress() ? 100 : 8;
        final int accounts = 8;
        final int hot = accounts; // counter slot C
        for (int round = 0; round < rounds; round++) {
            Path home = Files.createDirectory(dir.resolve("r" + round));
            FaultInjectingStorage fis = new FaultInjectingStorage(home);
            PageFixture f = new PageFixture(home, 16, 0, config(true), fis);
            Path regions = f.tp.env().regionDirectory();
            AtomicLong ackedTransfers = new AtomicLong();
            java.util.concurrent.atomic.AtomicBoolean stop = new java.util.concurrent.atomic.AtomicBoolean();
            AtomicLong maxAckedRead = new AtomicLong();
            List<Thread> threads = new ArrayList<>();
            long threadSeed = rnd.nextLong();
            for (int w = 0; w < 4; w++) {
                int id = w;
                threads.add(new Thread(() -> {
                    Random r = new Random(threadSeed + id);
                    LockManager lm = f.tp.locks();
                    Txn t = null;
                    try {
                        while (!stop.get()) {
                            t = f.tm.begin(Durability.SYNC);
                            try {
                                if (id == 3) { // the reader
                                    lm.lock(t, new LockObject(f.file, hot), LockMode.READ, 0);
                                    long v = f.get(hot, 0);
                                    f.tm.commit(t);
                                    maxAckedRead.accumulateAndGet(v, Math::max);
                                    continue;
                                }
                                int a = r.nextInt(accounts);
                                int b = (a + 1 + r.nextInt(accounts - 1)) % accounts;
                                lm.lock(t, new LockObject(f.file, a), LockMode.WRITE, 0);
                                f.add(t, a, 0, -5);
                                lm.lock(t, new LockObject(f.file, b), LockMode.WRITE, 0);
                                f.add(t, b, 0, 5);
                                lm.lock(t, new LockObject(f.file, hot), LockMode.WRITE, 0);
                                f.add(t, hot, 0, 1);
                                f.tm.commit(t);
                                ackedTransfers.incrementAndGet();
                            } catch (DeadlockException e) {
                                f.tm.abort(t);
                            }
                        }
                    } catch (RuntimeException e) {
                        // The storage crashed under us and the environment failed: let the
                        // others' lock waits end, so that every worker gets to its own failure.
                        try {
                            if (t != null && !t.isFinished()) {
                                lm.unlockAll(t);
                            }
                        } catch (RuntimeException ignored) {
                            // nothing more to release
                        }
                    }
                }, "elr-" + round + "-" + w));
            }
            threads.forEach(Thread::start);
            Thread.sleep(20 + rnd.nextInt(150));
            fis.crash(rnd, rnd.nextBoolean() ? FaultInjectingStorage.CrashMode.LOSE_ALL
                    : FaultInjectingStorage.CrashMode.RANDOM);
            long acked = ackedTransfers.get();
            long read = maxAckedRead.get();
            stop.set(true);
            for (Thread t : threads) {
                t.join(TimeUnit.SECONDS.toMillis(30));
                assertFalse(t.isAlive(), "seed " + seed + " round " + round + ": a worker hangs after the crash");
            }
            try {
                f.close();
            } catch (RuntimeException ignored) {
                // the storage has crashed
            }
            FaultInjectingStorage.loseSharedMemory(regions); // the power loss empties it too
            try (PageFixture g = new PageFixture(home, 16, 0)) {
                long total = 0;
                for (int a = 0; a < accounts; a++) {
                    total += g.get(a, 0);
                }
                long c = g.get(hot, 0);
                String where = "seed " + seed + " round " + round + ": ";
                assertEquals(0, total, where + "total");
                assertTrue(c >= acked, where + "C = " + c + " < " + acked + " acknowledged transfers");
                assertTrue(c >= read, where + "C = " + c + " < " + read + ", which an acknowledged reader saw");
            }
        }
    }
}
