package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.PageHeader;
import org.libtp.core.lock.LockMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

import static org.libtp.btree.BtreeMeta.OFF_FREE_HEAD;
import static org.libtp.btree.BtreeMeta.OFF_FREE_NEXT;
import static org.libtp.btree.BtreeMeta.OFF_FREE_WATERMARK;
import static org.libtp.btree.BtreeMeta.OFF_ORDER;
import static org.libtp.btree.BtreeOverflow.INLINE;
import static org.libtp.btree.BtreeOverflow.OVERFLOW;
import static org.libtp.btree.BtreeOverflow.overflowPage;

/**
 * A B-link tree (Lehman and Yao; paper 3.1.2) on buffer-pool pages of one file: page 0 is the
 * meta page, page 1 the root (it never moves: a root split moves its entries to two new pages).
 *
 * <p>Locking, with a {@link Protection} that locks (TP): internal pages are read under their
 * page latch and not locked (Lehman and Yao's reader, see {@link #findLeaf}); a search whose key
 * is above a page's high key moves right; leaf locks are taken before the leaf is read and stay
 * until the transaction ends; a split finds the parent again from the root by the separator
 * ({@code findLevel}: each page READ-locked while it is read, one at a time, moving right), WRITE-
 * locks it for its update and releases that lock right after it. Changes are made under the page
 * latch. Logging ({@link BtreeLog}): leaf inserts and deletes logically; split pages and internal
 * updates as redo-only images, never rolled back.
 */
final class Btree {
    static final long META_PAGE = 0;
    static final long ROOT = 1;

    final BufferManager bm;
    final int file;
    final Comparator<byte[]> cmp;
    final int maxEntry;
    final int maxKey;
    /** The key order's registered name, null for unsigned bytes; recorded in the meta page. */
    final String orderName;

    /** The drain rule's transaction ids (see {@link #free}). */
    final Epochs epochs;
    /** Unlinks emptied leaves (its own room). */
    private final BtreeReclaim reclaimer = new BtreeReclaim(this);
    /** Cursor reads and scans (their own room). */
    private final BtreeNavigation nav = new BtreeNavigation(this);
    /** Leaf and internal splits, separator posting, root splits (their own room). */
    private final BtreeSplit splitter = new BtreeSplit(this);
    /** Values inline or in overflow chains (their own room and page format). */
    private final BtreeOverflow overflow = new BtreeOverflow(this);
    /** The highest {@link Epochs#oldestActive()} seen: it only grows, so no need to ask again below it. */
    private volatile long horizonSeen;

    // The meta and free page formats: BtreeMeta.

    /** Transaction ids for the drain rule of freed pages. */
    interface Epochs {
        /** The id the next transaction will get. */
        long nextId();

        /** Every transaction with a smaller id has ended. */
        long oldestActive();

        /** Nothing known (recovery, rollback): only pages freed without a drain are reused. */
        Epochs NONE = new Epochs() {
            @Override
            public long nextId() {
                return Long.MAX_VALUE;
            }

            @Override
            public long oldestActive() {
                return 0;
            }
        };
    }

    Btree(BufferManager bm, int file, Comparator<byte[]> cmp) {
        this(bm, file, cmp, null, Epochs.NONE);
    }

    Btree(BufferManager bm, int file, Comparator<byte[]> cmp, String orderName, Epochs epochs) {
        this.bm = bm;
        this.file = file;
        this.cmp = cmp;
        this.orderName = orderName;
        this.epochs = epochs;
        // Keys are also separators and high keys: at least five fit an internal page.
        this.maxKey = (bm.pageSize() - BtreePage.OFF_SLOTS) / 8 - BtreePage.INTERNAL_CELL_HEADER - 2;
        this.maxEntry = maxInlineCell(bm.pageSize());
    }

    /**
     * The largest leaf cell kept inline (key and stored value with their header; larger values
     * go to overflow pages): what a split can always place. With R the page's room for slots and
     * cells and H the largest high key (a key and its length), a full leaf plus a new entry of
     * slot and cell at most E splits so that both halves fit if E &lt;= (R - H) / 2: take the
     * longest left part that fits with its new high key; the next entry would not, so the left
     * holds more than R - E - H, and the right (the rest, with the old high key) less than
     * 2E + H. That is about half a page: 1,772 bytes with 4 KiB pages (SQLite keeps table rows
     * of that size inline too), where a quarter page once was the limit. A root leaf halves by
     * bytes and then inserts like any leaf, splitting again if the new entry does not fit.
     */
    static int maxInlineCell(int pageSize) {
        int room = pageSize - BtreePage.OFF_SLOTS;
        int highKey = 2 + (room / 8 - BtreePage.INTERNAL_CELL_HEADER - 2);
        return (room - highKey) / 2 - 2;
    }

    /** Formats a new tree (pages 0 and 1) if the file has none; the caller serializes creation. */
    void create(BtreeLog log) {
        if (bm.pageCount(file) > ROOT) {
            return;
        }
        log.ensureSpace(2L * bm.pageSize());
        try (PinnedPage hm = PinnedPage.pin(bm, file, META_PAGE, BufferManager.CREATE).dirty();
             PinnedPage hr = PinnedPage.pin(bm, file, ROOT, BufferManager.CREATE).dirty()) {
            Page meta = hm.latch().page();
            Page root = hr.latch().page();
            meta.setType(BtreePage.META);
            byte[] order = orderName == null ? new byte[0] : orderName.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            meta.putShort(OFF_ORDER, order.length);
            meta.putBytes(OFF_ORDER + 2, order);
            new BtreePage(root).init(BtreePage.LEAF, 0);
            log.image(meta);
            log.image(root);
        }
    }

    // ------------------------------------------------------------------ search

    /**
     * Descends to the leaf that covers {@code key}, locking it in {@code leafMode} (kept); returns
     * the pinned leaf. {@code path}, if not null, gets the internal pages visited (top down).
     *
     * <p>Internal pages are read under their page latch and not locked (Lehman and Yao's reader):
     * the paper's READ lock on an internal page was released before the child's was taken, so it
     * never excluded a concurrent split or unlink between the two pages; within one page the latch
     * gives the same guarantee the lock did, and a page freed meanwhile is seen as free (it is
     * not reused while this transaction runs) and the descent starts again. Leaf locks are taken
     * before the leaf is read, as before; only the page the lock covers changes.
     */
    Page findLeaf(byte[] key, Protection prot, LockMode leafMode, List<Long> path) {
        long pageNo = ROOT;
        boolean locked = false; // this descent holds a leafMode reference on pageNo
        ReadScratch scratch = SCRATCH.get();
        int steps = 0;
        while (true) {
            if (++steps > MAX_DESCENT_STEPS) {
                // Child and right links that lead in a circle (a damaged page whose checksum
                // holds): no descent of a sound tree comes near this, restarts included.
                if (locked) {
                    prot.unlock(pageNo);
                }
                throw new CorruptionException("a descent of " + bm.describe(file) + " did not reach a leaf after "
                        + MAX_DESCENT_STEPS + " pages (now at page " + pageNo + "): child or right-sibling links "
                        + "form a cycle; run verify, and restore from a backup");
            }
            if (!locked) {
                long step = optimisticStep(pageNo, key, scratch);
                if (step >= 0) {
                    if ((step & STEP_RIGHT) != 0) {
                        pageNo = step >>> 2;
                        continue;
                    }
                    if (path != null) {
                        path.add(pageNo);
                    }
                    pageNo = step >>> 2;
                    if ((step & STEP_TO_LEAF) != 0) {
                        lockLeaf(prot, pageNo, leafMode);
                        locked = true;
                    }
                    continue;
                }
            }
            BtreePage bp;
            boolean free;
            boolean leafPage = false;
            boolean beyond = false;
            long right = 0;
            long child = 0;
            boolean childIsLeaf = false;
            // What the descent reads of a page it reads under the page latch: a structure change
            // is never seen half done. Only the leaf it returns stays pinned past this block.
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).latch()) {
                bp = new BtreePage(h.page());
                free = bp.isFree(); // unlinked since the pointer to it was read
                if (!free) {
                    bp.check("descent");
                    leafPage = bp.isLeaf();
                    beyond = bp.beyondHighKey(key, cmp);
                    right = bp.rightLink();
                    if (!leafPage && !beyond) {
                        child = bp.child(bp.childSlot(key, cmp));
                        childIsLeaf = bp.level() == 1;
                    }
                }
                if (!free && leafPage && locked && !beyond) {
                    return h.release(); // the leaf, locked in leafMode, pinned, not latched
                }
            }
            if (free) {
                if (locked) {
                    prot.unlock(pageNo);
                    locked = false;
                }
                pageNo = ROOT; // start again
                continue;
            }
            if (leafPage && !locked) {
                // A leaf reached without its lock (the root is a leaf): lock it, then look again,
                // as it may have split while we waited.
                lockLeaf(prot, pageNo, leafMode);
                locked = true;
                continue;
            }
            if (!leafPage && locked) {
                prot.unlock(pageNo); // locked as the root leaf, split into an internal page since
                locked = false;
            }
            if (beyond) {
                if (right == 0) {
                    throw bp.corrupt("a key above the high key and no right sibling");
                }
                if (leafPage) {
                    lockLeaf(prot, right, leafMode); // coupled along the leaf level
                    prot.unlock(pageNo);
                }
                pageNo = right;
                continue;
            }
            if (path != null) {
                path.add(pageNo);
            }
            if (childIsLeaf) {
                lockLeaf(prot, child, leafMode);
                locked = true;
            }
            pageNo = child;
        }
    }

    /** Pages one descent may visit before its links are taken for a cycle. */
    static final int MAX_DESCENT_STEPS = 100_000;

    /** Slots of {@link #hotLeaves}: a power of two. */
    private static final int HOT_SLOTS = 64;
    /**
     * Leaves where a record update found the page lock taken (page number + 1, 0 = none), by a
     * hash of the page number: updates there lock records. A hint of this process only (never
     * cleared; a collision replaces an entry; racy reads and writes only make a wrong guess).
     */
    private final long[] hotLeaves = new long[HOT_SLOTS];

    /**
     * Locks a leaf for {@link #findLeaf}: in {@code leafMode}, except IWRITE (a record update,
     * see {@link #update}), which first tries the page's WRITE without waiting - one lock call,
     * and the record lock is then answered by the lock cache - and takes IWRITE (for a record
     * lock beside other transactions' on the page) when that would wait or the leaf is hot.
     */
    private void lockLeaf(Protection prot, long pageNo, LockMode leafMode) {
        if (leafMode != LockMode.IWRITE) {
            prot.lock(pageNo, leafMode);
            return;
        }
        int slot = (int) (pageNo ^ pageNo >>> 16) & (HOT_SLOTS - 1);
        if (hotLeaves[slot] != pageNo + 1 && prot.tryLock(pageNo, LockMode.WRITE)) {
            return;
        }
        hotLeaves[slot] = pageNo + 1;
        prot.lock(pageNo, LockMode.IWRITE);
    }

    /**
     * The descent of {@link #findLeaf} through internal pages read optimistically only: locks
     * the leaf that covers {@code key} in {@code mode} and returns its page number, or -1
     * (nothing locked) as soon as a page cannot be read that way.
     */
    private long lockLeafOptimistically(byte[] key, Protection prot, LockMode mode, ReadScratch scratch) {
        long pageNo = ROOT;
        for (int hops = 0; hops < 64; hops++) {
            long step = optimisticStep(pageNo, key, scratch);
            if (step < 0) {
                return -1;
            }
            pageNo = step >>> 2;
            if ((step & STEP_RIGHT) == 0 && (step & STEP_TO_LEAF) != 0) {
                prot.lock(pageNo, mode);
                return pageNo;
            }
        }
        return -1;
    }

    private static final long STEP_RIGHT = 1;
    private static final long STEP_TO_LEAF = 2;

    /**
     * One step of the descent through an internal page read optimistically (no pin, no latch,
     * nothing shared written; LeanStore's optimistic latch coupling): {@code next << 2} with
     * {@link #STEP_RIGHT} (move right: the key is at or above the high key) or
     * {@link #STEP_TO_LEAF} (the child is a leaf), or -1 when the page must be read the ordinary
     * way: not in the pool, latched, changed while read, a leaf or free. What an invalid read
     * threw is dropped with it; a valid read that finds damage falls back too, and the ordinary
     * read reports it.
     */
    private long optimisticStep(long pageNo, byte[] key, ReadScratch scratch) {
        BtreePage bp = scratch.optimistic(bm, file, pageNo);
        if (bp == null) {
            return -1;
        }
        long step;
        try {
            if (bp.type() != BtreePage.INTERNAL) {
                return -1; // a leaf is pinned and latched to be read; a free page restarts there
            }
            bp.check("descent");
            if (bp.beyondHighKey(key, cmp)) {
                long right = bp.rightLink();
                step = right == 0 ? -1 : right << 2 | STEP_RIGHT;
            } else {
                long child = bp.child(bp.childSlot(key, cmp));
                step = child << 2 | (bp.level() == 1 ? STEP_TO_LEAF : 0);
            }
        } catch (RuntimeException torn) {
            return -1;
        }
        return bp.page.validate() ? step : -1;
    }

    void checkKey(byte[] key) {
        if (key.length == 0) {
            throw new IllegalArgumentException("keys must not be empty");
        }
        if (key.length > maxKey) {
            throw new IllegalArgumentException("key of " + key.length + " bytes exceeds the maximum of " + maxKey
                    + " bytes for " + bm.pageSize() + "-byte pages");
        }
    }

    /** The data stored under {@code key}, or null. */
    byte[] get(byte[] key, Protection prot) {
        return get(key, prot, false);
    }

    /**
     * The data stored under {@code key}, or null; {@code forUpdate} write-locks the leaf (Berkeley
     * DB's DB_RMW), so that a read-modify-write does not deadlock on the lock upgrade with
     * another one that read the same page.
     */
    byte[] get(byte[] key, Protection prot, boolean forUpdate) {
        checkKey(key);
        ReadScratch scratch = scratch();
        if (!forUpdate) {
            long leaf = lockLeafOptimistically(key, prot, LockMode.READ, scratch);
            if (leaf >= 0) {
                int n = copyLeafValueOptimistically(leaf, key, scratch);
                if (n != VALUE_NOT_READ) {
                    return n == VALUE_ABSENT ? null : Arrays.copyOf(scratch.bytes, n);
                }
                // Read the ordinary way below; the leaf's lock reference taken here is kept
                // with the transaction's other locks.
            }
        }
        Page p = findLeaf(key, prot, forUpdate ? LockMode.WRITE : LockMode.READ, null);
        try (PinnedPage h = PinnedPage.of(bm, p).latch()) {
            BtreePage bp = new BtreePage(h.page());
            int i = bp.lowerBound(key, cmp);
            return i < bp.count() && bp.compareAt(i, key, cmp) == 0 ? load(bp.data(i)) : null;
        }
    }

    /**
     * Per thread: the optimistic page view that every optimistic read of this thread rebinds
     * (so that reading allocates nothing), and the copy a zero-copy read hands its reader.
     */
    private static final class ReadScratch {
        Page page;
        BtreePage view;
        byte[] bytes = new byte[0];
        java.nio.ByteBuffer bytesView;
        boolean inReader;

        /** Page {@code pageNo} of {@code file} as an optimistic view, or null (read it pinned). */
        BtreePage optimistic(BufferManager bm, int file, long pageNo) {
            Page p = bm.tryOptimistic(file, pageNo, page);
            if (p == null) {
                return null;
            }
            if (p != page) {
                page = p;
                view = new BtreePage(p);
            }
            return view;
        }

        java.nio.ByteBuffer view(int length) {
            bytesView.clear();
            bytesView.limit(length);
            return bytesView.order(java.nio.ByteOrder.BIG_ENDIAN);
        }
    }

    private static final ThreadLocal<ReadScratch> SCRATCH = ThreadLocal.withInitial(ReadScratch::new);

    /** This thread's scratch; refused inside a zero-copy reader, whose view it may be. */
    private static ReadScratch scratch() {
        ReadScratch s = SCRATCH.get();
        if (s.inReader) {
            throw new IllegalStateException("the reader of a zero-copy get called into the database: it must only "
                    + "read the view it is given");
        }
        return s;
    }

    /**
     * Zero-copy read: calls {@code reader} with a read-only view of the data under {@code key},
     * and returns its result (null if the key is absent). The view is of the leaf read
     * optimistically into a per-thread copy (validated before the reader sees it), or of the
     * page itself while it is pinned and latched. The reader must not call back into the
     * database (that throws) nor keep the view.
     */
    <T> T read(byte[] key, Protection prot, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
        checkKey(key);
        ReadScratch scratch = scratch();
        long leaf = lockLeafOptimistically(key, prot, LockMode.READ, scratch);
        if (leaf >= 0) {
            int n = copyLeafValueOptimistically(leaf, key, scratch);
            if (n == VALUE_ABSENT) {
                return null;
            }
            if (n >= 0) {
                scratch.inReader = true;
                try {
                    return reader.apply(scratch.view(n));
                } finally {
                    scratch.inReader = false;
                }
            }
        }
        scratch.inReader = true;
        try {
            return readPinned(key, prot, reader);
        } finally {
            scratch.inReader = false;
        }
    }

    private static final int VALUE_ABSENT = -1;
    private static final int VALUE_NOT_READ = -2;

    /**
     * The value under {@code key} read from leaf {@code pageNo} (locked) optimistically into
     * {@code scratch}: its length, or {@link #VALUE_ABSENT}, or {@link #VALUE_NOT_READ} when the
     * leaf must be read the ordinary way (not in the pool, latched, changed while read, no
     * longer the key's leaf, or the value is in an overflow chain).
     */
    private int copyLeafValueOptimistically(long pageNo, byte[] key, ReadScratch scratch) {
        BtreePage bp = scratch.optimistic(bm, file, pageNo);
        if (bp == null) {
            return VALUE_NOT_READ;
        }
        if (scratch.bytes.length < bm.pageSize()) {
            scratch.bytes = new byte[bm.pageSize()];
            scratch.bytesView = java.nio.ByteBuffer.wrap(scratch.bytes).asReadOnlyBuffer();
        }
        int found;
        try {
            if (bp.type() != BtreePage.LEAF) {
                return VALUE_NOT_READ;
            }
            bp.check("descent");
            if (bp.beyondHighKey(key, cmp)) {
                return VALUE_NOT_READ;
            }
            int i = bp.lowerBound(key, cmp);
            if (i < bp.count() && bp.compareAt(i, key, cmp) == 0) {
                int n = bp.copyInlineValue(i, scratch.bytes);
                found = n < 0 ? VALUE_NOT_READ : n;
            } else {
                found = VALUE_ABSENT;
            }
        } catch (RuntimeException torn) {
            return VALUE_NOT_READ;
        }
        return bp.page.validate() ? found : VALUE_NOT_READ;
    }

    private <T> T readPinned(byte[] key, Protection prot, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
        Page p = findLeaf(key, prot, LockMode.READ, null);
        try (PinnedPage h = PinnedPage.of(bm, p).latch()) {
            BtreePage bp = new BtreePage(h.page());
            int i = bp.lowerBound(key, cmp);
            if (i >= bp.count() || bp.compareAt(i, key, cmp) != 0) {
                return null;
            }
            java.nio.ByteBuffer v = bp.dataView(i);
            if (v.get(0) == INLINE) {
                return reader.apply(v.position(1).slice());
            }
            byte[] stored = new byte[v.remaining()];
            v.get(stored);
            return reader.apply(java.nio.ByteBuffer.wrap(load(stored)).asReadOnlyBuffer());
        }
    }

    // ------------------------------------------------------------------ insert / delete

    /**
     * Stores (key, data). Returns the previous data or null. With {@code onlyIfAbsent}, an
     * existing key is left alone (and its data returned).
     */
    byte[] put(byte[] key, byte[] value, boolean onlyIfAbsent, Protection prot, BtreeLog log) {
        checkKey(key);
        log.ensureSpace(spaceFor(key, value == null ? 0 : value.length));
        if (!onlyIfAbsent && value != null && !overflow.inline(key, value.length)) {
            byte[][] replaced = overwriteInPlace(key, value, prot, log);
            if (replaced != null) {
                return replaced[0];
            }
        }
        byte[] data = store(key, value, log); // what the leaf holds: the value inline, or a reference
        Page p = findLeaf(key, prot, LockMode.WRITE, null);
        byte[] old = null;
        long unused = 0; // an overflow chain no longer used once this commits
        try (PinnedPage h = PinnedPage.of(bm, p).dirty().latch()) {
            try {
                BtreePage bp = new BtreePage(p);
                int i = bp.lowerBound(key, cmp);
                if (i < bp.count() && bp.compareAt(i, key, cmp) == 0) {
                    byte[] oldStored = bp.data(i);
                    old = load(oldStored);
                    if (onlyIfAbsent) {
                        unused = overflowPage(data); // the new value's chain, if any, is not used
                        return old;
                    }
                    unused = overflowPage(oldStored);
                    if (oldStored.length == data.length) {
                        replaceInPlace(p, bp, i, key, oldStored, data, log);
                        return old;
                    }
                    log.leafDelete(p, i, key, oldStored); // another length: a delete plus an insert (paper 3.2.6)
                    bp.delete(i);
                }
                if (bp.freeTotal() >= BtreePage.leafCellSize(key.length, data.length) + 2) {
                    log.leafInsert(p, i, key, data);
                    bp.insertLeaf(i, key, data);
                    return old;
                }
            } finally {
                h.unlatch();
                if (unused != 0) {
                    long chain = unused;
                    log.onEnd(true, file, (pr, l) -> freeChain(chain, l)); // outside the leaf latch: freeing latches the meta page
                }
            }
            splitter.splitAndInsert(p, key, data, prot, log); // the full leaf, pinned and not latched
            return old;
        }
    }

    /**
     * A put of an overflow value over one of the same length: overwrites the chain in place
     * ({@link BtreeOverflow#overwrite}) under the leaf's WRITE lock, which this takes, and
     * returns {old value}; null (nothing changed) when the key is absent or its value inline or
     * of another length. The leaf itself does not change.
     */
    private byte[][] overwriteInPlace(byte[] key, byte[] value, Protection prot, BtreeLog log) {
        Page p = findLeaf(key, prot, LockMode.WRITE, null);
        byte[] stored;
        try (PinnedPage h = PinnedPage.of(bm, p).latch()) {
            BtreePage bp = new BtreePage(h.page());
            int i = bp.lowerBound(key, cmp);
            if (i >= bp.count() || bp.compareAt(i, key, cmp) != 0) {
                return null;
            }
            stored = bp.data(i);
        }
        if (overflowPage(stored) == 0 || BtreeOverflow.overflowLength(stored) != value.length) {
            return null;
        }
        return new byte[][] {overflow.overwrite(stored, value, log)};
    }

    /**
     * Under the leaf latch: replaces the stored data of slot {@code i} by {@code data} of the
     * same length. Logged as one update in place, not as the delete plus insert of other
     * replaces (paper 3.2.6): half the records, and the new bytes overwrite the old on the page,
     * in the transaction and in recovery's redo alike, saving the delete's garbage and a
     * compaction.
     */
    private static void replaceInPlace(Page p, BtreePage bp, int i, byte[] key, byte[] oldStored, byte[] data,
                                       BtreeLog log) {
        log.leafReplace(p, i, key, oldStored, data);
        if (!bp.replaceData(i, data)) {
            throw bp.corrupt("slot " + i + " changed length under its latch");
        }
    }

    /**
     * Read-modify-write in one descent: under the leaf's lock and latch, {@code change} gets the
     * current value of {@code key} and returns the new one, which replaces it. Returns the new
     * value, or null (without calling {@code change}) if the key is absent. A new value of the
     * old length is written in place (logged as one update in place: the bytes that differ); any
     * other goes through {@link #put} after the latch is released (the locks keep the key's
     * value from changing in between). {@code change} runs under the page latch: it must be
     * quick and must not call into the tree.
     *
     * <p>The lock is a record lock where keys are equal only when their bytes are (the default
     * order) and the leaf is contended: IWRITE on the leaf and WRITE on the key's record
     * ({@link #recordId}), so that transactions updating different keys of one leaf (TPC-B's
     * branches and tellers) do not queue for the page, while a reader, an insert, a delete or a
     * split (READ or WRITE on the page) still waits for them and they for it. An uncontended
     * leaf is WRITE-locked instead (tried without waiting: one lock call, where a record lock
     * costs two, see {@link #lockLeaf}); the record lock is then answered by the page's. The leaf cannot split under an IWRITE holder,
     * so the key stays where it was found; an update that must change the length converts the
     * page lock to WRITE in {@link #put}. Under a registered key order two different byte
     * strings may be one key, so a hash of the bytes cannot name it: the leaf is WRITE-locked.
     */
    byte[] update(byte[] key, java.util.function.UnaryOperator<byte[]> change, Protection prot, BtreeLog log) {
        checkKey(key);
        log.ensureSpace(spaceFor(key, maxEntry));
        boolean byRecord = orderName == null;
        Page p = findLeaf(key, prot, byRecord ? LockMode.IWRITE : LockMode.WRITE, null);
        if (byRecord) {
            long record = recordId(key);
            if (!prot.lockRecord(p.pageNo(), record, LockMode.WRITE, false)) {
                PinnedPage.of(bm, p).close(); // never wait for a lock with a page pinned
                prot.lockRecord(p.pageNo(), record, LockMode.WRITE, true);
                p = findLeaf(key, prot, LockMode.IWRITE, null);
            }
        }
        byte[] next;
        try (PinnedPage h = PinnedPage.of(bm, p).latch()) {
            BtreePage bp = new BtreePage(h.page());
            int i = bp.lowerBound(key, cmp);
            if (i >= bp.count() || bp.compareAt(i, key, cmp) != 0) {
                return null;
            }
            byte[] oldStored = bp.data(i);
            next = change.apply(load(oldStored));
            if (next == null) {
                throw new IllegalArgumentException("an update function must not return null (delete the key instead)");
            }
            if (oldStored.length == 1 + next.length && oldStored[0] == INLINE) {
                byte[] data = new byte[1 + next.length]; // INLINE tag, then the value
                System.arraycopy(next, 0, data, 1, next.length);
                h.dirty();
                replaceInPlace(p, bp, i, key, oldStored, data, log);
                return next;
            }
        }
        put(key, next, false, prot, log);
        return next;
    }

    /**
     * The record id of {@code key} for record locks: 62 bits of a 64-bit hash of its bytes (the
     * same in every process). Two keys with one id only share a lock (a false conflict).
     */
    static long recordId(byte[] key) {
        long h = 0xCBF29CE484222325L ^ key.length;
        for (byte b : key) {
            h = (h ^ (b & 0xFF)) * 0x100000001B3L;
        }
        h ^= h >>> 33; // murmur3's finalizer: FNV's low bits alone spread short keys poorly
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB9FE1A85EC53L;
        h ^= h >>> 33;
        return h & org.libtp.core.lock.LockObject.MAX_RECORD_ID;
    }

    /**
     * Undo of a delete: inserts (key, data) again, starting at leaf {@code pageNo} (where it was
     * deleted) and moving right (keys only ever move right), splitting if needed. No page locks:
     * the rolled-back transaction's leaf locks cover the key's range.
     */
    void reinsertFrom(long pageNo, byte[] key, byte[] data, BtreeLog log) {
        pageNo = leafFrom(pageNo, key);
        while (true) {
            if (pageNo < 0) {
                pageNo = leafFrom(ROOT, key);
            }
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).dirty().latch()) {
                Page p = h.page();
                BtreePage bp = new BtreePage(p);
                if (bp.isFree()) {
                    pageNo = -1; // search from the root, once this latch is released
                    continue;
                }
                bp.check("undo");
                if (bp.beyondHighKey(key, cmp)) {
                    pageNo = bp.rightLink();
                    continue;
                }
                if (bp.freeTotal() >= BtreePage.leafCellSize(key.length, data.length) + 2) {
                    int i = bp.lowerBound(key, cmp);
                    log.leafInsert(p, i, key, data);
                    bp.insertLeaf(i, key, data);
                    return;
                }
                h.unlatch(); // the full leaf goes to the split pinned and not latched
                splitter.splitAndInsert(p, key, data, Protection.NONE, log);
                return;
            }
        }
    }

    /**
     * The leaf to look for {@code key} from, starting at page {@code pageNo} where a record was
     * logged: that page itself while it is a leaf; if it is internal now (the root, whose entries
     * a root split moved down to new pages), the leaf reached from it by the key. Keys then only
     * ever move right of that leaf.
     */
    long leafFrom(long pageNo, byte[] key) {
        while (true) {
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isFree()) { // unlinked (its keys went left): search from the root
                    pageNo = ROOT;
                    continue;
                }
                bp.check("undo");
                if (bp.isLeaf()) {
                    return pageNo;
                }
                pageNo = bp.beyondHighKey(key, cmp) ? bp.rightLink() : bp.child(bp.childSlot(key, cmp));
            }
        }
    }

    /** Pages whose images a split cascade may log (two per level, plus a new root). */
    static final long SPLIT_PAGES = 8;

    /**
     * Log bytes a put of {@code key} with a value of {@code valueLength} bytes may need for
     * records written after their change (split images, overflow pages): asked for before
     * anything changes, so that a full log refuses the put cleanly.
     */
    long spaceFor(byte[] key, long valueLength) {
        return key.length + valueLength + valueLength / 16 + SPLIT_PAGES * bm.pageSize();
    }

    /** Removes {@code key}; returns its data or null if absent. */
    byte[] delete(byte[] key, Protection prot, BtreeLog log) {
        Page p = findLeaf(key, prot, LockMode.WRITE, null);
        long pageNo = p.pageNo();
        byte[] old;
        boolean empty;
        try (PinnedPage h = PinnedPage.of(bm, p).dirty().latch()) {
            BtreePage bp = new BtreePage(h.page());
            int i = bp.lowerBound(key, cmp);
            if (i >= bp.count() || bp.compareAt(i, key, cmp) != 0) {
                return null;
            }
            old = bp.data(i);
            log.leafDelete(p, i, key, old);
            bp.delete(i);
            empty = bp.count() == 0;
        }
        byte[] value = load(old);
        long chain = overflowPage(old);
        if (chain != 0) {
            log.onEnd(true, file, (pr, l) -> freeChain(chain, l));
        }
        if (empty && pageNo != ROOT) {
            byte[] k = key.clone();
            log.onEnd(true, file, (pr, l) -> reclaim(pageNo, k, pr, l)); // once the emptiness is committed
        }
        return value;
    }

    /** The write-locked, pinned page at {@code level} covering {@code key} ({@link BtreeSplit#findLevel}). */
    Page findLevel(byte[] key, int level, Protection prot) {
        return splitter.findLevel(key, level, prot);
    }

    // ------------------------------------------------------------------ positioned reads (cursors)

    /** A cursor position: the entry and where it was seen (a hint for the next step). */
    record Position(byte[] key, byte[] data, long page, int slot) {
    }

    // ------------------------------------------------------------------ scans and statistics

    /** {key, data} of the first key above (or at, if {@code inclusive}) {@code key} ({@link BtreeNavigation}). */
    byte[][] ceiling(byte[] key, boolean inclusive, Protection prot) {
        return nav.ceiling(key, inclusive, prot);
    }

    /** The entry after {@code at} ({@link BtreeNavigation}). */
    Position next(Position at, Protection prot) {
        return nav.next(at, prot);
    }

    /** The first entry at or above (above, unless {@code inclusive}) {@code key} ({@link BtreeNavigation}). */
    Position seek(byte[] key, boolean inclusive, Protection prot) {
        return nav.seek(key, inclusive, prot);
    }

    /** The entry with the greatest key below {@code key} (null: the last) ({@link BtreeNavigation}). */
    byte[][] floorBelow(byte[] key, Protection prot) {
        return nav.floorBelow(key, prot);
    }

    /** Visits the entries from {@code from} on, in order ({@link BtreeNavigation}). */
    void scan(byte[] from, Protection prot, java.util.function.BiPredicate<byte[], byte[]> visitor) {
        nav.scan(from, prot, visitor);
    }


    /** Structure statistics: {levels, pages, entries, leafPages, usedBytesPercent}. */
    record Stats(int levels, long pages, long entries, long leafPages, double leafFill, long freePages) {
    }

    /** Pages on the free list ({@link BtreeCheck}). */
    long freePages() {
        return new BtreeCheck(this).freePages();
    }

    /** Structure statistics ({@link BtreeCheck}). */
    Stats stats() {
        return new BtreeCheck(this).stats();
    }

    /** The structure's problems, none if empty ({@link BtreeCheck}). */
    List<String> verify() {
        return new BtreeCheck(this).verify();
    }

    long leftmostLeaf() {
        long pageNo = ROOT;
        while (true) {
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo)) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isLeaf()) {
                    return pageNo;
                }
                pageNo = bp.child(0);
            }
        }
    }

    /** The key order's name recorded in the meta page ({@link BtreeMeta}). */
    static String orderName(BufferManager bm, int file) {
        return BtreeMeta.orderName(bm, file);
    }

    /** The comparator for order {@code name} (null: unsigned bytes); unregistered names fail clearly. */
    static Comparator<byte[]> resolve(String name, java.util.function.Function<String, Comparator<byte[]>> orders, int file) {
        if (name == null) {
            return DEFAULT_ORDER;
        }
        Comparator<byte[]> c = orders.apply(name);
        if (c == null) {
            throw new IllegalStateException("the B-tree in " + "file id " + file + " orders its keys by '" + name
                    + "', which is not registered: register it with EnvironmentConfig.Builder.keyOrder in every process");
        }
        return c;
    }

    // ------------------------------------------------------------------ page reclamation

    /** Free-list entries allocate looks at for one whose watermark has passed. */
    private static final int FREE_SCAN = 32;

    /**
     * A page for new content, pinned and not latched: the first of the free list's first
     * {@value #FREE_SCAN} pages that may be reused (its watermark passed), else a new page at
     * the end of the file. Taking it off the list is one redo-only image (the meta page's head,
     * or its predecessor's link); the caller formats it and logs its image, and a crash between
     * the two leaks it, never more.
     */
    Page allocate(BtreeLog log) {
        Page taken = null;
        // The meta page's latch guards the list: every change to it is made under this latch.
        try (PinnedPage hm = PinnedPage.pin(bm, file, META_PAGE).latch()) {
            Page meta = hm.page();
            long prev = 0;
            long x = meta.getLong(OFF_FREE_HEAD);
            boolean asked = false; // the transaction table is scanned at most once per allocation
            for (int n = 0; x != 0 && n < FREE_SCAN && taken == null; n++) {
                try (PinnedPage h = PinnedPage.pin(bm, file, x).latch()) {
                    Page p = h.page();
                    if (p.type() != BtreePage.FREE) {
                        throw new CorruptionException("page " + x + " of " + bm.describe(file)
                                + " is on the free list but has type " + p.type()
                                + "; run verify, and restore from a backup");
                    }
                    long next = p.getLong(OFF_FREE_NEXT);
                    long watermark = p.getLong(OFF_FREE_WATERMARK);
                    boolean use = watermark <= horizonSeen;
                    if (!use && !asked) {
                        asked = true;
                        horizonSeen = Math.max(horizonSeen, epochs.oldestActive());
                        use = watermark <= horizonSeen;
                    }
                    h.unlatch();
                    if (!use) {
                        prev = x;
                        x = next;
                        continue;
                    }
                    if (prev == 0) {
                        meta.putLong(OFF_FREE_HEAD, next);
                        log.image(meta);
                        hm.dirty();
                    } else {
                        try (PinnedPage hq = PinnedPage.pin(bm, file, prev).dirty().latch()) {
                            hq.page().putLong(OFF_FREE_NEXT, next);
                            log.image(hq.page());
                        }
                    }
                    taken = h.release(); // taken off the list: pinned, for the caller to format
                }
            }
        }
        return taken != null ? taken : bm.allocate(file);
    }

    /**
     * Pushes page {@code pageNo} (unreachable now, not latched by the caller) on the free list.
     * Under a draining log (TP) it waits there until every transaction active now has
     * ended: one of them may be about to follow a pointer to it, and must find a free page (and
     * start again from the root), not a page reused for other keys.
     */
    void free(long pageNo, BtreeLog log) {
        if (pageNo <= ROOT) {
            throw new IllegalStateException("page " + pageNo + " of a B-tree is never freed");
        }
        try (PinnedPage hm = PinnedPage.pin(bm, file, META_PAGE).dirty().latch()) {
            Page meta = hm.page();
            long watermark = log.drains() ? epochs.nextId() : 0;
            try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).dirty().latch()) {
                Page p = h.page();
                p.fill(PageHeader.OFF_RESERVED,
                        p.size() - PageHeader.OFF_RESERVED, (byte) 0);
                p.setType(BtreePage.FREE);
                p.putLong(OFF_FREE_NEXT, meta.getLong(OFF_FREE_HEAD));
                p.putLong(OFF_FREE_WATERMARK, watermark);
                log.image(p);
            }
            // Pushed at the head: the page's image first, then the head, so a crash between
            // the two leaks the page and never leaves the list pointing at a page not on it.
            meta.putLong(OFF_FREE_HEAD, pageNo);
            log.image(meta);
        }
    }

    /** Unlinks leaves that deletes emptied, once that is committed ({@link BtreeReclaim}). */
    void reclaim(long leafNo, byte[] key, Protection prot, BtreeLog log) {
        reclaimer.reclaim(leafNo, key, prot, log);
    }

    /** Unlinks every empty leaf a crash or a refused reclaim left; returns the pages freed ({@link BtreeReclaim}). */
    long compact(Protection prot, BtreeLog log) {
        return reclaimer.compact(prot, log);
    }

    // ------------------------------------------------------------------ values: inline or overflow

    /** The bytes a leaf stores for {@code value}: inline or an overflow reference ({@link BtreeOverflow}). */
    byte[] store(byte[] key, byte[] value, BtreeLog log) {
        return overflow.store(key, value, log);
    }

    /** The value of stored bytes ({@link BtreeOverflow}). */
    byte[] load(byte[] stored) {
        return overflow.load(stored);
    }

    /** Frees an overflow chain ({@link BtreeOverflow}). */
    void freeChain(long pageNo, BtreeLog log) {
        overflow.freeChain(pageNo, log);
    }


    /** Unsigned lexicographic byte order (as memcmp); one instance, so pages can recognize it. */
    static final Comparator<byte[]> DEFAULT_ORDER = Arrays::compareUnsigned;

    static Comparator<byte[]> defaultComparator() {
        return DEFAULT_ORDER;
    }
}
