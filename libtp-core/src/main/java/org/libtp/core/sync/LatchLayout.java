package org.libtp.core.sync;

/**
 * Layout of one latch (a cross-process mutex) in shared memory: {@link #SIZE} bytes, 8-aligned.
 *
 * <pre>
 *  offset size field
 *  ------ ---- -----------------------------------------------------------------
 *       0    4 word      0 = free; else (owner id &lt;&lt; 1) | contended bit.
 *                        The owner id (registry slot + 1) is set by the same CAS
 *                        that takes the latch, so a process that dies holding it
 *                        is always named: there is no window between "locked"
 *                        and "owner recorded".
 *       4    4 reserved  0
 *       8    8 thread    (ownerId &lt;&lt; 40) | owning thread's id: for diagnostics and
 *                        to refuse re-entry (written after the CAS, cleared before
 *                        release; the owner id because thread ids repeat across JVMs)
 * </pre>
 *
 * The contended bit is Drepper's "locked, maybe waiters" state ("Futexes Are Tricky", mutex 3):
 * release wakes one sleeper only when it is set.
 */
public final class LatchLayout {
    public static final int WORD = 0;
    public static final int RESERVED = 4;
    public static final int THREAD = 8;
    public static final int SIZE = 16;
    public static final int CONTENDED = 1;

    private LatchLayout() {
    }

    /** The owner id recorded in a latch word (0 if free). */
    public static int ownerOf(int word) {
        return word >>> 1;
    }
}
