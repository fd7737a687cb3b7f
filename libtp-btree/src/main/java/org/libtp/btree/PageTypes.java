package org.libtp.btree;

/**
 * The page type registry of the access methods: the type byte of the page header
 * ({@code PageHeader.OFF_TYPE}) of every page a B-tree or recno file holds. Ids are never reused
 * or renumbered (data files outlive releases); a new page kind takes a new id here, and
 * {@code PageTypesTest} checks that they differ.
 */
final class PageTypes {
    /** Page 0 of a B-tree file: key order, free-list head ({@link BtreeMeta}). */
    static final int BTREE_META = 1;
    /** B-tree internal page ({@link BtreePage}). */
    static final int BTREE_INTERNAL = 2;
    /** B-tree leaf page ({@link BtreePage}). */
    static final int BTREE_LEAF = 3;
    /** A page of a value's overflow chain ({@link BtreeOverflow}). */
    static final int OVERFLOW = 4;
    /** Page 0 of a recno file ({@link Recno}). */
    static final int RECNO_META = 5;
    /** A recno data page ({@link Recno}). */
    static final int RECNO_DATA = 6;
    /** On a B-tree's free list ({@link BtreeMeta}); a search that reaches one starts again from the root. */
    static final int FREE = 7;

    private PageTypes() {
    }
}
