package org.libtp.core.log;

import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.env.RegionPlacement;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.SlotStore;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;

/**
 * The durable files (log files, anchor, data file, registry) of a small environment with a
 * transaction history, made once per fuzz class and copied for each try: the log fuzz tests damage
 * the copy, then read it with the readers, the log manager and recovery. Made from a live
 * environment (copied while it runs, without its lock file and regions), so that an open of the
 * copy is a crash image: recovery redoes from the last checkpoint and rolls back the transaction
 * left open.
 */
final class LogFuzzEnvironment {
    /**
     * Regions in the environment directory: deleting a try's directory removes everything it
     * made (a refused open keeps its log region for salvage, which in shared memory would stay
     * until a sweep).
     */
    static final RegionEnvironmentConfig ENV = RegionEnvironmentConfig.builder().failCheckMillis(0)
            .regionPlacement(RegionPlacement.ENV_DIR).build();
    /** Small files, kept: the history spans several log files, with a checkpoint in the middle. */
    static final LogConfig LOG = LogConfig.builder().fileSize(64 * 1024).bufferSize(16 * 1024).autoRemove(false).build();
    static final BufferConfig BUFFERS = BufferConfig.builder().poolBytes(64 * 4096).build();
    static final int SLOTS = 64;

    private LogFuzzEnvironment() {
    }

    /** Opens (and recovers) the environment in {@code home} with the test slot store. */
    static TxnEnvironment open(Path home) {
        return TxnEnvironment.open(home, ENV, LOG, TxnConfig.defaults(), BUFFERS, LockConfig.defaults(),
                new FileStorage(home), parts -> List.of(new SlotStore(parts.env(), parts.storage(), SLOTS)));
    }

    /**
     * Makes the template in {@code dir} (which must not exist): about three log files of
     * committed and aborted transactions, a checkpoint after the first file, one transaction
     * still open when the files were copied.
     */
    static void build(Path dir) throws IOException {
        Path live = Files.createTempDirectory(dir.getParent(), "live");
        try (TxnEnvironment tp = open(live)) {
            SlotStore store = (SlotStore) tp.resourceManagers().get(0);
            boolean checkpointed = false;
            for (int i = 0; tp.log().fileNumbers().length < 3 || Lsn.offset(tp.log().endLsn()) < LOG.fileSize() / 2; i++) {
                Txn t = tp.txn().begin();
                for (int k = 0; k < 1 + i % 5; k++) {
                    store.put(t, (i + 7 * k) % SLOTS, i * 1000L + k);
                }
                if (i % 7 == 3) {
                    tp.txn().abort(t);
                } else {
                    tp.txn().commit(t);
                }
                if (!checkpointed && tp.log().fileNumbers().length == 2) {
                    tp.txn().checkpoint();
                    checkpointed = true;
                }
            }
            Txn open = tp.txn().begin();
            store.put(open, 1, -1);
            store.put(open, 2, -2);
            tp.log().flush(tp.log().endLsn(), Durability.SYNC);
            Files.createDirectory(dir);
            try (Stream<Path> files = Files.list(live)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String name = p.getFileName().toString();
                    if (!name.startsWith("__libtp.lock") && !name.startsWith("__libtp.env")
                            && !name.startsWith("__libtp.rgn") && !name.startsWith("__libtp.kept")) {
                        Files.copy(p, dir.resolve(name));
                    }
                }
            }
            tp.txn().abort(open);
        } finally {
            deleteTree(live);
        }
    }

    /** Copies the files of {@code from} into the new directory {@code to}. */
    static void copy(Path from, Path to) throws IOException {
        Files.createDirectory(to);
        try (Stream<Path> files = Files.list(from)) {
            for (Path p : (Iterable<Path>) files::iterator) {
                Files.copy(p, to.resolve(p.getFileName()));
            }
        }
    }

    /** The records of the log in {@code dir} as the file reader sees them (all, in an undamaged log). */
    static List<LogEntry> records(Path dir) throws IOException {
        List<LogEntry> out = new ArrayList<>();
        List<String> reports = new ArrayList<>();
        if (!readAll(dir, out, reports)) {
            throw new AssertionError("the log in " + dir + " is damaged: " + reports);
        }
        return out;
    }

    /** {@link LogFileReader#read} of {@code dir}: the entries and the damage reports; whether it read the whole log. */
    static boolean readAll(Path dir, List<LogEntry> seen, List<String> reports) throws IOException {
        return LogFileReader.read(new FileStorage(dir), new LogFileReader.Visitor() {
            @Override
            public void file(String name, long logId) {
            }

            @Override
            public void entry(LogEntry entry) {
                seen.add(entry);
            }

            @Override
            public void damaged(String message) {
                reports.add(message);
            }
        });
    }

    /** How many files this process has open (Linux), or -1 if that cannot be told. */
    static int openFiles() {
        String[] fds = new java.io.File("/proc/self/fd").list();
        return fds == null ? -1 : fds.length;
    }

    /**
     * Fails if this process has clearly more files open than {@code baseline}: each open of a
     * damaged log that is refused must close what it opened (a slack for threads of the test
     * engine that open files meanwhile).
     */
    static void checkOpenFiles(int baseline, String what) {
        int now = openFiles();
        if (baseline >= 0 && now > baseline + 16) {
            throw new AssertionError(now + " files open, " + baseline + " before the tries: an open leaks files ("
                    + what + ")");
        }
    }

    static void deleteTree(Path dir) {
        if (dir == null || !Files.exists(dir)) {
            return;
        }
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) all.sorted(Comparator.reverseOrder())::iterator) {
                Files.deleteIfExists(p);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
