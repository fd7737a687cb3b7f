package org.libtp.core.region;

import org.libtp.core.sync.LatchLayout;

/**
 * Where a region keeps latches: {@code count} {@link LatchLayout}s starting
 * at region offset {@code offset}, {@code stride} bytes apart.
 * Declared so that {@code failCheck} in any process can find every latch a dead process holds.
 */
public record LatchArray(long offset, int stride, int count) {
    public LatchArray {
        if (offset < 0 || (offset & 7) != 0) {
            throw new IllegalArgumentException("latch array offset " + offset + " must be >= 0 and 8-aligned");
        }
        if (stride < LatchLayout.SIZE || (stride & 7) != 0) {
            throw new IllegalArgumentException("latch stride " + stride + " must be a multiple of 8, >= "
                    + LatchLayout.SIZE);
        }
        if (count < 0) {
            throw new IllegalArgumentException("latch count " + count + " < 0");
        }
    }

    /** One past the last byte used. */
    public long end() {
        return count == 0 ? offset : offset + (long) stride * (count - 1) + LatchLayout.SIZE;
    }

    /** True if a latch starts exactly at {@code at}. */
    public boolean contains(long at) {
        return at >= offset && at < offset + (long) stride * count && (at - offset) % stride == 0;
    }
}
