package org.libtp.btree;

import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;
import org.libtp.core.lock.LockMode;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;

/**
 * A B-link tree (Lehman and Yao; paper 3.1.2) on buffer-pool pages of one file: page 0 is the
 * meta page, page 1 the root (it never moves: a root split moves its entries to two new pages).
 *
 * <p>Locking, with a {@link Protection} that locks (TP): on descent an internal page's lock is
 * released before its child's is taken; a search whose key is above a page's high key moves
 * right; leaf locks stay until the transaction ends; a split locks the parent (found again from
 * the root by the separator, moving right) before releasing the split page if internal, and an
 * internal page's write lock is released right after its update. Changes are made under the page
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

    /** Meta page: the key order's name at {@link #OFF_ORDER}: u16 length, UTF-8 bytes. */
    static final int OFF_ORDER = 32;

    Btree(BufferManager bm, int file, Comparator<byte[]> cmp) {
        this(bm, file, cmp, null);
    }

    Btree(BufferManager bm, int file, Comparator<byte[]> cmp, String orderName) {
        this.bm = bm;
        this.file = file;
        this.cmp = cmp;
        this.orderName = orderName;
        // At least four entries fit a page, so a split always leaves room for the new one.
        this.maxEntry = (bm.pageSize() - BtreePage.OFF_SLOTS) / 4 - 2 - 8;
        // Keys are also separators and high keys: at least five fit an internal page.
        this.maxKey = (bm.pageSize() - BtreePage.OFF_SLOTS) / 8 - BtreePage.INTERNAL_CELL_HEADER - 2;
    }

    /** Formats a new tree (pages 0 and 1) if the file has none; the caller serializes creation. */
    void create(BtreeLog log) {
        if (bm.pageCount(file) > ROOT) {
            return;
        }
        Page meta = bm.get(file, META_PAGE, BufferManager.CREATE);
        Page root = bm.get(file, ROOT, BufferManager.CREATE);
        try {
            meta.latch();
            root.latch();
            try {
                meta.setType(BtreePage.META);
                byte[] order = orderName == null ? new byte[0] : orderName.getBytes(java.nio.charset.StandardCharsets.UTF_8);
                meta.putShort(OFF_ORDER, order.length);
                meta.putBytes(OFF_ORDER + 2, order);
                new BtreePage(root).init(BtreePage.LEAF, 0);
                log.image(meta);
                log.image(root);
            } finally {
                root.unlatch();
                meta.unlatch();
            }
        } finally {
            bm.unpin(root, true);
            bm.unpin(meta, true);
        }
    }

    // ------------------------------------------------------------------ search

    /**
     * Descends to the leaf that covers {@code key}, locking it in {@code leafMode} (kept), internal
     * pages in READ (released before the child is locked). Returns the pinned leaf; {@code path},
     * if not null, gets the internal pages visited (top down).
     */
    Page findLeaf(byte[] key, Protection prot, LockMode leafMode, List<Long> path) {
        long pageNo = ROOT;
        prot.lock(pageNo, LockMode.READ);
        boolean readLocked = true;
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            BtreePage bp = new BtreePage(p);
            // What the descent reads of a page it reads under the page latch: a structure change
            // made without a page lock (rollback, recovery) is never seen half done.
            p.latch();
            boolean leafPage;
            boolean beyond;
            long right;
            long child = 0;
            boolean childIsLeaf = false;
            try {
                bp.check("descent");
                leafPage = bp.isLeaf();
                beyond = bp.beyondHighKey(key, cmp);
                right = bp.rightLink();
                if (!leafPage && !beyond) {
                    child = bp.child(bp.childSlot(key, cmp));
                    childIsLeaf = bp.level() == 1;
                }
            } finally {
                p.unlatch();
            }
            if (leafPage && readLocked && leafMode == LockMode.WRITE) {
                // A leaf reached under a READ lock (the root is a leaf): convert.
                bm.unpin(p, false);
                prot.lock(pageNo, LockMode.WRITE);
                prot.unlock(pageNo);
                readLocked = false;
                continue; // look again: it may have split while we waited
            }
            if (beyond) {
                bm.unpin(p, false);
                if (right == 0) {
                    throw bp.corrupt("a key above the high key and no right sibling");
                }
                prot.lock(right, leafPage ? leafMode : LockMode.READ);
                prot.unlock(pageNo);
                readLocked = !leafPage || leafMode == LockMode.READ;
                pageNo = right;
                continue;
            }
            if (leafPage) {
                return p;
            }
            bm.unpin(p, false);
            if (path != null) {
                path.add(pageNo);
            }
            prot.unlock(pageNo); // not coupled on the way down
            LockMode m = childIsLeaf ? leafMode : LockMode.READ;
            prot.lock(child, m);
            readLocked = m == LockMode.READ;
            pageNo = child;
        }
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
        checkKey(key);
        Page p = findLeaf(key, prot, LockMode.READ, null);
        try {
            p.latch();
            try {
                BtreePage bp = new BtreePage(p);
                int i = bp.lowerBound(key, cmp);
                return i < bp.count() && bp.compareAt(i, key, cmp) == 0 ? load(bp.data(i)) : null;
            } finally {
                p.unlatch();
            }
        } finally {
            bm.unpin(p, false);
        }
    }

    /**
     * Zero-copy read: calls {@code reader} with a read-only view of the data under {@code key}
     * while its page is pinned and latched, and returns its result (null if the key is absent).
     * The reader must not call back into the database (the latch is not re-entrant: that throws)
     * nor keep the view.
     */
    <T> T read(byte[] key, Protection prot, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
        checkKey(key);
        Page p = findLeaf(key, prot, LockMode.READ, null);
        try {
            p.latch();
            try {
                BtreePage bp = new BtreePage(p);
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
            } finally {
                p.unlatch();
            }
        } finally {
            bm.unpin(p, false);
        }
    }

    // ------------------------------------------------------------------ insert / delete

    /**
     * Stores (key, data). Returns the previous data or null. With {@code onlyIfAbsent}, an
     * existing key is left alone (and its data returned).
     */
    byte[] put(byte[] key, byte[] value, boolean onlyIfAbsent, Protection prot, BtreeLog log) {
        checkKey(key);
        byte[] data = store(key, value, log); // what the leaf holds: the value inline, or a reference
        Page p = findLeaf(key, prot, LockMode.WRITE, null);
        byte[] old = null;
        try {
            p.latch();
            try {
                BtreePage bp = new BtreePage(p);
                int i = bp.lowerBound(key, cmp);
                if (i < bp.count() && bp.compareAt(i, key, cmp) == 0) {
                    byte[] oldStored = bp.data(i);
                    old = load(oldStored);
                    if (onlyIfAbsent) {
                        return old; // (overflow pages written for the new value stay unused)
                    }
                    log.leafDelete(p, i, key, oldStored); // a replace is a delete plus an insert (paper 3.2.6)
                    bp.delete(i);
                }
                if (bp.freeTotal() >= BtreePage.leafCellSize(key.length, data.length) + 2) {
                    log.leafInsert(p, i, key, data);
                    bp.insertLeaf(i, key, data);
                    return old;
                }
            } finally {
                if (p.isLatched()) {
                    p.unlatch();
                }
            }
            splitAndInsert(p, key, data, prot, log);
            return old;
        } finally {
            bm.unpin(p, true);
        }
    }

    /**
     * Undo of a delete: inserts (key, data) again, starting at leaf {@code pageNo} (where it was
     * deleted) and moving right (keys only ever move right), splitting if needed. No page locks:
     * the rolled-back transaction's leaf locks cover the key's range.
     */
    void reinsertFrom(long pageNo, byte[] key, byte[] data, BtreeLog log) {
        pageNo = leafFrom(pageNo, key);
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            try {
                p.latch();
                try {
                    BtreePage bp = new BtreePage(p).check("undo");
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
                } finally {
                    p.unlatch();
                }
                splitAndInsert(p, key, data, Protection.NONE, log);
                return;
            } finally {
                bm.unpin(p, true);
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
            Page p = bm.get(file, pageNo, 0);
            try {
                p.latch();
                try {
                    BtreePage bp = new BtreePage(p).check("undo");
                    if (bp.isLeaf()) {
                        return pageNo;
                    }
                    pageNo = bp.beyondHighKey(key, cmp) ? bp.rightLink() : bp.child(bp.childSlot(key, cmp));
                } finally {
                    p.unlatch();
                }
            } finally {
                bm.unpin(p, false);
            }
        }
    }

    /** Removes {@code key}; returns its data or null if absent. */
    byte[] delete(byte[] key, Protection prot, BtreeLog log) {
        Page p = findLeaf(key, prot, LockMode.WRITE, null);
        try {
            p.latch();
            try {
                BtreePage bp = new BtreePage(p);
                int i = bp.lowerBound(key, cmp);
                if (i >= bp.count() || cmp.compare(bp.key(i), key) != 0) {
                    return null;
                }
                byte[] old = bp.data(i);
                log.leafDelete(p, i, key, old);
                bp.delete(i);
                return load(old);
            } finally {
                p.unlatch();
            }
        } finally {
            bm.unpin(p, true);
        }
    }

    /**
     * Splits full leaf {@code left} (pinned, write-locked, not latched), inserts (key, data) into
     * the proper half, and posts the separator to the parent level.
     */
    private void splitAndInsert(Page left, byte[] key, byte[] data, Protection prot, BtreeLog log) {
        if (left.pageNo() == ROOT) {
            splitRoot(left, prot, log);
            // The root is now internal: insert again from the top (the new leaves have room).
            Page p = findLeaf(key, prot, LockMode.WRITE, null);
            try {
                p.latch();
                try {
                    BtreePage bp = new BtreePage(p);
                    int i = bp.lowerBound(key, cmp);
                    log.leafInsert(p, i, key, data);
                    bp.insertLeaf(i, key, data);
                } finally {
                    p.unlatch();
                }
            } finally {
                bm.unpin(p, true);
            }
            return;
        }
        Page right = bm.allocate(file);
        prot.lock(right.pageNo(), LockMode.WRITE); // new: nobody waits; kept like any leaf lock
        byte[] separator;
        try {
            left.latch();
            right.latch();
            try {
                BtreePage l = new BtreePage(left);
                BtreePage r = new BtreePage(right);
                int at = l.lowerBound(key, cmp);
                Split sp = splitPage(l, r, at, key, data, 0);
                separator = sp.separator();
                log.image(right);
                log.image(left);
                BtreePage target = sp.newGoesRight() ? r : l;
                Page tp = target == l ? left : right;
                int i = target.lowerBound(key, cmp);
                log.leafInsert(tp, i, key, data);
                target.insertLeaf(i, key, data);
            } finally {
                right.unlatch();
                left.unlatch();
            }
        } finally {
            bm.unpin(right, true);
        }
        postSeparator(separator, right.pageNo(), 1, prot, log);
    }

    /**
     * Splits {@code l} into {@code l} and the empty page {@code r} (same type and level) for a new
     * entry (newKey; leaf: newData, internal: newChild) that would go at slot {@code at} of l, and
     * links them: r gets l's high key and right link, l gets the separator as high key (exclusive)
     * and r as right link. The split point is chosen by bytes so that both halves, with the new
     * entry, fit; appending at the end of the rightmost page instead keeps l full (sorted loads
     * leave full pages, paper footnote 5). An internal page's new entry is inserted here; a
     * leaf's is not (the caller logs it as a logical insert after the split's images): the result
     * says which side it goes to. The separator is the first key of the right side (on an
     * internal page it moves up: r's slot 0 is -infinity with that entry's child).
     */
    private Split splitPage(BtreePage l, BtreePage r, int at, byte[] newKey, byte[] newData, long newChild) {
        boolean leaf = l.isLeaf();
        r.init(leaf ? BtreePage.LEAF : BtreePage.INTERNAL, l.level());
        int n = l.count();
        int m = n + 1; // the combined sequence: l's entries with the new one at 'at'
        byte[][] keys = new byte[m][];
        int[] size = new int[m];
        for (int j = 0; j < m; j++) {
            int i = j < at ? j : j - 1;
            boolean isNew = j == at;
            keys[j] = isNew ? newKey : l.key(i);
            int cell = leaf ? BtreePage.leafCellSize(keys[j].length, isNew ? newData.length : l.data(i).length)
                    : BtreePage.internalCellSize(keys[j].length);
            size[j] = cell + 2;
        }
        byte[] oldHigh = l.highKey();
        int room = bm.pageSize() - BtreePage.OFF_SLOTS;
        int rightHigh = oldHigh == null ? 0 : 2 + oldHigh.length;
        int k = -1;
        int total = 0;
        for (int j = 0; j < m; j++) {
            total += size[j];
        }
        if (at == n && oldHigh == null && total - size[n] + 2 + newKey.length <= room) {
            k = n; // append at the end of the rightmost page: l stays full, the new entry opens r
        } else {
            int best = Integer.MAX_VALUE;
            int left = 0;
            for (int j = 1; j < m; j++) { // left = [0, j), right = [j, m)
                left += size[j - 1];
                int leftBytes = left + 2 + keys[j].length; // plus the separator as high key
                int rightBytes = total - left + rightHigh - (leaf || j == 0 ? 0 : keys[j].length);
                if (leftBytes <= room && rightBytes <= room && Math.max(leftBytes, rightBytes) < best) {
                    best = Math.max(leftBytes, rightBytes);
                    k = j;
                }
            }
            if (k < 0) {
                throw l.corrupt("no split point fits " + m + " entries");
            }
        }
        byte[] separator = keys[k];
        boolean newRight = at >= k;
        // Existing entries [s, n) move to r.
        int s = newRight ? k : k - 1;
        if (leaf) {
            for (int i = s; i < n; i++) {
                r.insertLeaf(i - s, l.key(i), l.data(i));
            }
        } else {
            int slot = 0;
            if (newRight && at == k) {
                r.insertInternal(slot++, new byte[0], newChild); // the new entry moves up
                for (int i = s; i < n; i++) {
                    r.insertInternal(slot++, l.key(i), l.child(i));
                }
            } else {
                r.insertInternal(slot++, new byte[0], l.child(s)); // l's entry s moves up
                for (int i = s + 1; i < n; i++) {
                    r.insertInternal(slot++, l.key(i), l.child(i));
                }
            }
        }
        for (int i = n - 1; i >= s; i--) {
            l.delete(i);
        }
        r.setHighKey(oldHigh);
        r.setRightLink(l.rightLink());
        l.setHighKey(separator);
        l.setRightLink(r.page.pageNo());
        l.compact();
        if (!leaf && !(newRight && at == k)) {
            BtreePage target = newRight ? r : l;
            target.insertInternal(target.childSlot(newKey, cmp) + 1, newKey, newChild);
        }
        return new Split(separator, newRight);
    }

    /** Moves the upper half (by bytes) of {@code l} to the empty {@code r}, linked; returns the separator. */
    private byte[] halve(BtreePage l, BtreePage r) {
        boolean leaf = l.isLeaf();
        r.init(leaf ? BtreePage.LEAF : BtreePage.INTERNAL, l.level());
        int n = l.count();
        long total = 0;
        int[] size = new int[n];
        for (int i = 0; i < n; i++) {
            size[i] = (leaf ? BtreePage.leafCellSize(l.key(i).length, l.data(i).length)
                    : BtreePage.internalCellSize(l.key(i).length)) + 2;
            total += size[i];
        }
        int s = 1;
        long left = size[0];
        while (s < n - 1 && left + size[s] <= total / 2) {
            left += size[s++];
        }
        byte[] separator = l.key(s);
        if (leaf) {
            for (int i = s; i < n; i++) {
                r.insertLeaf(i - s, l.key(i), l.data(i));
            }
        } else {
            r.insertInternal(0, new byte[0], l.child(s));
            for (int i = s + 1; i < n; i++) {
                r.insertInternal(i - s, l.key(i), l.child(i));
            }
        }
        for (int i = n - 1; i >= s; i--) {
            l.delete(i);
        }
        r.setHighKey(l.highKey());
        r.setRightLink(l.rightLink());
        l.setHighKey(separator);
        l.setRightLink(r.page.pageNo());
        l.compact();
        return separator;
    }

    /** Where a split put things: the separator posted to the parent, and the new entry's side. */
    private record Split(byte[] separator, boolean newGoesRight) {
    }

    /**
     * Inserts (separator -> child) into the page at {@code level} that covers the separator,
     * found from the root and moving right (the remembered path may be stale), write-locked, and
     * released right after its update; splits it (and goes up) if full.
     */
    private void postSeparator(byte[] separator, long child, int level, Protection prot, BtreeLog log) {
        Page p = findLevel(separator, level, prot);
        long pageNo = p.pageNo();
        try {
            p.latch();
            BtreePage bp = new BtreePage(p);
            if (bp.freeTotal() >= BtreePage.internalCellSize(separator.length) + 2) {
                bp.insertInternal(bp.childSlot(separator, cmp) + 1, separator, child);
                log.image(p);
                p.unlatch();
                bm.unpin(p, true);
                p = null;
                prot.unlock(pageNo);
                return;
            }
            p.unlatch();
            if (pageNo == ROOT) {
                splitRoot(p, prot, log);
                bm.unpin(p, true);
                p = null;
                prot.unlock(pageNo);
                postSeparator(separator, child, level, prot, log);
                return;
            }
            Page right = bm.allocate(file);
            byte[] up;
            try {
                p.latch();
                right.latch();
                try {
                    BtreePage r = new BtreePage(right);
                    up = splitPage(bp, r, bp.childSlot(separator, cmp) + 1, separator, null, child).separator();
                    log.image(right);
                    log.image(p);
                } finally {
                    right.unlatch();
                    p.unlatch();
                }
            } finally {
                bm.unpin(right, true);
            }
            bm.unpin(p, true);
            p = null;
            // Coupled on the way up: the parent is locked (in postSeparator) before this page is released.
            postSeparatorThenUnlock(up, right.pageNo(), level + 1, pageNo, prot, log);
        } finally {
            if (p != null) {
                if (p.isLatched()) {
                    p.unlatch();
                }
                bm.unpin(p, true);
                prot.unlock(pageNo);
            }
        }
    }

    private void postSeparatorThenUnlock(byte[] separator, long child, int level, long held, Protection prot,
                                         BtreeLog log) {
        try {
            postSeparator(separator, child, level, prot, log);
        } finally {
            prot.unlock(held);
        }
    }

    /** The write-locked, pinned page at {@code level} covering {@code key}. */
    private Page findLevel(byte[] key, int level, Protection prot) {
        long pageNo = ROOT;
        LockMode mode = LockMode.READ;
        prot.lock(pageNo, mode);
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            BtreePage bp = new BtreePage(p);
            int lv;
            boolean beyond;
            long right;
            long child = 0;
            p.latch();
            try {
                bp.check("ascent");
                lv = bp.level();
                beyond = bp.beyondHighKey(key, cmp);
                right = bp.rightLink();
                if (lv > level && !beyond) {
                    child = bp.child(bp.childSlot(key, cmp));
                }
            } finally {
                p.unlatch();
            }
            if (lv == level && mode == LockMode.READ) {
                bm.unpin(p, false);
                prot.lock(pageNo, LockMode.WRITE);
                prot.unlock(pageNo);
                mode = LockMode.WRITE;
                continue;
            }
            if (beyond) {
                bm.unpin(p, false);
                prot.lock(right, mode);
                prot.unlock(pageNo);
                pageNo = right;
                continue;
            }
            if (lv == level) {
                return p;
            }
            if (lv < level) {
                RuntimeException e = bp.corrupt("level " + lv + " reached looking for level " + level);
                bm.unpin(p, false);
                prot.unlock(pageNo);
                throw e;
            }
            boolean target = lv - 1 == level;
            bm.unpin(p, false);
            prot.unlock(pageNo);
            mode = target ? LockMode.WRITE : LockMode.READ;
            prot.lock(child, mode);
            pageNo = child;
        }
    }

    /**
     * Splits the root (pinned, write-locked, not latched) in place: its entries move to two new
     * pages at its level, and it becomes an internal page one level up pointing to them.
     */
    private void splitRoot(Page root, Protection prot, BtreeLog log) {
        Page a = bm.allocate(file);
        Page b = bm.allocate(file);
        try {
            root.latch();
            a.latch();
            b.latch();
            try {
                BtreePage rp = new BtreePage(root);
                BtreePage ap = new BtreePage(a);
                BtreePage bpg = new BtreePage(b);
                boolean leaf = rp.isLeaf();
                int level = rp.level();
                ap.init(leaf ? BtreePage.LEAF : BtreePage.INTERNAL, level);
                int n = rp.count();
                for (int i = 0; i < n; i++) {
                    if (leaf) {
                        ap.insertLeaf(i, rp.key(i), rp.data(i));
                    } else {
                        ap.insertInternal(i, rp.key(i), rp.child(i));
                    }
                }
                byte[] sep = halve(ap, bpg);
                rp.init(BtreePage.INTERNAL, level + 1);
                rp.insertInternal(0, new byte[0], a.pageNo());
                rp.insertInternal(1, sep, b.pageNo());
                log.image(a);
                log.image(b);
                log.image(root);
            } finally {
                b.unlatch();
                a.unlatch();
                root.unlatch();
            }
        } finally {
            bm.unpin(b, true);
            bm.unpin(a, true);
        }
    }

    // ------------------------------------------------------------------ positioned reads (cursors)

    /**
     * The entry with the least key &gt;= {@code key} ({@code inclusive}) or &gt; it, or null;
     * {@code key} null means the first entry. Locks the leaves it reads (READ, kept).
     */
    byte[][] ceiling(byte[] key, boolean inclusive, Protection prot) {
        Position p = seek(key, inclusive, prot);
        return p == null ? null : new byte[][] {p.key(), p.data()};
    }

    /** A cursor position: the entry and where it was seen (a hint for the next step). */
    record Position(byte[] key, byte[] data, long page, int slot) {
    }

    /**
     * The entry after {@code at} in key order, or null. Cheap when {@code at}'s leaf still has
     * its key in the same slot (one page visit, no descent); otherwise a descent. Correct either
     * way: inserts after the slot or deletes of the following entry show up, and any other change
     * of the page makes the check fail and the search start from the root.
     */
    Position next(Position at, Protection prot) {
        if (at.page() != 0) {
            Page p = bm.get(file, at.page(), 0);
            long right = -1;
            try {
                p.latch();
                try {
                    BtreePage bp = new BtreePage(p);
                    if (bp.type() == BtreePage.LEAF && at.slot() < bp.count()
                            && java.util.Arrays.equals(bp.key(at.slot()), at.key())) {
                        int i = at.slot() + 1;
                        if (i < bp.count()) {
                            return new Position(bp.key(i), load(bp.data(i)), at.page(), i);
                        }
                        right = bp.rightLink();
                    }
                } finally {
                    p.unlatch();
                }
            } finally {
                bm.unpin(p, false);
            }
            if (right == 0) {
                return null;
            }
            while (right > 0) { // the first entry of the next non-empty leaf
                prot.lock(right, LockMode.READ);
                Page r = bm.get(file, right, 0);
                try {
                    r.latch();
                    try {
                        BtreePage bp = new BtreePage(r).check("cursor");
                        if (bp.count() > 0) {
                            return new Position(bp.key(0), load(bp.data(0)), right, 0);
                        }
                        right = bp.rightLink();
                    } finally {
                        r.unlatch();
                    }
                } finally {
                    bm.unpin(r, false);
                }
            }
            if (right == 0) {
                return null;
            }
        }
        return seek(at.key(), false, prot);
    }

    /** The entry with the least key &gt;= (inclusive) or &gt; {@code key} (null: the first), with its place. */
    Position seek(byte[] key, boolean inclusive, Protection prot) {
        byte[] start = key == null ? new byte[0] : key;
        Page p = key == null ? leftmost(prot) : findLeaf(start, prot, LockMode.READ, null);
        while (true) {
            long right;
            long pageNo = p.pageNo();
            p.latch();
            try {
                BtreePage bp = new BtreePage(p);
                int i = key == null ? 0 : bp.lowerBound(key, cmp);
                if (!inclusive && key != null && i < bp.count() && bp.compareAt(i, key, cmp) == 0) {
                    i++;
                }
                if (i < bp.count()) {
                    return new Position(bp.key(i), load(bp.data(i)), pageNo, i);
                }
                right = bp.rightLink();
            } finally {
                p.unlatch();
                bm.unpin(p, false);
            }
            if (right == 0) {
                return null;
            }
            prot.lock(right, LockMode.READ);
            p = bm.get(file, right, 0);
        }
    }

    /** The leftmost leaf, READ-locked and pinned. */
    private Page leftmost(Protection prot) {
        long pageNo = ROOT;
        prot.lock(pageNo, LockMode.READ);
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            long child;
            p.latch();
            try {
                BtreePage bp = new BtreePage(p).check("descent");
                if (bp.isLeaf()) {
                    return p;
                }
                child = bp.child(0);
            } finally {
                if (p.isLatched()) {
                    p.unlatch();
                }
            }
            bm.unpin(p, false);
            prot.unlock(pageNo);
            prot.lock(child, LockMode.READ);
            pageNo = child;
        }
    }

    /**
     * The entry with the greatest key &lt; {@code key} (null: the last entry), or null. A B-link
     * tree has no left links: each level's search remembers the subtree left of its path, and
     * the greatest key is taken from the leaf reached, or else from the rightmost leaf of that
     * subtree (moving right along its level for entries split off since).
     */
    byte[][] floorBelow(byte[] key, Protection prot) {
        long pageNo = ROOT;
        long leftSubtree = 0;
        prot.lock(pageNo, LockMode.READ);
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            long next;
            p.latch();
            try {
                BtreePage bp = new BtreePage(p).check("descent");
                if (key != null && bp.beyondHighKey(key, cmp)) {
                    next = bp.rightLink();
                } else if (bp.isLeaf()) {
                    int i = key == null ? bp.count() : bp.lowerBound(key, cmp);
                    if (i > 0) {
                        return new byte[][] {bp.key(i - 1), load(bp.data(i - 1))};
                    }
                    next = 0;
                } else {
                    int c = key == null ? bp.count() - 1 : bp.childSlot(key, cmp);
                    if (c > 0) {
                        leftSubtree = bp.child(c - 1);
                    }
                    next = bp.child(c);
                }
            } finally {
                p.unlatch();
                bm.unpin(p, false);
            }
            if (next == 0) {
                prot.unlock(pageNo);
                break;
            }
            prot.unlock(pageNo); // not coupled; a leaf moved away from is not needed either
            prot.lock(next, LockMode.READ);
            pageNo = next;
        }
        if (leftSubtree == 0) {
            return null;
        }
        // The greatest entry below key in the remembered subtree: its last entry before key.
        return lastIn(leftSubtree, key, prot);
    }

    /** The greatest entry &lt; key (key null: any) in the subtree rooted at {@code pageNo}. */
    private byte[][] lastIn(long pageNo, byte[] key, Protection prot) {
        prot.lock(pageNo, LockMode.READ);
        byte[][] best = null;
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            long next;
            boolean leaf;
            p.latch();
            try {
                BtreePage bp = new BtreePage(p).check("descent");
                leaf = bp.isLeaf();
                if (leaf) {
                    int i = key == null ? bp.count() : bp.lowerBound(key, cmp);
                    if (i > 0) {
                        best = new byte[][] {bp.key(i - 1), load(bp.data(i - 1))};
                    }
                    // Entries split off to the right since the parent was read may still be below key.
                    byte[] hk = bp.highKey();
                    next = hk != null && (key == null || cmp.compare(hk, key) < 0) ? bp.rightLink() : 0;
                } else {
                    byte[] hk = bp.highKey();
                    if (hk != null && (key == null || cmp.compare(hk, key) < 0)) {
                        next = bp.rightLink(); // the subtree's right part moved right
                        leaf = true; // stay on this level
                        p.unlatch();
                        bm.unpin(p, false);
                        prot.unlock(pageNo);
                        prot.lock(next, LockMode.READ);
                        pageNo = next;
                        continue;
                    }
                    int c = key == null ? bp.count() - 1 : Math.max(0, bp.childSlot(key, cmp));
                    next = bp.child(c);
                }
            } finally {
                if (p.isLatched()) {
                    p.unlatch();
                    bm.unpin(p, false);
                }
            }
            if (next == 0) {
                return best;
            }
            if (!leaf) {
                prot.unlock(pageNo);
            }
            prot.lock(next, LockMode.READ);
            pageNo = next;
        }
    }

    // ------------------------------------------------------------------ scans and statistics

    /** Visits every (key, data) in order from the first key &gt;= {@code from} (null: the first). */
    void scan(byte[] from, Protection prot, java.util.function.BiPredicate<byte[], byte[]> visitor) {
        byte[] start = from == null ? new byte[0] : from;
        Page p = findLeaf(start, prot, LockMode.READ, null);
        while (true) {
            BtreePage bp = new BtreePage(p);
            List<byte[][]> entries = new ArrayList<>();
            long right;
            p.latch(); // copied under the latch; the visitor runs without it (it may call back in)
            try {
                int i = from == null ? 0 : bp.lowerBound(from, cmp);
                for (; i < bp.count(); i++) {
                    entries.add(new byte[][] {bp.key(i), load(bp.data(i))});
                }
                right = bp.rightLink();
            } finally {
                p.unlatch();
            }
            bm.unpin(p, false);
            for (byte[][] e : entries) {
                if (!visitor.test(e[0], e[1])) {
                    return;
                }
            }
            if (right == 0) {
                return;
            }
            prot.lock(right, LockMode.READ); // leaf locks are kept
            p = bm.get(file, right, 0);
        }
    }

    /** Structure statistics: {levels, pages, entries, leafPages, usedBytesPercent}. */
    record Stats(int levels, long pages, long entries, long leafPages, double leafFill) {
    }

    Stats stats() {
        Page r = bm.get(file, ROOT, 0);
        int levels = new BtreePage(r).level() + 1;
        bm.unpin(r, false);
        long entries = 0;
        long leaves = 0;
        long used = 0;
        long pageNo = leftmostLeaf();
        while (pageNo != 0) {
            Page p = bm.get(file, pageNo, 0);
            BtreePage bp = new BtreePage(p);
            entries += bp.count();
            leaves++;
            used += bm.pageSize() - bp.freeTotal();
            pageNo = bp.rightLink();
            bm.unpin(p, false);
        }
        return new Stats(levels, bm.pageCount(file), entries, leaves,
                leaves == 0 ? 0 : 100.0 * used / (leaves * (double) bm.pageSize()));
    }

    private long leftmostLeaf() {
        long pageNo = ROOT;
        while (true) {
            Page p = bm.get(file, pageNo, 0);
            BtreePage bp = new BtreePage(p);
            boolean leaf = bp.isLeaf();
            long next = leaf ? pageNo : bp.child(0);
            bm.unpin(p, false);
            if (leaf) {
                return pageNo;
            }
            pageNo = next;
        }
    }

    /**
     * Checks the structure: key order on every page, every key within its page's bounds, right
     * links and high keys consistent level by level, children at the level below. Returns the
     * problems found (empty if none). Reads without locks: run it when no one writes.
     */
    List<String> verify() {
        List<String> problems = new ArrayList<>();
        try {
            Page r = bm.get(file, ROOT, 0);
            int top = new BtreePage(r).level();
            bm.unpin(r, false);
            long first = ROOT;
            for (int level = top; level >= 0; level--) {
                long pageNo = first;
                byte[] prevHigh = null;
                long nextFirst = 0;
                while (pageNo != 0) {
                    Page p = bm.get(file, pageNo, 0);
                    try {
                        BtreePage bp = new BtreePage(p).check("verify");
                        if (bp.level() != level) {
                            problems.add("page " + pageNo + " at level " + bp.level() + ", expected " + level);
                        }
                        byte[] prev = null;
                        for (int i = (bp.isLeaf() ? 0 : 1); i < bp.count(); i++) {
                            byte[] k = bp.key(i);
                            if (prev != null && cmp.compare(prev, k) >= 0) {
                                problems.add("page " + pageNo + ": keys out of order at slot " + i);
                            }
                            if (prevHigh != null && cmp.compare(k, prevHigh) < 0) {
                                problems.add("page " + pageNo + ": key at slot " + i + " below the left sibling's high key");
                            }
                            prev = k;
                        }
                        byte[] hk = bp.highKey();
                        if (hk != null && prev != null && cmp.compare(prev, hk) >= 0) {
                            problems.add("page " + pageNo + ": a key at or above its high key");
                        }
                        if ((hk == null) != (bp.rightLink() == 0)) {
                            problems.add("page " + pageNo + ": high key and right link disagree");
                        }
                        if (nextFirst == 0 && !bp.isLeaf()) {
                            nextFirst = bp.child(0);
                        }
                        prevHigh = hk;
                        pageNo = bp.rightLink();
                    } finally {
                        bm.unpin(p, false);
                    }
                }
                first = nextFirst;
            }
        } catch (RuntimeException e) {
            problems.add(e.toString());
        }
        return problems;
    }

    /** The key order name recorded in file {@code file}'s meta page (null: unsigned bytes). */
    static String orderName(BufferManager bm, int file) {
        Page m = bm.get(file, META_PAGE, 0);
        try {
            m.latch();
            try {
                if (m.type() != BtreePage.META) {
                    throw new org.libtp.core.CorruptionException("page 0 of file id " + file + " is not a B-tree meta page");
                }
                int n = m.getShort(OFF_ORDER);
                if (n > 64) {
                    throw new org.libtp.core.CorruptionException("B-tree meta page of file id " + file
                            + " names a key order of " + n + " bytes");
                }
                return n == 0 ? null : new String(m.getBytes(OFF_ORDER + 2, n), java.nio.charset.StandardCharsets.UTF_8);
            } finally {
                m.unlatch();
            }
        } finally {
            bm.unpin(m, false);
        }
    }

    /** The comparator for order {@code name} (null: unsigned bytes); unregistered names fail clearly. */
    static Comparator<byte[]> resolve(String name, java.util.function.Function<String, Comparator<byte[]>> orders, int file) {
        if (name == null) {
            return DEFAULT_ORDER;
        }
        Comparator<byte[]> c = orders.apply(name);
        if (c == null) {
            throw new IllegalStateException("the B-tree in file id " + file + " orders its keys by '" + name
                    + "', which is not registered: register it with EnvironmentConfig.Builder.keyOrder in every process");
        }
        return c;
    }

    // ------------------------------------------------------------------ values: inline or overflow

    /** First byte of a stored value: the value follows. */
    static final byte INLINE = 0;
    /** First byte of a stored value: u64 first overflow page, u32 length follow. */
    static final byte OVERFLOW = 1;
    /** Overflow page: u64 next page (0 = last) at 32, u32 bytes used at 40, the bytes from 48. */
    static final int OFF_OVF_NEXT = 32;
    static final int OFF_OVF_USED = 40;
    static final int OFF_OVF_DATA = 48;

    /**
     * The bytes a leaf stores for {@code value}: a tag byte and the value when the entry fits a
     * quarter page; else the value goes to a chain of overflow pages (written and, in TP mode,
     * logged as redo-only images first) and the leaf stores a reference. Overflow pages are not
     * reclaimed when the entry goes (nor when a transaction that wrote them aborts).
     */
    byte[] store(byte[] key, byte[] value, BtreeLog log) {
        if (BtreePage.leafCellSize(key.length, 1 + value.length) <= maxEntry) {
            byte[] s = new byte[1 + value.length];
            s[0] = INLINE;
            System.arraycopy(value, 0, s, 1, value.length);
            return s;
        }
        int per = bm.pageSize() - OFF_OVF_DATA;
        int pages = (value.length + per - 1) / per;
        long next = 0;
        for (int k = pages - 1; k >= 0; k--) { // last page first, so each can link to the next
            Page p = bm.allocate(file);
            try {
                p.latch();
                try {
                    int from = k * per;
                    int n = Math.min(per, value.length - from);
                    p.setType(BtreePage.OVERFLOW);
                    p.putLong(OFF_OVF_NEXT, next);
                    p.putInt(OFF_OVF_USED, n);
                    p.putBytes(OFF_OVF_DATA, value, from, n);
                    log.image(p);
                    next = p.pageNo();
                } finally {
                    p.unlatch();
                }
            } finally {
                bm.unpin(p, true);
            }
        }
        return java.nio.ByteBuffer.allocate(13).put(OVERFLOW).putLong(next).putInt(value.length).array();
    }

    /** The value of stored bytes: inline, or read from its overflow chain. */
    byte[] load(byte[] stored) {
        if (stored.length == 0) {
            throw new org.libtp.core.CorruptionException("an empty stored value in file id " + file);
        }
        if (stored[0] == INLINE) {
            return java.util.Arrays.copyOfRange(stored, 1, stored.length);
        }
        if (stored[0] != OVERFLOW || stored.length != 13) {
            throw new org.libtp.core.CorruptionException("a stored value in file id " + file + " has tag " + stored[0]);
        }
        java.nio.ByteBuffer ref = java.nio.ByteBuffer.wrap(stored, 1, 12);
        long pageNo = ref.getLong();
        int length = ref.getInt();
        byte[] out = new byte[length];
        int at = 0;
        while (at < length) {
            if (pageNo == 0) {
                throw new org.libtp.core.CorruptionException("the overflow chain of a value in file id " + file
                        + " ends after " + at + " of " + length + " bytes");
            }
            Page p = bm.get(file, pageNo, 0);
            try {
                p.latch();
                try {
                    int n = p.getInt(OFF_OVF_USED);
                    if (p.type() != BtreePage.OVERFLOW || n < 0 || n > length - at || n > p.size() - OFF_OVF_DATA) {
                        throw new org.libtp.core.CorruptionException("overflow page " + pageNo + " of file id " + file
                                + " is damaged (type " + p.type() + ", " + n + " bytes used)");
                    }
                    p.getBytes(OFF_OVF_DATA, out, at, n);
                    at += n;
                    pageNo = p.getLong(OFF_OVF_NEXT);
                } finally {
                    p.unlatch();
                }
            } finally {
                bm.unpin(p, false);
            }
        }
        return out;
    }

    /** Unsigned lexicographic byte order (as memcmp); one instance, so pages can recognize it. */
    static final Comparator<byte[]> DEFAULT_ORDER = Arrays::compareUnsigned;

    static Comparator<byte[]> defaultComparator() {
        return DEFAULT_ORDER;
    }
}
