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
        this.partLatches = new Latch[lay.partitions()];
        for (int i = 0; i < lay.partitions(); i++) {
            partLatches[i] = env.latch(region, lay.offPart() + (long) PART_STRIDE * i, "buffer hash partition " + i);
        }
        this.frameLatches = new Latch[frames];
        for (int i = 0; i < frames; i++) {
            frameLatches[i] = env.latch(region, lay.offFrame() + (long) FRAME * i + FR_LATCH, "buffer frame " + i);
        }
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
