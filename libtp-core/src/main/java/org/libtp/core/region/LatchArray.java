package org.libtp.core.region;

import org.libtp.core.sync.LatchLayout;

/**
 * Where a region keeps latches: {@code count} {@link LatchLayout}s starting
 * at region offset {@code offset}, {@code stride} bytes apart.
 * Declared so that {@code failCheck} in any process can find every latch a dead process holds.
 * {@code repairable}: the manager that owns the region repairs what these latches guard when a
 * holder dies ({@code RegionEnvironment.repairLatches}), so a process that has not registered
 * the repair (it has not opened that manager) leaves such a latch to one that has, instead of
 * failing the environment.
 */
public record LatchArray(long offset, int stride, int count, boolean repairable) {
    /** Latches whose holder's death fails the environment. */
    public LatchArray(long offset, int stride, int count) {
        this(offset, stride, count, false);
    }

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
