package org.libtp.core.txn;

import org.libtp.core.region.Fingerprint;

/**
 * The transaction region's layout ({@code __libtp.rgn.txn}, native byte order): the
 * transaction manager's shared state and the transaction table, one entry per transaction slot.
 *
 * <pre>
 *  offset  size  field
 *  ------  ----  -------------------------------------------------------------
 *     256    64  txn latch         guards the table's free/used states and nextTxnId; its
 *                                  holder's death is repaired in place: every step of begin
 *                                  leaves the table consistent (SharedTxnManager.repairTxnLatch),
 *                                  except recovery's (state 0), which fails the environment
 *     320    64  checkpoint latch  one checkpoint at a time
 *     384     8  nextTxnId
 *     392     8  lastCheckpointLsn  LSN of the last checkpoint record
 *     400     8  lastCheckpointRedo its redo LSN
 *     408     4  maxTransactions
 *     412     4  state             0 = recovery not yet run
 *     416     4  reserved          (activeCount up to layout 6; now counted from the table)
 *     424     8  lastCheckpointMillis
 *     432     8  lastCheckpointBegin the end of the log when the last checkpoint began
 *     440     8  earlyReleaseEnd   the end LSN of the newest commit record whose transaction
 *                                  released its locks before the record was durable (raised
 *                                  by CAS; read-only commits wait for the log to pass it)
 *     448     8  lastCheckpointFrom where recovery would start reading after the last checkpoint:
 *                                   its redo LSN or the first LSN of a transaction it lists as
 *                                   active, whichever is older (log files before it are archivable
 *                                   once no running transaction needs them)
 *     456     8  backupFrom        while a hot backup runs: the first LSN it copies (log files
 *                                  from its file on are not removed; 0 = no backup)
 *     464     4  backupOwner       the backup's process slot (a dead owner's pin is ignored)
 *     472     8  backupOwnerGen    that slot's generation when the backup began
 *    1024  64*T  transaction table, T = maxTransactions entries:
 *                  0  4 state 0 free / 1 running / 2 committing / 3 aborting
 *                  4  4 owner process slot
 *                  8  8 owner slot generation
 *                 16  8 txnId
 *                 24  8 firstLsn  (a lower bound, published before the first append)
 *                 32  8 lastLsn   (published right after each append)
 *                 40  8 begin time, ms since the epoch
 *                 48  8 waiter semaphore (SemaphoreLayout): where this transaction
 *                       sleeps when it waits for a lock (process manager, paper 3.2.4)
 *                 56  8 claim     0, or the process rolling it back after its owner died:
 *                       (process slot + 1) &lt;&lt; 40 | slot generation (40 bits), set by CAS
 * </pre>
 *
 * The region fingerprint covers every constant here ({@link Fingerprint#ofConstants}): a process
 * built with another layout refuses to attach.
 */
final class TxnLayout {
    static final long OFF_TXN_LATCH = 256;
    static final long OFF_CKP_LATCH = 320;
    static final long OFF_NEXT_ID = 384;
    static final long OFF_LAST_CKP = 392;
    static final long OFF_LAST_CKP_REDO = 400;
    static final long OFF_MAX = 408;
    static final long OFF_STATE = 412;
    static final long OFF_ACTIVE = 416;
    static final long OFF_LAST_CKP_MILLIS = 424;
    static final long OFF_LAST_CKP_BEGIN = 432;
    static final long OFF_EARLY_RELEASE_END = 440;
    static final long OFF_LAST_CKP_FROM = 448;
    static final long OFF_BACKUP_FROM = 456;
    static final long OFF_BACKUP_OWNER = 464;
    static final long OFF_BACKUP_OWNER_GEN = 472;
    static final long OFF_TABLE = 1024;
    // 3: lastCheckpointFrom; 4: the hot backup's pin; 5: the fingerprint covers every offset;
    // 6: the claim of a dead owner's transaction; 7: activeCount no longer kept (counted)
    static final int LAYOUT_VERSION = 7;
    static final int ENTRY = 64;
    static final int E_STATE = 0;
    static final int E_OWNER = 4;
    static final int E_OWNER_GEN = 8;
    static final int E_ID = 16;
    static final int E_FIRST = 24;
    static final int E_LAST = 32;
    static final int E_BEGIN = 40;
    static final int E_WAITER = 48;
    static final int E_CLAIM = 56;
    static final int FREE = 0;
    static final int RUNNING = 1;
    static final int COMMITTING = 2;
    static final int ABORTING = 3;
    static final long FINGERPRINT = Fingerprint.ofConstants(TxnLayout.class);

    private TxnLayout() {
    }

    /** Offset of table entry {@code slot}. */
    static long entry(int slot) {
        return OFF_TABLE + (long) ENTRY * slot;
    }
}
