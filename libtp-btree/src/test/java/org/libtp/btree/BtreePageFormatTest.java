package org.libtp.btree;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The B-tree page formats (internal/leaf, meta, free, overflow) and the page-type registry: their
 * offsets as data files hold them, and docs/formats.md's tables built from the constants, so that
 * neither can change without the other.
 */
class BtreePageFormatTest {
    private static String row(int offset, String size, String field) {
        return String.format("%7d %4s %s", offset, size, field);
    }

    @Test
    void offsetsAreFrozenAndDocumented() throws Exception {
        assertEquals(24, BtreePage.OFF_LEVEL);
        assertEquals(26, BtreePage.OFF_FLAGS);
        assertEquals(32, BtreePage.OFF_RIGHT);
        assertEquals(40, BtreePage.OFF_NSLOTS);
        assertEquals(42, BtreePage.OFF_CELL_START);
        assertEquals(44, BtreePage.OFF_HIGH_KEY);
        assertEquals(46, BtreePage.OFF_GARBAGE);
        assertEquals(48, BtreePage.OFF_SLOTS);
        assertEquals(32, BtreeMeta.OFF_ORDER);
        assertEquals(64, BtreeMeta.MAX_ORDER_NAME);
        assertEquals(128, BtreeMeta.OFF_FREE_HEAD);
        assertEquals(32, BtreeMeta.OFF_FREE_NEXT);
        assertEquals(40, BtreeMeta.OFF_FREE_WATERMARK);
        assertEquals(32, BtreeOverflow.OFF_OVF_NEXT);
        assertEquals(40, BtreeOverflow.OFF_OVF_USED);
        assertEquals(48, BtreeOverflow.OFF_OVF_DATA);

        String doc = Files.readString(Path.of("..", "docs", "formats.md"));
        assertTrue(doc.contains("## B-tree pages — `org.libtp.btree.BtreePage`"), "docs/formats.md names the layout class");
        String[] rows = {
            row(BtreePage.OFF_LEVEL, "2", "level"), row(BtreePage.OFF_FLAGS, "2", "flags"),
            row(BtreePage.OFF_RIGHT, "8", "rightLink"), row(BtreePage.OFF_NSLOTS, "2", "nSlots"),
            row(BtreePage.OFF_CELL_START, "2", "cellStart"), row(BtreePage.OFF_HIGH_KEY, "2", "highKey"),
            row(BtreePage.OFF_GARBAGE, "2", "garbage"), row(BtreePage.OFF_SLOTS, "2*n", "slots"),
            row(BtreeMeta.OFF_ORDER, "2", "key order name length"),
            row(BtreeMeta.OFF_FREE_HEAD, "8", "freeHead"),
            "at most " + BtreeMeta.MAX_ORDER_NAME + " bytes",
            "next free page at " + BtreeMeta.OFF_FREE_NEXT, "at " + BtreeMeta.OFF_FREE_WATERMARK + " its watermark",
            "u64 next page (0 = last) at " + BtreeOverflow.OFF_OVF_NEXT,
            "u32\nbytes used at " + BtreeOverflow.OFF_OVF_USED, "the bytes from " + BtreeOverflow.OFF_OVF_DATA,
            PageTypes.BTREE_META + " meta / " + PageTypes.BTREE_INTERNAL + " internal / " + PageTypes.BTREE_LEAF
                    + " leaf / " + PageTypes.OVERFLOW + " overflow / " + PageTypes.FREE + " free",
            "type = " + PageTypes.RECNO_META, "type = " + PageTypes.RECNO_DATA,
        };
        for (String r : rows) {
            assertTrue(doc.contains(r), "docs/formats.md has: " + r);
        }
    }

    /** Page type ids are never reused: one registry, each id once. */
    @Test
    void pageTypeIdsAreDistinct() {
        int[] ids = {PageTypes.BTREE_META, PageTypes.BTREE_INTERNAL, PageTypes.BTREE_LEAF, PageTypes.OVERFLOW,
            PageTypes.RECNO_META, PageTypes.RECNO_DATA, PageTypes.FREE};
        assertEquals(ids.length, java.util.Arrays.stream(ids).distinct().count());
        assertEquals(BtreePage.META, PageTypes.BTREE_META);
        assertEquals(RecnoPage.DATA_TYPE, PageTypes.RECNO_DATA);
    }
}
