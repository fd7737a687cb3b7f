/**
 * The B-tree access method (paper 3.1.2, 3.2.6): a B-link tree (Lehman and Yao) on buffer-pool
 * pages ({@code BtreePage} has the page layout), the paper's locking protocol (moves right past
 * high keys, the parent locked before a split page is released, leaf locks to the end of the
 * transaction) with Lehman and Yao's lock-free reader on the way down: a descent reads internal
 * pages under their latch only, where the paper took a READ lock it gave back before locking the
 * child (so it never excluded a change between the two pages either), and locks only the leaf
 * it reaches; leaf inserts and
 * deletes logged logically (redo by slot, undo by key, {@code BtreeRecords}) and splits as
 * redo-only page images. The record API in {@code org.libtp.db} uses it through
 * {@link org.libtp.btree.AccessMethods}.
 *
 * <p>Invariants: keys on a page are below its high key (exclusive) and keys on its right sibling
 * at or above it; keys move right (splits) and, only when a leaf's emptiness is committed, a
 * leaf's empty range goes to its left neighbour (reclamation): rollback finds a key from the page
 * it was logged on, moving right, or from the root when that page was freed (a free page is
 * never reused while a transaction that was active when it was freed runs). Page content is
 * changed under the page latch; page locks give transactions their isolation. A search that
 * reaches a free page starts again from the root.
 *
 * <p>Reads are optimistic where they can be (LeanStore's optimistic latch coupling): a descent
 * reads an internal page, and a point get its (locked) leaf, through
 * {@link org.libtp.core.buffer.BufferManager#tryOptimistic} without pin or latch, copies out what
 * it needs (a child, a value into a per-thread buffer), then validates the frame's sequence.
 * Anything read from a view that fails validation, exceptions included, is dropped and the page
 * is read the ordinary way (pinned and latched); so is a page not in the pool, being changed,
 * or a value in an overflow chain. Leaf locks are taken exactly as before, before the leaf is
 * read, so isolation is unchanged; the latch only ever gave a reader a page no writer was in the
 * middle of, which validation gives too.
 *
 * <p>Rooms: {@code Btree} (descent, get/put/delete, the free list), {@code BtreeSplit} (leaf,
 * internal and root splits, separator posting, finding a page at a level), {@code BtreeNavigation}
 * (cursor reads and scans), {@code BtreeOverflow} (inline and overflow values, the overflow page
 * format), {@code BtreeReclaim} (unlinking emptied leaves, compaction), {@code BtreeCheck}
 * (statistics and verify), {@code BtreePage} (the leaf and internal page format),
 * {@code BtreeLeafRecord} (the logical leaf log record and its codec), {@code BtreeRecords} (its
 * redo and undo), {@code Recno}. {@code PinnedPage} is a pinned (and latched) page released by
 * try-with-resources, which every room uses; a descent gives the page it returns away
 * ({@code release}), and pages a caller pinned (the leaf handed to a split, the root) are latched
 * and unlatched by hand.
 *
 * <p>Page reclamation ({@code BtreeReclaim}, {@code Btree.free}): after a delete that emptied a
 * leaf commits, the leaf (and its ancestors with no other entry) is unlinked in a transaction of
 * its own and put on the tree's free list in the meta page; overflow chains are freed when the
 * entry's delete commits or its insert aborts ({@code EndActions}). Skipped reclaims (the leaf in
 * use) and a crash between a commit and its reclaim leave empty leaves that
 * {@code Database.compact()} gives back. Each prefix of a reclaim's redo-only images is a valid
 * B-link tree, so a crash in the middle leaks pages at most.
 *
 * <p>Record locks: an update of an existing key ({@code Btree.update}, read-modify-write) that
 * keeps the value's length takes IWRITE on the leaf and WRITE on the key's record (its 62-bit
 * hash) instead of WRITE on the leaf, so that transactions changing different keys of one hot
 * leaf (TPC-B's branches and tellers) run side by side. Everything that changes the leaf's
 * layout (insert, delete, a new length, a split, reclamation) still takes the page's WRITE,
 * which conflicts with IWRITE: while a record lock's holder runs, its key stays on that leaf
 * and the slots do not move, so concurrent in-place replaces on one page are independent byte
 * ranges, redone in log order by page LSN and undone by key. Readers keep the page READ lock
 * (which waits for the record writers). Under a registered key order equal keys may differ in
 * bytes, so there the leaf is WRITE-locked as before.
 *
 * <p>{@link org.libtp.btree.Recno} is the fixed-length record access method (page computed from
 * the record number, physical page-update logging). Appends take the meta page and the record's
 * data page in IWRITE (each appender owns its new number; everything else locks the meta page
 * READ or WRITE first) and advance the count redo-only: an aborted append leaves its number
 * absent.
 *
 * <p>A tree's key order is unsigned bytes or a comparator registered by name; the name is in the
 * meta page (offset 32: u16 length, UTF-8), so recovery and rollback use the same order.
 *
 * <p>Values whose leaf cell (header, key, tag, value) is larger than {@code Btree.maxInlineCell}
 * (about half a page: what a split can always place beside the longest high keys) go to a chain
 * of overflow pages; the leaf stores a tagged reference (see {@code BtreeOverflow}). A chain
 * belongs to its one leaf entry, so the leaf's WRITE lock covers it: a put of a value of the
 * same length overwrites the chain in place under that lock, logging each page's changed bytes
 * as a physical page update ({@code PageUpdates}: undo by a compensating update, redo by page
 * LSN); the leaf is not touched. Readers reach the chain only through the leaf (READ lock), and
 * optimistic reads never follow a chain.
 *
 * <p>Not yet: merging pages that are not empty (a tree whose keys are mostly deleted at random
 * keeps sparse leaves), shrinking files, deleting removed databases' files.
 */
package org.libtp.btree;
