/**
 * The buffer manager (paper 3.1.3, 3.2.2): a pool of page frames in the shared region
 * {@code buffer}, used by every process of the environment, that enforces write-ahead logging.
 * {@link org.libtp.core.buffer.SharedBufferPool} is the {@link org.libtp.core.buffer.BufferManager};
 * the package-private {@code BufferLayout} has the offset tables of the regions {@code buffer} and
 * {@code buffer.cfg}, their layout versions and fingerprint, {@link org.libtp.core.buffer.PageHeader}
 * the page header's. Package-private parts: {@code DataFileTable} (the file registry, page
 * counts, generations, data file headers and handles) and {@code PageWriter} (page writes under
 * the write-ahead rule, torn-write images, file forces, checkpoint writes and the dirty-page
 * table), {@code FrameTable} (frames, their latches and pins, the hash chains and their
 * partition latches) and {@code Clock} (replacement: the shared CLOCK hand, dirty victims written
 * first); {@code SharedBufferPool} keeps get/unpin, read-ahead and failCheck. The package knows nothing of transactions: the record manager of logged page
 * changes, {@code PageUpdates}, is in {@code org.libtp.core.txn}.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li><b>Write-ahead.</b> A frame's {@code flushLsn} is the end of the newest logged change
 *       applied to it ({@link org.libtp.core.buffer.Page#setLsn}, under the frame latch). Before
 *       any process writes the page it forces the log to {@code flushLsn}. Data files are read
 *       and written with explicit positional I/O through {@link org.libtp.core.storage.Storage};
 *       they are never memory-mapped (the OS could write a mapped page back at any time).</li>
 *   <li><b>Checksums.</b> A page is sealed (magic, version, its own page number, CRC32C) as it is
 *       written and checked as it is read; a mismatch is a
 *       {@link org.libtp.core.CorruptionException} naming the file and page, and leaves no frame
 *       behind. An all-zero page is a page never written.</li>
 *   <li><b>Stable file ids.</b> The shared file registry is loaded from, and every new entry is
 *       first made durable in, {@code __libtp.files}, so the file ids in log records name the
 *       same files after any restart.</li>
 * </ul>
 *
 * <h2>Latches</h2>
 * <ul>
 *   <li>A <b>partition latch</b> guards the hash chains of its buckets and is the only place pins
 *       are <em>taken</em>; so an evictor that sees a zero pin count under the partition latch
 *       knows no one can pin the frame before it is unlinked. Unpin is a CAS outside any latch.</li>
 *   <li>The <b>frame latch</b> guards the page content (callers take it to change a page, and to
 *       read one that no page lock protects) and all of the frame's I/O: a loader holds it while
 *       reading (others that find the frame loading wait on it), an evictor while writing.</li>
 *   <li>Beside each frame latch, the frame's <b>sequence</b> (a seqlock): every latch holder makes
 *       it odd as it takes the latch and even again before it lets go, whatever it does with the
 *       frame (change the page, read it in, give the frame to another page, or only read it).
 *       {@link org.libtp.core.buffer.BufferManager#tryOptimistic} reads it, finds the frame
 *       through the hash chain without the partition latch, checks the frame's identity and
 *       returns a view; {@link org.libtp.core.buffer.Page#validate} reads it again. Equal even
 *       values mean no holder came between, so what was read is one state of that page. The
 *       optimistic path writes no shared cache line (the reference bit only when clear) and takes
 *       no pin: an internal B-tree page read this way costs the hits of other processes nothing.
 *       A holder that dies leaves the sequence odd; the next holder restores the parity.</li>
 *   <li>The <b>registry latch</b> guards registering files. Order: frame before partition;
 *       never two frames or two partitions at once.</li>
 * </ul>
 *
 * <h2>Replacement: CLOCK</h2>
 * A hit only sets the frame's reference bit (a plain store, skipped when already set), so the hit
 * path touches no shared list and takes one partition latch — an LRU list would need a global
 * latch on every hit, across processes. The sweep (a shared atomic hand) clears reference bits and
 * takes the first unpinned frame whose bit is clear; CLOCK approximates LRU (second chance).
 * Whichever process needs a frame writes the dirty victim itself, through its own file handle.
 *
 * <h2>Read-ahead into a cold pool</h2>
 * Until a miss finds no free frame, a process reads the aligned group of 64 pages around a
 * missing page in one {@code pread} and installs the neighbours that are whole, check, and are
 * not in the pool into free frames (reference bit clear: the first to go). It never evicts for
 * them. A neighbour that was in the pool when the read began is skipped (the pool's copy may be
 * newer than the file); one that left it during the read would have been written back and its
 * eviction counted ({@code evictions} in the region), so an install sees the count changed and
 * stops. Measured: OO1's cold lookup (1,000 random parts of 20,000) 9.4 → about 3 ms.
 *
 * <h2>Checkpoints (fuzzy)</h2>
 * The buffer manager's part of a checkpoint that began at log end B: write the pages that have
 * been dirty since before the previous checkpoint began (so a page stays dirty for at most about
 * two intervals, and hot pages are not rewritten at every checkpoint), plus the oldest others if
 * the table would not fit in a log record; force every file written since its last force (by any
 * process: a shared needs-force flag per file); return the dirty-page table (file, page, recLsn
 * = oldest unwritten change). The checkpoint record carries it, and its redo LSN is the oldest
 * recLsn (or B). Frames are latched one at a time, so updates go on. A change logged before B is
 * never missed: the updater holds the frame latch from before its append until the frame is
 * marked dirty, and the table is read under each frame latch after B was taken. Recovery redo
 * re-applies a page record only if the page LSN is older than the record. The last process to
 * close takes a full checkpoint (every dirty page written).
 *
 * <h2>Dead processes</h2>
 * <ul>
 *   <li><b>Frame latch</b>: repaired in place (single-page recovery). The latch is taken over (by
 *       a waiter or by failCheck) and the frame judged by its state: FREE (an evictor had
 *       claimed it) needs nothing; LOADING (a reader was filling it) is unlinked and freed, and
 *       its waiters read the page again; VALID (the holder may have been changing, writing or
 *       reading the page) is read again from its data file and every logged change since its
 *       page LSN, or since the last checkpoint's redo LSN if later, is re-applied by the record
 *       managers ({@code ResourceManager.redoOn}), in a scratch frame (claimed free, in no chain:
 *       nobody sees it); then only the 8-byte words that differ are copied into the frame. A
 *       holder that was writing the page out left it whole, and a reader holding a page lock
 *       reads a pinned page without its latch: it must never see the file's older bytes. Changes are logged before they are applied
 *       (a structure change's image before its latch is released), so this is the page as the
 *       log has it — what recovery would rebuild — and the dead transaction's changes are then
 *       rolled back by failCheck like those of any dead transaction. Without a log (SHARED and
 *       NOTP modes) nothing can say what the page held: the environment fails. A page write
 *       torn by the death (pages larger than the OS page) fails its checksum and fails the
 *       environment too.</li>
 *   <li><b>Pins</b>: each process records the frames it pins in its pin table (open addressing
 *       over 512 words per slot, CAS, a frame's pins the sum of its words); failCheck subtracts a
 *       dead process's from the frames' counts. A pin is counted before it is recorded (under the
 *       partition latch), an unpin unrecorded before it is uncounted: a death between the two
 *       steps of an unpin leaves the frame pinned until the regions are rebuilt (never one pin
 *       short). A process that once had more pinned frames than its table holds fails the
 *       environment when it dies, as Berkeley DB's {@code failchk} does for every pin.</li>
 *   <li><b>Partition latch</b> (hash chains, pin taking): repaired in place, with or without a
 *       log: the chains of its buckets are linked again from the frames in use whose pages hash
 *       there ({@code FrameTable.rebuildPartition}); a frame's identity and state are whole at
 *       every step under the latch (a claimed frame is named before it is marked loading and
 *       linked; an evicted one is unlinked before it is marked free, and if the evictor died in
 *       between it is linked again, still valid). A pin the dead holder had counted and not yet
 *       recorded stays (the frame is never evicted until the regions are rebuilt).</li>
 *   <li><b>Registry latch</b>: not repaired; the environment fails.</li>
 * </ul>
 * A process that dies between operations (no pins, no latches) leaves nothing behind: its dirty
 * pages are in the shared pool, written by others.
 *
 * <h2>Data file header and registry</h2>
 * Every data file starts with a header page ({@link org.libtp.core.buffer.DataFileHeader}: the
 * environment's id, the file id, the name, the page size), written and forced before the file is
 * registered; page {@code n} of the access method is at offset {@code (n + 1) * pageSize}. At
 * load each registered file's header is checked (another environment's file, a missing file or
 * a damaged registry is a {@code CorruptionException} naming it), and the registry can be rebuilt
 * from the headers ({@link org.libtp.core.buffer.DataFiles#rebuildRegistry}). A file id's
 * generation word in the region is raised when its database is removed or renamed, so handles in
 * every process notice with one shared read.
 *
 * <h2>Torn writes</h2>
 * A power failure or OS crash during a page write can leave the page part old, part new; its
 * checksum catches that, but the changes the log holds cannot be applied to such a page. With
 * {@link org.libtp.core.buffer.BufferConfig#tornWriteProtection()} (the default, with a log) the
 * writer logs the sealed page whole ({@code PAGE_WRITE}, no transaction) and forces the log
 * before the write, which also satisfies the write-ahead rule: InnoDB's doublewrite buffer, with
 * the log as the second copy. The force is shared: a checkpoint images a batch of 32 pages, then
 * forces once, then writes each page that still equals its image (a page changed since gets an
 * image of its own); an eviction that meets a dirty victim cleans it and the cold dirty frames
 * the sweep reaches next the same way (latches only tried: the evictor may hold a page latch).
 * Recovery rewrites a page that fails its check from its newest image at or after the redo LSN
 * before redo (see the transaction package's {@code PageUpdates.beforeRedo}); a torn write always has
 * one, because it began after the last checkpoint's dirty-page pass, so after its begin LSN.
 * Costs a page of log per page write (not per commit). Off: a torn page stays a
 * {@code CorruptionException}.
 *
 * <h2>Known limits</h2>
 * Files are never unregistered (database removal comes with the catalog). The image is logged at
 * every write of a page, not once per checkpoint interval (PostgreSQL's full_page_writes logs it
 * at the first change after a checkpoint): a pool smaller than the working set pays a page of log
 * per eviction.
 */
package org.libtp.core.buffer;
