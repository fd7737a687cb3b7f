package org.libtp.core.lock;

import org.libtp.core.env.RegionSpec;
import org.libtp.core.region.Fingerprint;
import org.libtp.core.region.LatchArray;

/**
 * The lock manager's shared-memory format: two regions, {@code __libtp.rgn.lock} (fixed size:
 * the settings, the detector word, the free lists) and {@code __libtp.rgn.lock.tables} (sized
 * by the settings). The split lets a process read the settings before it attaches the tables, so
 * different capacity settings are reported as such. Offsets here are frozen (LockLayoutTest,
 * docs/formats.md); a change bumps {@link #LAYOUT_VERSION}, and {@link #FINGERPRINT} folds every
 * constant into both regions' specs so a process built with another layout refuses to attach.
 *
 * <pre>
 *  region "lock" (1024 bytes)
 *  offset  size  field
 *  ------  ----  -------------------------------------------------------------
 *     256    64  init latch        guards creating the tables and the settings
 *     320     4  state             0 = tables not initialized yet
 *     324     4  maxLocks
 *     328     4  maxObjects
 *     332     4  partitions P
 *     336     4  maxLockers T      = the transaction table's size
 *     340     4  bucketsPerPartition
 *     384     8  detector word     (process slot + 1) &lt;&lt; 48 | slot generation (48 bits)
 *                                  of the distinguished process running the detector; 0 = none
 *     392     8  last detection pass, ms since the epoch
 *     448     8  request free list (Treiber stack: ABA tag &lt;&lt; 32 | request index + 1)
 *     512     8  object free list  (same)
 *     576     8  deadlock victims chosen
 *     584     8  timeouts
 *     592     8  escalations (file locks taken instead of more page locks)
 *     600     4  reclaim           1 = a partition was repaired since the last sweep: a free
 *                                  entry may be lost (see below); the next sweep clears it
 *
 *  region "lock.tables"
 *  offset        size      field
 *  ------------  --------  -----------------------------------------------------
 *           256     64*P   partitions; partition p guards its buckets, their objects and
 *                          the objects' request queues:
 *                            0 16 partition latch
 *                           16  4 request cache      one free request kept by the partition
 *                           20  4 object cache       one free object (index + 1, 0 = none)
 *                           24  4 locks in use       requests in this partition's queues
 *                           28  4 objects in use
 *                           32  8 requests           lock and upgrade calls
 *                           40  8 waits
 *   offBuckets     4*P*B   bucket heads (object index + 1), partition-major: partition p's
 *                          B buckets are contiguous
 *   offLockers      64*T   locker table, indexed by transaction slot:
 *                            0  8 txnId    the transaction whose chain this is; 0 = none;
 *                                          negative = claimed by a releaser: sign bit |
 *                                          (its process slot + 1) &lt;&lt; 40 | generation (40 bits)
 *                            8  4 chain    first request of the transaction (index + 1)
 *                           12  4 waiting  the request it waits on (index + 1), 0 = none
 *                           16  4 victim   1 = the detector refused its wait
 *   offObjects 64*maxObjects  lock objects:
 *                            0  8 pageNo
 *                            8  4 fileId
 *                           12  4 hash
 *                           16  4 next     bucket chain, or free list link (index + 1)
 *                           20  4 head     request queue: granted holders first, then
 *                           24  4 tail     waiters in arrival order (index + 1)
 *                           28  4 part     partition that allocated it; -1 = free
 *   offRequests 64*maxLocks   lock requests:
 *                            0  4 object   (index + 1; 0 once refused by the detector)
 *                            4  4 locker   transaction slot
 *                            8  4 mode     LockMode ordinal (granted, or wanted while waiting)
 *                           12  4 status   0 free / 1 granted / 2 waiting / 3 refused;
 *                                          written last when a request is made, first when freed
 *                           16  4 refs     reference count
 *                           20  4 pending  conversion waiting for: mode ordinal + 1, 0 = none
 *                           24  4 qNext    object queue links (index + 1)
 *                           28  4 qPrev
 *                           32  4 lNext    locker chain links (index + 1); lNext is also
 *                           36  4 lPrev    the free list link
 *                           40  4 part     partition that allocated it; -1 = free
 * </pre>
 *
 * <h2>Death of a latch holder</h2>
 * <ul>
 *   <li><b>Partition latch</b>: repaired in place ({@code LockPartitionRepair}). Every request
 *       and object names the partition that allocated it ({@code part}, written under that
 *       partition's latch right after the entry leaves a free list or cache, reset to -1 before
 *       it goes back), and a request's {@code status} is written last when it is made and set
 *       to free first when it goes. So the partition's live requests are exactly those naming it
 *       with a status other than free, whatever the dead holder was doing: its objects, buckets,
 *       queues (granted first, then waiters, in their old order where the links still say it),
 *       counts and caches are rebuilt from them, entries allocated but not yet used are freed,
 *       and the lockers of its requests are marked {@code suspect}, so their chains (which
 *       cross partitions) are rebuilt from the requests naming them when they are released.
 *       An entry the holder had popped from a free stack but not yet named, or unnamed but
 *       not yet pushed, is on no list: the repair sets the {@code reclaim} word, and the next
 *       transaction end or failCheck in any process sweeps under every partition latch (no
 *       entry is in flight then, since entries move only under a partition latch): an entry
 *       that names no partition and is on no free stack and in no cache is pushed back. A
 *       sweeper that dies holding the latches leaves them to be repaired, which sets the word
 *       again.</li>
 *   <li><b>Init latch</b>: not repaired: it is held only while the first process creates the
 *       tables; its holder's death fails the environment (run recovery).</li>
 * </ul>
 *
 *
 * Adjacent 4-byte fields that change together (object and locker, mode and status, refs and
 * pending, the two links of each list; an object's file and hash, next and head; a
 * partition's two caches and two counts) are read and written as one little-endian long on
 * the uncontended path: each access to the mapping is bounds-checked, so their number is
 * most of the cost.
 */
final class LockLayout {
    /**
     * 2: intention modes, escalations; 3: the regions carry the layout fingerprint; 4: objects
     * and free requests say their partition, lockers a suspect flag (partition latch repair);
     * 5: the reclaim word.
     */
    static final int LAYOUT_VERSION = 5;


    // ---- region "lock"
    static final long CTL_SIZE = 1024;
    static final long OFF_INIT_LATCH = 256;
    static final long OFF_STATE = 320;
    static final long OFF_MAX_LOCKS = 324;
    static final long OFF_MAX_OBJECTS = 328;
    static final long OFF_PARTITIONS = 332;
    static final long OFF_MAX_LOCKERS = 336;
    static final long OFF_BUCKETS_PER_PART = 340;
    static final long OFF_DETECTOR = 384;
    static final long OFF_LAST_DETECT = 392;
    static final long OFF_REQ_FREE = 448;
    static final long OFF_OBJ_FREE = 512;
    static final long OFF_DEADLOCKS = 576;
    static final long OFF_TIMEOUTS = 584;
    static final long OFF_ESCALATIONS = 592;
    static final long OFF_RECLAIM = 600;

    // ---- region "lock.tables"
    static final long OFF_PART = 256;
    static final int PART = 64;
    static final int P_LATCH = 0;
    static final int P_REQ_CACHE = 16;
    static final int P_OBJ_CACHE = 20;
    static final int P_LOCKS = 24;
    static final int P_OBJECTS = 28;
    static final int P_REQUESTS = 32;
    static final int P_WAITS = 40;
    /** Both caches as one long: object cache in the high half. */
    static final int P_CACHES = P_REQ_CACHE;
    /** Both counts as one long: objects in the high half. */
    static final int P_COUNTS = P_LOCKS;
    static final long ONE_LOCK = 1L;
    static final long ONE_OBJECT = 1L << 32;
    static final int LOCKER = 64;
    static final int L_TXN = 0;
    static final int L_CHAIN = 8;
    static final int L_WAITING = 12;
    static final int L_VICTIM = 16;
    static final int L_SUSPECT = 20;
    static final int OBJ = 64;
    static final int O_PAGE = 0;
    static final int O_FILE = 8;
    static final int O_HASH = 12;
    static final int O_NEXT = 16;
    static final int O_HEAD = 20;
    static final int O_TAIL = 24;
    static final int O_PART = 28;
    static final int REQ = 64;
    static final int R_OBJ = 0;
    static final int R_LOCKER = 4;
    static final int R_MODE = 8;
    static final int R_STATUS = 12;
    static final int R_REFS = 16;
    static final int R_PENDING = 20;
    static final int R_QNEXT = 24;
    static final int R_QPREV = 28;
    static final int R_LNEXT = 32;
    static final int R_LPREV = 36;
    static final int R_PART = 40;

    /** The {@code part} of a free request or object. */
    static final int NO_PART = -1;
    static final int ST_FREE = 0;
    static final int ST_GRANTED = 1;
    static final int ST_WAITING = 2;
    static final int ST_REFUSED = 3;

    static final long GEN_MASK_48 = (1L << 48) - 1;
    static final long GEN_MASK_40 = (1L << 40) - 1;

    /** Every constant above, folded: part of both regions' specs. */
    static final long FINGERPRINT = Fingerprint.ofConstants(LockLayout.class);

    private LockLayout() {
    }

    /** Layout of region "lock.tables" for one configuration. */
    record Layout(int maxLocks, int maxObjects, int partitions, int maxLockers, int bucketsPerPartition,
                  long offBuckets, long offLockers, long offObjects, long offRequests, long size) {
        static Layout of(int maxLocks, int maxObjects, int partitions, int maxLockers) {
            long perPart = Math.max(1, (2L * maxObjects + partitions - 1) / partitions);
            int bpp = (int) Math.min(1 << 24, Long.highestOneBit(perPart * 2 - 1));
            long offBuckets = OFF_PART + (long) PART * partitions;
            long offLockers = align(offBuckets + 4L * partitions * bpp, 64);
            long offObjects = offLockers + (long) LOCKER * maxLockers;
            long offRequests = offObjects + (long) OBJ * maxObjects;
            long size = offRequests + (long) REQ * maxLocks;
            return new Layout(maxLocks, maxObjects, partitions, maxLockers, bpp, offBuckets, offLockers,
                    offObjects, offRequests, size);
        }

        RegionSpec spec() {
            return new RegionSpec("lock.tables", size, LAYOUT_VERSION, FINGERPRINT,
                    new LatchArray(OFF_PART + P_LATCH, PART, partitions, true));
        }
    }

    static RegionSpec controlSpec() {
        return new RegionSpec("lock", CTL_SIZE, LAYOUT_VERSION, FINGERPRINT, new LatchArray(OFF_INIT_LATCH, 64, 1));
    }

    private static long align(long v, long a) {
        return (v + a - 1) / a * a;
    }

}
