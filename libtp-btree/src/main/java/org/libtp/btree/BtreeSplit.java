package org.libtp.btree;

import org.libtp.core.buffer.Page;
import org.libtp.core.lock.LockMode;

/**
 * Splits of the B-link tree (Lehman and Yao; the paper's footnote 5): a full leaf split in two
 * with its new entry, the separator posted to the parent level (splitting it in turn, coupled on
 * the way up: the parent is locked before the child is released), and the root split in place so
 * that its page number never changes. Split pages and internal updates are logged as redo-only
 * images ({@link BtreeLog#image}); the new leaf entry as a logical insert after them.
 *
 * <p>Pages at a level are found from the root ({@link #findLevel}: each page READ-locked while it
 * is read, one at a time, moving right past high keys), then WRITE-locked for their update.
 */
final class BtreeSplit {
    private final Btree tree;

    BtreeSplit(Btree tree) {
        this.tree = tree;
    }

    /**
     * Splits full leaf {@code left} (pinned, write-locked, not latched), inserts (key, data) into
     * the proper half, and posts the separator to the parent level.
     */
    void splitAndInsert(Page left, byte[] key, byte[] data, Protection prot, BtreeLog log) {
        if (left.pageNo() == Btree.ROOT) {
            splitRoot(left, prot, log);
            // The root is now internal: insert again from the top. With entries of up to half a
            // page the half the new one goes to may still be too full: split it as any leaf.
            Page p = tree.findLeaf(key, prot, LockMode.WRITE, null);
            try (PinnedPage h = PinnedPage.of(tree.bm, p).dirty().latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.freeTotal() >= BtreePage.leafCellSize(key.length, data.length) + 2) {
                    int i = bp.lowerBound(key, tree.cmp);
                    log.leafInsert(p, i, key, data);
                    bp.insertLeaf(i, key, data);
                    return;
                }
                h.unlatch();
                splitAndInsert(p, key, data, prot, log); // pinned by h, write-locked, not latched
            }
            return;
        }
        Page right = tree.allocate(log);
        prot.lock(right.pageNo(), LockMode.WRITE); // new: nobody waits; kept like any leaf lock
        byte[] separator;
        try (PinnedPage hr = PinnedPage.of(tree.bm, right).dirty()) {
            left.latch(); // the caller's page: it unpins it
            try {
                hr.latch();
                BtreePage l = new BtreePage(left);
                BtreePage r = new BtreePage(right);
                int at = l.lowerBound(key, tree.cmp);
                Split sp = splitPage(l, r, at, key, data, 0);
                separator = sp.separator();
                log.image(right);
                log.image(left);
                BtreePage target = sp.newGoesRight() ? r : l;
                Page tp = target == l ? left : right;
                int i = target.lowerBound(key, tree.cmp);
                log.leafInsert(tp, i, key, data);
                target.insertLeaf(i, key, data);
            } finally {
                hr.unlatch();
                left.unlatch();
            }
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
        int room = tree.bm.pageSize() - BtreePage.OFF_SLOTS;
        int rightHigh = oldHigh == null ? 0 : 2 + oldHigh.length;
        int k = -1;
        int total = 0;
        for (int j = 0; j < m; j++) {
            total += size[j];
        }
        if (at == n && (oldHigh == null || leaf) && total - size[n] + 2 + newKey.length <= room) {
            // Appending at the end of a page (the rightmost, or a leaf below its high key, as
            // when ascending keys fill a gap between existing ones): l stays full, the new entry
            // opens r. Sorted loads then leave full pages (paper footnote 5).
            k = n;
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
            target.insertInternal(target.childSlot(newKey, tree.cmp) + 1, newKey, newChild);
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
        boolean rootSplit = false;
        try {
            byte[] up = null; // p split: the separator of its new right sibling, for the level above
            long upChild = 0;
            try (PinnedPage h = PinnedPage.of(tree.bm, p).dirty()) {
                BtreePage bp = new BtreePage(h.latch().page());
                if (bp.freeTotal() >= BtreePage.internalCellSize(separator.length) + 2) {
                    bp.insertInternal(bp.childSlot(separator, tree.cmp) + 1, separator, child);
                    log.image(p);
                    return;
                }
                h.unlatch();
                if (pageNo == Btree.ROOT) {
                    splitRoot(p, prot, log);
                    rootSplit = true;
                } else {
                    Page right = tree.allocate(log);
                    try (PinnedPage hr = PinnedPage.of(tree.bm, right).dirty()) {
                        h.latch();
                        hr.latch();
                        BtreePage r = new BtreePage(right);
                        int at = bp.childSlot(separator, tree.cmp) + 1;
                        up = splitPage(bp, r, at, separator, null, child).separator();
                        log.image(right);
                        log.image(p);
                        upChild = right.pageNo();
                    }
                }
            }
            if (up != null) {
                // Coupled on the way up: the parent is locked (in postSeparator) before this page is released.
                postSeparator(up, upChild, level + 1, prot, log);
            }
        } finally {
            prot.unlock(pageNo);
        }
        if (rootSplit) {
            postSeparator(separator, child, level, prot, log); // the root is a level higher now
        }
    }

    /** The write-locked, pinned page at {@code level} covering {@code key}. */
    Page findLevel(byte[] key, int level, Protection prot) {
        long pageNo = Btree.ROOT;
        LockMode mode = LockMode.READ;
        prot.lock(pageNo, mode);
        while (true) {
            BtreePage bp;
            boolean free;
            int lv = 0;
            boolean beyond = false;
            long right = 0;
            long child = 0;
            // Only the page it returns stays pinned past this block.
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                bp = new BtreePage(h.page());
                free = bp.isFree();
                if (!free) {
                    bp.check("ascent");
                    lv = bp.level();
                    beyond = bp.beyondHighKey(key, tree.cmp);
                    right = bp.rightLink();
                    if (lv > level && !beyond) {
                        child = bp.child(bp.childSlot(key, tree.cmp));
                    }
                    if (lv == level && mode == LockMode.WRITE && !beyond) {
                        return h.release(); // write-locked, pinned, not latched
                    }
                }
            }
            if (free) { // unlinked since the pointer to it was read: start again
                prot.unlock(pageNo);
                pageNo = Btree.ROOT;
                mode = LockMode.READ;
                prot.lock(pageNo, mode);
                continue;
            }
            if (lv == level && mode == LockMode.READ) {
                prot.lock(pageNo, LockMode.WRITE);
                prot.unlock(pageNo);
                mode = LockMode.WRITE;
                continue;
            }
            if (beyond) {
                prot.lock(right, mode);
                prot.unlock(pageNo);
                pageNo = right;
                continue;
            }
            if (lv < level) {
                RuntimeException e = bp.corrupt("level " + lv + " reached looking for level " + level);
                prot.unlock(pageNo);
                throw e;
            }
            boolean target = lv - 1 == level;
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
        try (PinnedPage ha = PinnedPage.of(tree.bm, tree.allocate(log)).dirty();
             PinnedPage hb = PinnedPage.of(tree.bm, tree.allocate(log)).dirty()) {
            Page a = ha.page();
            Page b = hb.page();
            if (new BtreePage(root).isLeaf()) {
                // The root leaf's records, this transaction's uncommitted ones among them, move to
                // a and b: the root's WRITE lock, held to commit, must move with them, or another
                // transaction could change a neighbour of a record this one may still roll back.
                // New pages, so nobody waits; internal pages are not held to commit.
                prot.lock(a.pageNo(), LockMode.WRITE);
                prot.lock(b.pageNo(), LockMode.WRITE);
            }
            root.latch(); // the caller's page: it unpins it
            try {
                ha.latch();
                hb.latch();
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
                hb.unlatch();
                ha.unlatch();
                root.unlatch();
            }
        }
    }
}
