package org.libtp.btree;


import java.util.ArrayList;
import java.util.List;

import static org.libtp.btree.Btree.*;
import static org.libtp.btree.BtreeMeta.*;

/**
 * The B-tree's statistics and structure check (its own room): levels, entries, leaf fill, the
 * free list; and {@link #verify}: key order, bounds, links and levels page by page, level by
 * level, and the free list. Reads without locks: run {@code verify} when no one writes.
 */
final class BtreeCheck {
    private final Btree tree;

    BtreeCheck(Btree tree) {
        this.tree = tree;
    }

    /** Pages on the free list (walked under the meta latch). */
    long freePages() {
        try (PinnedPage meta = PinnedPage.pin(tree.bm, tree.file, META_PAGE).latch()) {
            long n = 0;
            long limit = tree.bm.pageCount(tree.file);
            for (long x = meta.page().getLong(OFF_FREE_HEAD); x != 0 && n <= limit; n++) {
                try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, x)) {
                    x = h.page().type() == BtreePage.FREE ? h.page().getLong(OFF_FREE_NEXT) : 0;
                }
            }
            return n;
        }
    }

    Stats stats() {
        int levels;
        try (PinnedPage r = PinnedPage.pin(tree.bm, tree.file, ROOT)) {
            levels = new BtreePage(r.page()).level() + 1;
        }
        long entries = 0;
        long leaves = 0;
        long used = 0;
        long pageNo = tree.leftmostLeaf();
        while (pageNo != 0) {
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo)) {
                BtreePage bp = new BtreePage(h.page());
                entries += bp.count();
                leaves++;
                used += tree.bm.pageSize() - bp.freeTotal();
                pageNo = bp.rightLink();
            }
        }
        return new Stats(levels, tree.bm.pageCount(tree.file), entries, leaves,
                leaves == 0 ? 0 : 100.0 * used / (leaves * (double) tree.bm.pageSize()), freePages());
    }

    /**
     * Checks the structure: key order on every page, every key within its page's bounds, right
     * links and high keys consistent level by level, children at the level below. Returns the
     * problems found (empty if none). Reads without locks: run it when no one writes.
     */
    List<String> verify() {
        List<String> problems = new ArrayList<>();
        try {
            int top;
            try (PinnedPage r = PinnedPage.pin(tree.bm, tree.file, ROOT)) {
                top = new BtreePage(r.page()).level();
            }
            long first = ROOT;
            for (int level = top; level >= 0; level--) {
                long pageNo = first;
                byte[] prevHigh = null;
                long nextFirst = 0;
                while (pageNo != 0) {
                    try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo)) {
                        BtreePage bp = new BtreePage(h.page()).check("verify");
                        if (bp.level() != level) {
                            problems.add("page " + pageNo + " at level " + bp.level() + ", expected " + level);
                        }
                        byte[] prev = null;
                        for (int i = (bp.isLeaf() ? 0 : 1); i < bp.count(); i++) {
                            byte[] k = bp.key(i);
                            if (prev != null && tree.cmp.compare(prev, k) >= 0) {
                                problems.add("page " + pageNo + ": keys out of order at slot " + i);
                            }
                            if (prevHigh != null && tree.cmp.compare(k, prevHigh) < 0) {
                                problems.add("page " + pageNo + ": key at slot " + i + " below the left sibling's high key");
                            }
                            prev = k;
                        }
                        byte[] hk = bp.highKey();
                        if (hk != null && prev != null && tree.cmp.compare(prev, hk) >= 0) {
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
                    }
                }
                first = nextFirst;
            }
            verifyFreeList(problems);
        } catch (RuntimeException e) {
            problems.add(e.toString());
        }
        return problems;
    }

    /** The free list: every page on it free, in range, no loop. */
    private void verifyFreeList(List<String> problems) {
        long head;
        try (PinnedPage m = PinnedPage.pin(tree.bm, tree.file, META_PAGE)) {
            head = m.page().getLong(OFF_FREE_HEAD);
        }
        long pages = tree.bm.pageCount(tree.file);
        long seen = 0;
        for (long pageNo = head; pageNo != 0; seen++) {
            if (pageNo <= ROOT || pageNo >= pages || seen > pages) {
                problems.add("free list: page " + pageNo + " after " + seen + " pages is out of range or the list loops");
                return;
            }
            try (PinnedPage h = PinnedPage.pin(tree.bm, tree.file, pageNo)) {
                if (h.page().type() != BtreePage.FREE) {
                    problems.add("free list: page " + pageNo + " has type " + h.page().type());
                    return;
                }
                pageNo = h.page().getLong(OFF_FREE_NEXT);
            }
        }
    }
}
