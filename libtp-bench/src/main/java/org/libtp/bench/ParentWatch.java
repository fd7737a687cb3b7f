package org.libtp.bench;

import java.util.Optional;

/** For child JVMs of the multi-process harnesses: is the parent that started us still there? */
final class ParentWatch {
    private ParentWatch() {
    }

    /**
     * True while the parent runs. A dead parent can stay a zombie (and "alive" to
     * {@link ProcessHandle#isAlive}) until it is reaped, but its children are re-parented the
     * moment it exits: so our parent pid changing is checked first.
     */
    static boolean parentAlive(long parentPid) {
        Optional<ProcessHandle> parent = ProcessHandle.current().parent();
        if (parent.isEmpty() || parent.get().pid() != parentPid) {
            return false;
        }
        return parent.get().isAlive();
    }
}
