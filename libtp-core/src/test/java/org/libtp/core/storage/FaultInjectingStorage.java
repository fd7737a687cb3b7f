package org.libtp.core.storage;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Random;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * A {@link Storage} for crash and fault tests, in the manner of SQLite's crash VFS and Lucene's
 * MockDirectoryWrapper. It wraps a real storage (normally a {@link FileStorage} on a temporary
 * directory of a POSIX file system) and passes every operation through, remembering what a power
 * loss could still undo:
 *
 * <ul>
 *   <li><b>Unforced data.</b> Every write, preallocation and truncation of a file that a later
 *       successful {@link StorageFile#force()} of that file (through any handle) has not yet
 *       covered is kept with its pre-image: the bytes it overwrote and the file size before it.
 *       Files are tracked by identity (like inodes), so renames and open handles of deleted files
 *       keep their history.</li>
 *   <li><b>Unforced directory operations.</b> Creating a file, deleting it and renaming it are
 *       remembered until {@link #forceDirectory()}. Deleted or replaced files are kept alive
 *       through an open handle (POSIX unlink semantics) so a crash can bring them back.</li>
 * </ul>
 *
 * <p>{@link #crash(Random, CrashMode)} then simulates a power loss: for each file the unforced
 * operations are undone newest first, each one lost, kept or torn according to the
 * {@link CrashMode}; a lost extension shrinks the file back (to the largest end still holding kept
 * data, so a kept later write past a lost one leaves a hole of zeros); the unforced directory
 * operations keep a prefix (journaling file systems commit metadata in order): none in
 * {@link CrashMode#LOSE_ALL}, all in {@link CrashMode#KEEP_ALL}, a random prefix in
 * {@link CrashMode#RANDOM}. So a file created and never followed by {@link #forceDirectory()}
 * vanishes in {@code LOSE_ALL} even if its data was forced: fdatasync does not make the directory
 * entry durable. Use {@link #crash(Random, CrashMode, CrashMode)} to choose separately. After the
 * crash this storage and every file opened through it are dead (every call throws
 * {@code IOException("crashed")}); the real directory holds the post-crash state, for a new
 * {@link FileStorage}. Files in the directory that were never touched through this storage (such
 * as region files) are left alone.
 *
 * <p>Fault injection: {@link #failForceAfter(int)} (a failed force poisons the file's unforced
 * operations: they stay losable forever, even after a later force that succeeds — PostgreSQL's
 * "fsyncgate"), {@link #failNextWrite()}, {@link #shortWriteNext(int)} (preallocation counts as
 * a write for these), {@link #failNextDirectoryForce()}, and ENOSPC: {@link #noSpaceEvery(int)} (every
 * Nth write) and {@link #diskFull(boolean)} (writes that need new blocks). Counters: {@link #forceCount(String)}, {@link #bytesWritten(String)},
 * {@link #writeCount(String)} per file name, and totals.
 *
 * <p>Thread-safe: bookkeeping and writes run under this object's monitor; reads and the real
 * force run outside it. A force covers exactly the operations completed before it started.
 * All randomness comes from the {@link Random} passed to {@code crash}, so a seed replays a run.
 *
 * <pre>{@code
 * FaultInjectingStorage fis = new FaultInjectingStorage(dir);   // a FileStorage on dir
 * ... run the code under test on fis ...
 * CrashReport r = fis.crash(new Random(seed), CrashMode.RANDOM);
 * ... recover with new FileStorage(dir) and check what was forced is there (print r on failure) ...
 * }</pre>
 */
public final class FaultInjectingStorage implements Storage {

    /** What a crash does to each unforced operation. */
    public enum CrashMode {
        /** Every unforced write and directory operation is lost: the state at the last forces. */
        LOSE_ALL,
        /** Every unforced write and directory operation survives: like killing the process. */
        KEEP_ALL,
        /**
         * Each unforced write independently survives, is lost or is torn (a random prefix
         * survives, or a random subset of its 512-byte sectors); each unforced truncation survives
         * or is lost; a random prefix of the unforced directory operations survives.
         */
        RANDOM
    }

    /**
     * What a crash did, for assertions and failure messages.
     *
     * @param keptWrites unforced writes (and preallocations) that fully survived
     * @param lostWrites unforced writes that were fully undone
     * @param tornPrefixWrites unforced writes of which a strict prefix survived
     * @param tornSectorWrites unforced writes of which some of their sectors survived
     * @param keptTruncations unforced truncations that survived
     * @param lostTruncations unforced truncations that were undone
     * @param keptDirectoryOps unforced directory operations that survived
     * @param lostDirectoryOps unforced directory operations that were undone
     * @param events one line per undone or torn operation and per directory operation
     */
    public record CrashReport(int keptWrites, int lostWrites, int tornPrefixWrites, int tornSectorWrites,
            int keptTruncations, int lostTruncations, int keptDirectoryOps, int lostDirectoryOps,
            List<String> events) {
        public int tornWrites() {
            return tornPrefixWrites + tornSectorWrites;
        }

        @Override
        public String toString() {
            return "CrashReport[writes kept " + keptWrites + ", lost " + lostWrites + ", torn " + tornPrefixWrites
                    + " (prefix) + " + tornSectorWrites + " (sectors); truncations kept " + keptTruncations + ", lost "
                    + lostTruncations + "; directory ops kept " + keptDirectoryOps + ", lost " + lostDirectoryOps
                    + "]" + (events.isEmpty() ? "" : "\n  " + String.join("\n  ", events));
        }
    }

    /** Sector size for sector-torn writes; sectors are aligned to file offsets. */
    public static final int SECTOR = 512;

    private static final String CRASH_TMP = ".fis-crash-";
    private static final int CHUNK = 64 * 1024;

    private final Storage delegate;
    private volatile boolean dead;
    private long nextNodeId;
    private long nextSeq;

    /** Name to file as the real directory holds it now (only files known to this storage). */
    private final Map<String, Node> current = new HashMap<>();
    /** Name to file as of the last forceDirectory (files found already present count as durable). */
    private final Map<String, Node> durable = new HashMap<>();
    /** Directory operations since the last forceDirectory, oldest first. */
    private final List<DirOp> dirOps = new ArrayList<>();
    /** Directory operations ever made durable (the absolute number of {@code dirOps.get(0)}). */
    private long dirOpsForced;
    /** Files no longer in {@link #current}, kept alive by an open handle because a crash can restore them. */
    private final Set<Node> unlinked = Collections.newSetFromMap(new IdentityHashMap<>());
    private final Set<Handle> open = new LinkedHashSet<>();

    private final Map<String, long[]> counters = new TreeMap<>(); // name -> {forces, bytes, writes}
    private long forces;
    private long bytes;
    private long writes;

    private int forcesBeforeFailure = -1;
    private Predicate<String> forceFailureFilter = n -> true;
    private int shortWriteBytes = -1;
    private boolean failDirectoryForce;
    /** Every how many writes one fails with ENOSPC (0 = never), and the count so far. */
    private int noSpaceEvery;
    private long noSpaceCountdown;
    /** A full disk: writes past a file's end and preallocations fail with ENOSPC. */
    private boolean diskFull;
    private long noSpaceFailures;

    /** The message of the IOException the JDK throws for ENOSPC. */
    public static final String NO_SPACE = "No space left on device";

    public FaultInjectingStorage(Storage delegate) {
        this.delegate = Objects.requireNonNull(delegate);
    }

    /** A fault-injecting storage over a new {@link FileStorage} on {@code directory}. */
    public FaultInjectingStorage(Path directory) {
        this(new FileStorage(directory));
    }

    // ------------------------------------------------------------------ fault injection

    /** The force after {@code n} more successful forces (of any file) throws an IOException. Once. */
    public synchronized void failForceAfter(int n) {
        failForceAfter(n, name -> true);
    }

    /** Like {@link #failForceAfter(int)}, counting only forces of files whose name matches. */
    public synchronized void failForceAfter(int n, Predicate<String> fileNames) {
        if (n < 0) {
            throw new IllegalArgumentException("n < 0: " + n);
        }
        forcesBeforeFailure = n;
        forceFailureFilter = Objects.requireNonNull(fileNames);
    }

    /** The next write or preallocation (of any file) writes nothing and throws an IOException. */
    /**
     * Writes to files whose names {@code files} accepts are kept or lost whole at a crash, never
     * torn: a device with atomic writes of their size (for data pages: 4 KiB atomic write units).
     */
    public synchronized void atomicWrites(Predicate<String> files) {
        atomicWrites = files;
    }

    private volatile Predicate<String> atomicWrites = name -> false;

    public synchronized void failNextWrite() {
        shortWriteBytes = 0;
    }

    /**
     * The next write or preallocation (of any file) writes only its first {@code bytes} bytes (all of
     * them if it has no more) and then throws an IOException. The source buffer's position advances
     * by the bytes written, as with a real short write.
     */
    public synchronized void shortWriteNext(int bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("bytes < 0: " + bytes);
        }
        shortWriteBytes = bytes;
    }

    /**
     * The next {@link #forceDirectory()} throws an IOException; the directory operations before it
     * stay unforced (a later successful one makes them durable).
     */
    public synchronized void failNextDirectoryForce() {
        failDirectoryForce = true;
    }

    /**
     * Every {@code n}th write or preallocation from now on (of any file; 0 turns it off) writes
     * nothing and throws {@code IOException("No space left on device")}, as {@code pwrite} does
     * with ENOSPC. Forces are not affected.
     */
    public synchronized void noSpaceEvery(int n) {
        if (n < 0) {
            throw new IllegalArgumentException("n < 0: " + n);
        }
        noSpaceEvery = n;
        noSpaceCountdown = n;
    }

    /**
     * While {@code full}, the disk has no free block: a write that extends a file (any byte past
     * its current end) and every preallocation fail with ENOSPC having written nothing; writes
     * inside a file's current size (blocks already allocated) succeed.
     */
    public synchronized void diskFull(boolean full) {
        diskFull = full;
    }

    /** Writes and preallocations failed with ENOSPC so far (by either mode). */
    public synchronized long noSpaceFailures() {
        return noSpaceFailures;
    }

    /** True if a write of [position, end) of a file of {@code size} bytes must fail with ENOSPC now. */
    private boolean takeNoSpace(long end, long size, boolean extendsAlways) {
        if (diskFull && (extendsAlways || end > size)) {
            noSpaceFailures++;
            return true;
        }
        if (noSpaceEvery > 0 && --noSpaceCountdown <= 0) {
            noSpaceCountdown = noSpaceEvery;
            noSpaceFailures++;
            return true;
        }
        return false;
    }

    /** Cancels pending injected faults. */
    public synchronized void clearFaults() {
        noSpaceEvery = 0;
        diskFull = false;
        forcesBeforeFailure = -1;
        shortWriteBytes = -1;
        failDirectoryForce = false;
    }

    // ------------------------------------------------------------------ counters

    /** Forces (attempts, including failed ones) of files by that name. */
    public synchronized long forceCount(String name) {
        return counter(name)[0];
    }

    /** Bytes written (by writes and preallocations) to files by that name. */
    public synchronized long bytesWritten(String name) {
        return counter(name)[1];
    }

    /** Writes and preallocations of files by that name. */
    public synchronized long writeCount(String name) {
        return counter(name)[2];
    }

    public synchronized long forceCount() {
        return forces;
    }

    public synchronized long bytesWritten() {
        return bytes;
    }

    public synchronized long writeCount() {
        return writes;
    }

    /**
     * Unforced data operations (writes, preallocations, truncations) of the file now named
     * {@code name} that a crash could undo; 0 if unknown. Includes those poisoned by a failed force.
     */
    public synchronized int unforcedOperations(String name) {
        Node n = current.get(name);
        if (n == null) {
            return 0;
        }
        int k = 0;
        for (DataOp op : n.ops) {
            if (!op.durable) {
                k++;
            }
        }
        return k;
    }

    /** True if a force of the file now named {@code name} failed (its older writes stay losable). */
    public synchronized boolean poisoned(String name) {
        Node n = current.get(name);
        return n != null && n.poisoned;
    }

    /** Directory operations since the last {@link #forceDirectory()}. */
    public synchronized int unforcedDirectoryOperations() {
        return dirOps.size();
    }

    /** Names of the files opened through this storage and not closed yet (duplicates for several handles). */
    public synchronized List<String> openFiles() {
        List<String> out = new ArrayList<>();
        for (Handle h : open) {
            out.add(h.name);
        }
        return out;
    }

    public boolean crashed() {
        return dead;
    }

    private long[] counter(String name) {
        return counters.getOrDefault(name, new long[3]);
    }

    private void count(String name, long forceDelta, long byteDelta, long writeDelta) {
        long[] c = counters.computeIfAbsent(name, k -> new long[3]);
        c[0] += forceDelta;
        c[1] += byteDelta;
        c[2] += writeDelta;
        forces += forceDelta;
        bytes += byteDelta;
        writes += writeDelta;
    }

    // ------------------------------------------------------------------ Storage

    @Override
    public Path directory() {
        return delegate.directory();
    }

    @Override
    public synchronized StorageFile open(String name, boolean create) throws IOException {
        checkAlive();
        Node node = known(name);
        boolean created = false;
        if (node == null && create) {
            node = new Node(nextNodeId++);
            created = true;
        }
        StorageFile f = delegate.open(name, create); // NoSuchFileException if absent and !create
        if (node == null) {
            // Appeared behind our back between known() and open(): adopt it.
            node = adopt(name);
        } else if (created) {
            current.put(name, node);
            dirOps.add(new DirOp(DirOp.Kind.CREATE, name, null, node, null));
        }
        Handle h = new Handle(name, node, f);
        open.add(h);
        return h;
    }

    @Override
    public synchronized boolean exists(String name) throws IOException {
        checkAlive();
        return delegate.exists(name);
    }

    @Override
    public synchronized List<String> list(String prefix) throws IOException {
        checkAlive();
        return delegate.list(prefix);
    }

    @Override
    public synchronized void delete(String name) throws IOException {
        checkAlive();
        Node node = known(name);
        if (node == null) {
            delegate.delete(name);
            return;
        }
        StorageFile keep;
        try {
            keep = delegate.open(name, false);
        } catch (java.nio.file.NoSuchFileException e) {
            current.remove(name); // deleted behind our back
            delegate.delete(name);
            return;
        }
        try {
            delegate.delete(name);
        } catch (IOException | RuntimeException e) {
            closeQuietly(keep);
            throw e;
        }
        node.keepAlive = keep;
        current.remove(name);
        unlinked.add(node);
        dirOps.add(new DirOp(DirOp.Kind.DELETE, name, null, node, null));
    }

    @Override
    public synchronized void rename(String from, String to) throws IOException {
        checkAlive();
        if (from.equals(to)) {
            delegate.rename(from, to);
            return;
        }
        Node node = known(from);
        if (node == null) {
            delegate.rename(from, to); // throws NoSuchFileException
            return;
        }
        Node replaced = known(to);
        StorageFile keep = replaced != null ? delegate.open(to, false) : null;
        try {
            delegate.rename(from, to);
        } catch (IOException | RuntimeException e) {
            closeQuietly(keep);
            throw e;
        }
        if (replaced != null) {
            replaced.keepAlive = keep;
            unlinked.add(replaced);
        }
        current.remove(from);
        current.put(to, node);
        dirOps.add(new DirOp(DirOp.Kind.RENAME, from, to, node, replaced));
    }

    @Override
    public void forceDirectory() throws IOException {
        long upTo;
        synchronized (this) {
            checkAlive();
            upTo = dirOpsForced + dirOps.size();
            if (failDirectoryForce) {
                failDirectoryForce = false;
                throw new IOException("injected failure forcing directory " + delegate.directory());
            }
        }
        delegate.forceDirectory();
        synchronized (this) {
            checkAlive();
            int done = (int) Math.max(0, upTo - dirOpsForced); // a concurrent forceDirectory may have done some
            for (DirOp op : dirOps.subList(0, done)) {
                op.apply(durable);
            }
            dirOps.subList(0, done).clear();
            dirOpsForced += done;
            // Files that can no longer come back need not be kept alive.
            for (var it = unlinked.iterator(); it.hasNext();) {
                Node n = it.next();
                if (!reachable(n)) {
                    closeQuietly(n.keepAlive);
                    n.keepAlive = null;
                    it.remove();
                }
            }
        }
    }

    /** True if some prefix of the pending directory operations leaves {@code n} in the directory. */
    private boolean reachable(Node n) {
        if (durable.containsValue(n)) {
            return true;
        }
        for (DirOp op : dirOps) {
            if (op.node == n) {
                return true;
            }
        }
        return false;
    }

    /** The file now named {@code name}, adopting (as durable) one present that we did not know. */
    private Node known(String name) throws IOException {
        Node n = current.get(name);
        if (n == null && delegate.exists(name)) {
            n = adopt(name);
        }
        return n;
    }

    private Node adopt(String name) {
        Node n = new Node(nextNodeId++);
        current.put(name, n);
        if (!durable.containsKey(name)) {
            durable.put(name, n);
        } else {
            dirOps.add(new DirOp(DirOp.Kind.CREATE, name, null, n, null));
        }
        return n;
    }

    private void checkAlive() throws IOException {
        if (dead) {
            throw new IOException("crashed");
        }
    }

    private static void closeQuietly(StorageFile f) {
        if (f != null) {
            try {
                f.close();
            } catch (IOException | RuntimeException e) {
                // ignore
            }
        }
    }

    // ------------------------------------------------------------------ files

    /** One file's identity (inode) and its unforced history. */
    private static final class Node {
        final long id;
        /** Unforced data operations, oldest first (and durable markers, see {@link DataOp#durable}). */
        final List<DataOp> ops = new ArrayList<>();
        boolean poisoned;
        /** Open while the file is unlinked but a crash could bring it back. */
        StorageFile keepAlive;

        Node(long id) {
            this.id = id;
        }

        long lastSeq() {
            return ops.isEmpty() ? -1 : ops.get(ops.size() - 1).seq;
        }

        @Override
        public String toString() {
            return "file#" + id;
        }
    }

    /** A write (or preallocation: a write of zeros past the end) or a truncation. */
    private static final class DataOp {
        final long seq;
        final boolean truncation;
        /** Write: where it starts. Truncation: the new size. */
        final long position;
        /** Write: bytes written. Truncation: bytes cut off. */
        final long length;
        /** File size before the operation. */
        final long oldSize;
        /** Bytes the operation overwrote or cut off (those at [position, min(position + length, oldSize))). */
        byte[] preImage;
        /** After a failed force: a later successful force cannot make this durable. */
        boolean sticky;
        /**
         * Made durable by a force while older sticky operations remain: never undone itself, and
         * undoing those older ones must not touch its bytes.
         */
        boolean durable;

        DataOp(long seq, boolean truncation, long position, long length, long oldSize, byte[] preImage) {
            this.seq = seq;
            this.truncation = truncation;
            this.position = position;
            this.length = length;
            this.oldSize = oldSize;
            this.preImage = preImage;
        }

        long end() {
            return position + length;
        }

        @Override
        public String toString() {
            return truncation ? "truncate " + oldSize + " -> " + position
                    : "write [" + position + ", " + end() + ") size was " + oldSize;
        }
    }

    private static final class DirOp {
        enum Kind { CREATE, DELETE, RENAME }

        final Kind kind;
        final String name;
        final String to;
        final Node node;
        final Node replaced;

        DirOp(Kind kind, String name, String to, Node node, Node replaced) {
            this.kind = kind;
            this.name = name;
            this.to = to;
            this.node = node;
            this.replaced = replaced;
        }

        void apply(Map<String, Node> dir) {
            switch (kind) {
                case CREATE -> dir.put(name, node);
                case DELETE -> dir.remove(name);
                case RENAME -> {
                    dir.remove(name);
                    dir.put(to, node);
                }
                default -> throw new AssertionError(kind);
            }
        }

        @Override
        public String toString() {
            return kind == Kind.RENAME ? "rename " + name + " -> " + to : kind.name().toLowerCase() + " " + name;
        }
    }

    private final class Handle implements StorageFile {
        final String name;
        final Node node;
        final StorageFile file;

        Handle(String name, Node node, StorageFile file) {
            this.name = name;
            this.node = node;
            this.file = file;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int read(ByteBuffer dst, long position) throws IOException {
            checkAlive();
            int n;
            try {
                n = file.read(dst, position);
            } catch (IOException e) {
                checkAlive();
                throw e;
            }
            checkAlive();
            return n;
        }

        @Override
        public long size() throws IOException {
            checkAlive();
            long s;
            try {
                s = file.size();
            } catch (IOException e) {
                checkAlive();
                throw e;
            }
            checkAlive();
            return s;
        }

        @Override
        public void write(ByteBuffer src, long position) throws IOException {
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                if (position < 0) {
                    throw new IllegalArgumentException("negative position " + position);
                }
                int len = src.remaining();
                if (len > 0 && takeNoSpace(position + len, file.size(), false)) {
                    throw new IOException(NO_SPACE);
                }
                long fault = takeWriteFault(len);
                int n = fault < 0 ? len : (int) fault;
                long oldSize = file.size();
                byte[] pre = readRange(file, position, Math.max(0, Math.min(position + n, oldSize) - position));
                if (n > 0) {
                    node.ops.add(new DataOp(nextSeq++, false, position, n, oldSize, pre));
                }
                ByteBuffer part = src.duplicate();
                part.limit(part.position() + n);
                file.write(part, position);
                src.position(src.position() + n);
                count(name, 0, n, 1);
                if (fault >= 0) {
                    throw new IOException("injected " + (n == 0 ? "write failure" : "short write") + ": wrote " + n
                            + " of " + len + " bytes at " + position + " of " + name);
                }
            }
        }

        @Override
        public void preallocate(long size) throws IOException {
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                long oldSize = file.size();
                if (size <= oldSize) {
                    return;
                }
                long len = size - oldSize;
                if (takeNoSpace(size, oldSize, true)) {
                    throw new IOException(NO_SPACE);
                }
                long fault = takeWriteFault(len);
                long n = fault < 0 ? len : fault;
                if (n > 0) {
                    node.ops.add(new DataOp(nextSeq++, false, oldSize, n, oldSize, new byte[0]));
                    file.preallocate(oldSize + n);
                }
                count(name, 0, n, 1);
                if (fault >= 0) {
                    throw new IOException("injected " + (n == 0 ? "preallocation failure" : "short preallocation")
                            + ": extended " + name + " by " + n + " of " + len + " bytes");
                }
            }
        }

        @Override
        public void truncate(long size) throws IOException {
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                long oldSize = file.size();
                if (size >= 0 && size < oldSize) {
                    byte[] pre = readRange(file, size, oldSize - size);
                    node.ops.add(new DataOp(nextSeq++, true, size, oldSize - size, oldSize, pre));
                }
                file.truncate(size);
            }
        }

        @Override
        public void force() throws IOException {
            long upTo;
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                count(name, 1, 0, 0);
                upTo = node.lastSeq();
                if (forcesBeforeFailure >= 0 && forceFailureFilter.test(name)) {
                    if (forcesBeforeFailure == 0) {
                        forcesBeforeFailure = -1;
                        poison(upTo);
                        throw new IOException("injected force failure of " + name);
                    }
                    forcesBeforeFailure--;
                }
            }
            try {
                file.force();
            } catch (IOException e) {
                synchronized (FaultInjectingStorage.this) {
                    checkAlive();
                    poison(upTo);
                }
                throw e;
            }
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                markDurable(upTo);
            }
        }

        private void poison(long upTo) {
            node.poisoned = true;
            for (DataOp op : node.ops) {
                if (op.seq <= upTo && !op.durable) {
                    op.sticky = true;
                }
            }
        }

        private void markDurable(long upTo) {
            boolean stickyBefore = false;
            for (var it = node.ops.iterator(); it.hasNext();) {
                DataOp op = it.next();
                if (op.seq > upTo) {
                    break;
                }
                if (op.sticky) {
                    stickyBefore = true;
                } else if (!op.durable) {
                    if (stickyBefore) {
                        op.durable = true;
                        op.preImage = null;
                    } else {
                        it.remove();
                    }
                }
            }
        }

        @Override
        public void close() throws IOException {
            synchronized (FaultInjectingStorage.this) {
                checkAlive();
                open.remove(this);
                file.close();
            }
        }

        @Override
        public String toString() {
            return "FaultInjectingStorage.File[" + name + ", " + node + "]";
        }
    }

    /**
     * Bytes a write of {@code len} bytes may write before failing, consuming an injected write
     * fault; -1 if it does not fail. Zero-length writes neither fail nor consume the fault.
     */
    private long takeWriteFault(long len) {
        if (shortWriteBytes < 0 || len == 0) {
            return -1;
        }
        long n = Math.min(len, shortWriteBytes);
        shortWriteBytes = -1;
        return n;
    }

    private static byte[] readRange(StorageFile f, long position, long length) throws IOException {
        if (length > Integer.MAX_VALUE - 16) {
            throw new IOException("FaultInjectingStorage: pre-image of " + length + " bytes is too large");
        }
        byte[] b = new byte[(int) Math.max(0, length)];
        if (b.length > 0) {
            f.readFully(ByteBuffer.wrap(b), position);
        }
        return b;
    }

    // ------------------------------------------------------------------ crash

    /**
     * What a power loss does to shared memory: the region files of the environment whose
     * regions are in {@code regionDir} (its {@code regionDirectory()}, taken while it was open)
     * are gone, the log buffer among them, so the next open rebuilds them and salvages nothing.
     * A crash that keeps every write (as kill -9) keeps them; one that loses writes must lose
     * these too, or the next open finds a log buffer that runs ahead of a log file the "power
     * loss" cut, which a real machine cannot show.
     */
    public static void loseSharedMemory(Path regionDir) throws IOException {
        try (java.util.stream.Stream<Path> files = java.nio.file.Files.list(regionDir)) {
            for (Path p : files.toList()) {
                String n = p.getFileName().toString();
                if (n.equals("__libtp.env") || n.startsWith("__libtp.rgn.") || n.startsWith("__libtp.kept.")) {
                    java.nio.file.Files.delete(p);
                }
            }
        } catch (java.nio.file.NoSuchFileException e) {
            // gone already
        }
    }

    /** Simulates a power loss with {@code mode} for both data and directory operations. */
    public CrashReport crash(Random rnd, CrashMode mode) throws IOException {
        return crash(rnd, mode, mode);
    }

    /**
     * Simulates a power loss: undoes unforced data operations according to {@code dataMode} and
     * unforced directory operations according to {@code directoryMode}, leaves the post-crash
     * state in the real directory, and kills this storage and all its open files.
     */
    public synchronized CrashReport crash(Random rnd, CrashMode dataMode, CrashMode directoryMode) throws IOException {
        checkAlive();
        Objects.requireNonNull(rnd);
        dead = true;
        for (Handle h : open) {
            closeQuietly(h.file);
        }
        open.clear();
        Report r = new Report();

        // Which directory operations survive: a prefix.
        int keep = switch (directoryMode) {
            case LOSE_ALL -> 0;
            case KEEP_ALL -> dirOps.size();
            case RANDOM -> rnd.nextInt(dirOps.size() + 1);
        };
        Map<String, Node> target = new HashMap<>(durable);
        for (int i = 0; i < dirOps.size(); i++) {
            DirOp op = dirOps.get(i);
            if (i < keep) {
                op.apply(target);
                r.keptDir++;
                r.events.add("directory: kept " + op);
            } else {
                r.lostDir++;
                r.events.add("directory: lost " + op);
            }
        }
        Set<Node> survivors = Collections.newSetFromMap(new IdentityHashMap<>());
        survivors.addAll(target.values());

        // Undo data of every file that survives, in a deterministic order (by identity).
        Map<Node, String> where = new IdentityHashMap<>();
        for (Map.Entry<String, Node> e : current.entrySet()) {
            where.put(e.getValue(), e.getKey());
        }
        List<Node> nodes = new ArrayList<>(survivors);
        nodes.sort((a, b) -> Long.compare(a.id, b.id));
        for (Node n : nodes) {
            if (n.ops.isEmpty()) {
                continue;
            }
            String name = where.get(n);
            if (name != null) {
                try (StorageFile f = delegate.open(name, false)) {
                    undo(n, f, dataMode, rnd, r, name, atomicWrites.test(name));
                }
            } else if (n.keepAlive != null) {
                undo(n, n.keepAlive, dataMode, rnd, r, "(unlinked " + n + ")", false);
            }
        }

        // Make the directory match the target: move misplaced files aside, then into place.
        Map<Node, String> aside = new IdentityHashMap<>();
        List<String> names = new ArrayList<>(current.keySet());
        Collections.sort(names);
        for (String name : names) {
            Node n = current.get(name);
            if (target.get(name) == n) {
                continue;
            }
            if (survivors.contains(n)) {
                String tmp = CRASH_TMP + n.id;
                delegate.rename(name, tmp);
                aside.put(n, tmp);
            } else {
                delegate.delete(name);
            }
        }
        List<String> targetNames = new ArrayList<>(target.keySet());
        Collections.sort(targetNames);
        for (String name : targetNames) {
            Node n = target.get(name);
            if (current.get(name) == n) {
                continue;
            }
            String tmp = aside.get(n);
            if (tmp != null) {
                delegate.rename(tmp, name);
            } else if (n.keepAlive != null) {
                delegate.delete(name);
                try (StorageFile dst = delegate.open(name, true)) {
                    copy(n.keepAlive, dst);
                }
            }
        }
        for (Node n : unlinked) {
            closeQuietly(n.keepAlive);
            n.keepAlive = null;
        }
        for (Node n : current.values()) {
            closeQuietly(n.keepAlive);
            n.keepAlive = null;
        }
        unlinked.clear();
        return r.build();
    }

    private static final class Report {
        int kept, lost, tornPrefix, tornSectors, keptTrunc, lostTrunc, keptDir, lostDir;
        final List<String> events = new ArrayList<>();

        CrashReport build() {
            return new CrashReport(kept, lost, tornPrefix, tornSectors, keptTrunc, lostTrunc, keptDir, lostDir,
                    List.copyOf(events));
        }
    }

    /**
     * Undoes {@code n}'s unforced operations newest first. {@code floor}: the largest end of data
     * kept by newer operations (the file may not shrink below it); {@code fixed}: bytes of newer
     * durable operations, which undoing older poisoned ones must not touch.
     */
    private static void undo(Node n, StorageFile f, CrashMode mode, Random rnd, Report r, String label, boolean atomic)
            throws IOException {
        long floor = 0;
        Ranges fixed = new Ranges();
        for (int i = n.ops.size() - 1; i >= 0; i--) {
            DataOp op = n.ops.get(i);
            if (op.durable) {
                if (op.truncation) {
                    floor = Math.max(floor, op.position);
                } else {
                    fixed.add(op.position, op.end());
                    floor = Math.max(floor, op.end());
                }
                continue;
            }
            if (op.truncation) {
                boolean lose = mode == CrashMode.LOSE_ALL || mode == CrashMode.RANDOM && rnd.nextBoolean();
                if (!lose) {
                    r.keptTrunc++;
                    continue;
                }
                r.lostTrunc++;
                r.events.add(label + ": lost " + op);
                restore(f, op, op.position, op.oldSize, fixed, Long.MAX_VALUE);
                continue;
            }
            // A write: decide which parts survive.
            List<long[]> keptParts = new ArrayList<>();
            List<long[]> lostParts = new ArrayList<>();
            int fate = switch (mode) {
                case KEEP_ALL -> 0;
                case LOSE_ALL -> 1;
                case RANDOM -> rnd.nextInt(3);
            };
            if (fate == 2 && (op.length < 2 || atomic)) {
                fate = rnd.nextBoolean() ? 0 : 1; // a single byte cannot tear; nor can an atomic write
            }
            if (fate == 0) {
                r.kept++;
                keptParts.add(new long[] {op.position, op.end()});
            } else if (fate == 1) {
                r.lost++;
                r.events.add(label + ": lost " + op);
                lostParts.add(new long[] {op.position, op.end()});
            } else {
                long firstSector = op.position / SECTOR;
                long lastSector = (op.end() - 1) / SECTOR;
                if (lastSector > firstSector && rnd.nextBoolean()) {
                    r.tornSectors++;
                    StringBuilder pattern = new StringBuilder();
                    for (long s = firstSector; s <= lastSector; s++) {
                        long a = Math.max(op.position, s * SECTOR);
                        long b = Math.min(op.end(), (s + 1) * SECTOR);
                        boolean k = rnd.nextBoolean();
                        pattern.append(k ? 'K' : '-');
                        addMerged(k ? keptParts : lostParts, a, b);
                    }
                    r.events.add(label + ": torn (sectors " + pattern + ") " + op);
                } else {
                    r.tornPrefix++;
                    long k = 1 + rnd.nextLong(op.length - 1);
                    keptParts.add(new long[] {op.position, op.position + k});
                    lostParts.add(new long[] {op.position + k, op.end()});
                    r.events.add(label + ": torn (prefix " + k + " of " + op.length + " bytes) " + op);
                }
            }
            for (long[] p : keptParts) {
                floor = Math.max(floor, p[1]);
            }
            if (lostParts.isEmpty()) {
                continue;
            }
            long targetSize = Math.max(op.oldSize, floor);
            for (long[] p : lostParts) {
                restore(f, op, p[0], p[1], fixed, targetSize);
            }
            if (f.size() > targetSize) {
                f.truncate(targetSize);
            }
        }
    }

    private static void addMerged(List<long[]> parts, long a, long b) {
        if (!parts.isEmpty() && parts.get(parts.size() - 1)[1] == a) {
            parts.get(parts.size() - 1)[1] = b;
        } else {
            parts.add(new long[] {a, b});
        }
    }

    /**
     * Puts back what {@code op} replaced in [a, b): its pre-image below its old size, zeros
     * above (for a write; only within the current size and below {@code limit}), skipping
     * {@code fixed} bytes. For a truncation the pre-image is written back whole, regrowing the file.
     */
    private static void restore(StorageFile f, DataOp op, long a, long b, Ranges fixed, long limit)
            throws IOException {
        long end = op.truncation ? b : Math.min(b, Math.min(limit, f.size()));
        for (long[] part : fixed.subtract(a, end)) {
            long x = part[0];
            long y = part[1];
            long preEnd = Math.min(y, op.oldSize);
            if (x < preEnd) {
                int off = (int) (x - op.position);
                f.write(ByteBuffer.wrap(op.preImage, off, (int) (preEnd - x)), x);
            }
            for (long z = Math.max(x, op.oldSize); z < y; z += CHUNK) {
                int len = (int) Math.min(CHUNK, y - z);
                f.write(ByteBuffer.allocate(len), z);
            }
        }
    }

    private static void copy(StorageFile from, StorageFile to) throws IOException {
        long size = from.size();
        ByteBuffer buf = ByteBuffer.allocate(CHUNK);
        for (long at = 0; at < size;) {
            int len = (int) Math.min(CHUNK, size - at);
            buf.clear().limit(len);
            from.readFully(buf, at);
            buf.flip();
            to.write(buf, at);
            at += len;
        }
        to.truncate(size);
    }

    /** A set of disjoint half-open byte ranges. */
    static final class Ranges {
        private final TreeMap<Long, Long> map = new TreeMap<>(); // start -> end

        void add(long a, long b) {
            if (a >= b) {
                return;
            }
            Map.Entry<Long, Long> e = map.floorEntry(a);
            if (e != null && e.getValue() >= a) {
                a = e.getKey();
                b = Math.max(b, e.getValue());
            }
            for (var it = map.tailMap(a, true).entrySet().iterator(); it.hasNext();) {
                Map.Entry<Long, Long> x = it.next();
                if (x.getKey() > b) {
                    break;
                }
                b = Math.max(b, x.getValue());
                it.remove();
            }
            map.put(a, b);
        }

        /** The parts of [a, b) not in this set, in order. */
        List<long[]> subtract(long a, long b) {
            List<long[]> out = new ArrayList<>();
            long at = a;
            Map.Entry<Long, Long> e = map.floorEntry(a);
            if (e != null && e.getValue() > at) {
                at = e.getValue();
            }
            for (Map.Entry<Long, Long> x : map.tailMap(a, false).entrySet()) {
                if (at >= b || x.getKey() >= b) {
                    break;
                }
                if (x.getKey() > at) {
                    out.add(new long[] {at, x.getKey()});
                }
                at = Math.max(at, x.getValue());
            }
            if (at < b) {
                out.add(new long[] {at, b});
            }
            return out;
        }
    }

    @Override
    public String toString() {
        return "FaultInjectingStorage[" + delegate.directory() + (dead ? ", crashed" : "") + "]";
    }

    /** Pending directory operations and unforced data per file, for debugging. */
    public synchronized String describe() {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("directory ops", dirOps);
        for (Map.Entry<String, Node> e : new TreeMap<>(current).entrySet()) {
            if (!e.getValue().ops.isEmpty()) {
                m.put(e.getKey(), e.getValue().ops);
            }
        }
        return m.toString();
    }
}
