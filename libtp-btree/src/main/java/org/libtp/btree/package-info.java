/**
 * The B-tree access method (paper 3.1.2, 3.2.6): a B-link tree (Lehman and Yao) on buffer-pool
 * pages ({@code BtreePage} has the page layout), the paper's locking protocol (internal page
 * locks released before the child's is taken, moves right past high keys, the parent locked
 * before a split page is released, leaf locks to the end of the transaction), leaf inserts and
 * deletes logged logically (redo by slot, undo by key, {@code BtreeRecords}) and splits as
 * redo-only page images. The record API in {@code org.libtp.db} uses it through
 * {@link org.libtp.btree.AccessMethods}.
 *
 * <p>Invariants: keys on a page are below its high key (exclusive) and keys on its right sibling
 * at or above it; keys only ever move right (splits; no merges), which is what lets rollback
 * find a key from the page it was logged on. Page content is read and changed under the page
 * latch; page locks give transactions their isolation.
 *
 * <p>{@link org.libtp.btree.Recno} is the fixed-length record access method (page computed from
 * the record number, physical page-update logging).
 *
 * <p>A tree's key order is unsigned bytes or a comparator registered by name; the name is in the
 * meta page (offset 32: u16 length, UTF-8), so recovery and rollback use the same order.
 *
 * <p>Values that do not fit a quarter page with their key go to a chain of overflow pages; the
 * leaf stores a tagged reference (see {@code Btree.store}).
 *
 * <p>Not yet: reclaiming empty pages, overflow chains and removed databases' files.
 */
package org.libtp.btree;
