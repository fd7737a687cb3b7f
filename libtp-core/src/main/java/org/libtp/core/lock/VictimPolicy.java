package org.libtp.core.lock;

/** Which transaction of a waits-for cycle the deadlock detector aborts. */
public enum VictimPolicy {
    /**
     * The youngest: the highest transaction id (the default). It has usually done the least
     * work, so its abort and retry cost least, and an old transaction is never starved by a
     * stream of younger ones.
     */
    YOUNGEST,
    /** The one holding the fewest locks (ties: the youngest): a cheap estimate of the least work. */
    FEWEST_LOCKS,
    /** The oldest: the lowest transaction id. */
    OLDEST
}
