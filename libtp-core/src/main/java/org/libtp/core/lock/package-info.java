/**
 * The lock manager (paper 3.2.3, 4.1): page locks for every process of an environment, in the
 * shared regions {@code lock} and {@code lock.tables}
 * ({@link org.libtp.core.lock.LockLayout} has the offset tables), with FIFO queueing,
 * conversions, timeouts and deadlock detection across processes. The locker is a
 * {@link org.libtp.core.lock.Locker} (a transaction): its index in a
 * {@link org.libtp.core.lock.LockerTable} (the shared transaction table), which also holds the
 * semaphore it sleeps on and tells of its end. The transaction manager implements both; this
 * package depends on no transaction type.
 *
 * <h2>Classes</h2>
 * <ul>
 *   <li>{@code SharedLockManager}: the facade ({@code LockManager}): opening the regions, the
 *       lock, unlock, conversion and query calls, intention locks and escalation (with the
 *       per-process {@code FileLocks}), and the wait on the locker's semaphore.</li>
 *   <li>{@code LockLayout}: the offsets of both regions, the {@code Layout} record that sizes
 *       {@code lock.tables}, the layout version and fingerprint.</li>
 *   <li>{@code LockTable}: addressing, buckets, objects and their FIFO queues, the request
 *       under the latch (lock_get: new, re-lock, conversion, queued), the grant rule
 *       (conversions first), lockers' chains, free lists and partition caches, and the
 *       wake-ups collected under a latch.</li>
 *   <li>{@code LockerRelease}: releasing a locker's chain (lock_unlock_all) under a claim, and
 *       the stale and dead lockers found on failCheck and by the detector.</li>
 *   <li>{@code WaitsForGraph}: the edges read from the queues, the search on block, the full
 *       pass and the refusal of victims; {@code DeadlockDetector} finds the cycles and picks
 *       victims on the graph; {@code DetectorRole}: the periodic detector thread and its role
 *       word.</li>
 *   <li>{@code LockTableReader}: {@code stats()} and {@code snapshot()}.</li>
 *   <li>{@code LockPartitionRepair}: a partition rebuilt after its latch holder died, and a
 *       locker's chain rebuilt from the requests naming it.</li>
 * </ul>
 *
 * <h2>Structures and invariants</h2>
 * <ul>
 *   <li><b>Objects</b> (file id, page number) hash to a partition and a bucket of that partition;
 *       an object is in the table exactly while its request queue is non-empty.</li>
 *   <li><b>Queue.</b> Each object's requests form one doubly linked FIFO queue: granted holders
 *       first, then waiters in arrival order. A new request is granted at once only if no one
 *       waits and no holder conflicts (a later READ never jumps a waiting WRITE). A transaction
 *       has at most one request per object; re-locking in a covered mode increments its
 *       reference count, and the lock goes when the count reaches zero.</li>
 *   <li><b>Chain.</b> Each transaction's requests are also chained (doubly linked) from its
 *       locker entry, so lock_unlock_all walks only its own locks. The locker entry holds the
 *       transaction id the chain belongs to; a different id there means a previous transaction
 *       in that slot, whose chain (normally empty) is released when the new one first locks.</li>
 *   <li><b>Free lists.</b> Request and object entries come from fixed pools: a Treiber stack
 *       each (head word = 32-bit ABA tag, index + 1; CAS), plus a private cache of one request
 *       and one object per partition, used under the partition latch, so an uncontended lock +
 *       unlock of an object does no free-list CAS. An entry in a cache is free exactly as one on a
 *       stack (status free, no partition named): a partition repair and a chain made again from
 *       the table read the entries themselves, and must not take a given-back lock for a held
 *       one. "Table full" is reported only after the
 *       caches were drained back to the stacks and the request retried once. Pops and pushes
 *       happen under a partition latch, and every entry names the partition that took it (-1 when
 *       free), so a process dying in the middle leaves the entry to that partition's repair
 *       (below). An entry popped and not yet named, or unnamed and not yet pushed, is on no
 *       list: after a repair the next transaction end or failCheck sweeps the table under
 *       every partition latch and pushes back every entry that names no partition and is on no
 *       stack and in no cache ({@code reclaim} word).</li>
 *   <li><b>Counts</b> (locks and objects in use, requests, waits) are per partition, in the
 *       partition latch's cache line, written under it; {@code stats()} adds them up.</li>
 * </ul>
 *
 * <h2>Latches</h2>
 * <ul>
 *   <li>A <b>partition latch</b> (64 per default, one cache line each with the partition's
 *       counters and caches) guards its buckets, their objects, the objects' queues, and the
 *       request entries in them. The uncontended lock or unlock is one acquire/release of it
 *       and about 25 accesses to the mapping (adjacent fields that change together are
 *       accessed as one long).</li>
 *   <li>A <b>locker entry</b> is written only by its transaction's thread (or by the process
 *       that claimed it to release it, below), and only under the latch of the partition of the
 *       request involved; a death in the middle may leave the chain half-linked, so the partition
 *       repair marks the locker suspect and its release makes the chain again from the requests
 *       that name the locker (a release also does so when a link does not hold together). The
 *       detector reads it under every latch.</li>
 *   <li>The <b>init latch</b> (region {@code lock}) guards creating the tables. A detection pass
 *       takes every partition latch in index order; nothing else holds two at once, so there is
 *       no latch deadlock.</li>
 * </ul>
 *
 * <h2>Wait and grant</h2>
 * A request that cannot be granted is queued as waiting, its locker's {@code waiting} field
 * names it, and after the latch is released the transaction sleeps on its semaphore in the
 * transaction table (the process manager of paper 3.2.4: no CPU while blocked). Whoever changes
 * a queue (unlock, downgrade, unlock_all, timeout, a deadlock victim leaving) grants, under the
 * latch, first pending conversions that no other holder now conflicts with, then waiters in FIFO
 * order until the first that conflicts; it posts each granted transaction's semaphore after
 * releasing the latch (no system call under a latch). A woken waiter re-checks its request under
 * the latch, because posts can be stale (a semaphore is reset only when a transaction begins in
 * its slot); it also re-checks every second without a post, in case a granter died between
 * granting and posting. A timed-out waiter re-checks too (a grant may have raced its timeout),
 * then withdraws its request and grants what that allows.
 *
 * <p><b>Conversions</b> (READ held, WRITE asked: {@code lock(WRITE)} or {@code upgrade}) keep
 * their place among the holders with the wanted mode as {@code pending}; they are granted when no
 * other holder conflicts, and no ordinary waiter is granted while one is pending. So an upgrade
 * goes ahead of every ordinary waiter, as it must: the waiters also wait for the READ it holds,
 * and letting a new reader in could starve it forever. Two readers upgrading at once deadlock;
 * the detector refuses one (it keeps its READ lock).
 *
 * <h2>Deadlock detection</h2>
 * The waits-for graph has an edge W -&gt; H for every other holder H of the object W waits for
 * whose mode conflicts with W's (or that has a conversion pending, which goes first), and W -&gt;
 * E for every earlier waiter E whose mode conflicts (FIFO makes W wait for E); a conversion waits
 * only for conflicting holders. With READ and WRITE this is exact: a compatible earlier waiter is
 * blocked by something W conflicts with too, which W already has an edge to. (When intention modes
 * make the conflict matrix non-total, W should get an edge to every earlier waiter.)
 * {@link org.libtp.core.lock.DeadlockDetector} finds a cycle, the {@link org.libtp.core.lock.VictimPolicy}
 * (default YOUNGEST: the highest transaction id, which has done least and never starves an old
 * one) picks one member, and the search repeats without it until no cycle is left: one victim per
 * cycle. A victim's waiting request is taken out of its queue and marked refused (a conversion
 * just drops its pending mode), the {@code victim} flag is set, whatever that unblocks is
 * granted, and its semaphore is posted; its {@code lock} throws
 * {@link org.libtp.core.DeadlockException} and the transaction must abort.
 * <ul>
 *   <li><b>On block</b> ({@code detectOnBlock}): the blocked transaction searches the graph
 *       reachable from itself, reading each visited transaction's edges under one partition
 *       latch at a time (no stop-the-world on every block). A real cycle's edges do not change
 *       while it lasts, so it is found; a cycle seen through edges that changed during the search
 *       may be false, so a hit runs a full pass, which decides. Only cycles through a new wait can
 *       be new, and of two transactions closing one at once, the later to enqueue sees the
 *       other's edge.</li>
 *   <li><b>Full pass</b> ({@code detect()}, the periodic detector, and confirmations): every
 *       partition latch in index order, so the graph is consistent.</li>
 *   <li><b>The detector role.</b> Every process with {@code detectIntervalMillis > 0} has a
 *       detector thread that wakes each interval; only the distinguished process runs the pass.
 *       The region's detector word holds its (process slot, slot generation). A thread takes the
 *       role by CAS when the word is empty, or when {@code env.slotGeneration(slot)} no longer
 *       equals the recorded generation: after a kill -9, failCheck frees the dead slot within
 *       {@code failCheckMillis} and the next thread to wake takes over. A process closing its lock
 *       manager clears the word if it holds it. The holder's own interval is the one that
 *       applies.</li>
 * </ul>
 *
 * <h2>Dead processes</h2>
 * A process that dies holding a partition latch: the next thread to want the latch (or
 * failCheck) takes it over and {@code LockPartitionRepair} rebuilds the partition from the
 * requests that name it (their status is written last when made, first when freed): objects,
 * buckets, queues, counts, caches; entries taken and not yet used go back; what the rebuilt
 * queues allow is granted; the requests' lockers are marked suspect. The others go on; the
 * dead process's transactions are rolled back and their locks released as below. A process
 * dying while it creates the tables (the init latch) still fails the environment. One that dies holding
 * only locks: the transaction manager's failCheck listener (in any surviving process) rolls its
 * transactions back and then calls the end listeners, and this manager's releases their locks,
 * granting the waiters (locks are held until the undo is done, so nobody sees the dead
 * transaction's changes). To release, a process first claims the locker entry by CAS of its
 * txnId word to a claim naming (its slot, generation), so two releasers never both work on a
 * chain, and a release is idempotent; a claim whose process is gone is taken over. The detector
 * pass and every failCheck also release "stale" lockers: the entry still names a transaction
 * with requests, but the transaction table's slot no longer does (the transaction ended where no
 * lock manager heard of it, e.g. failCheck ran in a process without one). A dead transaction
 * still in a cycle may be chosen as a victim; its rollback then follows anyway.
 *
 * <h2>Hierarchical locks and escalation</h2>
 * A page lock is taken under an intention lock on its file, object {@code (fileId, -1)}: IREAD
 * under a READ, IWRITE under a WRITE (Gray's IS and IX; READ_IWRITE is SIX). The intention lock
 * is taken through the table once per transaction and file; the process remembers it (and how
 * many page locks the transaction asked for there) in a per-slot {@code FileLocks}, which a new
 * transaction in the slot empties and reuses (the ended one's intention, file and page locks
 * all forgotten, nothing allocated). At {@code escalationThreshold} page requests in one file
 * (at most a quarter of the table), or when the table is full, the transaction asks for the file
 * itself in READ or WRITE (joined with its intention mode): without waiting at a threshold, with
 * waiting (deadlock detection applies) when the table is full. Once granted it gives back its
 * page locks of the file that the file lock covers, and page requests the file lock covers are
 * granted without the table; an {@code unlock} of such a page is then a no-op. Whole-file locks
 * of the SHARED open mode are the same READ and WRITE on the file object.
 *
 * <h2>Record locks</h2>
 * Below the page is the record: object {@code (fileId, RECORD | id)} ({@code RECORD} = 2^62, far
 * above any page number; the id is the access method's: a B-tree key's 62-bit hash). A record is
 * locked READ or WRITE under IREAD or IWRITE on its page ({@code lockRecord}), which is under the
 * same intention on the file: two transactions change different records of one page at once,
 * and a READ or WRITE lock on the page (a scan, an insert, a split) conflicts with both. What a
 * parent's lock gives its children is its implied mode: WRITE gives WRITE, READ and READ_IWRITE
 * give READ, an intention mode gives nothing ({@code LockMode.coversChildren}), so a file held
 * READ_IWRITE still needs a page's IWRITE. A page held WRITE (or READ, for a READ) answers a
 * record request from the lock cache without a record lock. Escalation counts page, intention
 * and record requests alike and gives back every lock the file lock's implied mode covers.
 * Record locks are held to the end of the transaction; two keys with one hash share a lock (a
 * false conflict, never a missed one).
 *
 * <h2>The lock cache</h2>
 * {@code FileLocks} also keeps the page locks the transaction holds, with their modes. A request
 * that a held lock covers takes its reference there, without a partition latch or the table
 * (locks are counted references: each lock call one); an unlock gives back such a reference
 * first, and otherwise drops the entry and goes to the table, which knows whether the lock is
 * still held. So the cache never claims a lock the table does not hold: entries are made only
 * after a grant and dropped before a release, a downgrade lowers the entry, and escalation (which
 * gives back covered page locks) and {@code unlockAll} drop them. Nobody but its own thread
 * releases a live transaction's locks (failCheck releases only dead processes' lockers). The
 * access methods lock pages through {@code lockPage(txn, fileId, pageNo, mode, flags)}, which
 * takes the two numbers rather than a {@code LockObject}: a read's lock then allocates nothing.
 *
 * <h2>Waiting for oneself</h2>
 * A request that would wait directly for a transaction of this JVM that the same thread last
 * asked a lock for is refused at once ({@code SelfDeadlockException}): that thread cannot end
 * the holder while it waits (an auto-commit call beside the thread's own open transaction).
 * The lock manager keeps, per locker slot, the last transaction of this JVM that locked through
 * it, and each transaction the thread that last locked for it (JVM-local, no shared state).
 *
 * <h2>Known limits</h2>
 * The intention lock costs a table request and release per transaction and file (about 15 % of
 * a no-sync TPC-B transaction); a per-file intention counter in shared memory would avoid it.
 * A periodic detector's interval is that of the process holding the role.
 * The detector does not prefer live transactions over dead ones as victims.
 */
package org.libtp.core.lock;
