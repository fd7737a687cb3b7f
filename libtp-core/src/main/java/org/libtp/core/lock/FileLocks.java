package org.libtp.core.lock;

/**
 * Per transaction, in the process that runs it: the mode it holds on each file it locked
 * pages of, how many page locks it asked for there, and the page locks it holds (the lock
 * cache: a request that a held lock covers is answered here, without a partition latch or the
 * shared table). Only the transaction's own thread uses it; a new transaction in the slot starts
 * a new one. Locks are counted references (each lock call one, each unlock gives one back): a
 * request the cache answers is a reference kept here ({@code refs}), not in the table, and an
 * unlock gives back one of those first; an unlock that must go to the table drops the entry, so
 * the cache only ever under-states what the table holds. Nobody but the transaction itself
 * releases a live transaction's locks (escalation's release of covered pages drops the file's
 * entries first). When the transaction has ended, the slot's next transaction empties and reuses
 * it ({@link #reuse}), so that beginning a transaction and taking its first locks allocates
 * nothing.
 */
final class FileLocks {
    /** The transaction id of a cache whose transaction has ended. */
    static final long NONE = -1;
    /** A cache that grew past this many slots is not kept for the next transaction. */
    private static final int KEPT_CAPACITY = 4096;

    long txnId;
    private int lastFile = -1;
    private long[] lastEntry;
    private final java.util.HashMap<Integer, long[]> byFile = new java.util.HashMap<>(4);

    /**
     * Page lock cache, open addressing with linear probing: page, file, mode + 1 (0 = empty) and
     * the references taken through the cache.
     */
    private long[] pages = new long[16];
    private int[] files = new int[16];
    private byte[] modes = new byte[16];
    private int[] refs = new int[16];
    private int cached;

    FileLocks(long txnId) {
        this.txnId = txnId;
    }

    /** Empties this cache for transaction {@code next} (or {@link #NONE}): no file, intention or page lock held. */
    void reuse(long next) {
        txnId = next;
        if (cached > 0) {
            if (modes.length > KEPT_CAPACITY) {
                pages = new long[16];
                files = new int[16];
                modes = new byte[16];
                refs = new int[16];
            } else {
                java.util.Arrays.fill(modes, (byte) 0);
            }
            cached = 0;
        }
        for (long[] e : byFile.values()) { // kept: the files a slot's transactions lock are few
            e[0] = -1;
            e[1] = 0;
            e[2] = 0;
            e[3] = 0;
        }
    }

    private static int home(int fileId, long pageNo, int mask) {
        long h = pageNo * 0x9E3779B97F4A7C15L ^ fileId * 0xC2B2AE3D27D4EB4FL;
        return (int) (h ^ h >>> 29) & mask;
    }

    private int find(int fileId, long pageNo) {
        int mask = modes.length - 1;
        for (int i = home(fileId, pageNo, mask); ; i = i + 1 & mask) {
            if (modes[i] == 0) {
                return -1;
            }
            if (pages[i] == pageNo && files[i] == fileId) {
                return i;
            }
        }
    }

    /**
     * A request for the page in {@code mode}: true (one more reference, kept here) if a lock the
     * transaction holds covers it, false if it must go to the lock table.
     */
    boolean hit(int fileId, long pageNo, int mode) {
        int i = find(fileId, pageNo);
        if (i < 0 || !LockMode.covers(modes[i] - 1, mode)) {
            return false;
        }
        refs[i]++;
        return true;
    }

    /**
     * An unlock of the page: true if it gave back a reference the cache kept (the table is not
     * asked), false if it must go to the table (the entry is dropped then: the table knows
     * whether the lock is still held).
     */
    boolean unlockCached(int fileId, long pageNo) {
        int i = find(fileId, pageNo);
        if (i < 0) {
            return false;
        }
        if (refs[i] > 0) {
            refs[i]--;
            return true;
        }
        remove(i);
        return false;
    }

    /** The page lock was granted in {@code mode} (joined with the mode already held). */
    void pageHeld(int fileId, long pageNo, int mode) {
        int i = find(fileId, pageNo);
        if (i >= 0) {
            modes[i] = (byte) (LockMode.join(modes[i] - 1, mode) + 1);
            return;
        }
        if (2 * (cached + 1) > modes.length) {
            grow();
        }
        insert(fileId, pageNo, mode + 1, 0);
    }

    /** Puts an entry known to be absent, in a table with room. */
    private void insert(int fileId, long pageNo, int modePlusOne, int references) {
        int mask = modes.length - 1;
        int i = home(fileId, pageNo, mask);
        while (modes[i] != 0) {
            i = i + 1 & mask;
        }
        pages[i] = pageNo;
        files[i] = fileId;
        modes[i] = (byte) modePlusOne;
        refs[i] = references;
        cached++;
    }

    /** The page lock is now held in {@code mode} only (a downgrade). */
    void pageDowngraded(int fileId, long pageNo, int mode) {
        int i = find(fileId, pageNo);
        if (i >= 0) {
            modes[i] = (byte) (mode + 1);
        }
    }

    private void remove(int i) {
        // Backward-shift deletion: move later entries of the run into the hole they may probe past.
        int mask = modes.length - 1;
        int hole = i;
        for (int j = i + 1 & mask; modes[j] != 0; j = j + 1 & mask) {
            int h = home(files[j], pages[j], mask);
            if ((j - h & mask) >= (j - hole & mask)) {
                pages[hole] = pages[j];
                files[hole] = files[j];
                modes[hole] = modes[j];
                refs[hole] = refs[j];
                hole = j;
            }
        }
        modes[hole] = 0;
        cached--;
    }

    /** Forgets every page lock of file {@code fileId} (its covered locks were given back). */
    void pagesReleased(int fileId) {
        rebuild(modes.length, fileId);
    }

    private void grow() {
        rebuild(2 * modes.length, Integer.MIN_VALUE);
    }

    /** Rehashes into {@code capacity} slots, leaving out file {@code dropFile}'s entries. */
    private void rebuild(int capacity, int dropFile) {
        long[] p = pages;
        int[] f = files;
        byte[] m = modes;
        int[] r = refs;
        pages = new long[capacity];
        files = new int[capacity];
        modes = new byte[capacity];
        refs = new int[capacity];
        cached = 0;
        for (int i = 0; i < m.length; i++) {
            if (m[i] != 0 && f[i] != dropFile) {
                insert(f[i], p[i], m[i], r[i]);
            }
        }
    }

    /** {held mode ordinal or -1, page requests, write requests, escalated 0/1} */
    private long[] entry(int fileId) {
        if (fileId == lastFile) {
            return lastEntry;
        }
        long[] e = byFile.computeIfAbsent(fileId, f -> new long[] {-1, 0, 0, 0});
        lastFile = fileId;
        lastEntry = e;
        return e;
    }

    int held(int fileId) {
        return (int) entry(fileId)[0];
    }

    void hold(int fileId, int mode) {
        entry(fileId)[0] = mode;
    }

    void forget(int fileId) {
        entry(fileId)[0] = -1;
    }

    int counted(int fileId, boolean write) {
        long[] e = entry(fileId);
        if (write) {
            e[2]++;
        }
        return (int) ++e[1];
    }

    boolean wrote(int fileId) {
        return entry(fileId)[2] > 0;
    }

    boolean escalated(int fileId) {
        return entry(fileId)[3] != 0;
    }

    void markEscalated(int fileId) {
        entry(fileId)[3] = 1;
    }
}
