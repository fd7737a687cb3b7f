package org.libtp.core.log;

/** What a commit waits for before it returns. */
public enum Durability {
    /** The commit record is forced to stable storage (fdatasync): survives power loss. */
    SYNC,
    /** Survives kill -9 of every process, not an OS crash or power loss. Where the kernel's boot
     *  id is known (Linux) the commit record stays in the shared log buffer, which outlives the
     *  processes and is salvaged by the next first opener ({@code LogSalvage}): no system call;
     *  elsewhere it is written to the operating system (write(2)). */
    WRITE_NO_SYNC,
    /** The commit record is in the shared log buffer only: survives the death of this process
     *  while others keep the environment open; where the buffer is salvaged (Linux) also the
     *  death of every process, as WRITE_NO_SYNC; elsewhere lost if every process dies. Unlike
     *  WRITE_NO_SYNC, no early lock release. */
    NO_SYNC
}
