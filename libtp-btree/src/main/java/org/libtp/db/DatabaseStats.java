package org.libtp.db;

/**
 * Statistics of a database at one moment (read without locks).
 *
 * @param levels          levels of the tree (1: the root is a leaf)
 * @param pages           pages in its file, meta page included
 * @param entries         key/data pairs
 * @param leafPages       leaf pages
 * @param leafFillPercent bytes used on leaf pages, percent of their size
 * @param freePages       pages on the free list (emptied leaves and overflow pages, reused
 *                        before the file grows)
 */
public record DatabaseStats(int levels, long pages, long entries, long leafPages, double leafFillPercent,
                            long freePages) {
}
