package org.libtp.core.tp;

import org.libtp.core.CorruptionException;
import org.libtp.core.EnvironmentAccessException;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.buffer.DataFiles;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogAnchor;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageErrors;
import org.libtp.core.storage.StorageFile;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.locks.LockSupport;

/**
 * Hot backup and restore (Berkeley DB's {@code db_hotbackup}): a copy of a running environment
 * from which recovery rebuilds every transaction committed before the backup began.
 *
 * <p>The order is what makes a copy taken while other processes write consistent:
 * <ol>
 * <li>The <em>pin</em>: the first LSN recovery would read now (the last checkpoint's redo
 *     point or the first record of an active transaction). From here until
 *     the end no process removes a log file from that LSN's file on.</li>
 * <li>The data files, page by page. Pages change meanwhile, so the copy is fuzzy: each page
 *     is some version at least as new as the last checkpoint wrote. A page read while it was
 *     being written fails its checksum and is read again; one that keeps failing is kept as it
 *     is and repaired by recovery from its logged image (torn-write protection).</li>
 * <li>The log is forced to its end {@code E}, then the file registry is read again: a data
 *     file registered meanwhile is copied too, and the force and check repeat. Every page copied
 *     so far carries an LSN below {@code E} (write-ahead: a page reaches its file only after its
 *     log record is durable), and every file a record below {@code E} names is in the copy.</li>
 * <li>The log files from the pin's file to {@code E}, the last one cut at {@code E}; the
 *     anchor; then the manifest ({@link BackupManifest}) saying "complete".</li>
 * </ol>
 * The last checkpoint in the copied log may have been taken after a data file was copied, so
 * the copy is recovered catastrophically (the whole copied log is redone, from the pin's file);
 * the manifest makes the first open do so. An incremental backup copies only the log written
 * since (and data files registered since), continuing the copied log; the source must still hold
 * the log file the previous copy ended in.
 *
 * <p>A backup shares the disk and the processors with the processes committing meanwhile. The
 * copying runs on a thread of its own at a lower CPU priority ({@link BackgroundThread}), forces
 * its files every 16 MiB instead of in one burst per file, and keeps the pace
 * {@link BackupPacer} sets from the log's force times (unless
 * {@link BackupConfig#yieldToCommits()} is off).
 */
public final class HotBackup {
    private static final Logger LOG = LoggerFactory.getLogger(HotBackup.class);
    private static final int CHUNK_PAGES = 64;
    private static final int REREADS = 50;
    /**
     * Bytes written to a file of the copy between forces: the copy reaches the disk as it goes,
     * at the pace the pacer sets, instead of in one burst at the end of each file (during which
     * the committers' forces would wait behind it).
     */
    private static final long FORCE_EVERY = 16L << 20;

    /** Progress of a copy: bytes done of an estimated total. */
    @FunctionalInterface
    public interface Progress {
        Progress NONE = (done, total) -> { };

        void at(long done, long total);
    }

    /**
     * What a backup copied.
     *
     * @param pagesReread pages read more than once because a concurrent write made them fail their
     *                    checksum
     * @param pagesTorn   pages that still failed after {@value #REREADS} reads, copied as they were:
     *                    recovery of the copy rewrites them from their logged images
     * @param finalRate   the copy's pace at its end, in bytes per second (see
     *                    {@link BackupConfig#yieldToCommits()}; unbounded: {@code Long.MAX_VALUE / 4})
     * @param undisturbedForceMicros the mean log force time measured while the copy paused
     *                    (-1: not measured, nobody forced or the backup did not yield)
     */
    public record Result(Path directory, boolean incremental, int dataFiles, int logFiles, long bytes, long fromLsn,
                         long endLsn, long millis, int pagesReread, int pagesTorn, long finalRate,
                         double undisturbedForceMicros) {
        @Override
        public String toString() {
            return (incremental ? "incremental backup" : "backup") + " into " + directory + ": " + dataFiles
                    + " data files, " + logFiles + " log files, " + bytes + " bytes, log " + Lsn.toString(fromLsn)
                    + " to " + Lsn.toString(endLsn) + ", " + millis + " ms"
                    + (pagesReread + pagesTorn > 0 ? ", " + pagesReread + " pages read again (written meanwhile), "
                    + pagesTorn + " left to recovery" : "");
        }
    }

    private HotBackup() {
    }

    /**
     * Backs up the environment {@code tp} into directory {@code dest}: a full backup needs it
     * absent or empty; an incremental one needs a complete backup of this environment there.
     *
     * @throws IllegalArgumentException if {@code dest} is not what the kind of backup needs
     * @throws IllegalStateException    if another hot backup of the environment is running, or
     *                                  (incremental) log files written since the last backup were removed
     * @throws OutOfSpaceException      if {@code dest}'s file system is full (the backup stays
     *                                  marked incomplete)
     */
    public static Result backup(TxnEnvironment tp, Path dest, BackupConfig config) {
        if (dest == null || config == null) {
            throw new IllegalArgumentException("backup directory and config must not be null");
        }
        Path src = tp.env().home().toAbsolutePath().normalize();
        Path to = dest.toAbsolutePath().normalize();
        if (to.startsWith(src)) {
            throw new IllegalArgumentException("backup directory " + dest + " is the environment directory "
                    + "or inside it; choose a directory elsewhere (ideally on another disk)");
        }
        try {
            // The copying runs at a lower CPU priority: it takes the processor from committers only when idle.
            return BackgroundThread.run("libtp-backup", () -> new Copier(tp, to, config).run());
        } catch (java.io.UncheckedIOException e) {
            throw failed(src, dest, e.getCause());
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw failed(src, dest, e);
        }
    }

    /** The exception for a backup whose copying failed with {@code io}. */
    private static RuntimeException failed(Path src, Path dest, Exception io) {
        if (!(io instanceof IOException e)) {
            return new EnvironmentAccessException("backing up " + src + " into " + dest + " failed: " + io, io);
        }
        if (StorageErrors.isNoSpace(e)) {
            return new OutOfSpaceException("no space left for the backup in " + dest + " (" + e.getMessage()
                    + "); it is marked incomplete. Free space or choose another directory and take it again", e);
        }
        return new EnvironmentAccessException("I/O error backing up " + src + " into " + dest + ": " + e, e);
    }

    /**
     * Copies the backup in {@code backup} into {@code target} (absent or empty), manifest
     * included: the first open of {@code target} recovers it catastrophically. The backup itself
     * is not changed, so later incremental backups can still go into it. Returns the bytes copied.
     *
     * @throws IllegalArgumentException if {@code backup} holds no complete backup or
     *                                  {@code target} is not empty
     */
    public static long restore(Path backup, Path target, Progress progress) {
        if (backup == null || target == null || progress == null) {
            throw new IllegalArgumentException("backup, target and progress must not be null");
        }
        try {
            Storage from = new FileStorage(backup);
            BackupManifest m = requireComplete(backup, from);
            requireEmpty(target, "restore target");
            Files.createDirectories(target);
            Storage to = new FileStorage(target);
            List<String> names = new ArrayList<>(DataFiles.registered(from).values());
            for (int n : logFiles(from)) {
                names.add(LogFileHeader.fileName(n));
            }
            names.add(DataFiles.REGISTRY);
            names.add(LogAnchor.FILE);
            long total = 0;
            for (String n : names) {
                total += size(from, n);
            }
            long[] done = {0};
            // First the manifest saying "incomplete": a restore cut short is refused at open, never
            // recovered as if it were whole (nor normally, from a checkpoint its data files predate).
            m.withState(BackupManifest.INCOMPLETE).write(to);
            for (String n : names) {
                copyWhole(from, to, n, Long.MAX_VALUE, done, total, progress);
            }
            m.write(to); // last: now the first open recovers the copy catastrophically
            to.forceDirectory();
            LOG.info("restored the backup in {} ({}) into {}: {} bytes", backup, Lsn.toString(m.endLsn()), target, done[0]);
            return done[0];
        } catch (IOException e) {
            if (StorageErrors.isNoSpace(e)) {
                throw new OutOfSpaceException("no space left restoring into " + target + " (" + e.getMessage()
                        + "); delete " + target + ", free space and restore again", e);
            }
            throw new EnvironmentAccessException("I/O error restoring " + backup + " into " + target + ": " + e, e);
        }
    }

    /**
     * Marks environment {@code home} for catastrophic recovery at its next open (a manifest in
     * state "recover"). The caller makes sure no process has it open.
     */
    public static void requestCatastrophicRecovery(Path home) {
        Storage s = new FileStorage(home);
        try {
            BackupManifest m = BackupManifest.read(s);
            if (m != null) {
                return; // a backup's manifest already asks for it
            }
            LogAnchor a = LogAnchor.read(s);
            new BackupManifest(BackupManifest.RECOVER, a == null ? 0 : a.envId(), a == null ? 0 : a.logId(),
                    Lsn.NULL, Lsn.NULL, 0, System.currentTimeMillis(), System.currentTimeMillis(), 0,
                    home.toAbsolutePath().toString()).write(s);
        } catch (IOException e) {
            throw new EnvironmentAccessException("cannot write " + BackupManifest.FILE + " in " + home + ": " + e, e);
        }
    }

    static BackupManifest requireComplete(Path dir, Storage s) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory");
        }
        BackupManifest m = BackupManifest.read(s);
        if (m == null) {
            throw new IllegalArgumentException(dir + " holds no LibTP backup (no " + BackupManifest.FILE + "): not a "
                    + "backup directory, or it was opened (and so recovered) in place since");
        }
        if (!m.state().equals(BackupManifest.COMPLETE)) {
            throw new IllegalArgumentException("the backup in " + dir + " is " + m.state()
                    + ": it did not finish; take it again");
        }
        return m;
    }

    static void requireEmpty(Path dir, String what) throws IOException {
        if (Files.exists(dir)) {
            if (!Files.isDirectory(dir)) {
                throw new IllegalArgumentException(what + " " + dir + " exists and is not a directory");
            }
            try (var list = Files.list(dir)) {
                if (list.findAny().isPresent()) {
                    String why = "";
                    if (Files.exists(dir.resolve(BackupManifest.FILE))) {
                        BackupManifest m = null;
                        try {
                            m = BackupManifest.read(new FileStorage(dir));
                        } catch (RuntimeException damaged) {
                            // said below as "holds a backup"
                        }
                        why = m != null && m.state().equals(BackupManifest.INCOMPLETE)
                                ? " (it holds a backup or restore that did not finish: delete it, then take it again)"
                                : " (it holds a backup: add to it with an incremental backup)";
                    }
                    throw new IllegalArgumentException(what + " " + dir + " is not empty; choose a new or empty "
                            + "directory" + why);
                }
            }
        }
    }

    private static int[] logFiles(Storage s) throws IOException {
        return s.list("log.").stream().mapToInt(LogFileHeader::fileNumber).filter(k -> k > 0).sorted().toArray();
    }

    private static long size(Storage s, String name) throws IOException {
        try (StorageFile f = s.open(name, false)) {
            return f.size();
        }
    }

    /**
     * Copies {@code name} to {@code name} in {@code to}, via a temporary name: its first
     * {@code limit} bytes, then zeros to its full size (a log file keeps the size it was created
     * with; the records after the cut are not part of the copy).
     */
    private static long copyWhole(Storage from, Storage to, String name, long limit, long[] done, long total,
                                  Progress progress) throws IOException {
        String tmp = name + ".part";
        to.delete(tmp);
        long n;
        try (StorageFile in = from.open(name, false); StorageFile out = to.open(tmp, true)) {
            long full = in.size();
            long size = Math.min(full, limit);
            ByteBuffer buf = ByteBuffer.allocate(1 << 20);
            long at = 0;
            while (at < size) {
                buf.clear().limit((int) Math.min(buf.capacity(), size - at));
                in.readFully(buf, at);
                buf.flip();
                if (!zeros(buf.array(), buf.limit())) {
                    out.write(buf, at); // zeros stay holes, as in the log files (their unwritten tail)
                }
                if ((at + buf.limit()) / FORCE_EVERY != at / FORCE_EVERY) {
                    out.force();
                }
                at += buf.limit();
                done[0] += buf.limit();
                progress.at(done[0], total);
            }
            if (out.size() < full) {
                out.write(ByteBuffer.allocate(1), full - 1); // the full length, the rest a hole
            }
            out.force();
            n = size;
        }
        to.rename(tmp, name);
        return n;
    }

    private static boolean zeros(byte[] b, int length) {
        for (int i = 0; i < length; i++) {
            if (b[i] != 0) {
                return false;
            }
        }
        return true;
    }

    /** One backup run. */
    private static final class Copier {
        final TxnEnvironment tp;
        final Path dest;
        final boolean incremental;
        final Progress progress;
        final BackupPacer pacer;
        long paced;
        /** The file of the copy being written (forced before the pacer's measuring pauses). */
        volatile StorageFile writing;
        final Storage src;
        final SharedLog log;
        final int pageSize;
        final long[] done = {0};
        long total;
        int reread;
        int torn;
        int dataFiles;
        int logFiles;

        Copier(TxnEnvironment tp, Path dest, BackupConfig config) {
            this.tp = tp;
            this.dest = dest;
            this.incremental = config.incremental();
            BackupPacer p = new BackupPacer(config, tp.log());
            p.beforePause(() -> {
                StorageFile f = writing;
                if (f != null) {
                    try {
                        f.force();
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
            });
            this.pacer = p;
            this.progress = (done, total) -> {
                p.copied(done - paced);
                paced = done;
                config.progress().at(done, total);
            };
            this.src = tp.storage();
            this.log = tp.log();
            this.pageSize = tp.buffers().pageSize();
        }

        Result run() throws IOException {
            long t0 = System.nanoTime();
            Storage dst = new FileStorage(dest);
            BackupManifest previous = null;
            if (incremental) {
                previous = requireComplete(dest, dst);
            } else {
                requireEmpty(dest, "backup directory");
                Files.createDirectories(dest);
            }
            LogAnchor anchor = LogAnchor.read(src);
            if (anchor == null) {
                throw new CorruptionException("environment " + src.directory() + " has no log anchor ("
                        + LogAnchor.FILE + ")");
            }
            if (previous != null && (previous.envId() != anchor.envId() || previous.logId() != anchor.logId())) {
                throw new IllegalArgumentException("the backup in " + dest + " is of " + (previous.envId() != anchor.envId()
                        ? "another environment" : "this environment before its log was reset")
                        + " (" + previous.source() + "); take a full backup into an empty directory");
            }
            if (previous != null && previous.pageSize() != pageSize) {
                throw new IllegalArgumentException("the backup in " + dest + " has page size " + previous.pageSize()
                        + ", the environment " + pageSize);
            }
            // No checkpoint of its own (Berkeley DB's db_hotbackup without -c): one would write every
            // dirty page and its image now, in the middle of the application's work; the pin starts
            // at the last checkpoint's horizon instead, so at most a checkpoint interval more log is copied.
            long from = tp.txn().beginBackup(previous == null ? Lsn.NULL : previous.endLsn());
            try {
                long started = previous == null ? System.currentTimeMillis() : previous.startedMillis();
                int firstFile = Lsn.file(from);
                int[] have = log.fileNumbers();
                if (have.length == 0 || have[0] > firstFile) {
                    throw new IllegalStateException("log file " + LogFileHeader.fileName(firstFile) + " of "
                            + src.directory() + ", " + (previous != null ? "in which the last backup into " + dest
                            + " ended," : "which recovery needs,") + " was removed (the oldest left is "
                            + (have.length == 0 ? "none" : LogFileHeader.fileName(have[0])) + "); "
                            + (previous != null ? "take a full backup into an empty directory (keep log files "
                            + "between incremental backups: EnvironmentConfig.keepLogFiles)" : "take the backup again"));
                }
                BackupManifest m = new BackupManifest(BackupManifest.INCOMPLETE, anchor.envId(), anchor.logId(),
                        previous == null ? from : previous.fromLsn(), previous == null ? Lsn.NULL : previous.endLsn(),
                        pageSize, started, System.currentTimeMillis(), previous == null ? 0 : previous.incrementals(),
                        src.directory().toAbsolutePath().toString());
                if (previous == null) {
                    m.write(dst); // first: a copy cut short is never taken for a backup
                }
                Set<String> copied = new TreeSet<>(DataFiles.registered(dst).values());
                Map<Integer, String> registry = DataFiles.registered(src);
                for (String n : registry.values()) {
                    if (!copied.contains(n)) {
                        total += size(src, n);
                    }
                }
                for (int n : have) {
                    if (n >= firstFile) {
                        total += size(src, LogFileHeader.fileName(n));
                    }
                }
                long end;
                while (true) {
                    for (String n : registry.values()) {
                        if (copied.add(n)) {
                            copyDataFile(dst, n);
                            dataFiles++;
                        }
                    }
                    end = log.endLsn();
                    log.flush(end, Durability.SYNC); // every page copied so far is below end (WAL)
                    Map<Integer, String> again = DataFiles.registered(src);
                    if (copied.containsAll(again.values())) {
                        registry = again;
                        break;
                    }
                    registry = again; // a file registered meanwhile may have records below end
                }
                copyRegistry(dst);
                long copiedEnd = Lsn.NULL;
                for (int n : log.fileNumbers()) {
                    if (n < firstFile || n > Lsn.file(end)) {
                        continue;
                    }
                    String name = LogFileHeader.fileName(n);
                    boolean last = n == Lsn.file(end);
                    copyWhole(src, dst, name, last ? Lsn.offset(end) : Long.MAX_VALUE, done, total, progress);
                    logFiles++;
                    if (last) {
                        copiedEnd = end;
                    }
                }
                // The copy's log reaches end (unless its file was not created yet): so must the anchor.
                LogAnchor a = copiedEnd == Lsn.NULL ? anchor : anchor.withMinEnd(copiedEnd);
                if (previous != null) {
                    LogAnchor old = LogAnchor.read(dst);
                    if (old != null && old.minEndLsn() > a.minEndLsn()) {
                        a = old;
                    }
                }
                dst.replaceFile(LogAnchor.FILE, a.encode());
                dst.forceDirectory();
                BackupManifest done = new BackupManifest(BackupManifest.COMPLETE, m.envId(), m.logId(), m.fromLsn(),
                        end, pageSize, started, System.currentTimeMillis(),
                        previous == null ? 0 : previous.incrementals() + 1, m.source());
                done.write(dst);
                Result r = new Result(dest, previous != null, dataFiles, logFiles, this.done[0], from, end,
                        (System.nanoTime() - t0) / 1_000_000, reread, torn, pacer.rate(), pacer.undisturbedMicros());
                LOG.info("{}", r);
                return r;
            } finally {
                tp.txn().endBackup();
            }
        }

        private void copyRegistry(Storage dst) throws IOException {
            byte[] b;
            try (StorageFile f = src.open(DataFiles.REGISTRY, false)) {
                b = new byte[(int) f.size()];
                f.readFully(ByteBuffer.wrap(b), 0);
            } catch (java.nio.file.NoSuchFileException none) {
                return; // no data file was ever registered
            }
            dst.replaceFile(DataFiles.REGISTRY, ByteBuffer.wrap(b));
        }

        /** Copies a data file page by page, reading again a page that fails its check. */
        private void copyDataFile(Storage dst, String name) throws IOException {
            String tmp = name + ".part";
            dst.delete(tmp);
            try (StorageFile in = src.open(name, false); StorageFile out = dst.open(tmp, true)) {
                writing = out;
                long size = in.size();
                ByteBuffer buf = ByteBuffer.allocate(pageSize * CHUNK_PAGES);
                byte[] page = new byte[pageSize];
                long at = 0;
                while (at < size) {
                    int want = (int) Math.min(buf.capacity(), size - at);
                    buf.clear().limit(want);
                    in.readFully(buf, at);
                    for (int off = 0; off + pageSize <= want; off += pageSize) {
                        long fileOffset = at + off;
                        if (fileOffset == 0) {
                            continue; // the file header, written once at creation
                        }
                        long pageNo = fileOffset / pageSize - 1;
                        System.arraycopy(buf.array(), off, page, 0, pageSize);
                        if (DataFiles.checkPage(page, pageSize, pageNo) != null) {
                            readAgain(in, name, pageNo, fileOffset, page);
                            System.arraycopy(page, 0, buf.array(), off, pageSize);
                        }
                    }
                    buf.position(0).limit(want);
                    out.write(buf, at);
                    if ((at + want) / FORCE_EVERY != at / FORCE_EVERY) {
                        out.force();
                    }
                    at += want;
                    done[0] += want;
                    progress.at(done[0], total);
                }
                out.force();
            } finally {
                writing = null;
            }
            dst.rename(tmp, name);
        }

        private void readAgain(StorageFile in, String name, long pageNo, long fileOffset, byte[] page) throws IOException {
            String why = null;
            for (int i = 0; i < REREADS; i++) {
                LockSupport.parkNanos(200_000); // the write under way finishes
                ByteBuffer b = ByteBuffer.wrap(page);
                in.readFully(b, fileOffset);
                why = DataFiles.checkPage(page, pageSize, pageNo);
                if (why == null) {
                    reread++;
                    return;
                }
            }
            torn++;
            LOG.warn("backup of {}: page {} of {} still fails its check after {} reads ({}); copied as it is, "
                    + "recovery of the copy rewrites it from its logged image", src.directory(), pageNo, name, REREADS, why);
        }
    }
}
