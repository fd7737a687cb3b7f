package org.libtp.btree;

import org.libtp.core.buffer.Page;

/**
 * How B-tree changes are logged: leaf inserts, deletes and updates in place logically (undo and redo), page images
 * of splits redo-only. The caller holds the page latch and applies the change right after (or,
 * for images, has just made it). {@link #NONE} logs nothing (unprotected and SHARED modes).
 */
interface BtreeLog {
    /** Logs the insert of (key, data) at {@code slot} of leaf {@code page} (and sets the page LSN). */
    void leafInsert(Page page, int slot, byte[] key, byte[] data);

    /** Logs the delete of (key, data) at {@code slot} of leaf {@code page} (and sets the page LSN). */
    void leafDelete(Page page, int slot, byte[] key, byte[] data);

    /**
     * Logs the update in place of the stored data of {@code key} at {@code slot} of leaf
     * {@code page}: {@code before} by {@code after}, of one length (only the bytes that differ
     * are logged), and sets the page LSN.
     */
    default void leafReplace(Page page, int slot, byte[] key, byte[] before, byte[] after) {
        leafReplace(page, BtreeReplaceRecord.of(page.fileId(), page.pageNo(), slot, key, before, after));
    }

    /** Logs {@code change}, an update in place of a slot of leaf {@code page} (and sets the page LSN). */
    void leafReplace(Page page, BtreeReplaceRecord change);

    /** Logs the current image of {@code page} (redo-only: a split, an internal page update). */
    void image(Page page);

    /**
     * Changes bytes {@code [offset, offset + after.length)} of {@code page} (latched) to
     * {@code after}, logged physically (before and after image; undone by a compensating update)
     * with the page LSN set: an overflow value overwritten in place.
     */
    void pageUpdate(Page page, int offset, byte[] after);

    /**
     * Called before an operation that may change pages it logs only afterwards (images): throws
     * {@link org.libtp.core.OutOfSpaceException}, with nothing changed, if the log has no room
     * for about {@code bytes} of records. Without a log, nothing to check.
     */
    default void ensureSpace(long bytes) {
    }

    /**
     * Whether pages freed under this log must wait until every transaction active now has ended
     * before reuse (TP: a concurrent descent may still hold a pointer to them); false when the
     * operation is alone on the tree (unprotected, SHARED).
     */
    boolean drains();

    /**
     * Runs {@code action} on tree file {@code file} when the transaction ends ({@code onCommit}:
     * if it commits, else if it aborts), in a transaction of its own (its page locks and a log for
     * the redo-only images it writes); without transactions, a commit action runs now and an
     * abort action never. Used for what only a committed (or only an aborted) change allows:
     * freeing overflow chains, unlinking emptied leaves.
     */
    void onEnd(boolean onCommit, int file, EndAction action);

    /** Work done when a transaction ends. */
    @FunctionalInterface
    interface EndAction {
        void run(Protection prot, BtreeLog log);
    }

    BtreeLog NONE = new BtreeLog() {
        @Override
        public boolean drains() {
            return false;
        }

        @Override
        public void onEnd(boolean onCommit, int file, EndAction action) {
            if (onCommit) {
                action.run(Protection.NONE, this);
            }
        }

        @Override
        public void leafInsert(Page page, int slot, byte[] key, byte[] data) {
        }

        @Override
        public void leafDelete(Page page, int slot, byte[] key, byte[] data) {
        }

        @Override
        public void leafReplace(Page page, int slot, byte[] key, byte[] before, byte[] after) {
        }

        @Override
        public void leafReplace(Page page, BtreeReplaceRecord change) {
        }

        @Override
        public void image(Page page) {
        }

        @Override
        public void pageUpdate(Page page, int offset, byte[] after) {
            page.putBytes(offset, after);
        }
    };
}
