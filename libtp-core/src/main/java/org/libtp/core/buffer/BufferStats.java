package org.libtp.core.buffer;

/**
 * Buffer pool statistics: the counters are this process's since it opened the pool; the frame
 * counts are the shared pool's now. {@code imagedWrites}: page images logged before page writes
 * (torn-write protection; one per write, unless a page changed between its image and its write).
 * {@code optimisticViews}: optimistic views handed out ({@link BufferManager#tryOptimistic}), not
 * counted as hits; {@code optimisticInvalid}: those a latch holder came between (validated false).
 */
public record BufferStats(long hits, long misses, long reads, long writes, long evictions,
                          int frames, int dirtyFrames, int pinnedFrames, long imagedWrites,
                          long optimisticViews, long optimisticInvalid) {
}
