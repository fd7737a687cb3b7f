package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.Page;
import org.libtp.core.lock.LockMode;

import java.util.ArrayList;
import java.util.List;

import static org.libtp.btree.Btree.*;

/**
 * The B-tree's positioned reads (its own room): what cursors and scans use — the first entry at
 * or after a key, the next one after a position, the greatest key below another (a B-link tree
 * has no left links), and scans in key order. Each read locks the leaves it returns entries from
 * (READ, to the end of the transaction) and reads internal pages under their latch only.
 */
final class BtreeNavigation {
    private final Btree tree;

    BtreeNavigation(Btree tree) {
        this.tree = tree;
    }

    /**
     * The entry with the least key &gt;= {@code key} ({@code inclusive}) or &gt; it, or null;
     * {@code key} null means the first entry. Locks the leaves it reads (READ, kept).
     */
    byte[][] ceiling(byte[] key, boolean inclusive, Protection prot) {
        Position p = seek(key, inclusive, prot);
        return p == null ? null : new byte[][] {p.key(), p.data()};
    }

    /**
     * The entry after {@code at} in key order, or null. Cheap when {@code at}'s leaf still has
     * its key in the same slot (one page visit, no descent); otherwise a descent. Correct either
     * way: inserts after the slot or deletes of the following entry show up, and any other change
     * of the page makes the check fail and the search start from the root.
     */
    Position next(Position at, Protection prot) {
        if (at.page() != 0) {
            long right = -1;
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, at.page()).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.type() == BtreePage.LEAF && at.slot() < bp.count()
                        && java.util.Arrays.equals(bp.key(at.slot()), at.key())) {
                    int i = at.slot() + 1;
                    if (i < bp.count()) {
                        return new Position(bp.key(i), tree.load(bp.data(i)), at.page(), i);
                    }
                    right = bp.rightLink();
                }
            }
            if (right == 0) {
                return null;
            }
            java.util.Set<Long> seen = new java.util.HashSet<>();
            while (right > 0) { // the first entry of the next non-empty leaf
                checkNotSeen(seen, right);
                prot.lock(right, LockMode.READ);
                try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, right).latch()) {
                    BtreePage bp = new BtreePage(h.page());
                    if (bp.isFree()) {
                        right = -1; // unlinked meanwhile: search from the root
                        break;
                    }
                    bp.check("cursor");
                    if (bp.count() > 0) {
                        return new Position(bp.key(0), tree.load(bp.data(0)), right, 0);
                    }
                    right = bp.rightLink();
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
        Page p = key == null ? leftmost(prot) : tree.findLeaf(start, prot, LockMode.READ, null);
        java.util.Set<Long> seen = new java.util.HashSet<>();
        int restarts = 0;
        while (true) {
            long right = 0;
            long pageNo = p.pageNo();
            boolean free;
            try (PinnedPage h = PinnedPage.of(tree.bm, p).latch()) {
                BtreePage bp = new BtreePage(h.page());
                free = bp.isFree();
                if (!free) {
                    bp.check("cursor");
                    int i = key == null ? 0 : bp.lowerBound(key, tree.cmp);
                    if (!inclusive && key != null && i < bp.count() && bp.compareAt(i, key, tree.cmp) == 0) {
                        i++;
                    }
                    if (i < bp.count()) {
                        return new Position(bp.key(i), tree.load(bp.data(i)), pageNo, i);
                    }
                    right = bp.rightLink();
                }
            }
            if (free) { // moved right onto a page unlinked meanwhile: start again
                prot.unlock(pageNo);
                if (++restarts > MAX_DESCENT_STEPS) { // a leaf that reads as free wherever it is reached from
                    throw new CorruptionException("a cursor of " + tree.bm.describe(tree.file) + " found page " + pageNo
                            + " free each of " + MAX_DESCENT_STEPS + " times it came to it: run verify, and restore "
                            + "from a backup");
                }
                p = key == null ? leftmost(prot) : tree.findLeaf(start, prot, LockMode.READ, null);
                seen.clear();
                continue;
            }
            if (right == 0) {
                return null;
            }
            seen.add(pageNo);
            checkNotSeen(seen, right);
            prot.lock(right, LockMode.READ);
            p = tree.bm.get(tree.file, right, 0);
        }
    }

    /** A walk along the leaf level that comes back to a page: right-sibling links in a circle. */
    private void checkNotSeen(java.util.Set<Long> seen, long pageNo) {
        if (!seen.add(pageNo)) {
            throw new CorruptionException("the right-sibling links of the leaves of " + tree.bm.describe(tree.file)
                    + " come back to page " + pageNo + ": run verify, and restore from a backup");
        }
    }

    /** The leftmost leaf, READ-locked and pinned; internal pages are not locked (see tree.findLeaf). */
    private Page leftmost(Protection prot) {
        long pageNo = ROOT;
        boolean locked = false;
        while (true) {
            boolean free;
            boolean leaf = false;
            long child = 0;
            boolean childIsLeaf = false;
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                BtreePage bp = new BtreePage(h.page());
                free = bp.isFree();
                if (!free) {
                    bp.check("descent");
                    leaf = bp.isLeaf();
                    if (!leaf) {
                        child = bp.child(0);
                        childIsLeaf = bp.level() == 1;
                    }
                }
                if (leaf && locked) {
                    return h.release(); // the leaf, READ-locked, pinned, not latched
                }
            }
            if (leaf) { // the root is a leaf: lock it and look again
                prot.lock(pageNo, LockMode.READ);
                locked = true;
                continue;
            }
            if (locked) {
                prot.unlock(pageNo); // unlinked meanwhile, or the root leaf split
                locked = false;
            }
            if (free) {
                pageNo = ROOT;
                continue;
            }
            if (childIsLeaf) {
                prot.lock(child, LockMode.READ);
                locked = true;
            }
            pageNo = child;
        }
    }

    /**
     * The entry with the greatest key &lt; {@code key} (null: the last entry), or null. A B-link
     * tree has no left links, so a descent keeps the low bound of the page it is on (the
     * separator it came down by, or the high key of the page it moved right from): if the leaf
     * reached holds no key below {@code key} (its keys were deleted, or moved right by a split),
     * every key below is below that bound too, and the search starts again from the root for it.
     * Each new bound is strictly lower than the last, so the search ends. (Before, it looked only
     * in the rightmost leaf of the subtree left of its path and stopped at an empty one.)
     */
    byte[][] floorBelow(byte[] key, Protection prot) {
        byte[] bound = key;
        for (long round = 1; ; round++) {
            Object r = floorOnce(bound, prot);
            if (r == null || r instanceof byte[][]) {
                return (byte[][]) r;
            }
            if (r != AGAIN) {
                byte[] low = (byte[]) r; // nothing below bound in its leaf: look below the leaf's low bound
                // separators out of order (damage) would give a bound not lower, and no end
                if (bound != null && tree.cmp.compare(low, bound) >= 0) {
                    throw new CorruptionException("B-tree " + tree.bm.describe(tree.file) + " is damaged: a search "
                            + "for the key below another met a leaf whose low bound is not below it (separators "
                            + "out of order); run verify, and restore from a backup");
                }
                bound = low;
            }
            checkSteps(round, "search for the key below another");
        }
    }

    /**
     * A walk of more steps than the file has pages goes round a cycle of damaged links (a child
     * or right link to a page already visited): corruption, not an endless loop.
     */
    private void checkSteps(long steps, String what) {
        if (steps > 64 && steps > tree.bm.pageCount(tree.file) + 64) {
            throw new CorruptionException("B-tree " + tree.bm.describe(tree.file) + " is damaged: a " + what
                    + " took " + steps + " steps, more than the file has pages (links going round a cycle); "
                    + "run verify, and restore from a backup");
        }
    }

    /** floorOnce met a page unlinked meanwhile: search again for the same bound. */
    private static final Object AGAIN = new Object();

    /**
     * One descent for {@link #floorBelow}: the entry {key, data} with the greatest key &lt;
     * {@code key} in the leaf covering the keys just below {@code key}; else that leaf's low bound
     * (a byte[]: nothing in the leaf is below {@code key}), null if the leaf is the leftmost, or
     * {@link #AGAIN}. The leaf's READ lock is kept when an entry is returned.
     */
    private Object floorOnce(byte[] key, Protection prot) {
        long pageNo = ROOT;
        byte[] low = null; // the current page's low bound: null = minus infinity
        prot.lock(pageNo, LockMode.READ);
        for (long step = 1; ; step++) {
            checkSteps(step, "descent");
            long next;
            byte[] nextLow;
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isFree()) { // unlinked since the pointer to it was read
                    next = -1;
                    nextLow = null;
                } else {
                    bp.check("descent");
                    byte[] hk = bp.highKey();
                    if (hk != null && key != null && tree.cmp.compare(key, hk) > 0) {
                        // Keys below key may lie right of this page (a split since the parent was
                        // read); at key == hk every key below it is here or further left.
                        next = bp.rightLink();
                        nextLow = hk;
                    } else if (bp.isLeaf()) {
                        int i = key == null ? bp.count() : bp.lowerBound(key, tree.cmp);
                        if (i > 0) {
                            return new byte[][] {bp.key(i - 1), tree.load(bp.data(i - 1))};
                        }
                        next = 0;
                        nextLow = low;
                    } else {
                        int c = key == null ? bp.count() - 1 : bp.childSlot(key, tree.cmp);
                        if (c > 0 && key != null && tree.cmp.compare(bp.key(c), key) == 0) {
                            c--; // keys below a separator equal to key are in the child before it
                        }
                        next = bp.child(c);
                        nextLow = c == 0 ? low : bp.key(c);
                    }
                }
            }
            prot.unlock(pageNo); // not coupled; a page moved away from is not needed either
            if (next == -1) {
                return AGAIN;
            }
            if (next == 0) {
                return nextLow;
            }
            prot.lock(next, LockMode.READ);
            pageNo = next;
            low = nextLow;
        }
    }

    /** Visits every (key, data) in order from the first key &gt;= {@code from} (null: the first). */
    void scan(byte[] from, Protection prot, java.util.function.BiPredicate<byte[], byte[]> visitor) {
        byte[] start = from == null ? new byte[0] : from;
        Page p = tree.findLeaf(start, prot, LockMode.READ, null);
        byte[] last = null; // the last key visited: a restart resumes after it
        while (true) {
            List<byte[][]> entries = new ArrayList<>();
            long right;
            boolean restart = false;
            // Copied under the latch; the visitor runs without it (it may call back in).
            try (PinnedPage h = PinnedPage.of(tree.bm, p).latch()) {
                BtreePage bp = new BtreePage(h.page());
                if (bp.isFree()) {
                    restart = true;
                    right = 0;
                } else {
                    bp.check("scan");
                    int i = last != null ? bp.lowerBound(last, tree.cmp) : from == null ? 0 : bp.lowerBound(from, tree.cmp);
                    for (; i < bp.count(); i++) {
                        byte[] k = bp.key(i);
                        if (last == null || tree.cmp.compare(k, last) > 0) {
                            entries.add(new byte[][] {k, tree.load(bp.data(i))});
                        }
                    }
                    right = bp.rightLink();
                }
            }
            if (restart) { // moved right onto a page unlinked meanwhile
                prot.unlock(p.pageNo());
                p = tree.findLeaf(last != null ? last : start, prot, LockMode.READ, null);
                continue;
            }
            for (byte[][] e : entries) {
                last = e[0];
                if (!visitor.test(e[0], e[1])) {
                    return;
                }
            }
            if (right == 0) {
                return;
            }
            prot.lock(right, LockMode.READ); // leaf locks are kept
            p = tree.bm.get(tree.file, right, 0);
        }
    }
}
