package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;

/**
 * The B-tree's meta page and free page formats. Page 0 of a B-tree file (type
 * {@link PageTypes#BTREE_META}), after the buffer manager's 32-byte page header:
 * <pre>
 *  offset size field
 *      32    2 order name length (0: unsigned bytes), then up to 64 bytes of UTF-8 name
 *     128    8 freeHead   first page of the free list (0: empty): freed pages are pushed here
 * </pre>
 * A free page (type {@link PageTypes#FREE}):
 * <pre>
 *  offset size field
 *      32    8 next       the next page of the free list (0: the last)
 *      40    8 watermark  the transaction id that was next when it was freed: it is reused only
 *                         once every transaction below that id has ended (0: at once)
 * </pre>
 */
final class BtreeMeta {
    static final int OFF_ORDER = 32;
    static final int MAX_ORDER_NAME = 64;
    static final int OFF_FREE_HEAD = 128;
    static final int OFF_FREE_NEXT = 32;
    static final int OFF_FREE_WATERMARK = 40;

    private BtreeMeta() {
    }

    /** The key order's name recorded in the meta page of {@code file} (null: unsigned bytes). */
    static String orderName(BufferManager bm, int file) {
        try (PinnedPage h = PinnedPage.pin(bm, file, Btree.META_PAGE).latch()) {
            Page m = h.page();
            if (m.type() != PageTypes.BTREE_META) {
                throw new CorruptionException("page 0 of " + bm.describe(file) + " is not a B-tree meta page");
            }
            int n = m.getShort(OFF_ORDER);
            if (n > MAX_ORDER_NAME) {
                throw new CorruptionException("B-tree meta page of " + bm.describe(file)
                        + " names a key order of " + n + " bytes");
            }
            if (n == 0) {
                return null;
            }
            String name = new String(m.getBytes(OFF_ORDER + 2, n), java.nio.charset.StandardCharsets.UTF_8);
            // a name no process could have registered (DatabaseConfig.checkOrderName) is damage, not
            // a missing registration
            if (!name.matches("[A-Za-z0-9_.-]+")) {
                throw new CorruptionException("B-tree meta page (page 0) of " + bm.describe(file)
                        + " names key order '" + name + "', which is not a key order name: the page is damaged; "
                        + "restore the file from a backup");
            }
            return name;
        }
    }
}
