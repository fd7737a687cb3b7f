package org.libtp.core.memory;

/** Bounds, alignment and closed-state checks shared by the implementations. */
final class Bounds {
    private Bounds() {
    }

    static void check(Memory m, long offset, long length, long size) {
        // offset < 0, length < 0 and offset + length overflow are all caught by this form.
        if (offset < 0 || length < 0 || offset > size - length) {
            throw new IndexOutOfBoundsException("access of " + length + " bytes at offset " + offset
                    + " is outside " + m.name() + " (size " + size + ")");
        }
    }

    static void checkAligned(Memory m, long offset, int width, long size) {
        check(m, offset, width, size);
        if ((offset & (width - 1)) != 0) {
            throw new IllegalArgumentException("atomic access of " + width + " bytes at offset "
                    + offset + " of " + m.name() + " is not " + width + "-byte aligned");
        }
    }

    static void checkArray(byte[] array, int arrayOffset, int length) {
        if (arrayOffset < 0 || length < 0 || arrayOffset > array.length - length) {
            throw new IndexOutOfBoundsException("array range [" + arrayOffset + ", +" + length
                    + ") is outside an array of " + array.length + " bytes");
        }
    }

    /**
     * Copies through a heap buffer, front to back, or back to front when {@code src == dst} and
     * the destination lies above the source, so overlapping moves are safe. Bounds are the
     * caller's to check.
     */
    static void copyViaHeap(Memory src, long offset, Memory dst, long dstOffset, long length) {
        byte[] buf = new byte[(int) Math.min(length, 64 * 1024)];
        boolean backwards = src == dst && dstOffset > offset;
        long done = 0;
        while (done < length) {
            int n = (int) Math.min(buf.length, length - done);
            long at = backwards ? length - done - n : done;
            src.getBytes(offset + at, buf, 0, n);
            dst.putBytes(dstOffset + at, buf, 0, n);
            done += n;
        }
    }

    static IllegalStateException closed(Memory m) {
        return new IllegalStateException(m.name() + " is closed");
    }
}
