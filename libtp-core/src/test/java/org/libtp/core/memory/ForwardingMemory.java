package org.libtp.core.memory;

/**
 * A {@link Memory} that is neither {@link MappedMemory} nor {@link ChronicleMemory} and delegates
 * every call: as a {@code copyTo} destination it drives the implementations' generic
 * (any-implementation) copy path.
 */
final class ForwardingMemory implements Memory {
    private final Memory m;

    ForwardingMemory(Memory m) {
        this.m = m;
    }

    @Override
    public String name() {
        return "forwarding(" + m.name() + ")";
    }

    @Override
    public long size() {
        return m.size();
    }

    @Override
    public byte getByte(long offset) {
        return m.getByte(offset);
    }

    @Override
    public void putByte(long offset, byte value) {
        m.putByte(offset, value);
    }

    @Override
    public int getInt(long offset) {
        return m.getInt(offset);
    }

    @Override
    public void putInt(long offset, int value) {
        m.putInt(offset, value);
    }

    @Override
    public long getLong(long offset) {
        return m.getLong(offset);
    }

    @Override
    public void putLong(long offset, long value) {
        m.putLong(offset, value);
    }

    @Override
    public int getIntVolatile(long offset) {
        return m.getIntVolatile(offset);
    }

    @Override
    public void putIntVolatile(long offset, int value) {
        m.putIntVolatile(offset, value);
    }

    @Override
    public long getLongVolatile(long offset) {
        return m.getLongVolatile(offset);
    }

    @Override
    public void putLongVolatile(long offset, long value) {
        m.putLongVolatile(offset, value);
    }

    @Override
    public boolean compareAndSetInt(long offset, int expected, int value) {
        return m.compareAndSetInt(offset, expected, value);
    }

    @Override
    public boolean compareAndSetLong(long offset, long expected, long value) {
        return m.compareAndSetLong(offset, expected, value);
    }

    @Override
    public int getAndAddInt(long offset, int delta) {
        return m.getAndAddInt(offset, delta);
    }

    @Override
    public long getAndAddLong(long offset, long delta) {
        return m.getAndAddLong(offset, delta);
    }

    @Override
    public int getAndSetInt(long offset, int value) {
        return m.getAndSetInt(offset, value);
    }

    @Override
    public void getBytes(long offset, byte[] dst, int dstOffset, int length) {
        m.getBytes(offset, dst, dstOffset, length);
    }

    @Override
    public void putBytes(long offset, byte[] src, int srcOffset, int length) {
        m.putBytes(offset, src, srcOffset, length);
    }

    @Override
    public void copyTo(long offset, Memory dst, long dstOffset, long length) {
        m.copyTo(offset, dst, dstOffset, length);
    }

    @Override
    public void fill(long offset, long length, byte value) {
        m.fill(offset, length, value);
    }

    @Override
    public long address(long offset) {
        return m.address(offset);
    }

    @Override
    public java.nio.ByteBuffer view(long offset, int length) {
        return m.view(offset, length);
    }

    @Override
    public void close() {
        m.close();
    }
}
