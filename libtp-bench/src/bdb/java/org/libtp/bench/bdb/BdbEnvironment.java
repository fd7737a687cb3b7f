package org.libtp.bench.bdb;

import com.sleepycat.db.DatabaseException;
import com.sleepycat.db.Environment;
import com.sleepycat.db.EnvironmentConfig;
import com.sleepycat.db.LockDetectMode;

import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.channels.OverlappingFileLockException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A Berkeley DB C environment of the TPC-B and OO1 peers ({@code BdbTpcb}, {@code BdbOo1}),
 * which several processes can share: its regions (cache, locks, log, transactions) are the
 * {@code __db.00N} files in the environment's directory, mapped by every process that opens it
 * (never {@code DB_PRIVATE}), so locking, deadlock detection and group commit work across
 * processes.
 *
 * <p>Recovery ({@code DB_RECOVER}) runs at open when no other process has the environment
 * open, and only then: recovery removes and recreates the regions, which would pull them from
 * under the processes still in them. Who is in it is told by fcntl locks on byte ranges of
 * {@value #LOCK_FILE} (released by the OS when a process dies): every opener takes byte 0
 * exclusively while it opens (openers take turns), tries byte 1 exclusively (it gets it only if
 * no process holds the environment open: then it recovers), and holds byte 1 shared until
 * {@link #close}. So a single process, and the first of several (the {@code tpcb} parent, which
 * loads the database before its child JVMs start), opens as before with recovery; then, since
 * recovery leaves in the cache the pages its log records touched, it closes the environment,
 * removes the regions ({@link Environment#remove}) and opens it again, creating them anew: a cache
 * of the size asked for, with nothing of an earlier run in it (the OO1 cold runs rely on this).
 * The others join its regions as they are. Berkeley DB's own {@code DB_REGISTER} was not used:
 * it recovers only after a process died holding the environment, so after a clean close the next
 * run would join the old regions, their cache size and their cached pages.
 *
 * <p>Not handled: a process that dies inside the environment while others go on (it may leave
 * locks behind that the others wait for; Berkeley DB's {@code failchk} needs an is-alive
 * callback the Java API does not offer). The harness ends every process together.
 */
public final class BdbEnvironment implements AutoCloseable {
    /** The lock file in the environment's directory. */
    public static final String LOCK_FILE = "libtp-bench-bdb.lck";
    private static final long GATE = 0;
    private static final long USERS = 1;

    private final FileChannel lockFile;
    private final FileLock user;
    private final Environment env;
    private final boolean recovered;

    private BdbEnvironment(FileChannel lockFile, FileLock user, Environment env, boolean recovered) {
        this.lockFile = lockFile;
        this.user = user;
        this.env = env;
        this.recovered = recovered;
    }

    /**
     * The settings both harnesses use: a transactional environment (cache of {@code cacheBytes},
     * locking, logging, transactions; free-threaded), deadlocks detected on every conflict
     * ({@code DB_LOCK_DEFAULT}: the blocked thread runs the detector over the whole lock region,
     * every process's lockers included), lock tables sized for the OO1 load and traversals, log
     * files removed once no longer needed. Region sizes apply only when the regions are created
     * (by the process that recovers).
     */
    public static EnvironmentConfig config(long cacheBytes) {
        EnvironmentConfig ec = new EnvironmentConfig();
        ec.setAllowCreate(true);
        ec.setInitializeCache(true);
        ec.setInitializeLocking(true);
        ec.setInitializeLogging(true);
        ec.setTransactional(true);
        ec.setThreaded(true);
        ec.setCacheSize(cacheBytes);
        ec.setLockDetectMode(LockDetectMode.DEFAULT);
        ec.setMaxLocks(100_000);
        ec.setMaxLockObjects(100_000);
        ec.setMaxLockers(10_000);
        ec.setLogAutoRemove(true);
        return ec;
    }

    /**
     * Opens the environment in {@code dir} (created if missing) with {@code ec}, with recovery
     * if this is the only process that has it open (see the class comment).
     */
    public static BdbEnvironment open(Path dir, EnvironmentConfig ec) {
        FileChannel ch = null;
        try {
            Files.createDirectories(dir);
            ch = FileChannel.open(dir.resolve(LOCK_FILE), StandardOpenOption.CREATE, StandardOpenOption.READ,
                    StandardOpenOption.WRITE);
            FileLock gate = ch.lock(GATE, 1, false);
            try {
                FileLock alone = ch.tryLock(USERS, 1, false);
                boolean recover = alone != null;
                if (alone != null) {
                    alone.release();
                }
                if (recover) {
                    // Recovery reads the pages its log records touch into the new cache: close,
                    // remove the regions and create them anew, so that the cache starts empty.
                    ec.setRunRecovery(true);
                    new Environment(dir.toFile(), ec).close();
                    Environment.remove(dir.toFile(), false, ec);
                }
                ec.setRunRecovery(false);
                Environment env = new Environment(dir.toFile(), ec);
                FileLock user;
                try {
                    user = ch.lock(USERS, 1, true);
                } catch (IOException | RuntimeException e) {
                    closeQuietly(env);
                    throw e;
                }
                BdbEnvironment b = new BdbEnvironment(ch, user, env, recover);
                ch = null; // the environment owns it now
                return b;
            } finally {
                if (gate.isValid()) {
                    gate.release();
                }
            }
        } catch (OverlappingFileLockException e) {
            throw new IllegalStateException("Berkeley DB: the environment in " + dir
                    + " is already open in this process", e);
        } catch (DatabaseException | FileNotFoundException e) {
            throw new IllegalStateException("Berkeley DB: cannot open the environment in " + dir + ": " + e, e);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock " + dir.resolve(LOCK_FILE) + ": " + e.getMessage(), e);
        } finally {
            if (ch != null) {
                try {
                    ch.close(); // releases its locks
                } catch (IOException ignored) {
                    // the open failed already; that is the error reported
                }
            }
        }
    }

    private static void closeQuietly(Environment env) {
        try {
            env.close();
        } catch (DatabaseException ignored) {
            // the open is failing; its error is the one reported
        }
    }

    /** The environment handle. */
    public Environment environment() {
        return env;
    }

    /** True if this open ran recovery (no other process had the environment open). */
    public boolean recovered() {
        return recovered;
    }

    /** Closes the environment handle (close the databases first), then leaves the lock file. */
    @Override
    public void close() {
        try {
            env.close();
        } catch (DatabaseException e) {
            throw new IllegalStateException("Berkeley DB: close failed: " + e, e);
        } finally {
            try {
                user.release();
                lockFile.close();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
