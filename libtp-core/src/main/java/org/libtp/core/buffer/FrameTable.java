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
    /** This process's pin table in the region (what failCheck gives back if it dies). */
    private final long pinTable;

    FrameTable(RegionEnvironment env, Region region, Layout lay) {
        this.env = env;
        this.lay = lay;
        this.mem = region.memory();
        this.frames = lay.frames();
        this.pageSize = lay.pageSize();
        this.partLatches = env.latches(region, lay.offPart(), PART_STRIDE, lay.partitions(), "buffer hash partition");
        this.frameLatches = env.latches(region, lay.offFrame() + FR_LATCH, FRAME, frames, "buffer frame");
        this.pinTable = OFF_PINS + (long) PIN_STRIDE * env.processSlot();
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

    /** A repair of frame {@code f} (its latch taken over from a dead holder) begins: the sequence odd. */
    void openSeqForRepair(int f) {
        openSeq(f);
    }

    /** The repair ends: the sequence even again (the latch stays with the repairer). */
    void closeSeqForRepair(int f) {
        long at = meta(f) + FR_SEQ;
        mem.putIntVolatile(at, (mem.getInt(at) | 1) + 1);
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

    long bucketAt(int bucket) {
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

    Latch[] partitionLatches() {
        return partLatches;
    }

    /**
     * The repair of partition latch {@code p} after its holder died: the hash chains of its
     * buckets are linked again from the frames in use (state not free) whose page hashes there.
     * Whatever the holder did under the latch leaves the frames' identities and states whole (a
     * frame claimed for a page is named before it is marked loading and linked; an evicted one is
     * unlinked before it is marked free), so the chains are exactly the frames in use; a frame the
     * holder had unlinked and not yet freed is linked again, still valid. Two frames in use for
     * one page cannot be told apart: the environment fails.
     */
    String rebuildPartition(int p) {
        int parts = lay.partitions();
        for (int b = p; b < lay.buckets(); b += parts) {
            mem.putInt(bucketAt(b), 0);
        }
        java.util.Map<Long, Integer> seen = new java.util.HashMap<>();
        int linked = 0;
        for (int f = 0; f < frames; f++) {
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_STATE) == FREE) {
                continue;
            }
            int fileId = mem.getInt(m + FR_FILE);
            long pageNo = mem.getLong(m + FR_PAGE);
            int b = bucket(fileId, pageNo);
            if ((b & (parts - 1)) != p) {
                continue;
            }
            Integer other = seen.put(pageNo * 31 + fileId * 0x9E3779B97F4A7C15L, f);
            if (other != null && mem.getInt(meta(other) + FR_FILE) == fileId && mem.getLong(meta(other) + FR_PAGE) == pageNo) {
                return "frames " + other + " and " + f + " both hold page " + pageNo + " of file " + fileId;
            }
            link(b, f);
            linked++;
        }
        return null;
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

    // Pins. A frame's pin count is what replacement looks at; beside it, each process keeps in
    // its pin table which frames it has pinned, so that failCheck can give a dead process's pins
    // back. A pin is counted first and recorded second (it happens under the partition latch, so
    // a death between the two dies holding that latch); an unpin is unrecorded first and counted
    // second: a death between the two leaves the frame one pin too many (it stays in the pool,
    // never evicted, until the regions are rebuilt), never one too few.
    //
    // The table is open addressing over PIN_ENTRIES words (frame + 1) << 32 | count, written by
    // this process's threads with CAS. A word with count 0 is free for any frame; words are
    // never emptied, so a frame may have several (the pins are their sum). Unpin takes one from
    // any word of its frame with a count; a concurrent pin and unpin of the frame can move a unit
    // behind a scan, so the scan goes round again until it finds one (the caller's own pin is
    // there).

    void pin(int f) {
        mem.getAndAddInt(meta(f) + FR_PINS, 1);
        record(f);
    }

    void unpinFrame(int f) {
        unrecord(f);
        int was = mem.getAndAddInt(meta(f) + FR_PINS, -1);
        if (was <= 0) {
            throw env.fail("buffer region of " + env.home() + ": frame " + f + " unpinned with pin count " + was);
        }
    }

    private static int home(int f) {
        return (f * 0x9E3779B9) >>> (32 - Integer.numberOfTrailingZeros(PIN_ENTRIES));
    }

    private static final long KEY = 0xFFFF_FFFF_0000_0000L;
    /** In the unattributed word: set at the first pin the table had no room for, never cleared. */
    private static final long OVERFLOWED = 1L << 62;

    private long entry(int i) {
        return pinTable + PIN_ENTRY0 + 8L * (i & (PIN_ENTRIES - 1));
    }

    private void record(int f) {
        long key = (long) (f + 1) << 32;
        int h = home(f);
        retry:
        while (true) {
            long free = -1;
            for (int i = 0; i < PIN_ENTRIES; i++) {
                long at = entry(h + i);
                long w = mem.getLongVolatile(at);
                if ((w & KEY) == key) {
                    if (mem.compareAndSetLong(at, w, w + 1)) {
                        return;
                    }
                    continue retry; // changed under us (maybe given to another frame)
                }
                if ((int) w == 0 && free < 0) {
                    free = at;
                }
                if (w == 0) {
                    break; // never used: no word of this frame lies beyond it
                }
            }
            if (free < 0) {
                break;
            }
            long w = mem.getLongVolatile(free);
            if ((int) w == 0 && mem.compareAndSetLong(free, w, key | 1)) {
                return;
            }
        }
        // No room: counted apart, and this process's death then fails the environment.
        while (true) {
            long u = mem.getLongVolatile(pinTable + PIN_UNATTRIBUTED);
            if (mem.compareAndSetLong(pinTable + PIN_UNATTRIBUTED, u, (u + 1) | OVERFLOWED)) {
                return;
            }
        }
    }

    private void unrecord(int f) {
        long key = (long) (f + 1) << 32;
        int h = home(f);
        for (int round = 0; round < 1_000; round++) {
            for (int i = 0; i < PIN_ENTRIES; i++) {
                long at = entry(h + i);
                long w = mem.getLongVolatile(at);
                if ((w & KEY) == key && (int) w > 0) {
                    if (mem.compareAndSetLong(at, w, w - 1)) {
                        return;
                    }
                    i--; // changed under us: the same word again
                } else if (w == 0) {
                    break; // never used: no word of this frame beyond it
                }
            }
            long u = mem.getLongVolatile(pinTable + PIN_UNATTRIBUTED);
            if ((u & ~OVERFLOWED) > 0 && mem.compareAndSetLong(pinTable + PIN_UNATTRIBUTED, u, u - 1)) {
                return; // once overflowed the table is not trusted anyway (see releasePinsOf)
            }
        }
        throw env.fail("buffer region of " + env.home() + ": frame " + f + " unpinned but not in this process's pin table");
    }

    /**
     * Gives back the pins of dead process slot {@code s} (its latches repaired first): false if
     * some of its pins were not recorded (its table was full), and then nothing is changed.
     */
    boolean releasePinsOf(int s) {
        long table = OFF_PINS + (long) PIN_STRIDE * s;
        if (mem.getLongVolatile(table + PIN_UNATTRIBUTED) != 0) {
            return false; // its table overflowed once: which frames it pinned is not known
        }
        for (int i = 0; i < PIN_ENTRIES; i++) {
            long at = table + PIN_ENTRY0 + 8L * i;
            long w = mem.getLongVolatile(at);
            int count = (int) w;
            if (count > 0) {
                int f = (int) (w >>> 32) - 1;
                mem.getAndAddInt(meta(f) + FR_PINS, -count);
            }
            mem.putLongVolatile(at, 0);
        }
        return true;
    }

    /** Pins recorded in slot {@code s}'s table (for failCheck's message and tests). */
    long pinsOf(int s) {
        long table = OFF_PINS + (long) PIN_STRIDE * s;
        long n = mem.getLongVolatile(table + PIN_UNATTRIBUTED) & ~OVERFLOWED;
        for (int i = 0; i < PIN_ENTRIES; i++) {
            n += (int) mem.getLongVolatile(table + PIN_ENTRY0 + 8L * i);
        }
        return n;
    }
}
