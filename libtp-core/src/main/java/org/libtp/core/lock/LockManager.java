package org.libtp.core.lock;

/**
 * The lock manager (paper 3.2.3, 4.1): page locks for two-phase locking and the B-link tree's
 * early-released internal page locks, shared by every process of an environment, with deadlock
 * detection over all of them. The locker is a {@link Locker} (a transaction, indexed by its
 * {@link Locker#slot()}); its locks are released when it ends (lock_unlock_all, on the
 * {@link LockerTable}'s end notification).
 *
 * <p>Every method validates its arguments first: a null transaction, object or mode is an
 * {@link IllegalArgumentException}, a finished transaction or a closed manager an
 * {@link IllegalStateException}. The lock-request failures ({@link org.libtp.core.DeadlockException},
 * {@link org.libtp.core.LockTimeoutException}, {@link org.libtp.core.CapacityExceededException})
 * are operation failures: the transaction must abort (it keeps the locks it held before the
 * failed call until then). {@link org.libtp.core.LockNotGrantedException} (NOWAIT) leaves the
 * transaction free to go on.
 */
public interface LockManager extends AutoCloseable {
    /** Flag: fail with {@link org.libtp.core.LockNotGrantedException} rather than wait. */
    int NOWAIT = 1;

    /**
     * Acquires (or converts to) {@code mode} on {@code obj} for {@code txn}, waiting in FIFO
     * order behind earlier conflicting requests. Re-locking an object already held in a
     * covering mode only increments a reference count; each successful call adds one reference
     * (a READ holder asking WRITE converts, and also adds one).
     *
     * @throws org.libtp.core.DeadlockException the request closed a waits-for cycle and this
     *         transaction was chosen as the victim: abort and retry
     * @throws org.libtp.core.LockTimeoutException waited {@link LockConfig#lockTimeoutMillis()}
     * @throws org.libtp.core.LockNotGrantedException {@link #NOWAIT} and it would have waited
     * @throws org.libtp.core.CapacityExceededException the lock table is full (maxLocks or maxObjects)
     */
    void lock(Locker txn, LockObject obj, LockMode mode, int flags);

    /**
     * {@link #lock} of page {@code pageNo} (&gt;= 0) of file {@code fileId} (&gt;= 0), named by its
     * two numbers: the access methods' path, which then allocates nothing when the lock cache or
     * a file lock answers (or the table grants at once). READ or WRITE lock the page itself;
     * IREAD or IWRITE announce record locks under it ({@link #lockRecord}).
     */
    default void lockPage(Locker txn, int fileId, long pageNo, LockMode mode, int flags) {
        lock(txn, new LockObject(fileId, pageNo), mode, flags);
    }

    /**
     * Locks record {@code recordId} of file {@code fileId}, which lives on page {@code pageNo}, in
     * READ or WRITE mode, under the intention lock of that mode on the page (and so on the file):
     * two transactions can change different records of one page at once, while a READ or WRITE
     * lock on the page (a scan, an insert, a split) still excludes both. A lock the transaction
     * holds on the page or the file that gives the mode already (page WRITE, file READ) answers
     * without a record lock. Record ids are the access method's (a key's hash, a record number),
     * below {@link LockObject#RECORD}; two records with one id only cost a false conflict.
     * Failures as {@link #lock}; with {@link #NOWAIT} the page's intention lock may stay held
     * when the record's is refused.
     */
    default void lockRecord(Locker txn, int fileId, long pageNo, long recordId, LockMode mode, int flags) {
        if (mode != LockMode.READ && mode != LockMode.WRITE) {
            throw new IllegalArgumentException("a record is locked READ or WRITE, not " + mode);
        }
        lockPage(txn, fileId, pageNo, mode == LockMode.READ ? LockMode.IREAD : LockMode.IWRITE, flags);
        lock(txn, LockObject.record(fileId, recordId), mode, flags);
    }

    /**
     * Releases one reference to {@code txn}'s lock on {@code obj}; the lock goes when the count
     * reaches zero (B-link internal page locks are released early this way) and compatible
     * waiters are granted.
     *
     * @throws IllegalStateException if {@code txn} holds no lock on {@code obj}
     */
    void unlock(Locker txn, LockObject obj);

    /** Releases every lock of {@code txn} (lock_unlock_all); the transaction manager calls it at the end. */
    void unlockAll(Locker txn);

    /**
     * Converts {@code txn}'s READ lock on {@code obj} to WRITE (lock_upgrade), waiting for the
     * other readers; a waiting conversion goes ahead of every ordinary waiter. The reference
     * count is unchanged; holding WRITE already is a no-op.
     *
     * @throws IllegalStateException if {@code txn} holds no lock on {@code obj}
     */
    void upgrade(Locker txn, LockObject obj, int flags);

    /**
     * Converts {@code txn}'s WRITE lock on {@code obj} to READ (lock_downgrade) and grants the
     * waiters that are now compatible. Holding READ already is a no-op.
     *
     * @throws IllegalStateException if {@code txn} holds no lock on {@code obj}
     */
    void downgrade(Locker txn, LockObject obj);

    /** The mode {@code txn} holds on {@code obj}, or null if it holds none. */
    LockMode heldMode(Locker txn, LockObject obj);

    /** Runs one deadlock detection pass over the whole table now; returns the number of victims chosen. */
    int detect();

    /** Statistics of the whole lock table. */
    LockStats stats();

    /** Stops this process's detector thread; later calls throw {@link IllegalStateException}. Idempotent. */
    @Override
    void close();
}
