package org.libtp.core.memory;

import com.sun.jna.Native;
import com.sun.jna.Pointer;
import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.PointerBytesStore;

import java.nio.ByteBuffer;

/**
 * {@link Memory} over Chronicle-Bytes {@link PointerBytesStore}s, one per mapped chunk.
 *
 * <p>Chronicle reaches JDK internals ({@code sun.nio.ch}, {@code jdk.internal.misc}...) and needs
 * {@code --add-opens/--add-exports} on JDK 17+; {@link MemoryFactory} probes for that with
 * {@link #probe()} and falls back to {@link MappedMemory} when it fails, or when Chronicle-Bytes
 * (an optional dependency of LibTP) is not on the class path at all. Bounds, alignment and
 * closed checks are ours and happen before Chronicle is called: Chronicle's own checks are
 * assertions and can be off.
 */
public final class ChronicleMemory implements Memory {
    private final String name;
    private final long size;
    private final PointerBytesStore[] stores;
    private final long[] addresses;
    private final int chunkShift;
    private final long chunkMask;
    private boolean closed;

    /** The mapped buffers must stay reachable while the raw addresses are in use. */
    @SuppressWarnings("unused")
    private final ByteBuffer[] keepAlive;

    /**
     * Wraps {@code chunks} (direct buffers, all {@code 1 << chunkShift} bytes but the last).
     *
     * @throws IllegalStateException if Chronicle-Bytes, an optional dependency, is not on the
     *         class path (rather than a {@code NoClassDefFoundError} from deep inside)
     */
    public ChronicleMemory(String name, ByteBuffer[] chunks, int chunkShift) {
        if (!MemoryFactory.onClassPath(MemoryFactory.CHRONICLE_CLASS)) {
            throw new IllegalStateException("Chronicle-Bytes is not on the class path: add "
                    + "net.openhft:chronicle-bytes, or use MemoryImpl.VARHANDLE");
        }
        if (chunkShift < 3 || chunkShift > 30) {
            throw new IllegalArgumentException("chunkShift " + chunkShift + " not in [3, 30]");
        }
        if (chunks.length == 0) {
            throw new IllegalArgumentException("no chunks for " + name);
        }
        this.name = name;
        this.chunkShift = chunkShift;
        this.chunkMask = (1L << chunkShift) - 1;
        this.keepAlive = chunks.clone();
        this.stores = new PointerBytesStore[chunks.length];
        this.addresses = new long[chunks.length];
        long total = 0;
        for (int i = 0; i < chunks.length; i++) {
            ByteBuffer b = chunks[i];
            if (!b.isDirect()) {
                throw new IllegalArgumentException("chunk " + i + " of " + name + " is not direct");
            }
            if (i < chunks.length - 1 && b.capacity() != (1 << chunkShift)) {
                throw new IllegalArgumentException("chunk " + i + " of " + name + " has "
                        + b.capacity() + " bytes, expected " + (1 << chunkShift));
            }
            long address = Pointer.nativeValue(Native.getDirectBufferPointer(b));
            PointerBytesStore s = BytesStore.nativePointer();
            s.set(address, b.capacity());
            s.singleThreadedCheckDisabled(true);
            stores[i] = s;
            addresses[i] = address;
            total += b.capacity();
        }
        this.size = total;
    }

    /**
     * Tries Chronicle on a small direct buffer, including the atomic operations this class
     * uses. Returns null if it works, else the reason it does not (normally missing
     * {@code --add-opens}).
     */
    public static String probe() {
        try {
            ByteBuffer b = ByteBuffer.allocateDirect(64);
            ChronicleMemory m = new ChronicleMemory("probe", new ByteBuffer[] {b}, 6);
            m.putLong(8, 42);
            if (!m.compareAndSetInt(0, 0, 1) || m.getAndAddLong(8, 1) != 42 || m.getLong(8) != 43) {
                return "Chronicle-Bytes probe returned wrong values";
            }
            m.close();
            return null;
        } catch (Throwable t) { // IllegalAccessError, ExceptionInInitializerError, ...
            return t.toString();
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return size;
    }

    private PointerBytesStore store(long offset) {
        return stores[(int) (offset >>> chunkShift)];
    }

    private long index(long offset) {
        return offset & chunkMask;
    }

    private void check(long offset, long length) {
        if (closed) {
            throw Bounds.closed(this);
        }
        Bounds.check(this, offset, length, size);
    }

    private void checkAligned(long offset, int width) {
        if (closed) {
            throw Bounds.closed(this);
        }
        Bounds.checkAligned(this, offset, width, size);
    }

    private boolean inOneChunk(long offset, int width) {
        return (offset >>> chunkShift) == ((offset + width - 1) >>> chunkShift);
    }

    @Override
    public byte getByte(long offset) {
        check(offset, 1);
        return store(offset).readByte(index(offset));
    }

    @Override
    public void putByte(long offset, byte value) {
        check(offset, 1);
        store(offset).writeByte(index(offset), value);
    }

    @Override
    public int getInt(long offset) {
        check(offset, 4);
        if (inOneChunk(offset, 4)) {
            return store(offset).readInt(index(offset));
        }
        return (int) readStraddling(offset, 4);
    }

    @Override
    public void putInt(long offset, int value) {
        check(offset, 4);
        if (inOneChunk(offset, 4)) {
            store(offset).writeInt(index(offset), value);
        } else {
            writeStraddling(offset, 4, value);
        }
    }

    @Override
    public long getLong(long offset) {
        check(offset, 8);
        if (inOneChunk(offset, 8)) {
            return store(offset).readLong(index(offset));
        }
        return readStraddling(offset, 8);
    }

    @Override
    public void putLong(long offset, long value) {
        check(offset, 8);
        if (inOneChunk(offset, 8)) {
            store(offset).writeLong(index(offset), value);
        } else {
            writeStraddling(offset, 8, value);
        }
    }

    // Native order is little-endian on every platform Chronicle supports.
    private long readStraddling(long offset, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            v |= (store(offset + i).readByte(index(offset + i)) & 0xFFL) << (8 * i);
        }
        return v;
    }

    private void writeStraddling(long offset, int width, long value) {
        for (int i = 0; i < width; i++) {
            store(offset + i).writeByte(index(offset + i), (byte) (value >>> (8 * i)));
        }
    }

    @Override
    public int getIntVolatile(long offset) {
        checkAligned(offset, 4);
        return store(offset).readVolatileInt(index(offset));
    }

    @Override
    public void putIntVolatile(long offset, int value) {
        checkAligned(offset, 4);
        store(offset).writeVolatileInt(index(offset), value);
    }

    @Override
    public long getLongVolatile(long offset) {
        checkAligned(offset, 8);
        return store(offset).readVolatileLong(index(offset));
    }

    @Override
    public void putLongVolatile(long offset, long value) {
        checkAligned(offset, 8);
        store(offset).writeVolatileLong(index(offset), value);
    }

    @Override
    public boolean compareAndSetInt(long offset, int expected, int value) {
        checkAligned(offset, 4);
        return store(offset).compareAndSwapInt(index(offset), expected, value);
    }

    @Override
    public boolean compareAndSetLong(long offset, long expected, long value) {
        checkAligned(offset, 8);
        return store(offset).compareAndSwapLong(index(offset), expected, value);
    }

    @Override
    public int getAndAddInt(long offset, int delta) {
        checkAligned(offset, 4);
        return store(offset).addAndGetInt(index(offset), delta) - delta;
    }

    @Override
    public long getAndAddLong(long offset, long delta) {
        checkAligned(offset, 8);
        return store(offset).addAndGetLong(index(offset), delta) - delta;
    }

    @Override
    public int getAndSetInt(long offset, int value) {
        checkAligned(offset, 4);
        PointerBytesStore s = store(offset);
        long i = index(offset);
        while (true) {
            int old = s.readVolatileInt(i);
            if (s.compareAndSwapInt(i, old, value)) {
                return old;
            }
        }
    }

    @Override
    public void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        Bounds.checkArray(dst, dstOffset, length);
        check(offset, length);
        while (length > 0) {
            long idx = index(offset);
            int n = (int) Math.min(length, (1L << chunkShift) - idx);
            store(offset).read(idx, dst, dstOffset, n);
            offset += n;
            dstOffset += n;
            length -= n;
        }
    }

    @Override
    public void putBytes(long offset, byte[] src, int srcOffset, int length) {
        Bounds.checkArray(src, srcOffset, length);
        check(offset, length);
        while (length > 0) {
            long idx = index(offset);
            int n = (int) Math.min(length, (1L << chunkShift) - idx);
            store(offset).write(idx, src, srcOffset, n);
            offset += n;
            srcOffset += n;
            length -= n;
        }
    }

    @Override
    public void copyTo(long offset, Memory dst, long dstOffset, long length) {
        check(offset, length);
        Bounds.check(dst, dstOffset, length, dst.size());
        Bounds.copyViaHeap(this, offset, dst, dstOffset, length);
    }

    @Override
    public void fill(long offset, long length, byte value) {
        check(offset, length);
        while (length > 0) {
            long idx = index(offset);
            long n = Math.min(length, (1L << chunkShift) - idx);
            PointerBytesStore s = store(offset);
            for (long i = 0; i < n; i++) {
                s.writeByte(idx + i, value);
            }
            offset += n;
            length -= n;
        }
    }

    @Override
    public java.nio.ByteBuffer view(long offset, int length) {
        if (closed) {
            throw Bounds.closed(this);
        }
        Bounds.check(this, offset, length, size);
        if (length > 0 && (offset >>> chunkShift) != ((offset + length - 1) >>> chunkShift)) {
            throw new IllegalArgumentException("a view of [" + offset + ", +" + length + ") of " + name
                    + " would cross a mapping chunk");
        }
        long address = addresses[(int) (offset >>> chunkShift)] + index(offset);
        return new com.sun.jna.Pointer(address).getByteBuffer(0, length).asReadOnlyBuffer()
                .order(java.nio.ByteOrder.nativeOrder());
    }

    @Override
    public long address(long offset) {
        checkAligned(offset, 4);
        return addresses[(int) (offset >>> chunkShift)] + index(offset);
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "ChronicleMemory[" + name + ", " + size + " bytes]";
    }
}
