package org.libtp.bench;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.libtp.core.txn.ResourceManager;
import org.libtp.core.txn.Txn;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The commit benchmark's record manager ({@code commit --level txn}): {@value #COUNTERS} 8-byte
 * counters in the shared region {@code bench-counters}, made durable in {@value #DATA} at
 * checkpoints. Each committer thread of each process owns one counter (so there are no conflicts
 * and no lock manager is needed); an update latches the counter's stripe, logs a before and an
 * after image, applies the change and unlatches, exactly as the test record manager
 * ({@code SlotStore} in libtp-core's tests) does.
 *
 * <p>Its log record is its own, {@link CounterUpdate} ({@link RecordType#COUNTER_UPDATE}, id
 * 101, owned by libtp-bench, registered when this store is made), with file id {@value #FILE_ID}
 * and the payload layout of the test record manager's slot update. The after image is the new
 * 8-byte value followed by zero padding, so that the record payload is about the benchmark's
 * {@code --payload} bytes; redo and undo read only the first 8 bytes of an image.
 *
 * <p>Region layout (each counter on its own 64-byte line, so committers do not share cache lines):
 * <pre>
 *  offset        size        field
 *  256           64*64       64 latch stripes; counter c is guarded by stripe c % 64
 *  8192          64*COUNTERS counter c at 8192 + 64*c (8 bytes used)
 * </pre>
 */
public final class CounterStore implements ResourceManager {
    /** Counters in the region: one per committer, up to 32 processes × 1024 threads. */
    public static final int COUNTERS = 32 * 1024;
    /** The file id written in its records. */
    static final int FILE_ID = 2;
    static final String REGION = "bench-counters";
    static final String DATA = "bench-counters.dat";
    static final int STRIPES = 64;
    static final long OFF_LATCHES = 256;
    static final int LATCH_STRIDE = 64;
    static final long OFF_COUNTERS = 8192;
    static final int COUNTER_STRIDE = 64;
    /** Update payload bytes besides the after image: fileId, counter, 2 lengths, 8-byte before. */
    static final int UPDATE_OVERHEAD = CounterUpdate.FIXED_BYTES + 8;
    /** The smallest update payload: the after image is at least the 8-byte value. */
    public static final int MIN_PAYLOAD = UPDATE_OVERHEAD + 8;

    private final Storage storage;
    private final Memory mem;
    private final Latch[] latches = new Latch[STRIPES];
    private final int afterBytes;
    private final AtomicLong checkpoints = new AtomicLong();

    /**
     * @param recordPayload the wanted update payload size; the after image is padded to
     *                      reach it (at least {@link #MIN_PAYLOAD})
     */
    public CounterStore(RegionEnvironment env, Storage storage, int recordPayload) {
        CounterUpdate.register(); // before recovery decodes the first one
        this.storage = storage;
        this.afterBytes = Math.max(8, recordPayload - UPDATE_OVERHEAD);
        Region r = env.region(new RegionSpec(REGION, OFF_COUNTERS + (long) COUNTER_STRIDE * COUNTERS, 1,
                new LatchArray(OFF_LATCHES, LATCH_STRIDE, STRIPES)));
        this.mem = r.memory();
        for (int i = 0; i < STRIPES; i++) {
            latches[i] = env.latch(r, OFF_LATCHES + (long) LATCH_STRIDE * i, "bench counter stripe " + i);
        }
    }

    /** The payload size of one update's record. */
    public int updatePayloadBytes() {
        return UPDATE_OVERHEAD + afterBytes;
    }

    /** Checkpoints this process's handle has taken part in (its {@link #checkpoint} calls). */
    public long checkpoints() {
        return checkpoints.get();
    }

    private static long at(int counter) {
        return OFF_COUNTERS + (long) COUNTER_STRIDE * counter;
    }

    public long get(int counter) {
        check(counter);
        return mem.getLongVolatile(at(counter));
    }

    /** Adds 1 to {@code counter} in {@code txn}, logging before and after images; returns the new value. */
    public long increment(Txn txn, int counter) {
        check(counter);
        Latch l = latches[counter % STRIPES];
        l.acquire();
        try {
            long before = mem.getLong(at(counter));
            long after = before + 1;
            byte[] a = new byte[afterBytes];
            ByteBuffer.wrap(a).order(ByteOrder.LITTLE_ENDIAN).putLong(0, after);
            txn.log(new CounterUpdate(FILE_ID, counter, bytes(before), a));
            mem.putLongVolatile(at(counter), after);
            return after;
        } finally {
            l.release();
        }
    }

    private static void check(int counter) {
        if (counter < 0 || counter >= COUNTERS) {
            throw new IllegalArgumentException("counter " + counter + " not in [0, " + COUNTERS + ")");
        }
    }

    private static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v).array();
    }

    private static long value(byte[] image) {
        return ByteBuffer.wrap(image).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    private static CounterUpdate mine(LogRecord record) {
        CounterUpdate u = (CounterUpdate) record;
        if (u.fileId() != FILE_ID || u.before().length < 8 || u.after().length < 8) {
            throw new IllegalStateException("not a bench counter update: " + u);
        }
        check(u.counter());
        return u;
    }

    @Override
    public Set<RecordType> types() {
        return Set.of(RecordType.COUNTER_UPDATE);
    }

    @Override
    public void beforeRecovery() {
        byte[] data = new byte[8 * COUNTERS];
        try {
            if (storage.exists(DATA)) {
                try (StorageFile f = storage.open(DATA, false)) {
                    int n = (int) Math.min(f.size(), data.length);
                    f.readFully(ByteBuffer.wrap(data, 0, n), 0);
                }
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        for (int c = 0; c < COUNTERS; c++) {
            mem.putLong(at(c), b.getLong(8 * c));
        }
    }

    @Override
    public void redo(LogEntry entry, LogRecord record) {
        CounterUpdate u = mine(record);
        Latch l = latches[u.counter() % STRIPES];
        l.acquire();
        try {
            mem.putLongVolatile(at(u.counter()), value(u.after()));
        } finally {
            l.release();
        }
    }

    @Override
    public void redoOn(LogEntry entry, LogRecord record, org.libtp.core.buffer.Page page) {
        // counters live in this store's own region, never in a buffer pool page
    }

    @Override
    public void undo(LogEntry entry, LogRecord record, CompensationLog clr) {
        CounterUpdate u = mine(record);
        Latch l = latches[u.counter() % STRIPES];
        l.acquire();
        try {
            clr.log(new CounterUpdate(FILE_ID, u.counter(), u.after(), u.before()));
            mem.putLongVolatile(at(u.counter()), value(u.before()));
        } finally {
            l.release();
        }
    }

    @Override
    public java.util.List<org.libtp.core.log.record.LogRecord.DirtyPage> checkpoint(long beginLsn, long writeBefore,
                                                                                    int maxDirtyPages) {
        // Everything, as of now (at or after beginLsn): nothing stays dirty.
        byte[] data = new byte[8 * COUNTERS];
        ByteBuffer b = ByteBuffer.wrap(data).order(ByteOrder.LITTLE_ENDIAN);
        for (int s = 0; s < STRIPES; s++) { // each stripe under its latch
            latches[s].acquire();
            try {
                for (int c = s; c < COUNTERS; c += STRIPES) {
                    b.putLong(8 * c, mem.getLong(at(c)));
                }
            } finally {
                latches[s].release();
            }
        }
        try {
            storage.replaceFile(DATA, ByteBuffer.wrap(data));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        checkpoints.incrementAndGet();
        return java.util.List.of();
    }
}
