package org.libtp.core.lock;

/**
 * Lock modes (paper 3.2.3: single writer, multiple readers). The conflict, cover and join
 * matrices are indexed by {@link #ordinal()}, which is what the lock table stores in shared
 * memory, so a mode is never renumbered.
 *
 * <p>Room for hierarchical locking [GRAY76]: intention modes (IREAD, IWRITE and later
 * READ-IWRITE) are added as new constants <em>after</em> WRITE, with a new row and column in each
 * matrix; nothing else in the lock manager looks at modes except through these matrices (the
 * grant test is a bit mask of conflicting ordinals, at most 8 modes). Adding modes changes the
 * lock region's layout version.
 */
public enum LockMode {
    READ,
    WRITE;

    private static final LockMode[] VALUES = values();

    /** CONFLICTS[a][b]: a request in mode a cannot be granted beside a holder in mode b. */
    private static final boolean[][] CONFLICTS = {
            //          READ   WRITE
            /* READ  */ {false, true},
            /* WRITE */ {true, true},
    };

    /** COVERS[a][b]: holding a gives every right b gives, so a request for b is a re-lock. */
    private static final boolean[][] COVERS = {
            //          READ   WRITE
            /* READ  */ {true, false},
            /* WRITE */ {true, true},
    };

    /** JOIN[a][b]: the weakest mode covering both (what holding a and asking b converts to). */
    private static final int[][] JOIN = {
            //          READ   WRITE
            /* READ  */ {0, 1},
            /* WRITE */ {1, 1},
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

    static boolean covers(int held, int wanted) {
        return COVERS[held][wanted];
    }

    static int join(int a, int b) {
        return JOIN[a][b];
    }
}
