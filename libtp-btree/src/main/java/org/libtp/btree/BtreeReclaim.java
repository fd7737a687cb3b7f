package org.libtp.btree;

import org.libtp.core.buffer.Page;
import org.libtp.core.lock.LockMode;

import java.util.ArrayList;
import java.util.List;

import static org.libtp.btree.Btree.*;
import static org.libtp.btree.BtreeMeta.*;

/**
 * The B-tree's page reclamation (its own room): leaves that deletes emptied are unlinked once
 * that is committed, with the internal entries that pointed to them, and their pages go to the
 * free list; {@link #compact} does the same for every empty leaf a crash or a refused reclaim
 * left behind. The protocol (locks, latches, the order of the redo-only images) is below.
 */
final class BtreeReclaim {
    private final Btree tree;

    BtreeReclaim(Btree tree) {
        this.tree = tree;
    }

    /**
     * Unlinks leaf {@code leafNo}, emptied by a committed delete of {@code key}, and its
     * ancestors that have no other entry: each page's key range goes to its left neighbour at
     * the same level (found through the first ancestor with another entry to its left), and the
     * pages go to the tree.free list. Runs after the deleting transaction committed (TP: in a
     * transaction of its own, see {@link AccessMethods#ended}), so the emptiness is committed and
     * no other transaction's isolation depends on the neighbour's range. The left neighbour leaf
     * is tried next if it is empty too. Skipped (the leaf stays, and inserts in its range use it)
     * when the leaf is leftmost below every ancestor with another entry, when the leaf or an
     * unlinked internal page is locked by another transaction (NOWAIT), or when a new high key
     * does not fit.
     *
     * <p>Locks: a WRITE lock on the meta page's lock object serializes reclaims of a tree (two
     * unlinks of neighbouring pages would both change one right link); the leaf and the internal
     * pages to unlink are write-locked NOWAIT (held to the end: a descent that still reaches one
     * waits, then finds it tree.free and starts again); the ancestor losing the entry is write-locked
     * (found from the root, as a split finds its parent). The left neighbours are changed under
     * their latches only, found by moving right until the page whose right link is the unlinked
     * one (a split of the neighbour may not be posted yet): their range grows over committed
     * emptiness. Logging: redo-only images in an order where every prefix is a valid B-link
     * tree: first the ancestor's entry goes (the pages are then reached only through right
     * links, as after a split not yet posted), then each level's left neighbour takes the
     * unlinked page's high key and right link (top down), then the pages are freed.
     */
    void reclaim(long leafNo, byte[] key, Protection prot, BtreeLog log) {
        prot.lock(META_PAGE, LockMode.WRITE); // waits for another reclaim of this tree (they are short)
        try {
            for (int round = 0; round < 8 && leafNo != 0; round++) {
                leafNo = unlinkEmpty(leafNo, key, prot, log);
            }
        } finally {
            prot.unlock(META_PAGE);
        }
    }

    /** One unlink; returns the left neighbour leaf if it is empty now (to try next), else 0. */
    private long unlinkEmpty(long leafNo, byte[] key, Protection prot, BtreeLog log) {
        if (!prot.tryLock(leafNo, LockMode.WRITE)) {
            return 0; // in use: its emptiness may not be committed, or someone reads its range
        }
        List<Long> locked = new ArrayList<>();
        locked.add(leafNo);
        try {
            if (!isEmptyLeaf(leafNo)) {
                return 0;
            }
            // Levels of single-entry ancestors above the leaf, read from the root (a hint:
            // checked again below under locks).
            int top = singleEntryLevels(key);
            if (top < 0) {
                return 0;
            }
            Page a = tree.findLevel(key, top + 1, prot);
            long aNo = a.pageNo();
            long[] spine = new long[top + 1];
            long leftStart;
            long orphanLeft = 0;
            long orphanStop = 0;
            // The ancestor stays pinned and write-locked until its entry is gone or the unlink
            // is given up: then it is unpinned (dirty once its entry went), and its lock released.
            try (PinnedPage ha = PinnedPage.of(tree.bm, a)) {
                BtreePage ap = new BtreePage(ha.latch().page());
                int j = ap.childSlot(key, tree.cmp);
                if (top == 0 && ap.child(j) != leafNo) {
                    // No entry for the leaf: a split whose separator was never posted (its
                    // process died, or its transaction failed between the two). The entry to
                    // its left covers its range already; only the right link needs changing.
                    orphanLeft = ap.child(j);
                    orphanStop = j + 1 < ap.count() ? ap.child(j + 1) : 0;
                }
                spine[top] = ap.child(j);
                leftStart = j == 0 ? 0 : ap.child(j - 1);
                ha.unlatch();
                if (orphanLeft == 0) {
                    if (j == 0) {
                        return 0; // leftmost below this ancestor: no left neighbour to take the range
                    }
                    for (int level = top; level >= 1; level--) { // the single-entry pages, down to the leaf
                        if (!prot.tryLock(spine[level], LockMode.WRITE)) {
                            return 0;
                        }
                        locked.add(spine[level]);
                        try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, spine[level]).latch()) {
                            BtreePage bp = new BtreePage(h.page());
                            if (bp.type() != BtreePage.INTERNAL || bp.level() != level || bp.count() != 1
                                    || bp.beyondHighKey(key, tree.cmp)) {
                                return 0;
                            }
                            spine[level - 1] = bp.child(0);
                        }
                    }
                    if (spine[0] != leafNo) {
                        return 0;
                    }
                    // 1. The ancestor's entry goes: the pages are reached only through right
                    // links now. Checked again under the latches: a rollback changes pages under
                    // latches only (its splits post separators without locks), so the entry may
                    // have moved.
                    List<PinnedPage> held = new ArrayList<>();
                    boolean unchanged;
                    ha.latch();
                    try {
                        int j2 = ap.childSlot(key, tree.cmp);
                        unchanged = j2 > 0 && ap.child(j2) == spine[top] && ap.child(j2 - 1) == leftStart;
                        for (int level = top; unchanged && level >= 1; level--) {
                            PinnedPage h = PinnedPage.pin(tree.bm, tree.file, spine[level]);
                            held.add(h);
                            BtreePage bp = new BtreePage(h.latch().page());
                            unchanged = bp.type() == BtreePage.INTERNAL && bp.count() == 1
                                    && bp.child(0) == spine[level - 1];
                        }
                        if (unchanged) {
                            ap.delete(j2);
                            log.image(a);
                        }
                    } finally {
                        for (PinnedPage h : held) {
                            h.close();
                        }
                        ha.unlatch();
                    }
                    if (!unchanged) {
                        return 0;
                    }
                    ha.dirty();
                }
            } finally {
                prot.unlock(aNo);
            }
            if (orphanLeft != 0) {
                if (absorb(orphanLeft, leafNo, 0, orphanStop, log) == null) {
                    return 0;
                }
                tree.free(leafNo, log);
                return 0;
            }
            // 2. Each level's left neighbour takes the unlinked page's range, top down.
            int unlinked = top + 1; // the lowest level done
            long start = leftStart;
            long leftLeaf = 0;
            for (int level = top; level >= 0; level--) {
                long[] res = absorb(start, spine[level], level, 0, log);
                if (res == null) {
                    break; // the high key does not fit: the pages below stay linked (still a valid tree)
                }
                unlinked = level;
                start = res[0];
                leftLeaf = res[1];
            }
            // 3. The unlinked pages are tree.free (a descent that still reaches one starts again).
            for (int level = top; level >= unlinked; level--) {
                tree.free(spine[level], log);
            }
            return leftLeaf != 0 && isEmptyLeaf(leftLeaf) ? leftLeaf : 0;
        } finally {
            for (long pageNo : locked) {
                prot.unlock(pageNo); // a descent waiting for one finds it tree.free (and starts again) or as it was
            }
        }
    }
    /**
     * Unlinks the empty leaves (and single-entry ancestors) that {@link #reclaim} skipped or
     * that a crash left behind (between a delete's commit and its reclaim): walks the leaf level
     * and reclaims each empty leaf, using the left neighbour's high key (the leaf's low bound) as
     * a key in its range. Returns the number of pages freed.
     */
    long compact(Protection prot, BtreeLog log) {
        log.ensureSpace(SPLIT_PAGES * tree.bm.pageSize());
        long before = tree.freePages();
        long pageNo = tree.leftmostLeaf();
        byte[] low = null;
        int guard = 0;
        while (pageNo != 0 && guard++ < 10_000_000) {
            long right;
            boolean empty;
            byte[] high;
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isFree()) {
                    pageNo = tree.leftmostLeaf(); // unlinked meanwhile: start again
                    low = null;
                    continue;
                }
                bp.check("compact");
                empty = bp.count() == 0;
                right = bp.rightLink();
                high = bp.highKey();
            }
            if (empty && low != null && pageNo != ROOT) {
                reclaim(pageNo, low, prot, log);
            }
            low = high;
            pageNo = right;
        }
        return tree.freePages() - before;
    }

    /**
     * The page at {@code level} whose right link is {@code target}, found moving right from
     * {@code start}, takes target's high key and right link (under both latches; logged).
     * Returns {its last child (level &gt; 0), its page number}, or null if the high key does not
     * fit or the link is not found before page {@code stop} (0: the end of the level).
     */
    private long[] absorb(long start, long target, int level, long stop, BtreeLog log) {
        long x = start;
        for (int steps = 0; x != 0 && x != stop && steps < 100_000; steps++) {
            long next;
            // Pages walked past are unchanged (unpinned clean): no needless write-back.
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, x).latch()) {
                Page p = h.page();
                BtreePage bp = new BtreePage(p);
                if (bp.isFree()) {
                    return null;
                }
                bp.check("reclaim");
                if (bp.level() != level) {
                    return null;
                }
                next = bp.rightLink();
                if (next == target) {
                    try (PinnedPage ht = PinnedPage.pin(tree.bm, tree.file, target).latch()) {
                        BtreePage tp = new BtreePage(ht.page()).check("reclaim");
                        byte[] high = tp.highKey();
                        byte[] old = bp.highKey();
                        int need = high == null ? 0 : 2 + high.length;
                        if (need > bp.freeTotal() + (old == null ? 0 : 2 + old.length)) {
                            return null;
                        }
                        bp.setHighKey(high);
                        bp.setRightLink(tp.rightLink());
                        log.image(p);
                        h.dirty();
                        return new long[] {level > 0 ? bp.child(bp.count() - 1) : 0, x};
                    }
                }
            }
            x = next;
        }
        return null;
    }

    private boolean isEmptyLeaf(long pageNo) {
        try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
            BtreePage bp = new BtreePage(h.page());
            return bp.isLeaf() && bp.count() == 0;
        }
    }

    /**
     * From the root down by {@code key}, without locks: the number of levels above the leaf whose
     * page has a single entry (0: the leaf's parent has others), or -1 if that reaches the root
     * (or the root is the leaf).
     */
    private int singleEntryLevels(byte[] key) {
        long pageNo = ROOT;
        int top = -1;
        int run = 0;
        while (true) {
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isFree()) {
                    return -1;
                }
                bp.check("reclaim");
                if (top < 0) {
                    top = bp.level();
                }
                if (bp.beyondHighKey(key, tree.cmp)) {
                    pageNo = bp.rightLink();
                    continue;
                }
                if (bp.isLeaf()) {
                    return run >= top ? -1 : run;
                }
                run = bp.count() == 1 ? run + 1 : 0;
                pageNo = bp.child(bp.childSlot(key, tree.cmp));
            }
        }
    }
}
