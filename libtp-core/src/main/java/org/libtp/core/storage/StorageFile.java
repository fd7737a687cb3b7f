package org.libtp.core.storage;

import java.io.IOException;
import java.nio.ByteBuffer;

/**
 * One open durable file. Positional reads and writes only (no file pointer), safe for concurrent
 * use by several threads.
 *
 * <p>A failed {@link #force()} must be treated as fatal by the caller: after an fsync error the
 * kernel may have dropped the dirty pages, so a later force that succeeds proves nothing
 * (PostgreSQL's "fsyncgate", 2018). Implementations never retry a force.
 */
public interface StorageFile extends AutoCloseable {

    /** The file's name in its storage. */
    String name();

    /** Reads up to {@code dst.remaining()} bytes at {@code position}; returns bytes read, -1 at end. */
    int read(ByteBuffer dst, long position) throws IOException;

    /** Reads exactly {@code dst.remaining()} bytes at {@code position}, or throws {@link java.io.EOFException}. */
    default void readFully(ByteBuffer dst, long position) throws IOException {
        long p = position;
        while (dst.hasRemaining()) {
            int n = read(dst, p);
            if (n < 0) {
                throw new java.io.EOFException(name() + ": end of file at " + p + " reading "
                        + dst.remaining() + " more bytes from " + position);
            }
            p += n;
        }
    }

    /** Writes all of {@code src} at {@code position}. */
    void write(ByteBuffer src, long position) throws IOException;

    /** Forces written data (not necessarily metadata) to stable storage: fdatasync. */
    void force() throws IOException;

    long size() throws IOException;

    /** Truncates to {@code size} bytes (no effect if already smaller). */
    void truncate(long size) throws IOException;

    /** Extends the file to {@code size} bytes by writing zeros (preallocation), if smaller. */
    void preallocate(long size) throws IOException;

    @Override
    void close() throws IOException;
}
