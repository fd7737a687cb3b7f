package org.libtp.core.log;

/** What a commit waits for before it returns. */
public enum Durability {
    /** The commit record is forced to stable storage (fdatasync): survives power loss. */
    SYNC,
    /** The commit record is written to the operating system, not forced: survives kill -9 of
     *  every process, not an OS crash or power loss. */
    WRITE_NO_SYNC,
    /** The commit record is in the shared log buffer only: survives the death of this process
     *  while others keep the environment open; lost if every process dies. */
    NO_SYNC
}
