package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.sync.Latch;

/**
 * The pool's frames and the page hash table over them ({@link BufferLayout}): a frame's
 * metadata and page offsets, its latch, its pin count, and the hash chains that find a page's
 * frame. A chain is read and changed under its partition latch; pins are taken under it too, so
 * a frame that replacement unlinks cannot be pinned meanwhile.
 */
final class FrameTable {
    private final RegionEnvironment env;
    private final Layout lay;
    private final Memory mem;
    private final int frames;
    private final int pageSize;
    private final Latch[] partLatches;
    private final Latch[] frameLatches;
    /** This process's pin counter in the region (what failCheck gives back if it dies). */
    private final long pinSlot;

    FrameTable(RegionEnvironment env, Region region, Layout lay) {
        this.env = env;
        this.lay = lay;
        this.mem = region.memory();
        this.frames = lay.frames();
        this.pageSize = lay.pageSize();
        this.partLatches = env.latches(region, lay.offPart(), PART_STRIDE, lay.partitions(), "buffer hash partition");
        this.frameLatches = env.latches(region, lay.offFrame() + FR_LATCH, FRAME, frames, "buffer frame");
        this.pinSlot = OFF_PINS + (long) PIN_STRIDE * env.processSlot();
    }

    int frames() {
        return frames;
    }

    Latch[] frameLatches() {
        return frameLatches;
    }

    long meta(int f) {
        return lay.offFrame() + (long) FRAME * f;
    }

    long pageBase(int f) {
        return lay.offPages() + (long) pageSize * f;
    }

    Latch frameLatch(int f) {
        return frameLatches[f];
    }

    // Every holder of a frame latch makes the frame's sequence odd while it holds it and even
    // again before it lets go (a seqlock beside the latch): an optimistic reader that saw the
    // same even value before and after its reads saw no holder change the page or the frame's
    // identity. Holders that only read (a flush, a latched reader) invalidate optimistic reads
    // needlessly but safely.

    /** Takes frame {@code f}'s latch (across processes) and opens its sequence. */
    void latchFrame(int f) {
        frameLatches[f].acquire();
        openSeq(f);
    }

    /** {@link #latchFrame} if the latch is free now; false (nothing taken) otherwise. */
    boolean tryLatchFrame(int f) {
        if (!frameLatches[f].tryAcquire()) {
            return false;
        }
        openSeq(f);
        return true;
    }

    /** Closes frame {@code f}'s sequence and releases its latch. */
    void unlatchFrame(int f) {
        long at = meta(f) + FR_SEQ;
        mem.putIntVolatile(at, (mem.getInt(at) | 1) + 1); // the next even value
        frameLatches[f].release();
    }

    private void openSeq(int f) {
        // Only the latch holder writes it: a plain read and a volatile (release) write suffice.
        // The next odd value, whatever the parity left behind (a holder that died holding it).
        long at = meta(f) + FR_SEQ;
        mem.putIntVolatile(at, (mem.getInt(at) + 1) | 1);
        java.lang.invoke.VarHandle.storeStoreFence(); // the page's changes come after it
    }

    /** The frame's sequence: odd while a latch holder may be changing it. */
    int seq(int f) {
        return mem.getIntVolatile(meta(f) + FR_SEQ);
    }

    /**
     * The frame holding the page, or -1, found without the partition latch: the chain may be
     * changing under the walk, so the answer is only a guess that the caller checks against the
     * frame's identity under its sequence. A walk longer than the pool (a chain relinked under
     * it) gives up.
     */
    int findOptimistic(int bucket, int fileId, long pageNo) {
        int f = mem.getIntVolatile(bucketAt(bucket)) - 1;
        for (int guard = 0; f >= 0 && f < frames && guard <= frames; guard++) {
            long m = meta(f);
            if (mem.getInt(m + FR_FILE) == fileId && mem.getLong(m + FR_PAGE) == pageNo) {
                return f;
            }
            f = mem.getInt(m + FR_NEXT) - 1;
        }
        return -1;
    }

    int bucket(int fileId, long pageNo) {
        long h = (pageNo * 0x9E3779B97F4A7C15L) ^ ((long) fileId * 0xC2B2AE3D27D4EB4FL);
        h ^= h >>> 29;
        return (int) h & (lay.buckets() - 1);
    }

    Latch partition(int bucket) {
        return partLatches[bucket & (lay.partitions() - 1)];
    }

    private long bucketAt(int bucket) {
        return lay.offBucket() + 4L * bucket;
    }

    /** Under the bucket's partition latch: the frame holding the page, or -1. */
    int find(int bucket, int fileId, long pageNo) {
        int f = mem.getInt(bucketAt(bucket)) - 1;
        int guard = 0;
        while (f >= 0) {
            long m = meta(f);
            if (mem.getInt(m + FR_FILE) == fileId && mem.getLong(m + FR_PAGE) == pageNo) {
                return f;
            }
            f = mem.getInt(m + FR_NEXT) - 1;
            if (++guard > frames) {
                throw env.fail("buffer region of " + env.home() + ": hash chain of bucket " + bucket + " has a cycle");
            }
        }
        return -1;
    }

    void link(int bucket, int f) {
        mem.putInt(meta(f) + FR_NEXT, mem.getInt(bucketAt(bucket)));
        mem.putInt(bucketAt(bucket), f + 1);
    }

    void unlink(int bucket, int f) {
        long prev = bucketAt(bucket);
        int cur = mem.getInt(prev) - 1;
        while (cur >= 0) {
            if (cur == f) {
                mem.putInt(prev, mem.getInt(meta(f) + FR_NEXT));
                mem.putInt(meta(f) + FR_NEXT, 0);
                return;
            }
            prev = meta(cur) + FR_NEXT;
            cur = mem.getInt(prev) - 1;
        }
        throw env.fail("buffer region of " + env.home() + ": frame " + f + " missing from its hash chain");
    }

    void pin(int f) {
        mem.getAndAddInt(meta(f) + FR_PINS, 1);
        mem.getAndAddLong(pinSlot, 1);
    }

    void unpinFrame(int f) {
        int was = mem.getAndAddInt(meta(f) + FR_PINS, -1);
        mem.getAndAddLong(pinSlot, -1);
        if (was <= 0) {
            throw env.fail("buffer region of " + env.home() + ": frame " + f + " unpinned with pin count " + was);
        }
    }
}
