package org.libtp.core.tp;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.buffer.DataFiles;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogAnchor;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.Map;

/**
 * Offline repairs of an environment no process has open. {@link #resetLog} starts it over with a new, empty log: every page LSN of every registered data file
 * is set to 0, the log files are deleted and a new log anchor is written (Berkeley DB's
 * {@code db_load -r lsn} for every file at once). The way out when the open refuses because the
 * log was lost or cut short, and the way to adopt data files copied from another environment.
 *
 * <p>What the files hold is kept as it is: changes of transactions that had not committed, or
 * whose records were lost, may be in them (in part), and nothing can roll them back any more.
 * Check the databases afterwards ({@code verify}). No process may have the environment open.
 */
public final class Repair {
    private static final Logger LOG = LoggerFactory.getLogger(Repair.class);

    private Repair() {
    }

    /** Resets the environment in {@code home} on the real file system; returns the pages rewritten. */
    public static long resetLog(Path home) {
        return resetLog(home, new FileStorage(home));
    }

    /** Resets through {@code storage} (tests inject faults through it). */
    public static long resetLog(Path home, Storage storage) {
        // Attaching alone to the environment proves no other process has it open (and keeps its
        // process slot while the files are rewritten).
        try (RegionEnvironment env = RegionEnvironment.open(home, RegionEnvironmentConfig.defaults())) {
            if (env.busyProcessSlots() > 1) {
                throw new IllegalStateException("environment " + home + " is open in " + (env.busyProcessSlots() - 1)
                        + " other process(es); close it everywhere before resetting its log");
            }
            long envId = new SecureRandom().nextLong();
            long created = System.currentTimeMillis();
            try {
                try {
                    LogAnchor old = LogAnchor.read(storage);
                    if (old != null) {
                        envId = old.envId();
                        created = old.createdMillis();
                    }
                } catch (CorruptionException | org.libtp.core.VersionMismatchException | IOException e) {
                    LOG.warn("the old log anchor of {} is unreadable ({}); the environment gets a new id", home, e.toString());
                }
                long pages = 0;
                // The registry from the files' headers, which take this environment's id.
                Map<Integer, String> files = DataFiles.rebuildRegistry(storage, envId);
                for (String name : files.values()) {
                    if (storage.exists(name)) {
                        pages += DataFiles.resetLsns(storage, name);
                    }
                }
                // The new anchor first: from here on only the new log is valid, and the old
                // files (another log id) are refused until deleted.
                LogAnchor fresh = new LogAnchor(envId, new SecureRandom().nextLong(), 0, created);
                storage.replaceFile(LogAnchor.FILE, fresh.encode());
                for (String name : storage.list("log.")) {
                    if (LogFileHeader.fileNumber(name) > 0 || name.endsWith(".ready") || name.endsWith(".prep")
                            || name.endsWith(".new")) {
                        storage.delete(name);
                    }
                }
                storage.forceDirectory();
                LOG.warn("reset the log of {}: {} data files, {} pages had their LSNs cleared; a new log starts at the next open",
                        home, files.size(), pages);
                return pages;
            } catch (IOException e) {
                throw new EnvironmentAccessException("I/O error resetting the log of " + home + ": " + e, e);
            }
        }
    }

    /**
     * Rewrites the durable file registry ({@code __libtp.files}) from the data files' header
     * pages: the way out when it is damaged or missing. Returns the files registered.
     */
    public static Map<Integer, String> rebuildFileRegistry(Path home) {
        Storage storage = new FileStorage(home);
        try (RegionEnvironment env = RegionEnvironment.open(home, RegionEnvironmentConfig.defaults())) {
            if (env.busyProcessSlots() > 1) {
                throw new IllegalStateException("environment " + home + " is open in " + (env.busyProcessSlots() - 1)
                        + " other process(es); close it everywhere before rebuilding its file registry");
            }
            LogAnchor anchor = LogAnchor.read(storage);
            long envId = anchor == null ? 0 : anchor.envId();
            Map<Integer, String> reg = DataFiles.rebuildRegistry(storage, envId);
            LOG.warn("rebuilt the file registry of {} from {} data file headers: {}", home, reg.size(), reg);
            return reg;
        } catch (IOException e) {
            throw new EnvironmentAccessException("I/O error rebuilding the file registry of " + home + ": " + e, e);
        }
    }
}
