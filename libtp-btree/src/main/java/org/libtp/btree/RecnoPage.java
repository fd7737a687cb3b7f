package org.libtp.btree;

/**
 * The recno page formats, after the buffer manager's 32-byte page header (whose type byte at
 * offset 7 says which; ids in {@link PageTypes}):
 *
 * <pre>
 *  meta page (page 0)                       data page (pages 1..)
 *  offset size field                        offset      size          field
 *       7    1 type = 5 (recno meta)             7      1             type = 6 (recno data)
 *      32    8 magic "LIBTPREC"                 32      perPage x (1 + L) records:
 *      40    4 version 1                                 1  present (1) or deleted/never written (0)
 *      44    4 recordLength L                            L  the record
 *      48    8 count: the highest record number stored (appends take count + 1)
 * </pre>
 *
 * The page of record n is {@code 1 + (n - 1) / perPage}, perPage = (pageSize - 32) / (1 + L).
 */
final class RecnoPage {
    static final int META_TYPE = PageTypes.RECNO_META;
    static final int DATA_TYPE = PageTypes.RECNO_DATA;
    static final long META = 0;
    static final int OFF_MAGIC = 32;
    static final int OFF_VERSION = 40;
    static final int OFF_LENGTH = 44;
    static final int OFF_COUNT = 48;
    static final int OFF_RECORDS = 32;
    static final int VERSION = 1;
    static final byte[] MAGIC = "LIBTPREC".getBytes(java.nio.charset.StandardCharsets.US_ASCII);

    private RecnoPage() {
    }
}
