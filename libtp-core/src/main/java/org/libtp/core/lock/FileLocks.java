package org.libtp.core.lock;

/**
 * Per transaction, in the process that runs it: the mode it holds on each file it locked
 * pages of, and how many page locks it asked for there. Only the transaction's own thread
 * uses it; a new transaction in the slot starts a new one.
 */
final class FileLocks {
    final long txnId;
    private int lastFile = -1;
    private long[] lastEntry;
    private final java.util.HashMap<Integer, long[]> byFile = new java.util.HashMap<>(4);

    FileLocks(long txnId) {
        this.txnId = txnId;
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
