package org.libtp.core.env;

/**
 * Called by {@link RegionEnvironment#failCheck()} in the process running it, after dead processes that
 * held no latch have been found and before their slots are freed. Managers use it to roll back
 * the work of dead processes (abort their transactions, release their locks). Called on every
 * failCheck, even when no process died this time, so a manager can also clean up after processes
 * whose slots another process (without that manager) already freed: compare the owner's slot
 * generation with {@link RegionEnvironment#slotGeneration(int)}.
 */
@FunctionalInterface
public interface FailCheckListener {
    /**
     * The buffer pool's listener ({@link RegionEnvironment#addFailCheckListener(FailCheckListener, int)}):
     * it gives back a dead process's pins, which nothing else would. (A dead process's
     * transactions and locks are also found later by any process with those managers: by the
     * owner's slot generation, and as stale lockers.)
     */
    int BUFFER = 1;

    /**
     * @param deadSlots registry slots of processes found dead this time (maybe empty); their
     *                  slots are still marked in use while this runs
     * @throws RuntimeException to fail the environment (the message is the reason)
     */
    void failCheck(int[] deadSlots);
}
