package org.libtp.core.log;

import org.libtp.core.region.Fingerprint;

/**
 * Layout of the log region ({@code __libtp.rgn.log}): the offsets {@link SharedLog} and its
 * parts read and write under the latches named here.
 *
 * <pre>
 *  offset  size  field
 *  ------  ----  ------------------------------------------------------------------
 *     256    64  log latch    guards the buffer, nextLsn, bufferStartLsn, file switches
 *     320     8  leader       the group-commit leader: (process slot + 1) &lt;&lt; 40 | its slot
 *                           generation (40 bits), 0 = none. Not a latch: a leader killed
 *                           mid-force leaves consistent state (bytes before writtenLsn are in
 *                           the OS, flushedLsn moves only after a force), so once failCheck has
 *                           freed its slot a follower takes over instead of failing the
 *                           environment
 *     384     8  nextLsn         LSN the next record gets
 *     392     8  bufferStartLsn  LSN of buffer byte 0; bytes before it have left the buffer
 *                                and are written to the OS (it never passes writtenLsn)
 *     400     8  flushedLsn      bytes before it are forced (volatile)
 *     408     8  logId           random id written in every log file header
 *     416     8  flush event     {generation, waiters}: followers sleep on it
 *     424     4  activeTxns      maintained by the transaction manager (group threshold)
 *     428     4  committers      threads waiting in flush(SYNC) (wait threshold)
 *     432     8  fileSize
 *     440     4  bufferSize
 *     444     4  state           0 = not yet opened, 1 = end of log found and ready
 *     448     8  preparing       number of the log file being prepared ahead (claimed by CAS)
 *     456     8  writtenLsn      bytes before it are written to the OS (volatile, only grows
 *                                within a file; set with nextLsn at a file switch)
 *     464     8  anchorMinEnd    minEndLsn of the log anchor file as last written (only grows;
 *                                written by the checkpoint latch's holder, or the first process)
 *     472     8  envId           the anchor's environment id
 *     480     8  anchorCreated   the anchor's creation time
 *     488     8  removedBelow    log files numbered below it were removed: every process closes
 *                                its handles on them at its next file access (their space is
 *                                freed only when the last handle closes)
 *     496     8  allocated       LSN: the bytes of its file before it have their blocks (zeros
 *                                written, or records); records are placed only below it, so no
 *                                log write ever needs new space. Changed under the alloc latch
 *     512    64  write latch     held across each write of buffer bytes to the file; taken
 *                                after the log latch, never the other way round, so that the
 *                                write(2) itself runs after the log latch is released and
 *                                appenders do not queue behind a system call
 *     576    64  alloc latch     held while zeros are written ahead of the records (raising
 *                                allocated); taken after the log latch, never with the write latch
 *     640     8  forcesAll       forces of the log by every process since the region was created
 *     648     8  forceNanos      their summed duration (nanoseconds): a hot backup reads the mean
 *                                force time to yield the disk to committers
 *     656    16  bootId          the kernel's boot id (/proc/sys/kernel/random/boot_id) when the
 *                                region was created, 0 where unknown: the next first opener
 *                                salvages the buffer of a kept region only from the same boot
 *                                (after a machine restart a region file on disk may hold stale
 *                                pages), and WRITE_NO_SYNC commits skip write(2) only where it can
 *    4096     B  buffer          bytes [bufferStartLsn, nextLsn) of the current log file; those
 *                                before writtenLsn are written, the rest are not
 * </pre>
 *
 * <p>Invariants: bufferStartLsn &lt;= writtenLsn &lt;= nextLsn, all in the same file; records
 * never span files; every log file but the last is forced before the next is created; bytes
 * before writtenLsn are in the file (written to the OS), bytes before flushedLsn are forced;
 * every byte in [writtenLsn, nextLsn) is in the buffer, also while the write latch's holder
 * writes it (a process killed there fails the environment, as in any latch, and loses nothing:
 * the next first opener salvages the buffer).
 */
final class LogLayout {
    static final long OFF_LOG_LATCH = 256;
    static final long OFF_LEADER = 320;
    /** The leader word's low bits: the leader's slot generation. */
    static final long GEN_MASK = (1L << 40) - 1;
    static final long OFF_NEXT_LSN = 384;
    static final long OFF_BUFFER_START = 392;
    static final long OFF_FLUSHED_LSN = 400;
    static final long OFF_LOG_ID = 408;
    static final long OFF_FLUSH_EVENT = 416;
    static final long OFF_ACTIVE_TXNS = 424;
    static final long OFF_COMMITTERS = 428;
    static final long OFF_FILE_SIZE = 432;
    static final long OFF_BUFFER_SIZE = 440;
    static final long OFF_STATE = 444;
    static final long OFF_PREPARING = 448;
    static final long OFF_WRITTEN_LSN = 456;
    static final long OFF_ANCHOR_MIN_END = 464;
    static final long OFF_ENV_ID = 472;
    static final long OFF_ANCHOR_CREATED = 480;
    static final long OFF_REMOVED_BELOW = 488;
    static final long OFF_ALLOCATED = 496;
    static final long OFF_WRITE_LATCH = 512;
    static final long OFF_ALLOC_LATCH = 576;
    static final long OFF_FORCES_ALL = 640;
    static final long OFF_FORCE_NANOS = 648;
    static final long OFF_BOOT_ID = 656;
    static final long OFF_BUFFER = 4096;
    // 2: the flush latch became the leader word; 3: writtenLsn, write latch; 4: anchor; 5: allocated, alloc latch;
    // 6: forcesAll, forceNanos; 7: the layout in its own class, fingerprinted by its constants;
    // 8: bootId, bufferStartLsn <= writtenLsn (bytes stay in the buffer until written)
    static final int LAYOUT_VERSION = 8;

    /** Every constant above, folded: a process built with another layout refuses to attach. */
    static final long FINGERPRINT = Fingerprint.ofConstants(LogLayout.class);

    private LogLayout() {
    }
}
