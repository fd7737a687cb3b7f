package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.log.LogManager;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.List;
import java.util.concurrent.atomic.LongAdder;

/**
 * The buffer manager on a shared region ({@code __libtp.rgn.buffer}); its layout is
 * {@link BufferLayout}'s. See the package note for the protocols.
 */
public final class SharedBufferPool implements BufferManager {
    private static final Logger LOG = LoggerFactory.getLogger(SharedBufferPool.class);
    /**
     * Pages read together on a miss while the pool has free frames (256 KiB at 4 KiB pages; OO1's
     * cold lookup: 9.4 ms with single pages, about 4 with 16, about 3 with 64).
     */
    static final int READ_AHEAD_PAGES = 64;

    private final RegionEnvironment env;
    private final Storage storage;
    private final LogManager log;
    private final Layout lay;
    private final Memory mem;
    private final Latch registryLatch;
    private final FrameTable ft;
    private final Clock clock;
    /** Per frame, a view of its page bytes (Memory.slice), or null: Page's fast path. */
    private final java.nio.ByteBuffer[] frameViews;
    private final int frames;
    private final int pageSize;
    /** Log each page's image (forced) before writing it: recovery repairs torn writes from it. */
    private final boolean imagesBeforeWrites;
    private final DataFileTable table;
    private final PageWriter writer;
    private final ThreadLocal<byte[]> io;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder optimisticViews = new LongAdder();
    private final LongAdder optimisticInvalid = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final FailCheckListener listener = this::failCheck;
    private volatile boolean closed;

    private SharedBufferPool(RegionEnvironment env, Storage storage, LogManager log, Layout lay, Region region,
                             boolean tornWriteProtection) {
        this.env = env;
        this.imagesBeforeWrites = log != null && tornWriteProtection;
        this.storage = storage;
        this.log = log;
        this.lay = lay;
        this.mem = region.memory();
        this.frames = lay.frames();
        this.pageSize = lay.pageSize();
        this.registryLatch = env.latch(region, OFF_REGISTRY_LATCH, "buffer file registry latch");
        this.table = new DataFileTable(env, storage, log, lay, mem, registryLatch, this::checkOpen);
        this.ft = new FrameTable(env, region, lay);
        env.repairLatches(region, ft.partitionLatches(), (p, dead) -> {
            String why = ft.rebuildPartition(p);
            if (why == null) {
                LOG.warn("buffer hash partition {} relinked after the death of {}", p, dead);
            }
            return why;
        });
        this.frameViews = new java.nio.ByteBuffer[frames];
        for (int i = 0; i < frames; i++) {
            frameViews[i] = mem.slice(pageBase(i), pageSize); // built up front: safely published
        }
        this.io = ThreadLocal.withInitial(() -> new byte[pageSize]);
        this.writer = new PageWriter(this, env, log, lay, mem, table, ft, imagesBeforeWrites, io);
        this.clock = new Clock(env, log, mem, ft, writer, imagesBeforeWrites);
        this.region = region;
    }

    private final Region region;

    /**
     * Opens (first process: creates) the shared pool. {@code log} may be null for an environment
     * without logging (the paper's SHARED mode): pages are then written without a write-ahead
     * check.
     */
    public static SharedBufferPool open(RegionEnvironment env, Storage storage, LogManager log, BufferConfig config) {
        if (env == null || storage == null || config == null) {
            throw new IllegalArgumentException("environment, storage and config must not be null");
        }
        if (ByteOrder.nativeOrder() != ByteOrder.LITTLE_ENDIAN) {
            throw new UnsupportedOperationException("LibTP pages are little-endian; this platform is big-endian");
        }
        checkSettings(env, config);
        Layout lay = Layout.of(config, env.config().maxProcesses());
        Region region = env.region(lay.spec(log != null));
        SharedBufferPool bp = new SharedBufferPool(env, storage, log, lay, region, config.tornWriteProtection());
        bp.registryLatch.acquire();
        try {
            if (bp.mem.getIntVolatile(OFF_STATE) == 0) {
                bp.mem.putInt(OFF_PAGE_SIZE, lay.pageSize());
                bp.mem.putInt(OFF_FRAMES, lay.frames());
                bp.mem.putInt(OFF_BUCKETS, lay.buckets());
                bp.mem.putInt(OFF_PARTITIONS, lay.partitions());
                bp.mem.putInt(OFF_MAX_FILES, lay.maxFiles());
                bp.mem.putInt(OFF_MAX_PROCESSES, lay.maxProcesses());
                bp.table.loadRegistry();
                bp.mem.putIntVolatile(OFF_STATE, 1);
            } else if (bp.mem.getInt(OFF_PAGE_SIZE) != lay.pageSize() || bp.mem.getInt(OFF_FRAMES) != lay.frames()
                    || bp.mem.getInt(OFF_MAX_FILES) != lay.maxFiles() || bp.mem.getInt(OFF_PARTITIONS) != lay.partitions()) {
                throw new IllegalArgumentException("BufferConfig " + config + " differs from the running environment's "
                        + "(pageSize " + bp.mem.getInt(OFF_PAGE_SIZE) + ", frames " + bp.mem.getInt(OFF_FRAMES)
                        + ", maxFiles " + bp.mem.getInt(OFF_MAX_FILES) + ", partitions "
                        + bp.mem.getInt(OFF_PARTITIONS) + ")");
            }
        } finally {
            bp.registryLatch.release();
        }
        env.addFailCheckListener(bp.listener, FailCheckListener.BUFFER);
        return bp;
    }

    /**
     * The settings live in a small fixed-size region ({@code buffer.cfg}, offsets {@code CFG_*} of
     * {@link BufferLayout}), checked before the pool region is attached: its size depends on
     * them, so a process with other settings would otherwise only see a fingerprint mismatch
     * instead of the setting to fix.
     */
    private static void checkSettings(RegionEnvironment env, BufferConfig config) {
        Region cfg = env.region(new RegionSpec("buffer.cfg", CFG_SIZE, CFG_VERSION, FINGERPRINT, new LatchArray(CFG_LATCH, 64, 1)));
        Memory m = cfg.memory();
        Latch l = env.latch(cfg, CFG_LATCH, "buffer settings latch");
        l.acquire();
        try {
            if (m.getIntVolatile(CFG_STATE) == 0) {
                m.putInt(CFG_PAGE_SIZE, config.pageSize());
                m.putInt(CFG_MAX_FILES, config.maxFiles());
                m.putInt(CFG_PARTITIONS, config.partitions());
                m.putLong(CFG_POOL_BYTES, config.poolBytes());
                m.putInt(CFG_TORN_WRITE_PROTECTION, config.tornWriteProtection() ? 1 : 0);
                m.putIntVolatile(CFG_STATE, 1);
                return;
            }
            String what = m.getInt(CFG_PAGE_SIZE) != config.pageSize() ? "pageSize " + config.pageSize() + " (running: " + m.getInt(CFG_PAGE_SIZE) + ")"
                    : m.getLong(CFG_POOL_BYTES) != config.poolBytes() ? "poolBytes " + config.poolBytes() + " (running: " + m.getLong(CFG_POOL_BYTES) + ")"
                    : m.getInt(CFG_MAX_FILES) != config.maxFiles() ? "maxFiles " + config.maxFiles() + " (running: " + m.getInt(CFG_MAX_FILES) + ")"
                    : m.getInt(CFG_PARTITIONS) != config.partitions() ? "partitions " + config.partitions() + " (running: " + m.getInt(CFG_PARTITIONS) + ")"
                    : (m.getInt(CFG_TORN_WRITE_PROTECTION) != 0) != config.tornWriteProtection() ? "tornWriteProtection "
                            + config.tornWriteProtection() + " (running: " + (m.getInt(CFG_TORN_WRITE_PROTECTION) != 0) + ")"
                    : null;
            if (what != null) {
                throw new IllegalArgumentException("BufferConfig." + what + " differs from the running environment "
                        + env.home() + "; every process must open it with the same buffer settings (fixed when its "
                        + "shared regions were created)");
            }
        } finally {
            l.release();
        }
    }

    // ------------------------------------------------------------------ file registry (DataFileTable)

    /**
     * The generation of file {@code fileId}: raised by {@link #raiseGeneration} whenever what
     * the file is known as changes (its database removed or renamed), so a handle that cached it
     * notices with one shared read. Not durable: handles do not outlive the regions.
     */
    public long generation(int fileId) {
        return table.generation(fileId);
    }

    /** Raises the generation of file {@code fileId} (see {@link #generation}). */
    public void raiseGeneration(int fileId) {
        table.raiseGeneration(fileId);
    }

    @Override
    public String describe(int fileId) {
        return table.describe(fileId);
    }

    @Override
    public int open(String name) {
        return table.open(name);
    }

    /** Names of the registered data files. */
    public List<String> registeredNames() {
        return table.registeredNames();
    }

    @Override
    public int fileId(String name) {
        return table.fileId(name);
    }

    @Override
    public String fileName(int fileId) {
        return table.fileName(fileId);
    }

    @Override
    public long pageCount(int fileId) {
        return table.pageCount(fileId);
    }

    private long fileEntry(int fileId) {
        return table.fileEntry(fileId);
    }

    private StorageFile file(int fileId) {
        return table.file(fileId);
    }

    private void checkFile(int fileId) {
        table.checkFile(fileId);
    }

    private String nameAt(int fileId) {
        return table.nameAt(fileId);
    }

    private void extendTo(int fileId, long pages) {
        table.extendTo(fileId, pages);
    }

    // ------------------------------------------------------------------ frames (FrameTable)

    long meta(int f) {
        return ft.meta(f);
    }

    long pageBase(int f) {
        return ft.pageBase(f);
    }

    void latchFrame(int f) {
        ft.latchFrame(f);
    }

    void unlatchFrame(int f) {
        ft.unlatchFrame(f);
    }

    /** The shared region's memory (tests set a frame's sequence through it). */
    Layout layout() {
        return lay;
    }

    FrameTable frameTable() {
        return ft;
    }

    Memory regionMemory() {
        return mem;
    }

    /** True if frame {@code f}'s sequence is still {@code seq} (an optimistic view's validation). */
    boolean frameUnchanged(int f, int seq) {
        if (ft.seq(f) == seq) {
            return true;
        }
        optimisticInvalid.increment();
        return false;
    }

    // ------------------------------------------------------------------ optimistic reads

    @Override
    public Page tryOptimistic(int fileId, long pageNo) {
        return tryOptimistic(fileId, pageNo, null);
    }

    @Override
    public Page tryOptimistic(int fileId, long pageNo, Page reuse) {
        checkOpen();
        if (fileId < 0 || fileId >= lay.maxFiles() || pageNo < 0 || pageNo > MAX_PAGE_NO) {
            return null;
        }
        int f = ft.findOptimistic(ft.bucket(fileId, pageNo), fileId, pageNo);
        if (f < 0) {
            return null;
        }
        long m = meta(f);
        int seq = ft.seq(f);
        if ((seq & 1) != 0 || mem.getIntVolatile(m + FR_STATE) != VALID || mem.getInt(m + FR_FILE) != fileId
                || mem.getLong(m + FR_PAGE) != pageNo) {
            return null; // being changed, loaded or replaced: the caller pins it instead
        }
        if (mem.getInt(m + FR_REF) == 0) {
            mem.putIntVolatile(m + FR_REF, 1); // the only write, and only once per sweep of the clock
        }
        optimisticViews.increment();
        if (reuse != null && reuse.optimistic && reuse.belongsTo(this)) {
            reuse.rebind(f, pageBase(f), frameViews[f], fileId, pageNo, mem.getInt(m + FR_VALID), seq);
            return reuse;
        }
        return new Page(this, f, pageBase(f), mem, frameViews[f], fileId, pageNo, pageSize, mem.getInt(m + FR_VALID),
                true, seq);
    }

    // ------------------------------------------------------------------ get / unpin

    @Override
    public Page get(int fileId, long pageNo, int flags) {
        checkOpen();
        if (pageNo < 0 || pageNo > MAX_PAGE_NO) {
            throw new IllegalArgumentException("page number " + pageNo + " not in [0, " + MAX_PAGE_NO + "]");
        }
        if ((flags & ~CREATE) != 0) {
            throw new IllegalArgumentException("unknown get flags " + Integer.toHexString(flags));
        }
        checkFile(fileId);
        env.checkValid();
        boolean create = (flags & CREATE) != 0;
        int b = ft.bucket(fileId, pageNo);
        Latch pl = ft.partition(b);
        while (true) {
            int f;
            pl.acquire();
            try {
                f = ft.find(b, fileId, pageNo);
                if (f >= 0) {
                    ft.pin(f);
                }
            } finally {
                pl.release();
            }
            if (f >= 0) {
                long m = meta(f);
                if (mem.getIntVolatile(m + FR_REF) == 0) {
                    mem.putIntVolatile(m + FR_REF, 1);
                }
                if (mem.getIntVolatile(m + FR_STATE) != VALID) {
                    // Being read in by another thread or process, which holds the frame latch.
                    ft.latchFrame(f);
                    ft.unlatchFrame(f);
                    if (mem.getIntVolatile(m + FR_STATE) != VALID) {
                        ft.unpinFrame(f); // its read failed; try (and fail) ourselves
                        continue;
                    }
                }
                hits.increment();
                return new Page(this, f, pageBase(f), mem, frameViews[f], fileId, pageNo, pageSize, mem.getInt(m + FR_VALID));
            }
            if (!create && pageNo >= mem.getLongVolatile(fileEntry(fileId) + F_PAGES)) {
                // Access methods ask for pages their own pages point to: one past the end means the
                // file was cut short or a pointer is damaged.
                throw new CorruptionException("page " + pageNo + " of " + describe(fileId) + " does not exist (the file "
                        + "has " + mem.getLongVolatile(fileEntry(fileId) + F_PAGES) + " pages): the file was cut short, "
                        + "or a page pointer to it is damaged; run verify, and restore the file from a backup");
            }
            int v = clock.claim(); // frame latch held, free, in no chain
            long m = meta(v);
            boolean raced;
            pl.acquire();
            try {
                raced = ft.find(b, fileId, pageNo) >= 0;
                if (!raced) {
                    mem.putInt(m + FR_FILE, fileId);
                    mem.putLong(m + FR_PAGE, pageNo);
                    mem.putLong(m + FR_REC_LSN, Lsn.NULL);
                    mem.putLong(m + FR_FLUSH_LSN, Lsn.NULL);
                    mem.putIntVolatile(m + FR_DIRTY, 0);
                    mem.putIntVolatile(m + FR_REF, 1);
                    mem.putIntVolatile(m + FR_STATE, LOADING);
                    ft.pin(v);
                    ft.link(b, v);
                }
            } finally {
                pl.release();
            }
            if (raced) {
                ft.unlatchFrame(v);
                continue;
            }
            int valid;
            try {
                // A page being created (an append) has nothing on disk around it worth reading.
                valid = readAhead && !create ? loadAhead(v, fileId, pageNo) : load(v, fileId, pageNo);
                if (create) {
                    extendTo(fileId, pageNo + 1);
                }
            } catch (RuntimeException e) {
                pl.acquire();
                try {
                    ft.unlink(b, v);
                    mem.getAndAddLong(OFF_EVICTIONS, 1);
                    mem.putIntVolatile(m + FR_STATE, FREE);
                } finally {
                    pl.release();
                }
                ft.unpinFrame(v);
                ft.unlatchFrame(v);
                throw e;
            }
            mem.putInt(m + FR_VALID, valid);
            mem.putIntVolatile(m + FR_STATE, VALID);
            ft.unlatchFrame(v);
            misses.increment();
            return new Page(this, v, pageBase(v), mem, frameViews[v], fileId, pageNo, pageSize, valid);
        }
    }

    /**
     * Until the first miss that finds no free frame, this process reads the aligned group of
     * {@link #READ_AHEAD_PAGES} pages around a missing page and keeps the neighbours in free
     * frames: a cold pool then fills with one read per group instead of one per page (a memory-mapped store gets this from the kernel's
     * read-ahead). Once the pool is full it reads single pages, never evicting for read-ahead.
     */
    private volatile boolean readAhead = true;

    /**
     * {@link #load} of page {@code pageNo} into frame {@code f} (its latch held, linked as
     * LOADING), reading its aligned group of {@link #READ_AHEAD_PAGES} pages at once and
     * installing the others that are complete, valid and not in the pool into free frames.
     */
    private int loadAhead(int f, int fileId, long pageNo) {
        long filePages = mem.getLongVolatile(fileEntry(fileId) + F_PAGES);
        long first = pageNo - pageNo % READ_AHEAD_PAGES;
        long end = Math.min(first + READ_AHEAD_PAGES, filePages);
        if (end - first <= 1 || pageNo >= end) {
            return load(f, fileId, pageNo);
        }
        // A neighbour in the pool now may be dirty there and newer than the file; one that
        // leaves the pool (written back) while we read must not be installed from this read:
        // the eviction count taken before the read says whether any page left meanwhile.
        long evictions = mem.getLongVolatile(OFF_EVICTIONS);
        boolean[] absent = new boolean[(int) (end - first)];
        int wanted = 0;
        for (long q = first; q < end; q++) {
            if (q != pageNo && !present(fileId, q)) {
                absent[(int) (q - first)] = true;
                wanted++;
            }
        }
        if (wanted == 0) {
            return load(f, fileId, pageNo);
        }
        byte[] buf = new byte[(int) (end - first) * pageSize];
        int n = read(fileId, first, buf);
        // The page asked for: exactly as load() does it.
        int at = (int) (pageNo - first) * pageSize;
        int valid = Math.max(0, Math.min(pageSize, n - at));
        place(f, fileId, pageNo, java.util.Arrays.copyOfRange(buf, at, at + pageSize), valid);
        // The neighbours: only whole pages that check (a bad one is reported when asked for).
        for (long q = first; q < end; q++) {
            int i = (int) (q - first);
            if (!absent[i] || n < (i + 1) * pageSize) {
                continue;
            }
            byte[] qp = java.util.Arrays.copyOfRange(buf, i * pageSize, (i + 1) * pageSize);
            if (PageHeader.isZero(qp, pageSize) || PageHeader.check(qp, pageSize, q) != null || beyondLog(qp) != null) {
                continue; // never written (its first get decides its valid length) or bad
            }
            int v = claimFreeFrame();
            if (v < 0) {
                readAhead = false; // the pool is full: from now on single pages
                break;
            }
            if (!install(v, fileId, q, qp, evictions)) {
                break; // a page left the pool meanwhile: this read may be stale for it
            }
        }
        return valid;
    }

    private boolean present(int fileId, long pageNo) {
        int b = ft.bucket(fileId, pageNo);
        Latch pl = ft.partition(b);
        pl.acquire();
        try {
            return ft.find(b, fileId, pageNo) >= 0;
        } finally {
            pl.release();
        }
    }

    /**
     * A free frame taken without evicting anything (its latch held), or -1: a few steps of the
     * clock hand, as claimFrame takes them.
     */
    private int claimFreeFrame() {
        for (int n = 0; n < 8; n++) {
            int f = (int) Long.remainderUnsigned(mem.getAndAddLong(OFF_CLOCK, 1), frames);
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_STATE) != FREE || mem.getIntVolatile(m + FR_PINS) != 0) {
                continue;
            }
            if (!ft.tryLatchFrame(f)) {
                continue;
            }
            if (mem.getIntVolatile(m + FR_STATE) == FREE && mem.getIntVolatile(m + FR_PINS) == 0) {
                return f;
            }
            ft.unlatchFrame(f);
        }
        return -1;
    }

    /**
     * Makes free frame {@code v} (latch held; released here) page {@code pageNo} with content
     * {@code page}, unless the page is in the pool already or a page left the pool since
     * {@code evictions} was read; false in that last case.
     */
    private boolean install(int v, int fileId, long pageNo, byte[] page, long evictions) {
        long m = meta(v);
        boolean ok = true;
        try {
            mem.putBytes(pageBase(v), page, 0, pageSize); // free and unlinked: nobody sees it yet
            int b = ft.bucket(fileId, pageNo);
            Latch pl = ft.partition(b);
            pl.acquire();
            try {
                if (mem.getLongVolatile(OFF_EVICTIONS) != evictions) {
                    ok = false;
                } else if (ft.find(b, fileId, pageNo) < 0) {
                    mem.putInt(m + FR_FILE, fileId);
                    mem.putLong(m + FR_PAGE, pageNo);
                    mem.putLong(m + FR_REC_LSN, Lsn.NULL);
                    mem.putLong(m + FR_FLUSH_LSN, Lsn.NULL);
                    mem.putIntVolatile(m + FR_DIRTY, 0);
                    mem.putIntVolatile(m + FR_REF, 0); // the first to go if nobody asks for it
                    mem.putInt(m + FR_VALID, pageSize);
                    mem.putIntVolatile(m + FR_STATE, VALID);
                    ft.link(b, v);
                    reads.increment();
                }
            } finally {
                pl.release();
            }
        } finally {
            ft.unlatchFrame(v);
        }
        return ok;
    }

    /** Reads the page into frame {@code f} (latch held); returns the bytes read. */
    private int load(int f, int fileId, long pageNo) {
        byte[] buf = io.get();
        int n = read(fileId, pageNo, buf);
        place(f, fileId, pageNo, buf, n);
        return n;
    }

    /** Reads {@code buf.length} bytes from page {@code firstPage} on, short at end of file; returns the bytes read. */
    int read(int fileId, long firstPage, byte[] buf) {
        int n = 0;
        try {
            StorageFile file = file(fileId);
            ByteBuffer bb = ByteBuffer.wrap(buf);
            long pos = (firstPage + 1) * pageSize; // after the header page
            while (bb.hasRemaining()) {
                int r = file.read(bb, pos + n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
        } catch (IOException e) {
            long last = firstPage + Math.max(1, buf.length / pageSize) - 1;
            String what = last == firstPage ? "page " + firstPage : "pages " + firstPage + ".." + last;
            throw new EnvironmentAccessException("cannot read " + what + " of " + nameAt(fileId) + " in "
                    + env.home() + ": " + e, e); // the description only when needed: reads are hot
        }
        return n;
    }

    /**
     * Puts a page image read from the file ({@code valid} bytes of it came from there; the rest
     * becomes zeros) into frame {@code f}, after checking it.
     */
    private void place(int f, int fileId, long pageNo, byte[] page, int valid) {
        java.util.Arrays.fill(page, valid, pageSize, (byte) 0);
        if (valid > 0) {
            String bad = PageHeader.check(page, pageSize, pageNo);
            if (bad != null) {
                throw new CorruptionException("page " + pageNo + " of data file " + nameAt(fileId) + " in "
                        + env.home() + " is corrupt: " + bad + (valid < pageSize ? " (only " + valid + " bytes on disk)" : "")
                        + "; restore the file from a backup, or run verify to see the extent");
            }
            String beyond = beyondLog(page);
            if (beyond != null) {
                throw new CorruptionException("page " + pageNo + " of data file " + nameAt(fileId) + " in "
                        + env.home() + " " + beyond);
            }
            reads.increment();
        }
        mem.putBytes(pageBase(f), page, 0, pageSize);
    }

    /**
     * Null, or why a page read from its file cannot be trusted because its LSN lies at or beyond
     * the end of the log. The write-ahead rule forces the log past a page's LSN before the page
     * is written, so such a page means log records were lost (a log cut short or replaced):
     * redo would skip the changes the new records describe, and undo would miss the ones gone.
     */
    private String beyondLog(byte[] page) {
        long lsn = PageHeader.getLong(page, PageHeader.OFF_LSN);
        if (log == null || lsn == 0) {
            return null;
        }
        long end = log.endLsn();
        if (lsn < end) {
            return null;
        }
        return "carries LSN " + Lsn.toString(lsn) + ", at or beyond the end of the log (" + Lsn.toString(end)
                + "): log records it depends on were lost, so its content cannot be checked against the log. "
                + "Restore the environment from a backup; or, accepting possibly incomplete transactions, reset "
                + "the data files' LSNs and start a new log (org.libtp.db.Environment.resetLog, libtp repair --reset-log)";
    }

    @Override
    public Page allocate(int fileId) {
        checkOpen();
        checkFile(fileId);
        env.checkValid();
        long n = mem.getAndAddLong(fileEntry(fileId) + F_PAGES, 1);
        return get(fileId, n, CREATE);
    }

    @Override
    public void unpin(Page page, boolean dirty) {
        if (page == null) {
            throw new IllegalArgumentException("page must not be null");
        }
        checkOpen();
        page.checkPinned();
        if (page.optimistic) {
            throw new IllegalStateException(page + " is an optimistic view, never pinned: nothing to unpin");
        }
        if (page.latched) {
            throw new IllegalStateException("unlatch " + page + " before unpinning it");
        }
        page.pinned = false;
        if (dirty) {
            mem.putIntVolatile(meta(page.frame) + FR_DIRTY, 1);
        }
        ft.unpinFrame(page.frame);
    }

    /** A logged change was applied to frame {@code f} (its latch held). */
    void loggedChange(int f, long lsn, long endLsn) {
        long m = meta(f);
        if (mem.getLong(m + FR_REC_LSN) == Lsn.NULL) {
            mem.putLongVolatile(m + FR_REC_LSN, lsn);
        }
        if (endLsn > mem.getLong(m + FR_FLUSH_LSN)) {
            mem.putLongVolatile(m + FR_FLUSH_LSN, endLsn);
        }
        mem.putIntVolatile(m + FR_DIRTY, 1);
    }

    /** The log this pool writes ahead to (null without logging). */
    public LogManager log() {
        return log;
    }

    // ------------------------------------------------------------------ page writes (PageWriter)

    /**
     * Recovery, before redo: if page {@code pageNo} of {@code fileId} on disk fails its check or
     * is missing or cut short (a write torn or lost by power loss), rewrites it from {@code image} (the newest logged copy, at LSN
     * {@code imageLsn}, read from the log only then: most pages are intact) and forces the file.
     * Redo then goes on from the copy's page LSN. True if the page was rewritten. A file no
     * longer registered is skipped.
     */
    public boolean repairTorn(int fileId, long pageNo, java.util.function.Supplier<byte[]> image, long imageLsn) {
        return writer.repairTorn(fileId, pageNo, image, imageLsn);
    }

    @Override
    public void flush(int fileId) {
        writer.flush(fileId);
    }

    @Override
    public void sync() {
        writer.sync();
    }

    /**
     * The buffer manager's part of a fuzzy checkpoint: writes the pages dirty since before
     * {@code writeBefore} (the previous checkpoint's start: a page stays dirty at most about two
     * checkpoint intervals), and more, oldest first, if the dirty-page table would exceed
     * {@code maxEntries}; forces every file written since its last force (by any process); returns
     * the dirty-page table of what stays in the pool. Updates go on meanwhile: each frame is
     * latched only while it is written or looked at.
     */
    public List<LogRecord.DirtyPage> checkpoint(long writeBefore, int maxEntries) {
        return writer.checkpoint(writeBefore, maxEntries);
    }

    @Override
    public int pageSize() {
        return pageSize;
    }

    @Override
    public BufferStats stats() {
        checkOpen();
        int dirty = 0;
        int pinned = 0;
        for (int f = 0; f < frames; f++) {
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_DIRTY) != 0) {
                dirty++;
            }
            if (mem.getIntVolatile(m + FR_PINS) != 0) {
                pinned++;
            }
        }
        return new BufferStats(hits.sum(), misses.sum(), reads.sum(), writer.writes.sum(), clock.evictions.sum(), frames, dirty, pinned,
                writer.imagedWrites.sum(), optimisticViews.sum(), optimisticInvalid.sum());
    }

    RegionEnvironment environment() {
        return env;
    }

    // ------------------------------------------------------------------ dead processes

    private void failCheck(int[] deadSlots) {
        for (int s : deadSlots) {
            long pins = ft.pinsOf(s);
            if (!ft.releasePinsOf(s)) {
                // Its pin table overflowed once: which frames it pinned is not known, so they
                // could never be reused. As Berkeley DB does.
                throw new IllegalStateException("process slot " + s + " died with " + pins
                        + " buffer pages pinned, more than its pin table records; run recovery (reopen the environment)");
            }
            if (pins > 0) {
                LOG.info("failCheck: gave back {} buffer page pins of dead process slot {}", pins, s);
            }
        }
    }

    // ------------------------------------------------------------------ a frame latch holder's death

    /**
     * Rebuilds a page from its data file and the log (single-page recovery); set by the
     * transaction manager. Without one (no log), a frame latch holder's death fails the
     * environment: the page may be half-changed and nothing could say how.
     */
    public interface PageRebuilder {
        /**
         * {@code page} (latched, its frame taken over from a dead holder) holds the page as its
         * data file has it: re-apply every logged change the file lacks.
         */
        void rebuild(Page page);
    }

    private volatile PageRebuilder rebuilder;

    /**
     * Sets (or, with null, clears) how pages are rebuilt after a frame latch holder died, and with
     * it this process's repair of frame latches: until it is set (while the environment opens)
     * failCheck here leaves a dead holder's frame to a process that has it.
     */
    public synchronized void rebuildPagesWith(PageRebuilder r) {
        if (r != null && rebuilder == null) {
            this.rebuilder = r;
            env.repairLatches(region, ft.frameLatches(), this::repairFrame);
        } else if (r == null && rebuilder != null) {
            env.forgetRepairs(region, ft.frameLatches());
            this.rebuilder = null;
        } else {
            this.rebuilder = r;
        }
    }

    /** Frames repaired in place after their latch holder died. */
    private final LongAdder framesRepaired = new LongAdder();

    public long framesRepaired() {
        return framesRepaired.sum();
    }

    /**
     * The repair of frame {@code f}'s latch, taken over from a dead holder. What the frame holds
     * then, by its state (a frame changes state only under its latch and, for entering or leaving
     * a hash chain, its partition latch too, whose holder's death this does not repair):
     * <ul>
     *   <li>FREE: an evictor had claimed it (out of every chain): nothing to do.</li>
     *   <li>LOADING: a reader was filling it: it leaves its chain and is freed, as after a failed
     *       read; whoever waited for it reads the page again.</li>
     *   <li>VALID: the holder may have been changing the page, writing it or reading it: its
     *       bytes are not trusted. The page is read from its data file again and every logged
     *       change since is re-applied ({@link PageRebuilder}). With write-ahead logging, every
     *       change to a page is logged before it is applied (or, for a structure change's image,
     *       under the same latch before it is released), so this gives the page as the log has
     *       it, which is what recovery would give; the dead transaction's own changes are then
     *       rolled back by failCheck like any other's. The dirty flag and oldest-change LSN stay
     *       (older is safe).</li>
     * </ul>
     * The frame's sequence is bumped across the repair so that optimistic readers of the old
     * bytes fail to validate.
     */
    /** Copies the bytes of frame {@code from}'s page that differ into frame {@code to}'s; returns how many. */
    private int copyDiffering(int from, int to) {
        long a = pageBase(from);
        long b = pageBase(to);
        int n = 0;
        for (int off = 0; off < pageSize; off += 8) {
            long v = mem.getLong(a + off);
            if (mem.getLong(b + off) != v) {
                mem.putLong(b + off, v); // aligned 8 bytes: a reader sees the old or the new value
                n += 8;
            }
        }
        return n;
    }

    private String repairFrame(int f, String dead) {
        long m = meta(f);
        ft.openSeqForRepair(f);
        try {
            int state = mem.getIntVolatile(m + FR_STATE);
            if (state == FREE) {
                return null;
            }
            int fileId = mem.getInt(m + FR_FILE);
            long pageNo = mem.getLong(m + FR_PAGE);
            int b = ft.bucket(fileId, pageNo);
            Latch pl = ft.partition(b);
            if (state == LOADING) {
                pl.acquire();
                try {
                    if (ft.find(b, fileId, pageNo) == f) {
                        ft.unlink(b, f);
                    }
                    mem.getAndAddLong(OFF_EVICTIONS, 1);
                    mem.putIntVolatile(m + FR_STATE, FREE);
                } finally {
                    pl.release();
                }
                LOG.info("frame {} (page {} of {}) was being read in by {}, who died; freed", f, pageNo,
                        describe(fileId), dead);
                return null;
            }
            PageRebuilder r = rebuilder;
            if (r == null) {
                return "page " + pageNo + " of " + describe(fileId) + " may be half-changed and there is no log to "
                        + "rebuild it from";
            }
            pl.acquire();
            try {
                if (ft.find(b, fileId, pageNo) != f) {
                    return "frame " + f + " is valid but not in the hash chain of page " + pageNo + " of "
                            + describe(fileId);
                }
            } finally {
                pl.release();
            }
            // Rebuilt in a scratch frame (free, in no chain: nobody sees it), then only the bytes
            // that differ are copied over: a holder that was writing the page out left it whole,
            // and readers holding a page lock (they read a pinned page without its latch) must
            // not see the file's older bytes while the log is re-applied.
            int s = clock.claim(); // latched, free, in no chain
            try {
                long sm = meta(s);
                mem.putLong(sm + FR_REC_LSN, Lsn.NULL);
                mem.putLong(sm + FR_FLUSH_LSN, Lsn.NULL);
                mem.putIntVolatile(sm + FR_DIRTY, 0);
                int valid = Math.max(mem.getInt(m + FR_VALID), load(s, fileId, pageNo));
                Page p = new Page(this, s, pageBase(s), mem, frameViews[s], fileId, pageNo, pageSize, valid);
                p.latched = true; // the scratch frame's latch is held; the view lives only for the rebuild
                long onDisk = p.lsn();
                r.rebuild(p);
                int changed = copyDiffering(s, f);
                if (mem.getIntVolatile(sm + FR_DIRTY) != 0) { // changes the file lacks: the frame is dirty
                    loggedChange(f, mem.getLong(sm + FR_REC_LSN), mem.getLong(sm + FR_FLUSH_LSN));
                }
                framesRepaired.increment();
                LOG.warn("page {} of {} rebuilt from its data file and the log after {} died holding its frame latch "
                        + "(page LSN {} on disk, {} rebuilt; {} bytes differed from the frame)", pageNo,
                        describe(fileId), dead, Lsn.toString(onDisk), Lsn.toString(p.lsn()), changed);
            } finally {
                mem.putIntVolatile(meta(s) + FR_DIRTY, 0);
                ft.unlatchFrame(s);
            }
            return null;
        } catch (RuntimeException e) {
            return e.toString();
        } finally {
            ft.closeSeqForRepair(f);
        }
    }

    void checkOpen() {
        if (closed) {
            throw new IllegalStateException("buffer manager of " + env.home() + " is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        rebuildPagesWith(null);
        env.forgetRepairs(region, ft.partitionLatches());
        env.removeFailCheckListener(listener);
        table.closeFiles();
    }

    @Override
    public String toString() {
        return "SharedBufferPool[" + env.home() + ", " + frames + " x " + pageSize + " B]";
    }
}
