package org.libtp.db;

/** The paper's three ways to use the access methods (section 5: NOTP, SHARED pool, TP). */
public enum OpenMode {
    /**
     * No protection: no locks, no log, no transactions (the NOTP baseline). One thread of one
     * process at a time, or the application serializes; changes reach the files at checkpoints,
     * {@link Environment#sync()} and close; a crash may lose or tear them.
     */
    UNPROTECTED,
    /**
     * The shared buffer pool with a database-wide lock per operation (readers share, a writer is
     * alone; like Berkeley DB's concurrent data store): several threads and processes, no
     * transactions, no log; changes reach the files at checkpoints, sync and close.
     */
    SHARED,
    /** Transactions: page locks (two-phase, with the B-link protocol), write-ahead logging, recovery. */
    TP
}
