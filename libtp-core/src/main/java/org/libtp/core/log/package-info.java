/**
 * The log manager (paper 3.2.1, 4.2): a write-ahead log shared by every process of an
 * environment, with group commit.
 *
 * <h2>Structures</h2>
 * <ul>
 *   <li>Log files {@code log.NNNNNNNNNN} in the environment directory, of
 *       {@link org.libtp.core.log.LogConfig#fileSize()} bytes, starting with a
 *       {@link org.libtp.core.log.LogFileHeader}; records ({@link org.libtp.core.log.LogRecordCodec})
 *       follow back to back; a zero length word ends the records of a file.</li>
 *   <li>Space: a new file gets its header and first 512 KiB of zeros, and its full length as a
 *       hole (which reads as zeros); {@code allocated} in the region marks how far the current
 *       file has its blocks, and records are placed only below it, so writing them never needs
 *       new space (overwriting allocated blocks is also what makes a forced write cheap). The
 *       background (the prepare thread) zero-fills 256 KiB steps ahead under the <b>alloc
 *       latch</b>; an appender that finds too little allocated does it itself. The last eighth
 *       of each file (at most 256 KiB) is a reserve: records of changes not yet made and
 *       checkpoints switch files, or are refused with {@code OutOfSpaceException}, before they
 *       would use it, so that compensations, abort and commit records and page images of changes
 *       already made still find room when the disk is full. {@code ensureSpace} lets a record
 *       manager ask before a change it can only log afterwards (a B-tree split).</li>
 *   <li>The shared region {@code log} ({@code LogLayout} has its offset table, layout version
 *       and fingerprint): the log buffer, nextLsn, bufferStartLsn, flushedLsn, the log latch and
 *       the leader word.</li>
 *   <li>LSN = (file number, offset) in a long ({@link org.libtp.core.log.Lsn}).</li>
 * </ul>
 *
 * <h2>Classes</h2>
 * {@link org.libtp.core.log.SharedLog} is the {@link org.libtp.core.log.LogManager} of a process
 * (reads and scans are its own); the rest is package-private: {@code LogBuffer} appends (LSNs
 * under the log latch), switches files and writes the buffer to the OS; {@code GroupCommit}
 * flushes (the leader word, the thresholds, the flush event); {@code LogFiles} holds the
 * process's file handles, creates and prepares files, allocates ahead, forces behind, removes
 * files, and at open finds the end of the log; {@code LogLayout} is the region's layout.
 *
 * <h2>Latches</h2>
 * The <b>log latch</b> guards the buffer, nextLsn, bufferStartLsn and file switches; appending
 * copies the record into the buffer under it; when it is full, the unwritten tail moves to the
 * buffer's front (if it does not overlap its destination) or the buffer is written out first.
 * Once half the buffer is unwritten the write-back thread writes it out.
 * The <b>write latch</b> is held across each write(2) of buffer bytes, the <b>alloc latch</b>
 * while zeros are written ahead (raising {@code allocated}); each is taken after the log latch
 * or alone, never the two together. Zeros are written only at or above {@code allocated}, which
 * is at or above every record, so they never overwrite one.
 * The group-commit <b>leader word</b> (not a latch) is held by the leader while it writes the
 * buffer out (taking the log latch briefly) and forces the file; never the other way round. It
 * names the leader's (process slot, generation). A leader killed there leaves consistent state —
 * bytes before bufferStartLsn are in the OS page cache, flushedLsn moves only after a force — so
 * a follower that finds its process dead clears the word and leads, redoing the write and the
 * force, instead of failing the environment (the leader sits in fsync much of the time, so this is
 * where a killed committer most often is).
 *
 * <h2>Group commit</h2>
 * Leader/follower: a committer whose commit record is not yet forced tries the leader word; the
 * winner (optionally waiting per the paper's group, wait and logdelay thresholds) forces
 * everything buffered and wakes all sleepers through a shared broadcast event; the others sleep on
 * that event and are covered by the leader's force, or lead the next round. Measured: 4 JVMs x 2
 * threads made 2,400 SYNC commits with about 700 forces.
 *
 * <h2>Crash protocol</h2>
 * <ul>
 *   <li>flushedLsn is published only after the force returned: an acknowledged SYNC commit is on
 *       disk.</li>
 *   <li>A file is forced, and its successor created and the directory forced, before any record
 *       goes to the successor: all files but the last are complete and durable. The successor is
 *       normally built ahead, outside the log latch, as {@code log.N.ready} (header, zeros,
 *       forced), so the switch only renames it; only a switch, under the log latch, gives a file
 *       its {@code log.N} name. Still under the latch, and the main cost of a switch at NO_SYNC:
 *       forcing the old file; a write-back thread ({@code libtp-log-writeback}) forces the
 *       current file each time a quarter of it has gone by unforced, so that force finds at most
 *       a quarter left (a failed background force fails the environment like any other).
 *       Moving the switch's force out entirely needs the leader to force every file since
 *       flushedLsn and open to find the end of the log from the last checkpoint on.</li>
 *   <li>NO_SYNC and WRITE_NO_SYNC commits write nothing where the kernel's boot id is known
 *       (Linux): their records stay in the shared buffer, which outlives every process. Bytes
 *       leave the buffer only once written ({@code bufferStartLsn <= writtenLsn}; a write copies
 *       them out and leaves them there). After an unclean end the environment keeps the log
 *       region ({@code __libtp.kept.log}); the first process, having found the end of the log
 *       files, appends the kept buffer's whole, checksummed records from there, forces them and
 *       deletes it, before recovery reads the log ({@code LogSalvage}). A buffer from before a
 *       machine restart (another boot id) is not used: a region file on disk may hold stale
 *       pages. One that cannot be read is a {@link org.libtp.core.CorruptionException} or
 *       {@link org.libtp.core.VersionMismatchException} naming it, with nothing changed.</li>
 *   <li>At open, the first process scans the last file: the first record that is cut short, has an
 *       impossible length or fails its CRC ends the log; the rest of the file is zeroed (one WARN):
 *       only an unacknowledged, unforced write can be torn there. Unless a valid checkpoint record
 *       follows whose redo LSN lies beyond the bad record: a checkpoint is written only after the
 *       log was forced through its redo LSN, so the bad record was synced, and that is a
 *       {@link org.libtp.core.CorruptionException} (the log is left untouched). A bad record met
 *       later while reading is also a {@code CorruptionException}.</li>
 *   <li>A failed force fails the environment: it is never retried (after an fsync error the kernel
 *       may have dropped the dirty pages) and never reported as success. No room to create the
 *       next file or zero-fill the next stretch refuses the record ({@code OutOfSpaceException})
 *       with nothing changed and the half-built file ({@code .new}, {@code .prep}) deleted; a
 *       failed write of records (inside allocated space) still fails the environment.</li>
 *   <li>A process killed holding a latch of the log region is repaired in place: the latch is
 *       taken over (by a waiter or failCheck) and the state it guards is consistent already, or
 *       made so. Log latch: a record is copied into the buffer before nextLsn moves past it, and
 *       a move of the unwritten tail leaves its source intact until bufferStartLsn moves, so a
 *       death there leaves at most bytes past the end that the next append overwrites; a file
 *       switch cut short after the next file was renamed into place ({@code log.N+1} exists while
 *       nextLsn is still in file N, or nextLsn moved but bufferStartLsn or writtenLsn did not) is
 *       finished by the repair (the old file was written, its file-end record after it, and forced
 *       before the rename; the repair writes both again, the same bytes); one cut
 *       short before it left a {@code .ready} or {@code .new} file that the next switch reuses or
 *       rebuilds. Write latch: writtenLsn moves only after the write(2), so the next writer
 *       writes the same bytes again. Alloc latch: {@code allocated} moves only after the zeros are
 *       written. A death during the first process's open (finding the end, salvage) fails the
 *       environment. Followers waiting for a dead group-commit leader take over its word.</li>
 * </ul>
 *
 * <h2>Continuity: the log anchor</h2>
 * Data pages carry LSNs of this log; a log that restarted at (1, 64) under them would make redo
 * skip every later change. The anchor file ({@link org.libtp.core.log.LogAnchor}) names the
 * environment, the log's id and an LSN the log is known to reach durably (raised after each
 * checkpoint's force, under the checkpoint latch). The first process refuses to open, before it
 * changes anything, a log whose files are missing, belong to another log, are shorter than they
 * were created (preallocated files are never legitimately short) or end before that LSN. The
 * buffer manager refuses a page read from disk whose LSN is at or past the end of the log.
 * {@code tp.Repair.resetLog} is the explicit way to start over.
 *
 * <p>Inside the log, every file but the last ends with a file-end record (type 20), written after
 * its records and forced with them before the next file is named; each file keeps room for one.
 * A scan that meets zeros or a bad record in a file that is not the last has lost records (a
 * stretch zeroed or damaged) and throws a {@link org.libtp.core.CorruptionException} naming the
 * file and LSN, rather than moving on to the next file and leaving a gap nobody sees. A file-end
 * record in the last file (a switch stopped after writing it: no room for the next file, or the
 * process died) is the end of the log; the next append writes over it.
 *
 * <h2>Removal</h2>
 * Files recovery no longer needs are removed after checkpoints ({@link org.libtp.core.log.LogConfig#autoRemove()});
 * the lowest kept number is published in the region so every process closes its handles on the
 * removed files at its next file access, and a background force of a removed file is skipped.
 */
package org.libtp.core.log;
