package org.libtp.core.txn;

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

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Set;

/**
 * The test record manager: fixed-size slots of one long each, kept in a shared region and made
 * durable in {@code slots.dat} at checkpoints. Every update logs a before and an after image.
 * No locking (the lock manager comes later): concurrent transactions must use disjoint slots.
 * A latch stripe is held across "log, then apply" so a checkpoint never copies a slot between
 * the two (a change logged before the checkpoint's redo point is always in its copy).
 */
public final class SlotStore implements ResourceManager {
    static final int FILE_ID = 1;
    static final long OFF_LATCHES = 256;
    static final int STRIPES = 16;
    static final long OFF_SLOTS = 4096;
    static final String DATA = "slots.dat";

    private final Storage storage;
    private final Memory mem;
    private final Latch[] latches = new Latch[STRIPES];
    private final int slots;

    public SlotStore(RegionEnvironment env, Storage storage, int slots) {
        SlotUpdate.register(); // before recovery decodes the first one
        this.storage = storage;
        this.slots = slots;
        Region r = env.region(new RegionSpec("slots", OFF_SLOTS + 8L * slots, 1,
                new LatchArray(OFF_LATCHES, 64, STRIPES)));
        this.mem = r.memory();
        for (int i = 0; i < STRIPES; i++) {
            latches[i] = env.latch(r, OFF_LATCHES + 64L * i, "slot stripe " + i);
        }
    }

    public int size() {
        return slots;
    }

    public long get(int slot) {
        check(slot);
        return mem.getLongVolatile(OFF_SLOTS + 8L * slot);
    }

    /** Sets slot {@code slot} to {@code value} in {@code txn}, logging before and after images. */
    public void put(Txn txn, int slot, long value) {
        check(slot);
        Latch l = latches[slot % STRIPES];
        l.acquire();
        try {
            long before = mem.getLong(OFF_SLOTS + 8L * slot);
            txn.log(new SlotUpdate(FILE_ID, slot, bytes(before), bytes(value)));
            mem.putLongVolatile(OFF_SLOTS + 8L * slot, value);
        } finally {
            l.release();
        }
    }

    private void check(int slot) {
        if (slot < 0 || slot >= slots) {
            throw new IllegalArgumentException("slot " + slot + " not in [0, " + slots + ")");
        }
    }

    private static byte[] bytes(long v) {
        return ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(0, v).array();
    }

    private static long value(byte[] b) {
        return ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).getLong(0);
    }

    @Override
    public Set<RecordType> types() {
        return Set.of(RecordType.SLOT_UPDATE);
    }

    @Override
    public void beforeRecovery() {
        byte[] data = new byte[8 * slots];
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
        mem.putBytes(OFF_SLOTS, data, 0, data.length);
    }

    private void apply(SlotUpdate u, byte[] image) {
        Latch l = latches[u.slot() % STRIPES];
        l.acquire();
        try {
            mem.putLongVolatile(OFF_SLOTS + 8L * u.slot(), value(image));
        } finally {
            l.release();
        }
    }

    @Override
    public void redo(LogEntry entry, LogRecord record) {
        SlotUpdate u = (SlotUpdate) record;
        check(u.slot());
        apply(u, u.after());
    }

    @Override
    public void redoOn(LogEntry entry, LogRecord record, org.libtp.core.buffer.Page page) {
        // slots live in this store's own region, never in a buffer pool page
    }

    @Override
    public void undo(LogEntry entry, LogRecord record, CompensationLog clr) {
        SlotUpdate u = (SlotUpdate) record;
        check(u.slot());
        Latch l = latches[u.slot() % STRIPES];
        l.acquire();
        try {
            clr.log(new SlotUpdate(u.fileId(), u.slot(), u.after(), u.before()));
            mem.putLongVolatile(OFF_SLOTS + 8L * u.slot(), value(u.before()));
        } finally {
            l.release();
        }
    }

    @Override
    public java.util.List<org.libtp.core.log.record.LogRecord.DirtyPage> checkpoint(long beginLsn, long writeBefore,
                                                                                    int maxDirtyPages) {
        // Everything, as of now (at or after beginLsn): nothing stays dirty.
        byte[] data = new byte[8 * slots];
        for (int s = 0; s < STRIPES; s++) { // each stripe under its latch
            latches[s].acquire();
            try {
                for (int slot = s; slot < slots; slot += STRIPES) {
                    long v = mem.getLong(OFF_SLOTS + 8L * slot);
                    ByteBuffer.wrap(data, 8 * slot, 8).order(ByteOrder.LITTLE_ENDIAN).putLong(v);
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
        return java.util.List.of();
    }
}
