package org.libtp.core.lock;

/**
 * What is locked: a page of a file (paper 3.2.3: "identified by two 4-byte integers (a file id
 * and page number)"; page numbers here are 64-bit like the buffer manager's).
 *
 * @param fileId the buffer manager's file id, &gt;= 0
 * @param pageNo the page, &gt;= 0; -1 is reserved for "the whole file" (hierarchical locking,
 *               with intention modes on the file, is not implemented yet; today -1 is just
 *               another object)
 */
public record LockObject(int fileId, long pageNo) {
    /** The page number reserved for a lock on a whole file. */
    public static final long WHOLE_FILE = -1;

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
        return "(file " + fileId + ", page " + pageNo + ")";
    }
}
