package org.libtp.core.region;

import com.sun.jna.LastErrorException;
import com.sun.jna.Native;
import com.sun.jna.NativeLibrary;
import com.sun.jna.Platform;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.storage.StorageErrors;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * Reserves the blocks of a file before it is memory-mapped. A mapping of a sparse file faults
 * (SIGBUS, which the JVM turns into {@code java.lang.InternalError} at some later, unrelated
 * access) when the file system cannot supply a page the first time it is touched; on a full disk
 * or a full tmpfs that is any access, in any process, at any time. Allocated up front, a mapped
 * access never needs new space, and a file system without room is an
 * {@link OutOfSpaceException} at creation instead.
 *
 * <p>On 64-bit Linux this is {@code posix_fallocate(3)} through JNA (the file is opened again with
 * libc's {@code open} for a descriptor: the JDK does not expose a channel's); it reserves without
 * writing on ext4, xfs and tmpfs. Elsewhere, or if libc cannot be bound, zeros are written
 * through the channel, which allocates just the same, only slower.
 */
public final class FileSpace {
    private static final int ENOSPC = 28;
    private static final int EINTR = 4;
    private static final int EDQUOT = 122; // x86_64 and aarch64
    private static final int O_RDWR = 2;
    private static final int O_CLOEXEC = 0x80000; // x86_64 and aarch64
    private static final int FALLOC_FL_KEEP_SIZE = 1;
    private static final int FALLOC_FL_PUNCH_HOLE = 2;

    private FileSpace() {
    }

    /** Why the native call is not used (null: it is). */
    static String nativeProblem() {
        return Libc.PROBLEM;
    }

    /**
     * Makes sure every byte of {@code [0, size)} of {@code file}, open as {@code channel}, has its
     * block allocated; the file becomes at least {@code size} bytes long.
     *
     * @throws OutOfSpaceException the file system has no room (ENOSPC, EDQUOT); the file may be
     *         partly allocated: the caller deletes it
     * @throws IOException another I/O error
     */
    public static void allocate(Path file, FileChannel channel, long size) throws IOException {
        if (size <= 0) {
            return;
        }
        if (Libc.PROBLEM == null) {
            int err = posixFallocate(file, size);
            if (err == 0) {
                return;
            }
            if (err == ENOSPC || err == EDQUOT) {
                throw noSpace(file, size, err == ENOSPC ? "ENOSPC" : "EDQUOT", null);
            }
            throw new IOException("posix_fallocate of " + size + " bytes of " + file + " failed: errno " + err);
        }
        try {
            writeZeros(channel, size);
        } catch (IOException e) {
            if (StorageErrors.isNoSpace(e)) {
                throw noSpace(file, size, e.getMessage(), e);
            }
            throw e;
        }
    }

    private static OutOfSpaceException noSpace(Path file, long size, String why, Throwable cause) {
        Path dir = file.toAbsolutePath().getParent();
        long free = StorageErrors.usableSpace(dir);
        return new OutOfSpaceException("cannot allocate " + size + " bytes for shared region file " + file + " (" + why
                + "): the file system of " + dir + " has " + (free < 0 ? "an unknown number of" : String.valueOf(free))
                + " bytes free. Free space there (for a tmpfs such as /dev/shm: its size, e.g. a container's "
                + "--shm-size), make the region smaller (BufferConfig.poolBytes is the largest), or put the regions "
                + "on another file system (EnvironmentConfig.regionPlacement, shmDirectory); nothing was left behind",
                cause);
    }

    /** {@code file} as a NUL-terminated C string in the platform's file name encoding. */
    private static byte[] cPath(Path file) {
        Charset cs;
        try {
            cs = Charset.forName(System.getProperty("sun.jnu.encoding", "UTF-8"));
        } catch (RuntimeException e) {
            cs = StandardCharsets.UTF_8;
        }
        byte[] name = file.toAbsolutePath().toString().getBytes(cs);
        byte[] z = new byte[name.length + 1];
        System.arraycopy(name, 0, z, 0, name.length);
        return z;
    }

    private static int posixFallocate(Path file, long size) throws IOException {
        int fd;
        try {
            fd = Libc.open(cPath(file), O_RDWR | O_CLOEXEC);
        } catch (LastErrorException e) {
            throw new IOException("cannot open " + file + " to allocate it: errno " + e.getErrorCode());
        }
        try {
            int err;
            do {
                err = Libc.posix_fallocate(fd, 0, size);
            } while (err == EINTR);
            return err;
        } finally {
            Libc.close(fd);
        }
    }

    private static void writeZeros(FileChannel channel, long size) throws IOException {
        ByteBuffer zeros = ByteBuffer.allocateDirect(1 << 20);
        for (long at = 0; at < size;) {
            zeros.clear().limit((int) Math.min(zeros.capacity(), size - at));
            while (zeros.hasRemaining()) {
                at += channel.write(zeros, at);
            }
        }
    }

    /**
     * Gives the blocks of {@code file} back to the file system (punches a hole over all of it,
     * keeping its size) before it is deleted: a deleted file that is still mapped keeps its pages
     * until the last mapping goes, which for a JVM is when the garbage collector gets to the
     * buffer. For region files of an environment no process uses any more; a stray access to
     * the range afterwards reads zeros rather than faulting. Best effort: false if not done.
     */
    public static boolean release(Path file) {
        if (Libc.PROBLEM != null) {
            return false;
        }
        try {
            long size = java.nio.file.Files.size(file);
            if (size == 0) {
                return true;
            }
            int fd = Libc.open(cPath(file), O_RDWR | O_CLOEXEC);
            try {
                return Libc.fallocate(fd, FALLOC_FL_KEEP_SIZE | FALLOC_FL_PUNCH_HOLE, 0, size) == 0;
            } finally {
                Libc.close(fd);
            }
        } catch (IOException | LastErrorException e) {
            return false;
        }
    }

    /** The real user id of this process, or -1 where libc cannot be bound. */
    public static int currentUid() {
        return Libc.PROBLEM != null ? -1 : Libc.getuid();
    }

    /** libc through JNA direct mapping; bound once, on 64-bit Linux only (off_t is 64 bits there). */
    private static final class Libc {
        static final String PROBLEM;

        static {
            String problem = null;
            if (!Platform.isLinux() || !Platform.is64Bit()) {
                problem = "not 64-bit Linux (" + System.getProperty("os.name") + ", " + System.getProperty("os.arch") + ")";
            } else {
                try {
                    Native.register(Libc.class, NativeLibrary.getInstance(Platform.C_LIBRARY_NAME));
                } catch (Throwable t) { // UnsatisfiedLinkError and friends: fall back to writing zeros
                    problem = "cannot bind libc: " + t;
                }
            }
            PROBLEM = problem;
        }

        private Libc() {
        }

        static native int open(byte[] path, int flags) throws LastErrorException;

        static native int close(int fd);

        static native int posix_fallocate(int fd, long offset, long len);

        static native int fallocate(int fd, int mode, long offset, long len) throws LastErrorException;

        static native int getuid();
    }
}
