package org.libtp.bench.engine;

import com.sleepycat.je.Database;
import com.sleepycat.je.DatabaseConfig;
import com.sleepycat.je.DatabaseException;
import com.sleepycat.je.Durability;
import com.sleepycat.je.Environment;
import com.sleepycat.je.EnvironmentConfig;

import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

/**
 * A transactional Berkeley DB Java Edition environment: its cache, its commit durability, its
 * databases, its close.
 *
 * <p>Commit durability, the same in both harnesses: {@code sync} is
 * {@link Durability#COMMIT_SYNC} (the log written and forced before commit returns; JE groups
 * concurrent committers into one force), {@code nosync} {@link Durability#COMMIT_WRITE_NO_SYNC}
 * (written to the OS, not forced: survives the process, not the OS). It is the environment's
 * default; a harness may still give a transaction its own (bulk loads commit
 * {@code COMMIT_NO_SYNC}). JE's cache lives on the Java heap: it is capped at 60 % of the heap.
 *
 * <p>The harnesses differ in two settings, passed at the call: TPC-B's concurrent writers time
 * out on a lock after 500 ms (then the transfer is an abort), where OO1, with one thread, keeps
 * JE's default; and OO1 turns JE's own logging ({@code je.info} files, console) off, where TPC-B
 * keeps JE's defaults.
 */
public final class JeEngine {
    private JeEngine() {
    }

    /**
     * Opens (or creates) the environment in {@code dir}, the directory created if missing.
     *
     * @param lockTimeoutMillis how long a transaction waits for a lock; 0 keeps JE's default
     * @param quietLogging      JE's file and console logging off
     */
    public static Environment open(Path dir, long cacheBytes, boolean sync, long lockTimeoutMillis,
                                   boolean quietLogging) {
        EngineDirs.create(dir);
        long heapCap = Runtime.getRuntime().maxMemory() / 10 * 6;
        EnvironmentConfig ec = new EnvironmentConfig().setAllowCreate(true).setTransactional(true);
        if (lockTimeoutMillis > 0) {
            ec.setLockTimeout(lockTimeoutMillis, TimeUnit.MILLISECONDS);
        }
        ec.setCacheSize(Math.min(cacheBytes, heapCap));
        ec.setDurability(sync ? Durability.COMMIT_SYNC : Durability.COMMIT_WRITE_NO_SYNC);
        if (quietLogging) {
            ec.setConfigParam(EnvironmentConfig.FILE_LOGGING_LEVEL, "OFF");
            ec.setConfigParam(EnvironmentConfig.CONSOLE_LOGGING_LEVEL, "OFF");
        }
        try {
            return new Environment(dir.toFile(), ec);
        } catch (DatabaseException | IllegalArgumentException e) {
            throw new IllegalStateException("JE: cannot open the environment " + dir + ": " + e.getMessage(), e);
        }
    }

    /** The configuration of the harnesses' databases: transactional, created if missing. */
    public static DatabaseConfig databaseConfig() {
        return new DatabaseConfig().setAllowCreate(true).setTransactional(true);
    }

    /** Closes {@code dbs}, then {@code env} (also when closing a database fails). */
    public static void close(Environment env, Database... dbs) {
        try {
            for (Database db : dbs) {
                db.close();
            }
        } finally {
            env.close();
        }
    }
}
