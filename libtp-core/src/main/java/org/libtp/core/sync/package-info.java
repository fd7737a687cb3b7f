/**
 * Cross-process synchronization on shared memory: latches (mutexes) and semaphores, the
 * primitives of the paper's section 4.3 and of its process manager (3.2.4).
 *
 * <h2>Design</h2>
 * <ul>
 *   <li>A {@link org.libtp.core.sync.Latch} is a 32-bit word: 0 free, else
 *       {@code (ownerId << 1) | contended}. Acquire is one CAS when free; then a bounded spin;
 *       then {@code futex(FUTEX_WAIT)} on the shared mapping. Release is one atomic exchange and,
 *       only if the contended bit was set, one {@code FUTEX_WAKE}. (Drepper, "Futexes Are Tricky",
 *       mutex 3, with the owner folded into the word.)</li>
 *   <li>A {@link org.libtp.core.sync.SharedSemaphore} is a permit count (the futex word) and a
 *       waiter count; post makes a system call only when someone sleeps.</li>
 *   <li>{@link org.libtp.core.sync.Futex}: Linux {@code futex(2)} through JNA direct mapping
 *       ({@code SYS_futex} 202 on x86_64, 98 on aarch64), shared (no private flag). On other
 *       platforms a documented polling fallback (park with back-off to 1 ms) is used instead of
 *       failing at open: correct everywhere, a little CPU while waiting.</li>
 * </ul>
 *
 * <h2>Crash protocol</h2>
 * The kernel never releases a futex word of a dead process (robust futex lists are per thread and
 * out of Java's reach), so: every wait is timed ({@code latchCheckMillis}); a waiter that wakes
 * checks the environment's failed flag and whether the latch's owner process is alive (its
 * registry slot's record lock). An owner that died holding a latch may have left the guarded
 * structure half-updated. If the latch has a {@link org.libtp.core.sync.LatchRepair} (registered
 * by the manager that owns the structure, for each latch whose structure can be rebuilt), the
 * waiter takes the latch over by a compare-and-set of the word that names the dead owner (one
 * thread of one process wins; the others keep waiting for it), runs the repair with the latch
 * held, and goes on as the latch's holder; failCheck does the same for latches nobody waits for.
 * Without a repair, or when the repair cannot make the structure consistent, the waiter marks the
 * environment failed and every process gets {@code RunRecoveryException}. Since the owner id is
 * set by the acquiring CAS itself, there is no instant at which a latch is held but its owner
 * unknown. Each manager's package note says, latch by latch, how a holder's death is repaired or
 * why it cannot be.
 *
 * <h2>Invariants</h2>
 * Latches are not re-entrant (re-entry throws instead of hanging); only the owning process may
 * release; every latch lives in a declared {@link org.libtp.core.region.LatchArray} so that
 * {@code failCheck} can find the latches of a dead process.
 */
package org.libtp.core.sync;
