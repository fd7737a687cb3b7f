package org.libtp.btree;

import org.libtp.core.buffer.Page;

/**
 * How B-tree changes are logged: leaf inserts and deletes logically (undo and redo), page images
 * of splits redo-only. The caller holds the page latch and applies the change right after (or,
 * for images, has just made it). {@link #NONE} logs nothing (unprotected and SHARED modes).
 */
interface BtreeLog {
    /** Logs the insert of (key, data) at {@code slot} of leaf {@code page} (and sets the page LSN). */
    void leafInsert(Page page, int slot, byte[] key, byte[] data);

    /** Logs the delete of (key, data) at {@code slot} of leaf {@code page} (and sets the page LSN). */
    void leafDelete(Page page, int slot, byte[] key, byte[] data);

    /** Logs the current image of {@code page} (redo-only: a split, an internal page update). */
    void image(Page page);

    BtreeLog NONE = new BtreeLog() {
        @Override
        public void leafInsert(Page page, int slot, byte[] key, byte[] data) {
        }

        @Override
        public void leafDelete(Page page, int slot, byte[] key, byte[] data) {
        }

        @Override
        public void image(Page page) {
        }
    };
}
