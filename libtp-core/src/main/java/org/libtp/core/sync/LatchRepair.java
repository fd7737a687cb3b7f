package org.libtp.core.sync;

/**
 * How the state a latch guards is made consistent again when the process holding the latch died
 * (SIGKILL, the OOM killer): the paper's processes share memory, and a latch holder may have left
 * the structure half-changed. Registered on the latch views of a process
 * ({@link Latch#onOwnerDeath}); a latch without one fails the environment when its holder dies.
 *
 * <p>Called by the one thread that took the latch over from the dead owner (a compare-and-set of
 * the latch word, so two processes never repair at once), with the latch held; it returns with
 * the latch still held. The repair must not take latches that rank before this one, and must
 * leave the structure as if the dead holder's operation had either not begun or completed.
 */
@FunctionalInterface
public interface LatchRepair {

    /**
     * Repairs what latch {@code index} of its array guards.
     *
     * @param index     the latch's index in the array it was registered with (0 for a single latch)
     * @param deadOwner the dead holder, for messages: "process PID (slot S)"
     * @return null if the guarded state is consistent again; otherwise why it cannot be made so
     *         (the environment is then failed, as without a repair, and every process gets
     *         {@code RunRecoveryException})
     */
    String repair(int index, String deadOwner);
}
