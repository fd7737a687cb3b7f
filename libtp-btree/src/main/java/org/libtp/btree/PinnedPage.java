package org.libtp.btree;

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
        return new PinnedPage(bm, bm.get(file, pageNo, 0));
    }

    /** Takes over {@code page}, already pinned (by {@link Btree#allocate}, say). */
    static PinnedPage of(BufferManager bm, Page page) {
        return new PinnedPage(bm, page);
    }

    Page page() {
        if (page == null) {
            throw new IllegalStateException("the page was released");
        }
        return page;
    }

    /** Latches the page (released by {@link #close()} or {@link #unlatch()}); returns this. */
    PinnedPage latch() {
        page().latch();
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
