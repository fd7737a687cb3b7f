package org.libtp.db;

/**
 * What a commit waits for before it returns, and so which failures a committed transaction
 * survives. Set the default with {@link EnvironmentConfig.Builder#durability}, per transaction
 * with {@link Environment#beginTransaction(Durability, boolean)}. Whatever the durability, a
 * crash never leaves a transaction half done: recovery at the next open either keeps all of it
 * or none of it, and keeps every transaction committed before it in the log.
 *
 * <p>Berkeley DB: {@code SYNC} is the default, {@code WRITE_NO_SYNC} is
 * {@code DB_TXN_WRITE_NOSYNC}, {@code NO_SYNC} is {@code DB_TXN_NOSYNC}. LMDB: {@code SYNC} is
 * the default, {@code WRITE_NO_SYNC} is close to {@code MDB_NOSYNC} (written, not forced).
 */
public enum Durability {
    /**
     * The commit record is written and forced to stable storage (fdatasync) before the commit
     * returns: an acknowledged commit survives kill -9 of every process, an operating system
     * crash and power loss. The slowest; concurrent commits share one force (group commit).
     */
    SYNC,
    /**
     * An acknowledged commit survives kill -9 of every process, not an operating system crash
     * or power loss. On Linux the commit record stays in the shared log buffer (a mapped file in
     * {@code /dev/shm} or the environment directory, which outlives the processes) and the next
     * open appends what the log files lack before recovery: no system call per commit. Where
     * the kernel's boot id cannot be read (not Linux) the record is written to the operating
     * system (write(2)) instead.
     */
    WRITE_NO_SYNC,
    /**
     * The commit record is only put in the shared log buffer, and the commit does not wait for
     * earlier transactions whose locks were released early. Promised: a clean close (closing
     * the environment writes and forces the log), and the death of the committing process while
     * another keeps the environment open. On Linux the buffer is also salvaged after kill -9 of
     * every process, as for {@link #WRITE_NO_SYNC}. Not power loss. The fastest.
     */
    NO_SYNC;

    /** The log manager's durability of the same name. */
    org.libtp.core.log.Durability core() {
        return switch (this) {
            case SYNC -> org.libtp.core.log.Durability.SYNC;
            case WRITE_NO_SYNC -> org.libtp.core.log.Durability.WRITE_NO_SYNC;
            case NO_SYNC -> org.libtp.core.log.Durability.NO_SYNC;
        };
    }

    static Durability of(org.libtp.core.log.Durability d) {
        return switch (d) {
            case SYNC -> SYNC;
            case WRITE_NO_SYNC -> WRITE_NO_SYNC;
            case NO_SYNC -> NO_SYNC;
        };
    }
}
