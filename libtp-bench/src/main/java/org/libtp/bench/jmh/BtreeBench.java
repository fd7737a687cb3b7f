package org.libtp.bench.jmh;

import org.libtp.bench.engine.TempDirs;
import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.OpenMode;
import org.libtp.db.Transaction;
import org.lmdbjava.Dbi;
import org.lmdbjava.DbiFlags;
import org.lmdbjava.Env;
import org.lmdbjava.EnvFlags;
import org.lmdbjava.Txn;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * B-tree point get, point put (replace) and a 100-entry cursor scan, one thread, over 100,000
 * keys of 11 bytes with 100-byte values: LibTP in TP mode (page locks and logging; puts commit
 * NO_SYNC, the CPU path) and unprotected mode (the paper's NOTP), beside java.util.TreeMap and
 * LMDB (lmdbjava; puts in a write transaction each, MDB_NOSYNC) in the same run. TP gets are
 * measured both auto-committed (a transaction per get) and 100 per transaction. The record API's
 * target: TP-mode point get &gt;= 0.5 x unprotected.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(value = 1, jvmArgsAppend = {"--add-opens=java.base/java.nio=ALL-UNNAMED",
        "--add-opens=java.base/sun.nio.ch=ALL-UNNAMED"})
public class BtreeBench {
    static final int KEYS = 100_000;

    private Path dir;
    private Environment tpEnv;
    private Database tp;
    private Environment plainEnv;
    private Database plain;
    private final TreeMap<byte[], byte[]> treeMap = new TreeMap<>(Arrays::compareUnsigned);
    private Env<ByteBuffer> lmdbEnv;
    private Dbi<ByteBuffer> lmdb;
    private byte[][] keys;
    private final byte[] value = new byte[100];
    private int next;
    private Transaction readTxn;
    private int readsInTxn;
    private final ByteBuffer lmdbKey = ByteBuffer.allocateDirect(64);
    private final ByteBuffer lmdbVal = ByteBuffer.allocateDirect(128);

    @Setup(Level.Trial)
    public void setup() throws IOException {
        dir = Files.createTempDirectory("libtp-btreebench");
        keys = new byte[KEYS][];
        for (int i = 0; i < KEYS; i++) {
            keys[i] = String.format("key%08d", (i * 7919L) % KEYS).getBytes(StandardCharsets.UTF_8);
        }
        DatabaseConfig create = DatabaseConfig.builder().allowCreate(true).build();
        tpEnv = Environment.open(Files.createDirectories(dir.resolve("tp")), EnvironmentConfig.builder().durability(Durability.NO_SYNC)
                .cacheBytes(128L << 20).build());
        tp = tpEnv.openDatabase(null, "bench", create);
        plainEnv = Environment.open(Files.createDirectories(dir.resolve("plain")), EnvironmentConfig.builder().mode(OpenMode.UNPROTECTED)
                .cacheBytes(128L << 20).build());
        plain = plainEnv.openDatabase(null, "bench", create);
        Files.createDirectories(dir.resolve("lmdb"));
        lmdbEnv = Env.create().setMapSize(1L << 30).setMaxDbs(1)
                .open(dir.resolve("lmdb").toFile(), EnvFlags.MDB_NOSYNC);
        lmdb = lmdbEnv.openDbi("bench", DbiFlags.MDB_CREATE);
        try (Transaction t = tpEnv.beginTransaction()) {
            for (byte[] k : keys) {
                tp.put(t, k, value);
            }
            t.commit();
        }
        try (Txn<ByteBuffer> t = lmdbEnv.txnWrite()) {
            for (byte[] k : keys) {
                lmdb.put(t, buf(lmdbKey, k), buf(lmdbVal, value));
            }
            t.commit();
        }
        for (byte[] k : keys) {
            plain.put(null, k, value);
            treeMap.put(k, value.clone());
        }
    }

    private static ByteBuffer buf(ByteBuffer b, byte[] bytes) {
        b.clear();
        b.put(bytes).flip();
        return b;
    }

    @TearDown(Level.Trial)
    public void tearDown() {
        if (readTxn != null) {
            readTxn.commit();
        }
        tp.close();
        tpEnv.close();
        plain.close();
        plainEnv.close();
        lmdbEnv.close();
        TempDirs.deleteRecursively(dir);
    }

    /** Operations (keys handed out) in the current iteration, for the thread's allocation per operation. */
    private long calls;
    private long allocatedAtStart;

    /**
     * The benchmark thread's own allocation, printed per iteration: JMH's gc profiler divides
     * every thread's allocation by the operations, so the environments' background threads
     * (write-back, checkpoints, failure checks) show as a few hundred bytes per operation, with
     * an error larger than the mean, even for {@code getTreeMap}.
     */
    @Setup(Level.Iteration)
    public void iterationStart() {
        calls = 0;
        allocatedAtStart = threadAllocatedBytes();
    }

    @TearDown(Level.Iteration)
    public void iterationEnd() {
        long bytes = threadAllocatedBytes() - allocatedAtStart;
        if (calls > 0 && bytes >= 0) {
            System.out.printf("  (benchmark thread: %.3f B/op over %,d operations)%n", (double) bytes / calls, calls);
        }
    }

    private static long threadAllocatedBytes() {
        java.lang.management.ThreadMXBean mx = java.lang.management.ManagementFactory.getThreadMXBean();
        if (mx instanceof com.sun.management.ThreadMXBean sun && sun.isThreadAllocatedMemorySupported()) {
            return sun.getThreadAllocatedBytes(Thread.currentThread().getId());
        }
        return -1;
    }

    private byte[] nextKey() {
        calls++;
        int i = next++;
        if (next == KEYS) {
            next = 0;
        }
        return keys[i];
    }

    @Benchmark
    public byte[] getTpAutoCommit() {
        return tp.get(null, nextKey());
    }

    @Benchmark
    public byte[] getTp100PerTxn() {
        return tp.get(readTxn(), nextKey());
    }

    /** The read-only transaction of the current 100 gets: a new one every 100th call. */
    private Transaction readTxn() {
        if (readTxn == null || readsInTxn == 100) {
            if (readTxn != null) {
                readTxn.commit();
            }
            readTxn = tpEnv.beginTransaction(Durability.NO_SYNC, true);
            readsInTxn = 0;
        }
        readsInTxn++;
        return readTxn;
    }

    private static final java.util.function.Function<ByteBuffer, Object> FIRST_BYTE = b -> b.get(b.position()) == 0 ? Boolean.TRUE : Boolean.FALSE;

    /** The zero-copy get ({@code get(txn, key, reader)}), 100 per read-only transaction. */
    @Benchmark
    public Object getTpZeroCopy100PerTxn() {
        return tp.get(readTxn(), nextKey(), FIRST_BYTE);
    }

    /** The zero-copy get in unprotected mode. */
    @Benchmark
    public Object getUnprotectedZeroCopy() {
        return plain.get(null, nextKey(), FIRST_BYTE);
    }

    @Benchmark
    public byte[] getUnprotected() {
        return plain.get(null, nextKey());
    }

    @Benchmark
    public byte[] getTreeMap() {
        return treeMap.get(nextKey());
    }

    @Benchmark
    public int getLmdb() {
        try (Txn<ByteBuffer> t = lmdbEnv.txnRead()) {
            ByteBuffer v = lmdb.get(t, buf(lmdbKey, nextKey()));
            return v.remaining();
        }
    }

    @Benchmark
    public void putTp() {
        tp.put(null, nextKey(), value);
    }

    @Benchmark
    public void putUnprotected() {
        plain.put(null, nextKey(), value);
    }

    @Benchmark
    public byte[] putTreeMap() {
        return treeMap.put(nextKey(), value);
    }

    @Benchmark
    public void putLmdb() {
        try (Txn<ByteBuffer> t = lmdbEnv.txnWrite()) {
            lmdb.put(t, buf(lmdbKey, nextKey()), buf(lmdbVal, value));
            t.commit();
        }
    }

    @Benchmark
    public void scan100Tp(Blackhole bh) {
        try (Transaction t = tpEnv.beginTransaction(Durability.NO_SYNC, true); Cursor c = tp.openCursor(t)) {
            c.seekRange(nextKey());
            for (int i = 0; i < 100 && c.next(); i++) {
                bh.consume(c.data());
            }
            t.commit();
        }
    }

    @Benchmark
    public void scan100Unprotected(Blackhole bh) {
        try (Cursor c = plain.openCursor(null)) {
            c.seekRange(nextKey());
            for (int i = 0; i < 100 && c.next(); i++) {
                bh.consume(c.data());
            }
        }
    }

    @Benchmark
    public void scan100TreeMap(Blackhole bh) {
        int i = 0;
        for (Map.Entry<byte[], byte[]> e : treeMap.tailMap(nextKey(), true).entrySet()) {
            bh.consume(e.getValue());
            if (++i == 100) {
                break;
            }
        }
    }

    @Benchmark
    public void scan100Lmdb(Blackhole bh) {
        try (Txn<ByteBuffer> t = lmdbEnv.txnRead();
             org.lmdbjava.Cursor<ByteBuffer> c = lmdb.openCursor(t)) {
            if (c.get(buf(lmdbKey, nextKey()), org.lmdbjava.GetOp.MDB_SET_RANGE)) {
                for (int i = 0; i < 100 && c.next(); i++) {
                    bh.consume(c.val().remaining());
                }
            }
        }
    }
}
