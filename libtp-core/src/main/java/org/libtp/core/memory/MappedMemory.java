package org.libtp.core.memory;

import com.sun.jna.Native;
import com.sun.jna.Pointer;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * {@link Memory} over {@link ByteBuffer}s (normally {@code MappedByteBuffer}s) with
 * {@link VarHandle} views: plain, volatile and atomic access with no JVM flags.
 *
 * <p>A buffer index is an {@code int}, so a range larger than 2 GiB is several chunks of
 * {@code 1 << chunkShift} bytes each (the last may be shorter). Chunks are multiples of 8, so
 * an aligned int or long never straddles two chunks; a misaligned plain access that does is
 * assembled byte by byte.
 */
public final class MappedMemory implements Memory {
    private static final ByteOrder ORDER = ByteOrder.nativeOrder();
    private static final VarHandle INT = MethodHandles.byteBufferViewVarHandle(int[].class, ORDER);
    private static final VarHandle LONG = MethodHandles.byteBufferViewVarHandle(long[].class, ORDER);

    private final String name;
    private final long size;
    private final ByteBuffer[] chunks;
    private final int chunkShift;
    private final long chunkMask;
    private final long[] addresses;
    private boolean closed;

    /**
     * @param chunks     direct buffers, each {@code 1 << chunkShift} bytes except maybe the last
     * @param chunkShift log2 of the chunk size, at least 3 and at most 30
     */
    public MappedMemory(String name, ByteBuffer[] chunks, int chunkShift) {
        if (chunkShift < 3 || chunkShift > 30) {
            throw new IllegalArgumentException("chunkShift " + chunkShift + " not in [3, 30]");
        }
        if (chunks.length == 0) {
            throw new IllegalArgumentException("no chunks for " + name);
        }
        chunks = chunks.clone(); // the caller's array is left as it was
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
            chunks[i] = b.duplicate().order(ORDER);
            total += b.capacity();
        }
        this.name = name;
        this.size = total;
        this.chunks = chunks;
        this.chunkShift = chunkShift;
        this.chunkMask = (1L << chunkShift) - 1;
        this.addresses = new long[chunks.length];
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public long size() {
        return size;
    }

    private ByteBuffer chunk(long offset) {
        return chunks[(int) (offset >>> chunkShift)];
    }

    @Override
    public ByteBuffer view(long offset, int length) {
        check(offset, length);
        if (!inOneChunk(offset, length)) {
            throw new IllegalArgumentException("a view of [" + offset + ", +" + length + ") of " + name()
                    + " would cross a mapping chunk");
        }
        return chunks[(int) (offset >>> chunkShift)].slice(index(offset), length).asReadOnlyBuffer().order(ORDER);
    }

    @Override
    public ByteBuffer slice(long offset, int length) {
        check(offset, length);
        if (!inOneChunk(offset, length)) {
            return null;
        }
        return chunks[(int) (offset >>> chunkShift)].slice(index(offset), length).order(ORDER);
    }

    private int index(long offset) {
        return (int) (offset & chunkMask);
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

    /** True if {@code width} bytes at {@code offset} lie in one chunk. */
    private boolean inOneChunk(long offset, int width) {
        return (offset >>> chunkShift) == ((offset + width - 1) >>> chunkShift);
    }

    @Override
    public byte getByte(long offset) {
        check(offset, 1);
        return chunk(offset).get(index(offset));
    }

    @Override
    public void putByte(long offset, byte value) {
        check(offset, 1);
        chunk(offset).put(index(offset), value);
    }

    @Override
    public int getInt(long offset) {
        check(offset, 4);
        if (inOneChunk(offset, 4)) {
            return (int) INT.get(chunk(offset), index(offset));
        }
        return (int) readStraddling(offset, 4);
    }

    @Override
    public void putInt(long offset, int value) {
        check(offset, 4);
        if (inOneChunk(offset, 4)) {
            INT.set(chunk(offset), index(offset), value);
        } else {
            writeStraddling(offset, 4, value);
        }
    }

    @Override
    public long getLong(long offset) {
        check(offset, 8);
        if (inOneChunk(offset, 8)) {
            return (long) LONG.get(chunk(offset), index(offset));
        }
        return readStraddling(offset, 8);
    }

    @Override
    public void putLong(long offset, long value) {
        check(offset, 8);
        if (inOneChunk(offset, 8)) {
            LONG.set(chunk(offset), index(offset), value);
        } else {
            writeStraddling(offset, 8, value);
        }
    }

    private long readStraddling(long offset, int width) {
        long v = 0;
        for (int i = 0; i < width; i++) {
            long b = chunk(offset + i).get(index(offset + i)) & 0xFFL;
            v |= ORDER == ByteOrder.LITTLE_ENDIAN ? b << (8 * i) : b << (8 * (width - 1 - i));
        }
        return v;
    }

    private void writeStraddling(long offset, int width, long value) {
        for (int i = 0; i < width; i++) {
            int shift = ORDER == ByteOrder.LITTLE_ENDIAN ? 8 * i : 8 * (width - 1 - i);
            chunk(offset + i).put(index(offset + i), (byte) (value >>> shift));
        }
    }

    @Override
    public int getIntVolatile(long offset) {
        checkAligned(offset, 4);
        return (int) INT.getVolatile(chunk(offset), index(offset));
    }

    @Override
    public void putIntVolatile(long offset, int value) {
        checkAligned(offset, 4);
        INT.setVolatile(chunk(offset), index(offset), value);
    }

    @Override
    public long getLongVolatile(long offset) {
        checkAligned(offset, 8);
        return (long) LONG.getVolatile(chunk(offset), index(offset));
    }

    @Override
    public void putLongVolatile(long offset, long value) {
        checkAligned(offset, 8);
        LONG.setVolatile(chunk(offset), index(offset), value);
    }

    @Override
    public boolean compareAndSetInt(long offset, int expected, int value) {
        checkAligned(offset, 4);
        return INT.compareAndSet(chunk(offset), index(offset), expected, value);
    }

    @Override
    public boolean compareAndSetLong(long offset, long expected, long value) {
        checkAligned(offset, 8);
        return LONG.compareAndSet(chunk(offset), index(offset), expected, value);
    }

    @Override
    public int getAndAddInt(long offset, int delta) {
        checkAligned(offset, 4);
        return (int) INT.getAndAdd(chunk(offset), index(offset), delta);
    }

    @Override
    public long getAndAddLong(long offset, long delta) {
        checkAligned(offset, 8);
        return (long) LONG.getAndAdd(chunk(offset), index(offset), delta);
    }

    @Override
    public int getAndSetInt(long offset, int value) {
        checkAligned(offset, 4);
        return (int) INT.getAndSet(chunk(offset), index(offset), value);
    }

    @Override
    public void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        Bounds.checkArray(dst, dstOffset, length);
        check(offset, length);
        while (length > 0) {
            int idx = index(offset);
            ByteBuffer c = chunk(offset);
            int n = Math.min(length, c.capacity() - idx);
            c.get(idx, dst, dstOffset, n);
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
            int idx = index(offset);
            ByteBuffer c = chunk(offset);
            int n = Math.min(length, c.capacity() - idx);
            c.put(idx, src, srcOffset, n);
            offset += n;
            srcOffset += n;
            length -= n;
        }
    }

    @Override
    public void copyTo(long offset, Memory dst, long dstOffset, long length) {
        check(offset, length);
        if (dst instanceof MappedMemory) {
            MappedMemory d = (MappedMemory) dst;
            d.check(dstOffset, length);
            if (d == this && offset < dstOffset && dstOffset < offset + length) {
                Bounds.copyViaHeap(this, offset, dst, dstOffset, length); // overlap, backwards
                return;
            }
            while (length > 0) {
                int si = index(offset);
                int di = d.index(dstOffset);
                ByteBuffer s = chunk(offset);
                ByteBuffer t = d.chunk(dstOffset);
                int n = (int) Math.min(length, Math.min(s.capacity() - si, t.capacity() - di));
                t.put(di, s, si, n);
                offset += n;
                dstOffset += n;
                length -= n;
            }
        } else {
            Bounds.check(dst, dstOffset, length, dst.size());
            Bounds.copyViaHeap(this, offset, dst, dstOffset, length);
        }
    }

    @Override
    public void fill(long offset, long length, byte value) {
        check(offset, length);
        while (length > 0) {
            int idx = index(offset);
            ByteBuffer c = chunk(offset);
            int n = (int) Math.min(length, c.capacity() - idx);
            for (int i = 0; i < n; i++) {
                c.put(idx + i, value);
            }
            offset += n;
            length -= n;
        }
    }

    @Override
    public long address(long offset) {
        checkAligned(offset, 4);
        int c = (int) (offset >>> chunkShift);
        long base = addresses[c];
        if (base == 0) {
            base = Pointer.nativeValue(Native.getDirectBufferPointer(chunks[c]));
            addresses[c] = base;
        }
        return base + index(offset);
    }

    @Override
    public void close() {
        closed = true;
    }

    @Override
    public String toString() {
        return "MappedMemory[" + name + ", " + size + " bytes]";
    }
}
