package org.libtp.core.buffer;

import org.libtp.core.env.RegionSpec;
import org.libtp.core.region.Fingerprint;
import org.libtp.core.region.LatchArray;

/**
 * Layout of the buffer region ({@code __libtp.rgn.buffer}) and of its settings region
 * ({@code buffer.cfg}). The offsets past the pins depend on the configuration: {@link Layout}
 * derives them.
 *
 * <pre>
 *  offset      size        field
 *  ----------  ----------  ------------------------------------------------------------
 *         256          64  registry latch   guards the file registry
 *         320           8  clock hand       next frame the replacement sweep looks at
 *         328           4  pageSize
 *         332           4  frames F
 *         336           4  buckets B        a power of two, >= 2F
 *         340           4  partitions P
 *         344           4  maxFiles M
 *         348           4  state            0 = registry not loaded from __libtp.files yet
 *         352           4  maxProcesses S
 *         360           8  evictions        pages unlinked from the pool so far (under their
 *                          partition latch): read-ahead installs nothing read before a change
 *        1024   PIN_STRIDE*S  pin table per process slot: which frames the process has
 *                          pinned, so failCheck gives a dead process's pins back:
 *                            0  8 unattributed  pins not in the entries (the table was
 *                                           full): a dead process with any fails the
 *                                           environment (as Berkeley DB's failchk)
 *                           64  8*PIN_ENTRIES entries (u64): (frame + 1) &lt;&lt; 32 | count;
 *                                           0 = never used, count 0 = free for any frame
 *         OFF_PART   64*P  partition latches: partition p guards buckets b with b % P == p
 *         OFF_BUCKET  4*B  bucket heads: frame index + 1 of the first frame, 0 = empty
 *         OFF_FILES 256*M  file registry entries:
 *                            0  4 state     0 free / 1 registered
 *                            4  4 nameLength
 *                            8  8 pages     one past the highest page created (atomic max)
 *                           16  4 needsForce set by a page write, cleared by the force
 *                           24  8 generation raised when the file's database is removed or
 *                                           renamed: handles opened before check it
 *                           32 224 name (UTF-8)
 *         OFF_FRAME 128*F  frame headers:
 *                            0 16 frame latch  guards the page content and the I/O
 *                           16  4 state     0 free / 1 loading / 2 valid
 *                           20  4 pins      pin count (CAS)
 *                           24  4 fileId
 *                           28  4 next      next frame in the bucket chain (index + 1)
 *                           32  8 pageNo
 *                           40  8 recLsn    LSN of the oldest logged change not yet written
 *                           48  8 flushLsn  end of the newest logged change: the log is
 *                                           forced to here before the page is written (WAL)
 *                           56  4 dirty
 *                           60  4 ref       CLOCK reference bit
 *                           64  4 validLength
 *                           68  4 seq       odd while a latch holder may change the frame,
 *                                           bumped at latch and unlatch: optimistic readers
 *                                           validate against it and write nothing shared
 *         OFF_PAGES  pageSize*F  the pages (aligned to the page size)
 * </pre>
 *
 * <p>The settings region {@code buffer.cfg} ({@link #CFG_SIZE} bytes, version {@link #CFG_VERSION}):
 * <pre>
 *  offset  size  field
 *  ------  ----  ------------------------------------------------------------
 *     256    64  settings latch
 *     320     4  state                0 = settings not written yet
 *     324     4  pageSize
 *     328     4  maxFiles
 *     332     4  partitions
 *     336     8  poolBytes
 *     344     4  tornWriteProtection  0 / 1
 * </pre>
 */
final class BufferLayout {
    /**
     * 2: evictions; 3: file generation; 4: the layout in its own class, fingerprinted by its
     * constants; 5: the frame sequence for optimistic reads; 6: pin tables per process slot
     * instead of a pin count (a dead process's pins are given back).
     */
    static final int LAYOUT_VERSION = 6;

    static final long OFF_REGISTRY_LATCH = 256;
    static final long OFF_CLOCK = 320;
    static final long OFF_PAGE_SIZE = 328;
    static final long OFF_FRAMES = 332;
    static final long OFF_BUCKETS = 336;
    static final long OFF_PARTITIONS = 340;
    static final long OFF_MAX_FILES = 344;
    static final long OFF_STATE = 348;
    static final long OFF_MAX_PROCESSES = 352;
    static final long OFF_EVICTIONS = 360;
    static final long OFF_PINS = 1024;
    static final int PIN_ENTRIES = 512;
    static final int PIN_UNATTRIBUTED = 0;
    static final int PIN_ENTRY0 = 64;
    static final int PIN_STRIDE = PIN_ENTRY0 + 8 * PIN_ENTRIES;
    static final int PART_STRIDE = 64;
    static final int FILE_ENTRY = 256;
    static final int F_STATE = 0;
    static final int F_NAME_LEN = 4;
    static final int F_PAGES = 8;
    static final int F_NEEDS_FORCE = 16;
    static final int F_GENERATION = 24;
    static final int F_NAME = 32;
    static final int MAX_NAME = FILE_ENTRY - F_NAME;
    static final int FRAME = 128;
    static final int FR_LATCH = 0;
    static final int FR_STATE = 16;
    static final int FR_PINS = 20;
    static final int FR_FILE = 24;
    static final int FR_NEXT = 28;
    static final int FR_PAGE = 32;
    static final int FR_REC_LSN = 40;
    static final int FR_FLUSH_LSN = 48;
    static final int FR_DIRTY = 56;
    static final int FR_REF = 60;
    static final int FR_VALID = 64;
    static final int FR_SEQ = 68;
    static final int FREE = 0;
    static final int LOADING = 1;
    static final int VALID = 2;
    static final long MAX_PAGE_NO = (1L << 40) - 1;

    /** Layout of one configuration: every offset derived from it. */
    record Layout(int pageSize, int frames, int buckets, int partitions, int maxFiles, int maxProcesses,
                  long offPart, long offBucket, long offFiles, long offFrame, long offPages, long size) {
        static Layout of(BufferConfig c, int maxProcesses) {
            int frames = c.frames();
            int buckets = Math.max(c.partitions(), Integer.highestOneBit(Math.max(1, frames - 1)) << 2);
            long offPart = OFF_PINS + (long) PIN_STRIDE * maxProcesses;
            long offBucket = offPart + (long) PART_STRIDE * c.partitions();
            long offFiles = align(offBucket + 4L * buckets, 64);
            long offFrame = offFiles + (long) FILE_ENTRY * c.maxFiles();
            long offPages = align(offFrame + (long) FRAME * frames, c.pageSize());
            return new Layout(c.pageSize(), frames, buckets, c.partitions(), c.maxFiles(), maxProcesses,
                    offPart, offBucket, offFiles, offFrame, offPages, offPages + (long) c.pageSize() * frames);
        }

        /** {@code logged}: frames are rebuilt from the log when a latch holder dies (TP mode). */
        RegionSpec spec(boolean logged) {
            return new RegionSpec("buffer", size, LAYOUT_VERSION, FINGERPRINT,
                    new LatchArray(OFF_REGISTRY_LATCH, 64, 1),
                    new LatchArray(offPart, PART_STRIDE, partitions, true),
                    new LatchArray(offFrame + FR_LATCH, FRAME, frames, logged));
        }

        RegionSpec spec() {
            return spec(false);
        }
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

    /** Version of the {@code buffer.cfg} settings region (2: tornWriteProtection; 3: fingerprinted). */
    static final int CFG_VERSION = 3;
    static final int CFG_SIZE = 512;
    static final long CFG_LATCH = 256;
    static final long CFG_STATE = 320;
    static final long CFG_PAGE_SIZE = 324;
    static final long CFG_MAX_FILES = 328;
    static final long CFG_PARTITIONS = 332;
    static final long CFG_POOL_BYTES = 336;
    static final long CFG_TORN_WRITE_PROTECTION = 344;

    /** Every constant above, folded: a process built with another layout refuses to attach. */
    static final long FINGERPRINT = Fingerprint.ofConstants(BufferLayout.class);

    private BufferLayout() {
    }
}
