package org.libtp.bench.engine;

import org.libtp.db.Durability;
import org.libtp.db.Environment;
import org.libtp.db.EnvironmentConfig;
import org.libtp.db.OpenMode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * LibTP in one of the paper's four configurations (section 5): an {@link Environment} opened in
 * the variant's mode, with the commit durability of the harness's {@code --durability}, and for
 * {@link Variant#FLOCK} the lock file that serializes the transactions of every process.
 *
 * <p>The harnesses differ in one setting: {@code earlyLockRelease} is TPC-B's {@code --elr}
 * (on by default: the hot branch records get many commits per log force); OO1 opens with it
 * off, the record API's default (its one writing test, the insert, has no hot records).
 */
public final class LibtpEngine implements AutoCloseable {
    /** The paper's configurations: transaction protection, none, a file lock, forced writes. */
    public enum Variant {
        /** OpenMode.TP: page locks, the write-ahead log, transactions. */
        TP("libtp"),
        /** OpenMode.UNPROTECTED: no locks, no log, no transactions. */
        NOTP("notp"),
        /** NOTP plus an exclusive lock of a lock file around each transaction (the paper's flock(2)). */
        FLOCK("flock"),
        /** NOTP plus, at commit, every changed page written and the files forced: durable, not atomic. */
        FSYNC("fsync");

        private final String engine;

        Variant(String engine) {
            this.engine = engine;
        }

        /** The engine's name in the harnesses' options and JSON lines. */
        public String engine() {
            return engine;
        }

        /** The JSON lines' durability: sync or nosync where commits are logged, sync for FSYNC, else none. */
        public String durability(boolean sync) {
            return switch (this) {
                case TP -> sync ? "sync" : "nosync";
                case FSYNC -> "sync";
                case NOTP, FLOCK -> "none";
            };
        }
    }

    /** The lock file of {@link Variant#FLOCK}, in the engine's directory. */
    public static final String LOCK_FILE = "flock.lck";

    private final Environment env;
    private final Durability durability;
    private final FileChannel lockFile;

    private LibtpEngine(Environment env, Durability durability, FileChannel lockFile) {
        this.env = env;
        this.durability = durability;
        this.lockFile = lockFile;
    }

    /**
     * Opens the environment in {@code dir} for {@code variant}.
     *
     * @param sync             commits force the log (SYNC) or only write it to the OS (WRITE_NO_SYNC)
     * @param earlyLockRelease a committing transaction's locks go once its commit record is in the
     *                         log buffer (TPC-B's {@code --elr}; OO1: false)
     */
    public static LibtpEngine open(Variant variant, Path dir, boolean sync, long cacheBytes, boolean earlyLockRelease) {
        return open(variant, dir, sync, cacheBytes, earlyLockRelease, EnvironmentConfig.defaults().pageSize());
    }

    /** {@code --page-size} checked by the environment's own rule, or IllegalArgumentException naming it. */
    public static int checkPageSize(int bytes) {
        if (bytes < 512 || bytes > 65536 || Integer.bitCount(bytes) != 1) {
            throw new IllegalArgumentException("--page-size must be a power of two in [512, 65536], not " + bytes);
        }
        return bytes;
    }

    /** {@link #open(Variant, Path, boolean, long, boolean)} with pages of {@code pageSize} bytes. */
    public static LibtpEngine open(Variant variant, Path dir, boolean sync, long cacheBytes, boolean earlyLockRelease,
                                   int pageSize) {
        Durability durability = sync ? Durability.SYNC : Durability.WRITE_NO_SYNC;
        Environment env = Environment.open(dir, EnvironmentConfig.builder()
                .mode(variant == Variant.TP ? OpenMode.TP : OpenMode.UNPROTECTED)
                .durability(durability)
                .cacheBytes(cacheBytes)
                .pageSize(pageSize)
                .earlyLockRelease(earlyLockRelease)
                .build());
        FileChannel lock = null;
        if (variant == Variant.FLOCK) {
            try {
                lock = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            } catch (IOException e) {
                env.close();
                throw new UncheckedIOException("cannot open the lock file in " + dir + ": " + e.getMessage(), e);
            }
        }
        return new LibtpEngine(env, durability, lock);
    }

    public Environment env() {
        return env;
    }

    /** The commit durability it was opened with. */
    public Durability durability() {
        return durability;
    }

    /** {@link Variant#FLOCK}'s lock file, else null. */
    public FileChannel lockFile() {
        return lockFile;
    }

    /** Closes the lock file, then the environment (also when the first fails). */
    @Override
    public void close() {
        try {
            if (lockFile != null) {
                lockFile.close();
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } finally {
            env.close();
        }
    }
}
