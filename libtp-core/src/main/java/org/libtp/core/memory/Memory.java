package org.libtp.core.memory;

/**
 * A fixed-size range of off-heap memory, normally a {@code MAP_SHARED} mapping of a region file
 * that several processes map at once.
 *
 * <p>Contract shared by every implementation (checked by one conformance suite):
 * <ul>
 *   <li>Offsets are bytes from the start of the range; values use the platform's native byte
 *       order (every supported platform is little-endian).</li>
 *   <li>Every access is bounds-checked <em>before</em> memory is touched: an offset or length
 *       outside {@code [0, size())} throws {@link IndexOutOfBoundsException} naming the range,
 *       never crashes the JVM.</li>
 *   <li>Volatile and atomic operations need natural alignment (4 for int, 8 for long); a
 *       misaligned one throws {@link IllegalArgumentException}. Plain accesses may be
 *       misaligned.</li>
 *   <li>Atomic operations are atomic across processes that map the same file.</li>
 *   <li>After {@link #close()} every access throws {@link IllegalStateException} (in the
 *       closing thread at once; other threads see the closed state eventually — the flag is a
 *       plain field, to keep it off the hot path). The mapping
 *       itself is released by the garbage collector, never unmapped explicitly: an explicit
 *       unmap would turn a racing access into a JVM crash.</li>
 * </ul>
 * Ranges may exceed 2 GiB.
 */
public interface Memory extends AutoCloseable {

    /** A name for messages: normally the mapped file. */
    String name();

    /** Size in bytes. */
    long size();

    byte getByte(long offset);

    void putByte(long offset, byte value);

    int getInt(long offset);

    void putInt(long offset, int value);

    long getLong(long offset);

    void putLong(long offset, long value);

    int getIntVolatile(long offset);

    void putIntVolatile(long offset, int value);

    long getLongVolatile(long offset);

    void putLongVolatile(long offset, long value);

    boolean compareAndSetInt(long offset, int expected, int value);

    boolean compareAndSetLong(long offset, long expected, long value);

    /** Atomically adds {@code delta}; returns the previous value. */
    int getAndAddInt(long offset, int delta);

    /** Atomically adds {@code delta}; returns the previous value. */
    long getAndAddLong(long offset, long delta);

    /** Atomically stores {@code value}; returns the previous value. */
    int getAndSetInt(long offset, int value);

    /** Copies {@code length} bytes at {@code offset} into {@code dst[dstOffset..]}. */
    void getBytes(long offset, byte[] dst, int dstOffset, int length);

    /** Copies {@code src[srcOffset..srcOffset+length)} to {@code offset}. */
    void putBytes(long offset, byte[] src, int srcOffset, int length);

    /** Copies {@code length} bytes from this range to {@code dst} (any implementation). */
    void copyTo(long offset, Memory dst, long dstOffset, long length);

    /** Sets {@code length} bytes at {@code offset} to {@code value}. */
    void fill(long offset, long length, byte value);

    /**
     * The native address of the byte at {@code offset}, for system calls such as futex that
     * take a user address. {@code offset} must be 4-aligned and the 4 bytes there in range.
     */
    long address(long offset);

    /**
     * A read-only view of {@code length} bytes at {@code offset}, without copying (for zero-copy
     * reads while a page is pinned and latched). Bounds-checked; the range must not cross a
     * mapping chunk (1 GiB; page frames never do). The view stays readable after the caller is
     * done (memory is never unmapped) but then shows whatever the memory holds later.
     */
    java.nio.ByteBuffer view(long offset, int length);

    /**
     * A writable view of {@code length} bytes at {@code offset} in native byte order, for hot
     * fixed ranges such as buffer-pool frames: the buffer checks every access against its own
     * bounds (so a bug cannot reach outside the range, nor crash the JVM) and skips this
     * interface's per-call offset arithmetic. Null if this memory offers none (the caller then
     * uses the methods above) or the range crosses a mapping chunk. Memory is never unmapped,
     * so the view stays valid; it does not see {@link #close()}.
     */
    default java.nio.ByteBuffer slice(long offset, int length) {
        return null;
    }

    /** Marks the range closed; later accesses throw {@link IllegalStateException}. */
    @Override
    void close();
}
