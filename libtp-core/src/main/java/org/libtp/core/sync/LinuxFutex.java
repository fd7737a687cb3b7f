package org.libtp.core.sync;

import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import com.sun.jna.Pointer;
import org.libtp.core.memory.Memory;

/**
 * {@code futex(2)} through JNA direct mapping of libc's {@code syscall}. Every argument is passed
 * as a 64-bit value: {@code syscall} is variadic and copies whole registers into the kernel's.
 */
final class LinuxFutex implements Futex {
    private static final int FUTEX_WAIT = 0; // shared (no FUTEX_PRIVATE_FLAG = 128)
    private static final int FUTEX_WAKE = 1;
    private static final long SYS_FUTEX;
    private static final String PROBLEM;

    static {
        long nr = -1;
        String problem = null;
        if (!Platform.isLinux()) {
            problem = "not Linux (" + System.getProperty("os.name") + ")";
        } else if (Platform.isIntel() && Platform.is64Bit()) {
            nr = 202;
        } else if (Platform.isARM() && Platform.is64Bit()) {
            nr = 98;
        } else {
            problem = "no futex syscall number known for " + System.getProperty("os.arch");
        }
        if (problem == null) {
            try {
                Native.register(LinuxFutex.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
            } catch (Throwable t) {
                problem = "cannot bind libc syscall: " + t;
            }
        }
        SYS_FUTEX = nr;
        PROBLEM = problem;
    }

    /** Per thread: a native {@code struct timespec} for FUTEX_WAIT's relative timeout. */
    private static final ThreadLocal<com.sun.jna.Memory> TIMESPEC =
            ThreadLocal.withInitial(() -> new com.sun.jna.Memory(16));

    private static native long syscall(long number, long uaddr, long op, long val, Pointer timeout,
                                       long uaddr2, long val3);

    static String unavailableReason() {
        return PROBLEM;
    }

    @Override
    public void await(Memory memory, long offset, int expected, long timeoutNanos) {
        long address = memory.address(offset); // bounds and alignment checked here
        if (timeoutNanos <= 0) {
            return;
        }
        com.sun.jna.Memory ts = TIMESPEC.get();
        ts.setLong(0, timeoutNanos / 1_000_000_000L);
        ts.setLong(8, timeoutNanos % 1_000_000_000L);
        // Returns 0 (woken), or -1 with EAGAIN (value differed), ETIMEDOUT or EINTR: the caller
        // re-checks its condition in every case, so errno is not needed.
        syscall(SYS_FUTEX, address, FUTEX_WAIT, expected & 0xFFFFFFFFL, ts, 0, 0);
    }

    @Override
    public void wake(Memory memory, long offset, int count) {
        syscall(SYS_FUTEX, memory.address(offset), FUTEX_WAKE, count, null, 0, 0);
    }

    @Override
    public String kind() {
        return "linux-futex";
    }
}
