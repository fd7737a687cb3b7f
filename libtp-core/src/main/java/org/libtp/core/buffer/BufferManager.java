package org.libtp.core.buffer;

/**
 * The buffer manager (paper 3.1.3, 3.2.2): a pool of page frames in shared memory, used by every
 * process of the environment, with write-ahead logging enforced when a dirty page is written.
 *
 * <pre>{@code
 * int file = bm.open("accounts.db");
 * Page p = bm.get(file, 7, BufferManager.CREATE);
 * try {
 *     p.latch();
 *     try { ...read or change p... } finally { p.unlatch(); }
 * } finally {
 *     bm.unpin(p, dirty);
 * }
 * }</pre>
 */
public interface BufferManager extends AutoCloseable {
    /** {@link #get} flag: create the page (zero-filled) if the file does not have it yet. */
    int CREATE = 1;

    /** How errors name file {@code fileId}: "data file NAME (file id N)" where the name is known. */
    default String describe(int fileId) {
        return "file id " + fileId;
    }

    /**
     * Registers data file {@code name} (a plain file name in the environment home, created if
     * absent) and returns its file id, the same in every process and across restarts (the
     * registry is kept durably in {@code __libtp.files}).
     */
    int open(String name);

    /** The file id of {@code name} if registered, else -1. */
    int fileId(String name);

    /** The name registered under {@code fileId}. */
    String fileName(int fileId);

    /**
     * The page, pinned (the paper's {@code buf_get}): it stays in its frame until
     * {@link #unpin}. {@link Page#validLength()} tells how many bytes came from the file (0 for
     * a page created now).
     *
     * @throws IllegalArgumentException if the page does not exist and {@code CREATE} is not given
     * @throws org.libtp.core.CorruptionException if the page read fails its checksum (naming
     *         file and page)
     * @throws org.libtp.core.CapacityExceededException if every frame is pinned
     */
    Page get(int fileId, long pageNo, int flags);

    /**
     * An optimistic view of the page if it is in the pool and no latch holder is changing it,
     * else null (then {@link #get} it): nothing shared is written, no pin is taken (LeanStore's
     * version-validated latch). Reads through the view are bounds-checked against the frame but
     * may see a page half changed, or another page if the frame is reused meanwhile: the reader
     * trusts what it read only once {@link Page#validate()} returns true, and otherwise drops
     * it, exceptions included. The view cannot be latched, changed or unpinned.
     */
    Page tryOptimistic(int fileId, long pageNo);

    /**
     * {@link #tryOptimistic(int, long)}, rebinding {@code reuse} (a view this manager returned
     * before, or null) instead of allocating a view: a reader that keeps one view per thread
     * reads without allocating. What was read through {@code reuse} before is no longer
     * validated by it. Returns null (leaving {@code reuse} as it was) where the other returns
     * null.
     */
    Page tryOptimistic(int fileId, long pageNo, Page reuse);

    /** Appends a new page to the file (numbers are handed out atomically) and returns it pinned. */
    Page allocate(int fileId);

    /** Pages the file has (one past the highest page number created so far). */
    long pageCount(int fileId);

    /** Releases a pin; {@code dirty} if the caller changed the page (the paper's {@code buf_unpin}). */
    void unpin(Page page, boolean dirty);

    /** Writes every dirty page of the file (log first) and forces the file. */
    void flush(int fileId);

    /** {@link #flush} for every file. */
    void sync();

    int pageSize();

    BufferStats stats();

    @Override
    void close();
}
