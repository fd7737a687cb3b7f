package org.libtp.core.lock;

/**
 * Lock modes (paper 3.2.3: single writer, multiple readers) and the intention modes of
 * hierarchical locking [GRAY76], the paper's future work: a page lock is taken under an
 * intention lock on its file ({@link LockObject#WHOLE_FILE}), so that a transaction can lock
 * the whole file instead of its pages (lock escalation) without missing another transaction's
 * page locks. The conflict, cover and join matrices are indexed by {@link #ordinal()}, which is
 * what the lock table stores in shared memory, so a mode is never renumbered (new modes go at
 * the end; adding one changes the lock region's layout version).
 */
public enum LockMode {
    /** Shared: on a page, read it; on a file, read every page (S). */
    READ,
    /** Exclusive: on a page, change it; on a file, every page (X). */
    WRITE,
    /** Intention to read pages of the file (IS). */
    IREAD,
    /** Intention to change pages of the file (IX). */
    IWRITE,
    /** Read every page of the file and change some (SIX: READ and IWRITE at once). */
    READ_IWRITE;

    private static final LockMode[] VALUES = values();

    /** CONFLICTS[a][b]: a request in mode a cannot be granted beside a holder in mode b. */
    private static final boolean[][] CONFLICTS = {
            //                READ   WRITE  IREAD  IWRITE R_IW
            /* READ       */ {false, true, false, true, true},
            /* WRITE      */ {true, true, true, true, true},
            /* IREAD      */ {false, true, false, false, false},
            /* IWRITE     */ {true, true, false, false, true},
            /* READ_IWRITE*/ {true, true, false, true, true},
    };

    /** COVERS[a][b]: holding a gives every right b gives, so a request for b is a re-lock. */
    private static final boolean[][] COVERS = {
            //                READ   WRITE  IREAD  IWRITE R_IW
            /* READ       */ {true, false, true, false, false},
            /* WRITE      */ {true, true, true, true, true},
            /* IREAD      */ {false, false, true, false, false},
            /* IWRITE     */ {false, false, true, true, false},
            /* READ_IWRITE*/ {true, false, true, true, true},
    };

    /** JOIN[a][b]: the weakest mode covering both (what holding a and asking b converts to). */
    private static final int[][] JOIN = {
            //                READ WRITE IREAD IWRITE R_IW
            /* READ       */ {0, 1, 0, 4, 4},
            /* WRITE      */ {1, 1, 1, 1, 1},
            /* IREAD      */ {0, 1, 2, 3, 4},
            /* IWRITE     */ {4, 1, 3, 3, 4},
            /* READ_IWRITE*/ {4, 1, 4, 4, 4},
    };

    /** CONFLICT_MASK[a]: bit b set iff a conflicts with b. */
    private static final int[] CONFLICT_MASK = new int[VALUES.length];

    static {
        if (VALUES.length > 8) {
            throw new ExceptionInInitializerError("at most 8 lock modes fit the grant masks");
        }
        for (int a = 0; a < VALUES.length; a++) {
            for (int b = 0; b < VALUES.length; b++) {
                if (CONFLICTS[a][b] != CONFLICTS[b][a]) {
                    throw new ExceptionInInitializerError("the conflict matrix must be symmetric");
                }
                if (CONFLICTS[a][b]) {
                    CONFLICT_MASK[a] |= 1 << b;
                }
            }
        }
    }

    /** True if a request in this mode cannot be granted while another locker holds {@code other}. */
    public boolean conflictsWith(LockMode other) {
        return CONFLICTS[ordinal()][other.ordinal()];
    }

    /** True if holding this mode makes a request for {@code other} a re-lock. */
    public boolean covers(LockMode other) {
        return COVERS[ordinal()][other.ordinal()];
    }

    /** The weakest mode covering this one and {@code other}. */
    public LockMode join(LockMode other) {
        return VALUES[JOIN[ordinal()][other.ordinal()]];
    }

    /** The intention mode a page lock in this mode needs on its file (IREAD or IWRITE). */
    LockMode intention() {
        return this == READ || this == IREAD ? IREAD : IWRITE;
    }

    static LockMode of(int ordinal) {
        return VALUES[ordinal];
    }

    static int count() {
        return VALUES.length;
    }

    /** Bit mask of the ordinals mode {@code ordinal} conflicts with. */
    static int conflictMask(int ordinal) {
        return CONFLICT_MASK[ordinal];
    }

    /**
     * The mode a lock in mode {@code held} on a parent (a file, a page) gives on each of its
     * children without locking them: WRITE gives WRITE, READ and READ_IWRITE give READ, an
     * intention mode gives nothing (-1) - its holder locks the children it uses.
     */
    static int implied(int held) {
        if (held == WRITE.ordinal()) {
            return held;
        }
        return held == READ.ordinal() || held == READ_IWRITE.ordinal() ? READ.ordinal() : -1;
    }

    /** True if a lock in mode {@code held} on a parent gives {@code wanted} on each child. */
    static boolean coversChildren(int held, int wanted) {
        int implied = held < 0 ? -1 : implied(held);
        return implied >= 0 && COVERS[implied][wanted];
    }

    static boolean covers(int held, int wanted) {
        return COVERS[held][wanted];
    }

    static int join(int a, int b) {
        return JOIN[a][b];
    }
}
