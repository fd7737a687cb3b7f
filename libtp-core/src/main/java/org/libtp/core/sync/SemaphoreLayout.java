package org.libtp.core.sync;

/**
 * Layout of one counting semaphore in shared memory: {@link #SIZE} bytes, 4-aligned.
 *
 * <pre>
 *  offset size field
 *  ------ ---- ----------------------------------------------------------
 *       0    4 permits   available permits (the futex word)
 *       4    4 waiters   number of threads sleeping or about to sleep;
 *                        post() makes the wake system call only when &gt; 0
 * </pre>
 */
public final class SemaphoreLayout {
    public static final int PERMITS = 0;
    public static final int WAITERS = 4;
    public static final int SIZE = 8;

    private SemaphoreLayout() {
    }
}
