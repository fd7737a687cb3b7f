package org.libtp.btree;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Field;
import java.lang.reflect.Modifier;
import java.util.HashMap;
import java.util.Map;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

/** The page type registry: frozen ids, one per page kind, and the formats' names agree with it. */
class PageTypesTest {
    @Test
    void everyPageKindHasItsOwnFrozenId() throws Exception {
        Map<Integer, String> seen = new HashMap<>();
        for (Field f : PageTypes.class.getDeclaredFields()) {
            if (Modifier.isStatic(f.getModifiers()) && f.getType() == int.class) {
                int id = f.getInt(null);
                assertNull(seen.put(id, f.getName()), "page type id " + id + " used twice");
            }
        }
        assertEquals(Map.of(1, "BTREE_META", 2, "BTREE_INTERNAL", 3, "BTREE_LEAF", 4, "OVERFLOW", 5, "RECNO_META",
                6, "RECNO_DATA", 7, "FREE"), seen, "ids are never renumbered: data files outlive releases");
        assertEquals(PageTypes.BTREE_LEAF, BtreePage.LEAF);
        assertEquals(PageTypes.RECNO_DATA, RecnoPage.DATA_TYPE);
    }

    @Test
    void metaAndFreePageOffsets() {
        assertEquals(32, BtreeMeta.OFF_ORDER);
        assertEquals(128, BtreeMeta.OFF_FREE_HEAD);
        assertEquals(32, BtreeMeta.OFF_FREE_NEXT);
        assertEquals(40, BtreeMeta.OFF_FREE_WATERMARK);
        assertEquals(32, BtreeOverflow.OFF_OVF_NEXT);
        assertEquals(40, BtreeOverflow.OFF_OVF_USED);
        assertEquals(48, BtreeOverflow.OFF_OVF_DATA);
    }
}
