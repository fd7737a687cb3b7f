package org.libtp.core.buffer;

import static org.libtp.core.buffer.BufferLayout.*;

import org.libtp.core.CapacityExceededException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.LibTpException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogManager;
import org.libtp.core.memory.Memory;
import org.libtp.core.sync.Latch;

import java.util.concurrent.atomic.LongAdder;

/**
 * Page replacement: the shared CLOCK hand ({@code OFF_CLOCK}) sweeps the frames of every
 * process's pool alike.
 */
final class Clock {
    private final RegionEnvironment env;
    private final LogManager log;
    private final Memory mem;
    private final FrameTable ft;
    private final PageWriter writer;
    private final boolean imagesBeforeWrites;
    private final int frames;
    /** Frames this process took from another page. */
    final LongAdder evictions = new LongAdder();

    Clock(RegionEnvironment env, LogManager log, Memory mem, FrameTable ft, PageWriter writer, boolean imagesBeforeWrites) {
        this.env = env;
        this.log = log;
        this.mem = mem;
        this.ft = ft;
        this.writer = writer;
        this.imagesBeforeWrites = imagesBeforeWrites;
        this.frames = ft.frames();
    }

    /**
     * Finds a frame to reuse and returns it free, out of every hash chain, with its latch held.
     * CLOCK (second chance): a hit only sets the frame's reference bit, so the hit path touches
     * no shared list; the sweep clears bits and takes the first unpinned frame whose bit is
     * clear. A dirty victim is written first, by this process, after the log is forced to its
     * flush LSN.
     */
    int claim() {
        long limit = 4L * frames;
        LibTpException writeFailed = null;
        for (long n = 0; n < limit; n++) {
            int f = (int) Long.remainderUnsigned(mem.getAndAddLong(OFF_CLOCK, 1), frames);
            long m = ft.meta(f);
            if (mem.getIntVolatile(m + FR_PINS) != 0) {
                continue;
            }
            if (mem.getIntVolatile(m + FR_REF) != 0) {
                mem.putIntVolatile(m + FR_REF, 0);
                continue;
            }
            if (imagesBeforeWrites && mem.getIntVolatile(m + FR_DIRTY) != 0) {
                // A dirty victim: write it and the next cold dirty frames the sweep will reach,
                // their images logged at one force for all, rather than one force per eviction.
                try {
                    writer.cleanAhead(f);
                } catch (OutOfSpaceException e) {
                    // the victim's own write below may still use the log's reserve
                }
            } else if (log != null && mem.getIntVolatile(m + FR_DIRTY) != 0) {
                // The write-ahead force, before the frame latch rather than under it: a process
                // killed inside a frame latch fails the environment, and a force is where a
                // writer spends its time. write() checks again under the latch.
                long flushTo = mem.getLongVolatile(m + FR_FLUSH_LSN);
                if (flushTo > log.flushedLsn()) {
                    log.flush(flushTo, Durability.SYNC);
                }
            }
            if (!ft.tryLatchFrame(f)) {
                continue;
            }
            boolean keep = false;
            try {
                int state = mem.getIntVolatile(m + FR_STATE);
                if (state == FREE) {
                    if (mem.getIntVolatile(m + FR_PINS) == 0) {
                        keep = true;
                        return f;
                    }
                    continue;
                }
                if (state != VALID || mem.getIntVolatile(m + FR_PINS) != 0) {
                    continue;
                }
                if (mem.getIntVolatile(m + FR_DIRTY) != 0) {
                    try {
                        writer.write(f);
                    } catch (OutOfSpaceException | EnvironmentAccessException e) {
                        // It stays dirty; a clean frame elsewhere may still do (a full disk
                        // then only stops what needs a dirty page written).
                        if (writeFailed == null) {
                            writeFailed = e;
                        }
                        continue;
                    }
                }
                int fileId = mem.getInt(m + FR_FILE);
                int b = ft.bucket(fileId, mem.getLong(m + FR_PAGE));
                Latch pl = ft.partition(b);
                pl.acquire();
                try {
                    // Pins are taken under the partition latch: none can come after this check.
                    if (mem.getIntVolatile(m + FR_PINS) != 0 || mem.getIntVolatile(m + FR_DIRTY) != 0) {
                        continue;
                    }
                    ft.unlink(b, f);
                    mem.getAndAddLong(OFF_EVICTIONS, 1);
                    mem.putIntVolatile(m + FR_STATE, FREE);
                } finally {
                    pl.release();
                }
                evictions.increment();
                keep = true;
                return f;
            } finally {
                if (!keep) {
                    ft.unlatchFrame(f);
                }
            }
        }
        if (writeFailed != null) {
            throw writeFailed; // every frame that could go was dirty and could not be written
        }
        throw new CapacityExceededException("the buffer pool of " + env.home() + " has no frame to reuse: all "
                + frames + " frames are pinned or busy; unpin pages, or raise BufferConfig.poolBytes");
    }
}
