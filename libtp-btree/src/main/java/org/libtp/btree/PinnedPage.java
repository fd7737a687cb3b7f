package org.libtp.btree;

import org.libtp.core.CorruptionException;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.buffer.Page;

/**
 * A page pinned in the shared buffer pool, and latched or not, released by {@link #close()}: a
 * try-with-resources block in place of nested try/finally pairs of {@code unlatch} and
 * {@code unpin}. Closing unlatches (if latched) and unpins, telling the pool whether the page was
 * changed ({@link #dirty()}); a page the holder gives away ({@link #release()}) is not touched.
 *
 * <pre>
 * try (PinnedPage h = PinnedPage.pin(bm, file, pageNo).latch()) {
 *     ... h.page() ...; h.dirty();
 * }
 * </pre>
 *
 * A descent that keeps a page past the block (the leaf it returns, a page taken off the free
 * list) gives it away with {@link #release()}; one that moves on to the next page releases this
 * one first (the block ends) and pins the next after any lock wait, so that no pin is held while
 * waiting for a lock.
 */
final class PinnedPage implements AutoCloseable {
    private final BufferManager bm;
    private Page page;
    private boolean latched;
    private boolean dirty;

    private PinnedPage(BufferManager bm, Page page) {
        this.bm = bm;
        this.page = page;
    }

    /** Pins page {@code pageNo} of {@code file}. */
    static PinnedPage pin(BufferManager bm, int file, long pageNo) {
        return pin(bm, file, pageNo, 0);
    }

    /** Pins page {@code pageNo} of {@code file} with the pool's get {@code flags} ({@link BufferManager#CREATE}). */
    static PinnedPage pin(BufferManager bm, int file, long pageNo, int flags) {
        // page numbers come from links in pages; the pool takes one beyond 2^40 for a caller's
        // mistake (IllegalArgumentException), here it is a damaged link
        if (pageNo < 0 || pageNo >>> 40 != 0) {
            throw new CorruptionException("a link to page " + pageNo + " of " + bm.describe(file) + ", beyond any "
                    + "file: the page holding it is damaged; run verify, and restore from a backup");
        }
        return new PinnedPage(bm, bm.get(file, pageNo, flags));
    }

    /** Takes over {@code page}, already pinned (by {@link Btree#allocate} or a descent, say). */
    static PinnedPage of(BufferManager bm, Page page) {
        return new PinnedPage(bm, page);
    }

    Page page() {
        if (page == null) {
            throw new IllegalStateException("the page was released");
        }
        return page;
    }

    /**
     * Latches the page (released by {@link #close()} or {@link #unlatch()}); returns this. If
     * taking the latch fails, the page is unpinned before the exception propagates, so that
     * {@code pin(...).latch()} in a resource specification leaves no pin behind.
     */
    PinnedPage latch() {
        Page p = page();
        try {
            p.latch();
        } catch (RuntimeException | Error e) {
            try {
                close();
            } catch (RuntimeException | Error suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
        latched = true;
        return this;
    }

    void unlatch() {
        if (latched) {
            latched = false;
            page.unlatch();
        }
    }

    /** Marks the page changed: it is unpinned dirty. */
    PinnedPage dirty() {
        dirty = true;
        return this;
    }

    /** Gives the (still pinned, unlatched) page to the caller, who unpins it; close does nothing. */
    Page release() {
        unlatch();
        Page p = page();
        page = null;
        return p;
    }

    @Override
    public void close() {
        if (page == null) {
            return;
        }
        try {
            unlatch();
        } finally {
            Page p = page;
            page = null;
            bm.unpin(p, dirty);
        }
    }
}
