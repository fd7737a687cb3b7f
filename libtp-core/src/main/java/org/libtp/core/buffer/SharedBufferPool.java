package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.LibTpException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.FailCheckListener;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogManager;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.Region;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageErrors;
import org.libtp.core.storage.StorageFile;
import org.libtp.core.sync.Latch;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
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
    /** Pages whose images a checkpoint logs before one log force, then writes. */
    static final int IMAGE_BATCH = 32;

    private final RegionEnvironment env;
    private final Storage storage;
    private final LogManager log;
    private final Layout lay;
    private final Memory mem;
    private final Latch registryLatch;
    private final Latch[] partLatches;
    private final Latch[] frameLatches;
    /** Per frame, a view of its page bytes (Memory.slice), or null: Page's fast path. */
    private final java.nio.ByteBuffer[] frameViews;
    private final int frames;
    private final int pageSize;
    private final long pinSlot;
    /** Log each page's image (forced) before writing it: recovery repairs torn writes from it. */
    private final boolean imagesBeforeWrites;
    private final LongAdder imagedWrites = new LongAdder();
    private final Map<Integer, StorageFile> files = new ConcurrentHashMap<>();
    private final ThreadLocal<byte[]> io;
    private final LongAdder hits = new LongAdder();
    private final LongAdder misses = new LongAdder();
    private final LongAdder reads = new LongAdder();
    private final LongAdder writes = new LongAdder();
    private final LongAdder evictions = new LongAdder();
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
        this.partLatches = new Latch[lay.partitions()];
        for (int i = 0; i < lay.partitions(); i++) {
            partLatches[i] = env.latch(region, lay.offPart() + (long) PART_STRIDE * i, "buffer hash partition " + i);
        }
        this.frameLatches = new Latch[frames];
        this.frameViews = new java.nio.ByteBuffer[frames];
        for (int i = 0; i < frames; i++) {
            frameLatches[i] = env.latch(region, lay.offFrame() + (long) FRAME * i + FR_LATCH, "buffer frame " + i);
        }
        for (int i = 0; i < frames; i++) {
            frameViews[i] = mem.slice(pageBase(i), pageSize); // built up front: safely published
        }
        this.pinSlot = OFF_PINS + (long) PIN_STRIDE * env.processSlot();
        this.io = ThreadLocal.withInitial(() -> new byte[pageSize]);
    }

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
        Region region = env.region(lay.spec());
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
                bp.loadRegistry();
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
        env.addFailCheckListener(bp.listener);
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

    // ------------------------------------------------------------------ file registry

    private long fileEntry(int fileId) {
        return lay.offFiles() + (long) FILE_ENTRY * (fileId - 1);
    }

    private void loadRegistry() {
        try {
            if (!storage.exists(FileRegistryCodec.FILE)) {
                List<String> orphans = DataFiles.withHeaders(storage);
                if (!orphans.isEmpty()) {
                    throw new CorruptionException("the file registry " + where(FileRegistryCodec.FILE) + " is missing "
                            + "but data files exist (" + String.join(", ", orphans) + "): log records name files by "
                            + "id, so they cannot be used without it. Rebuild it from the data files' headers "
                            + "(Environment.rebuildFileRegistry, org.libtp.db); nothing was changed");
                }
                return;
            }
            byte[] bytes;
            try (StorageFile f = storage.open(FileRegistryCodec.FILE, false)) {
                long size = f.size();
                if (size > 64L << 20) {
                    throw new CorruptionException(storage.directory().resolve(FileRegistryCodec.FILE)
                            + " is implausibly large (" + size + " bytes)");
                }
                bytes = new byte[(int) size];
                f.readFully(ByteBuffer.wrap(bytes), 0);
            }
            Map<Integer, String> reg;
            try {
                reg = FileRegistryCodec.decode(bytes, where(FileRegistryCodec.FILE));
            } catch (CorruptionException e) {
                throw new CorruptionException(e.getMessage() + "; or rebuild it from the data files' headers "
                        + "(Environment.rebuildFileRegistry, org.libtp.db). Nothing was changed", e);
            }
            for (Map.Entry<Integer, String> e : reg.entrySet()) {
                int id = e.getKey();
                if (id < 1 || id > lay.maxFiles()) {
                    throw new IllegalArgumentException("the file registry of " + env.home() + " uses file id " + id
                            + " but BufferConfig.maxFiles is " + lay.maxFiles() + "; raise it");
                }
                writeEntry(id, e.getValue());
            }
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot read the file registry of " + env.home() + ": " + e, e);
        }
    }

    private void writeEntry(int id, String name) throws IOException {
        long at = fileEntry(id);
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        long pages;
        if (!storage.exists(name)) {
            throw new CorruptionException("data file " + where(name) + " is registered in " + FileRegistryCodec.FILE
                    + " as file id " + id + " but is missing: restore it from a backup (its database cannot be read "
                    + "without it); nothing was changed");
        }
        try (StorageFile f = storage.open(name, false)) {
            checkHeader(f, name, id);
            pages = Math.max(0, (f.size() - pageSize + pageSize - 1) / pageSize);
        }
        mem.putInt(at + F_NAME_LEN, n.length);
        mem.putBytes(at + F_NAME, n, 0, n.length);
        mem.putLongVolatile(at + F_PAGES, pages);
        mem.putIntVolatile(at + F_NEEDS_FORCE, 0);
        mem.putIntVolatile(at + F_STATE, 1);
    }

    /**
     * The generation of file {@code fileId}: raised by {@link #raiseGeneration} whenever what
     * the file is known as changes (its database removed or renamed), so a handle that cached it
     * notices with one shared read. Not durable: handles do not outlive the regions.
     */
    public long generation(int fileId) {
        checkFile(fileId);
        return mem.getLongVolatile(fileEntry(fileId) + F_GENERATION);
    }

    /** Raises the generation of file {@code fileId} (see {@link #generation}). */
    public void raiseGeneration(int fileId) {
        checkFile(fileId);
        mem.getAndAddLong(fileEntry(fileId) + F_GENERATION, 1);
    }

    @Override
    public String describe(int fileId) {
        if (fileId >= 1 && fileId <= lay.maxFiles() && mem.getIntVolatile(fileEntry(fileId) + F_STATE) == 1) {
            return "data file " + nameAt(fileId) + " (file id " + fileId + ") in " + env.home();
        }
        return "file id " + fileId + " in " + env.home();
    }

    private String where(String name) {
        return storage.directory().resolve(name).toString();
    }

    /**
     * Checks the header page of data file {@code f}: a LibTP data file of this environment,
     * registered as {@code id}, with this pool's page size.
     */
    private void checkHeader(StorageFile f, String name, int id) throws IOException {
        byte[] h = new byte[DataFileHeader.SIZE];
        if (f.size() < DataFileHeader.SIZE) {
            throw new CorruptionException("data file " + where(name) + " is " + f.size() + " bytes, shorter than its "
                    + "header: it was cut short; restore it from a backup");
        }
        f.readFully(ByteBuffer.wrap(h), 0);
        DataFileHeader dh = DataFileHeader.decode(where(name), h);
        long envId = log == null ? 0 : log.environmentId();
        if (envId != 0 && dh.envId() != envId) {
            throw new CorruptionException("data file " + where(name) + " belongs to another environment (id "
                    + Long.toHexString(dh.envId()) + ", this one " + Long.toHexString(envId) + "): it was copied from "
                    + "elsewhere. Restore this environment's file, or adopt the file: Environment.rebuildFileRegistry "
                    + "then Environment.resetLog (org.libtp.db)");
        }
        if (dh.fileId() != id || !dh.name().equals(name)) {
            throw new CorruptionException("data file " + where(name) + " says it is file id " + dh.fileId() + " '"
                    + dh.name() + "', but " + FileRegistryCodec.FILE + " registers it as file id " + id
                    + ": the registry or the file was replaced. Rebuild the registry from the data files' headers "
                    + "(Environment.rebuildFileRegistry, org.libtp.db) or restore from a backup");
        }
        if (dh.pageSize() != pageSize) {
            throw new CorruptionException("data file " + where(name) + " has " + dh.pageSize() + "-byte pages, but the "
                    + "environment's buffer pool uses " + pageSize + "-byte pages; open the environment with page size "
                    + dh.pageSize());
        }
    }

    @Override
    public int open(String name) {
        checkOpen();
        checkName(name);
        env.checkValid();
        int id = fileId(name);
        if (id > 0) {
            return id;
        }
        registryLatch.acquire();
        try {
            id = fileId(name);
            if (id > 0) {
                return id;
            }
            int free = -1;
            for (int i = 1; i <= lay.maxFiles() && free < 0; i++) {
                if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 0) {
                    free = i;
                }
            }
            if (free < 0) {
                throw new CapacityExceededException("the file registry of " + env.home() + " is full ("
                        + lay.maxFiles() + " files); raise BufferConfig.maxFiles");
            }
            Map<Integer, String> all = registered();
            all.put(free, name);
            try {
                try (StorageFile f = storage.open(name, true)) {
                    // The header first, forced; its directory entry is made durable with the registry's.
                    // A file with at most a header is a registration a crash cut short: taken over.
                    if (f.size() > pageSize) {
                        throw new CorruptionException("data file " + where(name) + " exists but is not registered in "
                                + FileRegistryCodec.FILE + ": the registry lost it. Rebuild the registry from the data "
                                + "files' headers (Environment.rebuildFileRegistry, org.libtp.db); nothing was changed");
                    }
                    long envId = log == null ? 0 : log.environmentId();
                    f.write(new DataFileHeader(pageSize, envId, free, name, System.currentTimeMillis()).encode(), 0);
                    f.force();
                }
                storage.replaceFile(FileRegistryCodec.FILE, FileRegistryCodec.encode(all));
                writeEntry(free, name);
            } catch (IOException e) {
                if (StorageErrors.isNoSpace(e)) {
                    throw new OutOfSpaceException("no space to register data file " + name + " in " + env.home()
                            + " (" + e.getMessage() + "): nothing was registered; free space on that file system "
                            + "and retry", e);
                }
                throw new EnvironmentAccessException("cannot register data file " + name + " in " + env.home()
                        + ": " + e, e);
            }
            LOG.debug("registered data file {} as file id {} in {}", name, free, env.home());
            return free;
        } finally {
            registryLatch.release();
        }
    }

    private static void checkName(String name) {
        // '+' is allowed here but not in database names: the catalog uses it for the new file of
        // a re-created database, which then cannot clash with another database's file.
        if (name == null || name.isEmpty() || !name.matches("[A-Za-z0-9_.+-]+")
                || name.getBytes(StandardCharsets.UTF_8).length > MAX_NAME
                || name.startsWith("__libtp") || name.startsWith("log.") || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("data file name '" + name + "' must be 1.." + MAX_NAME
                    + " characters of [A-Za-z0-9_.+-], not '.', '..', nor start with '__libtp' or 'log.'");
        }
    }

    /** Names of the registered data files. */
    public List<String> registeredNames() {
        checkOpen();
        return new java.util.ArrayList<>(registered().values());
    }

    private Map<Integer, String> registered() {
        Map<Integer, String> out = new TreeMap<>();
        for (int i = 1; i <= lay.maxFiles(); i++) {
            if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 1) {
                out.put(i, nameAt(i));
            }
        }
        return out;
    }

    private String nameAt(int id) {
        long at = fileEntry(id);
        int len = mem.getInt(at + F_NAME_LEN);
        if (len < 0 || len > MAX_NAME) {
            throw new CorruptionException("buffer region of " + env.home() + ": file entry " + id + " has name length " + len);
        }
        byte[] b = new byte[len];
        mem.getBytes(at + F_NAME, b, 0, len);
        return new String(b, StandardCharsets.UTF_8);
    }

    @Override
    public int fileId(String name) {
        checkOpen();
        checkName(name);
        for (int i = 1; i <= lay.maxFiles(); i++) {
            if (mem.getIntVolatile(fileEntry(i) + F_STATE) == 1 && nameAt(i).equals(name)) {
                return i;
            }
        }
        return -1;
    }

    @Override
    public String fileName(int fileId) {
        checkOpen();
        checkFile(fileId);
        return nameAt(fileId);
    }

    private void checkFile(int fileId) {
        if (fileId < 1 || fileId > lay.maxFiles() || mem.getIntVolatile(fileEntry(fileId) + F_STATE) != 1) {
            throw new IllegalArgumentException("file id " + fileId + " is not registered in " + env.home()
                    + "; open the file first");
        }
    }

    private StorageFile file(int fileId) {
        StorageFile f = files.get(fileId);
        if (f != null) {
            return f;
        }
        return files.computeIfAbsent(fileId, id -> {
            try {
                return storage.open(nameAt(id), false);
            } catch (IOException e) {
                throw new EnvironmentAccessException("cannot open data file " + nameAt(id) + " in " + env.home()
                        + ": " + e, e);
            }
        });
    }

    @Override
    public long pageCount(int fileId) {
        checkOpen();
        checkFile(fileId);
        return mem.getLongVolatile(fileEntry(fileId) + F_PAGES);
    }

    private void extendTo(int fileId, long pages) {
        long at = fileEntry(fileId) + F_PAGES;
        while (true) {
            long n = mem.getLongVolatile(at);
            if (n >= pages || mem.compareAndSetLong(at, n, pages)) {
                return;
            }
        }
    }

    // ------------------------------------------------------------------ frames and the hash table

    private long meta(int f) {
        return lay.offFrame() + (long) FRAME * f;
    }

    long pageBase(int f) {
        return lay.offPages() + (long) pageSize * f;
    }

    Latch frameLatch(int f) {
        return frameLatches[f];
    }

    private int bucket(int fileId, long pageNo) {
        long h = (pageNo * 0x9E3779B97F4A7C15L) ^ ((long) fileId * 0xC2B2AE3D27D4EB4FL);
        h ^= h >>> 29;
        return (int) h & (lay.buckets() - 1);
    }

    private Latch partition(int bucket) {
        return partLatches[bucket & (lay.partitions() - 1)];
    }

    private long bucketAt(int bucket) {
        return lay.offBucket() + 4L * bucket;
    }

    /** Under the bucket's partition latch: the frame holding the page, or -1. */
    private int find(int bucket, int fileId, long pageNo) {
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

    private void link(int bucket, int f) {
        mem.putInt(meta(f) + FR_NEXT, mem.getInt(bucketAt(bucket)));
        mem.putInt(bucketAt(bucket), f + 1);
    }

    private void unlink(int bucket, int f) {
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

    private void pin(int f) {
        mem.getAndAddInt(meta(f) + FR_PINS, 1);
        mem.getAndAddLong(pinSlot, 1);
    }

    private void unpinFrame(int f) {
        int was = mem.getAndAddInt(meta(f) + FR_PINS, -1);
        mem.getAndAddLong(pinSlot, -1);
        if (was <= 0) {
            throw env.fail("buffer region of " + env.home() + ": frame " + f + " unpinned with pin count " + was);
        }
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
        int b = bucket(fileId, pageNo);
        Latch pl = partition(b);
        while (true) {
            int f;
            pl.acquire();
            try {
                f = find(b, fileId, pageNo);
                if (f >= 0) {
                    pin(f);
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
                    frameLatches[f].acquire();
                    frameLatches[f].release();
                    if (mem.getIntVolatile(m + FR_STATE) != VALID) {
                        unpinFrame(f); // its read failed; try (and fail) ourselves
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
            int v = claimFrame(); // frame latch held, free, in no chain
            long m = meta(v);
            boolean raced;
            pl.acquire();
            try {
                raced = find(b, fileId, pageNo) >= 0;
                if (!raced) {
                    mem.putInt(m + FR_FILE, fileId);
                    mem.putLong(m + FR_PAGE, pageNo);
                    mem.putLong(m + FR_REC_LSN, Lsn.NULL);
                    mem.putLong(m + FR_FLUSH_LSN, Lsn.NULL);
                    mem.putIntVolatile(m + FR_DIRTY, 0);
                    mem.putIntVolatile(m + FR_REF, 1);
                    mem.putIntVolatile(m + FR_STATE, LOADING);
                    pin(v);
                    link(b, v);
                }
            } finally {
                pl.release();
            }
            if (raced) {
                frameLatches[v].release();
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
                    unlink(b, v);
                    mem.getAndAddLong(OFF_EVICTIONS, 1);
                    mem.putIntVolatile(m + FR_STATE, FREE);
                } finally {
                    pl.release();
                }
                unpinFrame(v);
                frameLatches[v].release();
                throw e;
            }
            mem.putInt(m + FR_VALID, valid);
            mem.putIntVolatile(m + FR_STATE, VALID);
            frameLatches[v].release();
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
        int n = read(fileId, first, buf, "pages " + first + ".." + (end - 1));
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
        int b = bucket(fileId, pageNo);
        Latch pl = partition(b);
        pl.acquire();
        try {
            return find(b, fileId, pageNo) >= 0;
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
            Latch fl = frameLatches[f];
            if (!fl.tryAcquire()) {
                continue;
            }
            if (mem.getIntVolatile(m + FR_STATE) == FREE && mem.getIntVolatile(m + FR_PINS) == 0) {
                return f;
            }
            fl.release();
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
            int b = bucket(fileId, pageNo);
            Latch pl = partition(b);
            pl.acquire();
            try {
                if (mem.getLongVolatile(OFF_EVICTIONS) != evictions) {
                    ok = false;
                } else if (find(b, fileId, pageNo) < 0) {
                    mem.putInt(m + FR_FILE, fileId);
                    mem.putLong(m + FR_PAGE, pageNo);
                    mem.putLong(m + FR_REC_LSN, Lsn.NULL);
                    mem.putLong(m + FR_FLUSH_LSN, Lsn.NULL);
                    mem.putIntVolatile(m + FR_DIRTY, 0);
                    mem.putIntVolatile(m + FR_REF, 0); // the first to go if nobody asks for it
                    mem.putInt(m + FR_VALID, pageSize);
                    mem.putIntVolatile(m + FR_STATE, VALID);
                    link(b, v);
                    reads.increment();
                }
            } finally {
                pl.release();
            }
        } finally {
            frameLatches[v].release();
        }
        return ok;
    }

    /** Reads the page into frame {@code f} (latch held); returns the bytes read. */
    private int load(int f, int fileId, long pageNo) {
        byte[] buf = io.get();
        int n = read(fileId, pageNo, buf, "page " + pageNo);
        place(f, fileId, pageNo, buf, n);
        return n;
    }

    /** Reads {@code buf.length} bytes from page {@code firstPage} on, short at end of file; returns the bytes read. */
    private int read(int fileId, long firstPage, byte[] buf, String what) {
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
            throw new EnvironmentAccessException("cannot read " + what + " of " + nameAt(fileId) + " in "
                    + env.home() + ": " + e, e);
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
                + "the data files' LSNs and start a new log (org.libtp.db.Environment.resetLog)";
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
        if (page.latched) {
            throw new IllegalStateException("unlatch " + page + " before unpinning it");
        }
        page.pinned = false;
        if (dirty) {
            mem.putIntVolatile(meta(page.frame) + FR_DIRTY, 1);
        }
        unpinFrame(page.frame);
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

    // ------------------------------------------------------------------ replacement (CLOCK)

    /**
     * Finds a frame to reuse and returns it free, out of every hash chain, with its latch held.
     * CLOCK (second chance): a hit only sets the frame's reference bit, so the hit path touches
     * no shared list; the sweep clears bits and takes the first unpinned frame whose bit is
     * clear. A dirty victim is written first, by this process, after the log is forced to its
     * flush LSN.
     */
    private int claimFrame() {
        long limit = 4L * frames;
        LibTpException writeFailed = null;
        for (long n = 0; n < limit; n++) {
            int f = (int) Long.remainderUnsigned(mem.getAndAddLong(OFF_CLOCK, 1), frames);
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_PINS) != 0) {
                continue;
            }
            if (mem.getIntVolatile(m + FR_REF) != 0) {
                mem.putIntVolatile(m + FR_REF, 0);
                continue;
            }
            if (imagesBeforeWrites && mem.getIntVolatile(m + FR_DIRTY) != 0) {
                // A dirty victim: write it and the next cold dirty frames the sweep will reach,
                // their images logged at one force for all, rather than one force per eviction.
                try {
                    cleanAhead(f);
                } catch (OutOfSpaceException e) {
                    // the victim's own write below may still use the log's reserve
                }
            } else if (log != null && mem.getIntVolatile(m + FR_DIRTY) != 0) {
                // The write-ahead force, before the frame latch rather than under it: a process
                // killed inside a frame latch fails the environment, and a force is where a
                // writer spends its time. write() checks again under the latch.
                long flushTo = mem.getLongVolatile(m + FR_FLUSH_LSN);
                if (flushTo > log.flushedLsn()) {
                    log.flush(flushTo, Durability.SYNC);
                }
            }
            Latch fl = frameLatches[f];
            if (!fl.tryAcquire()) {
                continue;
            }
            boolean keep = false;
            try {
                int state = mem.getIntVolatile(m + FR_STATE);
                if (state == FREE) {
                    if (mem.getIntVolatile(m + FR_PINS) == 0) {
                        keep = true;
                        return f;
                    }
                    continue;
                }
                if (state != VALID || mem.getIntVolatile(m + FR_PINS) != 0) {
                    continue;
                }
                if (mem.getIntVolatile(m + FR_DIRTY) != 0) {
                    try {
                        write(f);
                    } catch (OutOfSpaceException | EnvironmentAccessException e) {
                        // It stays dirty; a clean frame elsewhere may still do (a full disk
                        // then only stops what needs a dirty page written).
                        if (writeFailed == null) {
                            writeFailed = e;
                        }
                        continue;
                    }
                }
                int fileId = mem.getInt(m + FR_FILE);
                int b = bucket(fileId, mem.getLong(m + FR_PAGE));
                Latch pl = partition(b);
                pl.acquire();
                try {
                    // Pins are taken under the partition latch: none can come after this check.
                    if (mem.getIntVolatile(m + FR_PINS) != 0 || mem.getIntVolatile(m + FR_DIRTY) != 0) {
                        continue;
                    }
                    unlink(b, f);
                    mem.getAndAddLong(OFF_EVICTIONS, 1);
                    mem.putIntVolatile(m + FR_STATE, FREE);
                } finally {
                    pl.release();
                }
                evictions.increment();
                keep = true;
                return f;
            } finally {
                if (!keep) {
                    fl.release();
                }
            }
        }
        if (writeFailed != null) {
            throw writeFailed; // every frame that could go was dirty and could not be written
        }
        throw new CapacityExceededException("the buffer pool of " + env.home() + " has no frame to reuse: all "
                + frames + " frames are pinned or busy; unpin pages, or raise BufferConfig.poolBytes");
    }

    /** The log this pool writes ahead to (null without logging). */
    public LogManager log() {
        return log;
    }

    private RuntimeException writeFailure(IOException e, int fileId, long pageNo) {
        if (StorageErrors.isNoSpace(e)) {
            long free = StorageErrors.usableSpace(env.home());
            return new OutOfSpaceException("no space to write page " + pageNo + " of data file " + nameAt(fileId)
                    + " in " + env.home() + " (" + e.getMessage() + "; " + (free < 0 ? "free space unknown"
                    : free + " bytes free") + "): the page stays in the buffer pool; abort the transaction, free "
                    + "space on that file system and retry", e);
        }
        return new EnvironmentAccessException("cannot write page " + pageNo + " of " + nameAt(fileId) + " in "
                + env.home() + ": " + e, e);
    }

    /**
     * Pages of this process whose image was logged (and forced) but whose write failed, by
     * (file id, page): the sealed copy that was imaged. Empty but while writes fail.
     */
    private final Map<Long, byte[]> imagedNotWritten = new java.util.concurrent.ConcurrentHashMap<>();
    /** A length each data file is known to have reached (this process saw it or wrote it), by file id. */
    private final Map<Integer, Long> knownLength = new java.util.concurrent.ConcurrentHashMap<>();

    /** Writes frame {@code f} (latch held, valid, dirty) to its file: the log first. */
    private void write(int f) {
        writeFrame(f, null, true);
    }

    /**
     * Writes frame {@code f} (latch held, valid, dirty) to its file: the log first. With
     * torn-write protection the page's image is logged and forced before the write, unless it is
     * {@code imaged} (a copy whose image the log holds, forced); {@code mayUseReserve}: that
     * image may use the log's end-of-file reserve (an eviction an abort may depend on).
     */
    private void writeFrame(int f, byte[] imaged, boolean mayUseReserve) {
        long m = meta(f);
        int fileId = mem.getInt(m + FR_FILE);
        long pageNo = mem.getLong(m + FR_PAGE);
        long flushTo = mem.getLong(m + FR_FLUSH_LSN);
        if (log != null && flushTo != Lsn.NULL && !imagesBeforeWrites) {
            log.flush(flushTo, Durability.SYNC); // the write-ahead rule (the image's force covers it)
        }
        byte[] buf = io.get();
        mem.putIntVolatile(m + FR_DIRTY, 0); // before the copy: a change after it re-dirties
        mem.getBytes(pageBase(f), buf, 0, pageSize);
        PageHeader.seal(buf, pageSize, pageNo);
        long pageKey = (long) fileId << 40 | pageNo;
        byte[] known = imaged != null ? imaged : imagedNotWritten.get(pageKey);
        if (imagesBeforeWrites && !java.util.Arrays.equals(buf, known)) {
            // A page past the file's end needs new blocks: get them (zeros: a page never written)
            // before its image goes to the log, so that a full disk refuses the write before it
            // has used log space (evictions may use the log's reserve, which a full disk would
            // otherwise drain one image per failed write).
            try {
                long at = (pageNo + 1) * pageSize;
                Long reached = knownLength.get(fileId); // files never shrink: no size call below it
                if (reached == null || reached < at + pageSize) {
                    StorageFile sf = file(fileId);
                    long size = sf.size();
                    if (size < at + pageSize) {
                        sf.write(ByteBuffer.allocate(pageSize), at);
                        size = at + pageSize;
                    }
                    knownLength.merge(fileId, size, Math::max);
                }
            } catch (IOException e) {
                mem.putIntVolatile(m + FR_DIRTY, 1);
                throw writeFailure(e, fileId, pageNo);
            }
            try {
                // The image follows every change of the page in the log: its force is also the
                // write-ahead force.
                log.flush(logImage(fileId, pageNo, buf, mayUseReserve), Durability.SYNC);
            } catch (RuntimeException e) {
                mem.putIntVolatile(m + FR_DIRTY, 1); // not written: stays dirty
                throw e;
            }
        }
        try {
            file(fileId).write(ByteBuffer.wrap(buf), (pageNo + 1) * pageSize); // after the header page
            imagedNotWritten.remove(pageKey);
        } catch (IOException e) {
            // The page stays dirty in the pool: written again later, nothing is lost. Its image
            // is in the log already: a retry of the same content logs none again (while a disk
            // stays full, evictions retrying one page would otherwise eat the log's reserve).
            if (imagesBeforeWrites) {
                imagedNotWritten.put(pageKey, buf.clone());
            }
            mem.putIntVolatile(m + FR_DIRTY, 1);
            throw writeFailure(e, fileId, pageNo);
        }
        mem.putLongVolatile(m + FR_REC_LSN, Lsn.NULL);
        mem.putIntVolatile(fileEntry(fileId) + F_NEEDS_FORCE, 1);
        writes.increment();
    }

    /** Appends (does not force) the image of a sealed page about to be written; returns the record's end. */
    private long logImage(int fileId, long pageNo, byte[] sealed, boolean mayUseReserve) {
        byte[] payload = LogRecords.encode(new LogRecord.PageWrite(fileId, pageNo, sealed));
        long lsn = log.append(RecordType.PAGE_WRITE.id(), 0, Lsn.NULL, payload, mayUseReserve);
        imagedWrites.increment();
        return lsn + org.libtp.core.log.LogRecordCodec.HEADER_SIZE + payload.length;
    }

    /**
     * Recovery, before redo: if page {@code pageNo} of {@code fileId} on disk fails its check or
     * is missing or cut short (a write torn or lost by power loss), rewrites it from {@code image} (the newest logged copy, at LSN
     * {@code imageLsn}) and forces the file. Redo then goes on from the copy's page LSN. True if
     * the page was rewritten. A file no longer registered is skipped.
     */
    public boolean repairTorn(int fileId, long pageNo, byte[] image, long imageLsn) {
        checkOpen();
        if (fileId < 1 || fileId > lay.maxFiles() || mem.getIntVolatile(fileEntry(fileId) + F_STATE) != 1
                || image.length != pageSize) {
            return false;
        }
        byte[] buf = new byte[pageSize];
        int n = read(fileId, pageNo, buf, "page " + pageNo);
        java.util.Arrays.fill(buf, n, pageSize, (byte) 0);
        String why = n < pageSize ? (n == 0 ? "missing" : "cut short at " + n + " bytes")
                : PageHeader.check(buf, pageSize, pageNo);
        if (why == null) {
            return false; // intact (maybe older than the image: redo brings it forward)
        }
        try {
            StorageFile file = file(fileId);
            file.write(ByteBuffer.wrap(image), (pageNo + 1) * pageSize);
            file.force();
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot rewrite torn page " + pageNo + " of " + nameAt(fileId) + " in "
                    + env.home() + ": " + e, e);
        }
        LOG.warn("page {} of data file {} in {} failed its check ({}: a write torn by a crash, or damage since); "
                + "rewritten from its image logged at {}", pageNo, nameAt(fileId), env.home(), why, Lsn.toString(imageLsn));
        return true;
    }

    // ------------------------------------------------------------------ flush, sync, checkpoint

    @Override
    public void flush(int fileId) {
        checkOpen();
        checkFile(fileId);
        env.checkValid();
        writeDirty(fileId, Long.MAX_VALUE);
        force(fileId);
    }

    @Override
    public void sync() {
        checkOpen();
        env.checkValid();
        writeDirty(0, Long.MAX_VALUE);
        forceAll();
    }

    /**
     * Writes the dirty pages of {@code fileId} (0 = all files) whose oldest unwritten change is
     * before {@code before} (pages changed without logging always), one frame latch at a time.
     */
    private void writeDirty(int fileId, long before) {
        // One pass finds the candidates (and the newest change among them), the next writes
        // only those: a pool of 64k frames is not walked twice per checkpoint.
        int[] found = new int[64];
        int n = 0;
        long upTo = Lsn.NULL;
        for (int f = 0; f < frames; f++) {
            if (toWrite(f, fileId, before)) {
                if (n == found.length) {
                    found = java.util.Arrays.copyOf(found, n * 2);
                }
                found[n++] = f;
                upTo = Math.max(upTo, mem.getLongVolatile(meta(f) + FR_FLUSH_LSN));
            }
        }
        if (imagesBeforeWrites) {
            for (int k = 0; k < n; k += IMAGE_BATCH) {
                writeImaged(found, k, Math.min(n, k + IMAGE_BATCH), fileId);
            }
            return;
        }
        // One write-ahead force up front, to the newest change of the pages to be written,
        // rather than one per frame under its latch (and none if nothing needs it). A frame
        // changed since is forced for again by write() itself.
        if (log != null && upTo > log.flushedLsn()) {
            log.flush(upTo, Durability.SYNC);
        }
        for (int k = 0; k < n; k++) {
            int f = found[k];
            frameLatches[f].acquire();
            try {
                if (stillToWrite(f, fileId)) {
                    write(f);
                }
            } finally {
                frameLatches[f].release();
            }
        }
    }

    /**
     * Writes frames {@code found[from..to)} with torn-write protection at one log force for all:
     * each page's image is logged under its latch, the log forced once, then each page written
     * under its latch again if it still equals its logged image (else with an image of its own).
     */
    private void writeImaged(int[] found, int from, int to, int fileId) {
        writeImaged(found, from, to, fileId, false);
    }

    /**
     * Cleans the cold dirty frames from {@code victim} on in clock order (the victim first, at
     * most {@link #IMAGE_BATCH}, looking at no more than four times as many): each unpinned,
     * valid, dirty frame whose reference bit is clear. Latches are only tried: the caller may
     * hold a page latch (a B-tree descent), so waiting for another could deadlock.
     */
    private void cleanAhead(int victim) {
        int[] batch = new int[IMAGE_BATCH];
        int n = 0;
        for (int i = 0, look = Math.min(4 * IMAGE_BATCH, frames); i < look && n < IMAGE_BATCH; i++) { // each frame once
            int f = (victim + i) % frames;
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_DIRTY) != 0 && mem.getIntVolatile(m + FR_STATE) == VALID
                    && mem.getIntVolatile(m + FR_PINS) == 0 && (f == victim || mem.getIntVolatile(m + FR_REF) == 0)) {
                batch[n++] = f;
            }
        }
        writeImaged(batch, 0, n, 0, true);
    }

    /** As above; {@code tryOnly}: frames whose latch is busy are skipped instead of waited for. */
    private void writeImaged(int[] found, int from, int to, int fileId, boolean tryOnly) {
        byte[][] imaged = new byte[to - from][];
        long upTo = Lsn.NULL;
        for (int k = from; k < to; k++) {
            int f = found[k];
            if (tryOnly) {
                if (!frameLatches[f].tryAcquire()) {
                    continue;
                }
            } else {
                frameLatches[f].acquire();
            }
            try {
                if (stillToWrite(f, fileId)) {
                    byte[] copy = new byte[pageSize];
                    mem.getBytes(pageBase(f), copy, 0, pageSize);
                    long pageNo = mem.getLong(meta(f) + FR_PAGE);
                    PageHeader.seal(copy, pageSize, pageNo);
                    upTo = Math.max(upTo, logImage(mem.getInt(meta(f) + FR_FILE), pageNo, copy, false));
                    imaged[k - from] = copy;
                }
            } finally {
                frameLatches[f].release();
            }
        }
        if (upTo > log.flushedLsn()) {
            log.flush(upTo, Durability.SYNC);
        }
        for (int k = from; k < to; k++) {
            int f = found[k];
            if (tryOnly) {
                if (imaged[k - from] == null || !frameLatches[f].tryAcquire()) {
                    continue; // busy: written later (an image without its write is harmless)
                }
            } else {
                frameLatches[f].acquire();
            }
            try {
                if (stillToWrite(f, fileId)) {
                    writeFrame(f, imaged[k - from], false);
                }
            } finally {
                frameLatches[f].release();
            }
        }
    }

    private boolean stillToWrite(int f, int fileId) {
        long m = meta(f);
        return mem.getIntVolatile(m + FR_DIRTY) != 0 && mem.getIntVolatile(m + FR_STATE) == VALID
                && (fileId == 0 || mem.getInt(m + FR_FILE) == fileId);
    }

    private boolean toWrite(int f, int fileId, long before) {
        long m = meta(f);
        if (mem.getIntVolatile(m + FR_DIRTY) == 0 || mem.getIntVolatile(m + FR_STATE) != VALID
                || fileId != 0 && mem.getInt(m + FR_FILE) != fileId) {
            return false;
        }
        long rec = mem.getLongVolatile(m + FR_REC_LSN);
        return rec == Lsn.NULL || rec < before;
    }

    private void force(int fileId) {
        long at = fileEntry(fileId) + F_NEEDS_FORCE;
        if (mem.getIntVolatile(at) == 0) {
            return;
        }
        mem.putIntVolatile(at, 0); // before the force: a write after it sets it again
        try {
            file(fileId).force();
        } catch (IOException e) {
            // fsyncgate: the kernel may have dropped the pages; a retry proves nothing.
            throw env.fail("force of data file " + nameAt(fileId) + " in " + env.home() + " failed: " + e);
        }
    }

    private void forceAll() {
        for (int id = 1; id <= lay.maxFiles(); id++) {
            if (mem.getIntVolatile(fileEntry(id) + F_STATE) == 1) {
                force(id);
            }
        }
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
        checkOpen();
        writeDirty(0, writeBefore);
        List<LogRecord.DirtyPage> table = dirtyPageTable();
        if (table.size() > maxEntries) {
            table.sort(Comparator.comparingLong(LogRecord.DirtyPage::recLsn));
            long cut = table.get(table.size() - maxEntries).recLsn();
            writeDirty(0, cut);
            table = dirtyPageTable();
        }
        forceAll();
        return table;
    }

    /** Dirty frames with their recLsn, each read under its latch (see the package note). */
    List<LogRecord.DirtyPage> dirtyPageTable() {
        List<LogRecord.DirtyPage> out = new ArrayList<>();
        for (int f = 0; f < frames; f++) {
            long m = meta(f);
            if (mem.getIntVolatile(m + FR_STATE) == FREE) {
                continue;
            }
            frameLatches[f].acquire();
            try {
                long rec = mem.getLong(m + FR_REC_LSN);
                if (mem.getIntVolatile(m + FR_STATE) == VALID && mem.getIntVolatile(m + FR_DIRTY) != 0
                        && rec != Lsn.NULL) {
                    out.add(new LogRecord.DirtyPage(mem.getInt(m + FR_FILE), mem.getLong(m + FR_PAGE), rec));
                }
            } finally {
                frameLatches[f].release();
            }
        }
        return out;
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
        return new BufferStats(hits.sum(), misses.sum(), reads.sum(), writes.sum(), evictions.sum(), frames, dirty, pinned,
                imagedWrites.sum());
    }

    RegionEnvironment environment() {
        return env;
    }

    // ------------------------------------------------------------------ dead processes

    private void failCheck(int[] deadSlots) {
        for (int s : deadSlots) {
            long at = OFF_PINS + (long) PIN_STRIDE * s;
            long pins = mem.getLongVolatile(at);
            if (pins != 0) {
                // Which frames it pinned is not recorded (that would cost the hit path): they
                // could never be reused, and it may have been changing one. As Berkeley DB does.
                throw new IllegalStateException("process slot " + s + " died with " + pins
                        + " buffer pages pinned; run recovery (reopen the environment)");
            }
        }
    }

    private void checkOpen() {
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
        env.removeFailCheckListener(listener);
        for (StorageFile f : files.values()) {
            try {
                f.close();
            } catch (IOException e) {
                LOG.warn("closing data file {} of {}: {}", f.name(), env.home(), e.toString());
            }
        }
        files.clear();
    }

    @Override
    public String toString() {
        return "SharedBufferPool[" + env.home() + ", " + frames + " x " + pageSize + " B]";
    }
}
