package org.libtp.core.lock;

/**
 * What is locked: a page of a file (paper 3.2.3: "identified by two 4-byte integers (a file id
 * and page number)"; page numbers here are 64-bit like the buffer manager's), the whole file
 * ({@link #WHOLE_FILE}), or a record of the file ({@link #record}: a number at or above
 * {@link #RECORD}, which no page reaches). The three form the hierarchy of [GRAY76]: file, page,
 * record, each locked under an intention lock on the one above.
 *
 * @param fileId the buffer manager's file id, &gt;= 0
 * @param pageNo the page, &gt;= 0; -1 for "the whole file"; {@link #RECORD} and above for a record
 */
public record LockObject(int fileId, long pageNo) {
    /** The page number reserved for a lock on a whole file. */
    public static final long WHOLE_FILE = -1;
    /**
     * The first object number of records: record {@code id} of a file is object
     * {@code RECORD | id} ({@code id} below 2<sup>62</sup>); page numbers stay far below it.
     */
    public static final long RECORD = 1L << 62;
    /** The largest record id: record ids are 62-bit. */
    public static final long MAX_RECORD_ID = RECORD - 1;

    /** Record {@code recordId} (0 .. {@link #MAX_RECORD_ID}) of file {@code fileId}. */
    public static LockObject record(int fileId, long recordId) {
        if (recordId < 0 || recordId > MAX_RECORD_ID) {
            throw new IllegalArgumentException("record id " + recordId + " not in [0, 2^62)");
        }
        return new LockObject(fileId, RECORD | recordId);
    }

    /** True if this object is a record, not a page or the whole file. */
    public boolean isRecord() {
        return pageNo >= RECORD;
    }

    public LockObject {
        if (fileId < 0) {
            throw new IllegalArgumentException("fileId " + fileId + " < 0");
        }
        if (pageNo < WHOLE_FILE) {
            throw new IllegalArgumentException("pageNo " + pageNo + " < -1");
        }
    }

    @Override
    public String toString() {
        if (pageNo == WHOLE_FILE) {
            return "(file " + fileId + ")";
        }
        return isRecord() ? "(file " + fileId + ", record " + (pageNo & MAX_RECORD_ID) + ")"
                : "(file " + fileId + ", page " + pageNo + ")";
    }
}
