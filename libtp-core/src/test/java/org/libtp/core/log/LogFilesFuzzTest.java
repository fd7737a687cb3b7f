package org.libtp.core.log;

import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.AfterContainer;
import net.jqwik.api.lifecycle.BeforeContainer;
import net.jqwik.api.statistics.Statistics;
import org.libtp.core.CorruptionException;
import org.libtp.core.LibTpException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.testkit.FuzzTries;
import org.libtp.core.tp.TxnEnvironment;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing whole log files (jqwik): the log of a small environment (about three 64 KiB files of
 * transactions, a checkpoint, one transaction left open: {@link LogFuzzEnvironment}) is damaged
 * — bits flipped at random offsets, a file cut short, garbage appended, a range zeroed, the length
 * field of a record set to 0, below the header, one past, huge or negative — then read three
 * ways: by {@link LogFileReader} (no regions), by {@link SharedLog#open} with a forward scan, a
 * read of every record found and a backward walk, and by the recovery of a
 * {@link TxnEnvironment} open. Each way gives the records before the damage, exactly as written,
 * then stops (a torn tail cut off at open, the reader's damaged report) or throws a
 * {@link CorruptionException} or {@link VersionMismatchException} naming a log file or an LSN;
 * no record it returns was never written; never another exception, an {@link Error} or a hang.
 *
 * <p>Each try copies the log and opens it twice (about 60 ms): tries are few, as below in
 * {@code mvn verify}, 100 times more under {@code -Pstress} ({@link FuzzTries}). jqwik prints the
 * seed of a failing run; replay with {@code @Property(seed = "...")}. Crashes found are kept as
 * {@code @Example}s at the end.
 */
@AddLifecycleHook(FuzzTries.class)
class LogFilesFuzzTest {
    private static Path root;
    private static Path template;
    /** The template's log files, by number, and its records in log order. */
    private static final Map<Integer, byte[]> FILES = new HashMap<>();
    private static int[] numbers;
    private static List<LogEntry> records;
    private static final AtomicInteger TRY = new AtomicInteger();
    /** Files this JVM has open once the template is built: a refused open must not add to them. */
    private static int openFiles;

    @BeforeContainer
    static void build() throws IOException {
        root = Files.createTempDirectory("log-fuzz");
        template = root.resolve("template");
        LogFuzzEnvironment.build(template);
        records = LogFuzzEnvironment.records(template);
        numbers = new FileStorage(template).list("log.").stream().mapToInt(LogFileHeader::fileNumber).filter(n -> n > 0)
                .sorted().toArray();
        for (int n : numbers) {
            FILES.put(n, Files.readAllBytes(template.resolve(LogFileHeader.fileName(n))));
        }
        assertTrue(numbers.length >= 3, "the template log has " + numbers.length + " files");
        openFiles = LogFuzzEnvironment.openFiles();
    }

    @AfterContainer
    static void cleanUp() {
        LogFuzzEnvironment.deleteTree(root);
    }

    // ------------------------------------------------------------------ damage

    /** The records of the template in log file {@code n}. */
    static List<LogEntry> recordsOf(int n) {
        return records.stream().filter(e -> Lsn.file(e.lsn()) == n).toList();
    }

    /** One damage to {@code b}, log file {@code n} of the template; says what it did. */
    static byte[] damage(byte[] b, int n, Random r, StringBuilder what, Set<Long> planted) {
        List<LogEntry> in = recordsOf(n);
        long end = in.isEmpty() ? LogFileHeader.SIZE : Lsn.offset(in.get(in.size() - 1).nextLsn());
        // most damage where the records are (the rest of a file is zeros, or a hole)
        int span = (int) Math.min(b.length, r.nextInt(4) == 0 ? b.length : end + 64);
        switch (r.nextInt(6)) {
            case 0 -> {
                int flips = 1 + r.nextInt(r.nextBoolean() ? 2 : 16);
                what.append(" flip");
                for (int i = 0; i < flips && span > 0; i++) {
                    int bit = r.nextInt(span * 8);
                    b[bit / 8] ^= (byte) (1 << (bit % 8));
                    what.append(' ').append(bit / 8).append('.').append(bit % 8);
                }
            }
            case 1 -> {
                int at = switch (r.nextInt(4)) {
                    case 0 -> r.nextInt(LogFileHeader.SIZE + 1); // inside the header
                    case 1 -> in.isEmpty() ? LogFileHeader.SIZE : (int) Lsn.offset(in.get(r.nextInt(in.size())).lsn()); // at a record
                    case 2 -> (int) end;
                    default -> r.nextInt(b.length + 1);
                };
                at = Math.min(at, b.length);
                b = Arrays.copyOf(b, at);
                what.append(" cut at ").append(at);
            }
            case 2 -> {
                int more = 1 + r.nextInt(r.nextBoolean() ? 40 : 70_000);
                int from = b.length;
                b = Arrays.copyOf(b, from + more);
                if (r.nextBoolean()) {
                    for (int i = from; i < b.length; i++) {
                        b[i] = (byte) r.nextInt(256);
                    }
                } else if (more >= LogRecordCodec.HEADER_SIZE) {
                    // a well-formed record past the end of the file
                    byte[] rec = LogRecordCodec.encode(r.nextInt(8), r.nextInt(5), 0, new byte[more - LogRecordCodec.HEADER_SIZE]).array();
                    System.arraycopy(rec, 0, b, from, rec.length);
                    planted.add(Lsn.of(n, from));
                }
                what.append(" appended ").append(more);
            }
            case 3 -> {
                if (span > 0) {
                    int from = r.nextInt(span);
                    int to = Math.min(b.length, from + 1 + r.nextInt(r.nextBoolean() ? 64 : 8192));
                    Arrays.fill(b, from, to, (byte) 0);
                    what.append(" zeroed ").append(from).append("..").append(to);
                }
            }
            default -> {
                if (!in.isEmpty()) {
                    LogEntry e = in.get(r.nextBoolean() ? r.nextInt(in.size()) : in.size() - 1 - r.nextInt(Math.min(3, in.size())));
                    int off = (int) Lsn.offset(e.lsn());
                    int length = LogRecordCodec.HEADER_SIZE + e.payload().length;
                    int[] lengths = {0, 1, LogRecordCodec.HEADER_SIZE - 1, LogRecordCodec.HEADER_SIZE, length - 1, length + 1,
                        b.length - off, b.length - off + 1, -1, -length, Integer.MIN_VALUE, Integer.MAX_VALUE, 0x7FFF_FFF0,
                        LogRecordCodec.MAX_PAYLOAD + LogRecordCodec.HEADER_SIZE + 1, r.nextInt()};
                    int v = lengths[r.nextInt(lengths.length)];
                    if (off + 4 <= b.length) {
                        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(off + LogRecordCodec.OFF_LENGTH, v);
                        what.append(" length of ").append(Lsn.toString(e.lsn())).append(" = ").append(v);
                    }
                }
            }
        }
        return b;
    }

    /**
     * A damaged copy of the log: the new files by number, the lowest LSN whose byte differs, what
     * was done, and where the damage wrote well-formed records (a reader may return them).
     */
    record Damaged(Map<Integer, byte[]> files, long firstDamage, String what, Set<Long> planted) {
        /** Writes the files into a copy of the template at {@code home}. */
        void writeTo(Path home) throws IOException {
            LogFuzzEnvironment.copy(template, home);
            for (Map.Entry<Integer, byte[]> f : files.entrySet()) {
                Files.write(home.resolve(LogFileHeader.fileName(f.getKey())), f.getValue());
            }
        }
    }

    static Damaged damaged(long seed, int damages) {
        Random r = new Random(seed);
        Map<Integer, byte[]> files = new HashMap<>();
        StringBuilder what = new StringBuilder();
        Set<Long> planted = new HashSet<>();
        for (int i = 0; i < damages; i++) {
            int n = r.nextBoolean() ? numbers[numbers.length - 1] : numbers[r.nextInt(numbers.length)];
            what.append(i == 0 ? "" : ";").append(" file ").append(n);
            files.put(n, damage(files.getOrDefault(n, FILES.get(n).clone()), n, r, what, planted));
        }
        long first = Long.MAX_VALUE;
        for (Map.Entry<Integer, byte[]> f : files.entrySet()) {
            byte[] a = FILES.get(f.getKey());
            byte[] b = f.getValue();
            int k = Arrays.mismatch(a, b);
            if (k >= 0 && k < a.length) { // past the original's end (garbage appended) is no damage to it
                first = Math.min(first, Lsn.of(f.getKey(), k));
            }
        }
        return new Damaged(files, first, what.toString().trim(), planted);
    }

    // ------------------------------------------------------------------ checks

    /**
     * {@code seen} (records returned, in order, by a way of reading that {@code completed} without
     * an exception) against the template: every record returned is one the template has at that
     * LSN, byte for byte; the records wholly before the first damage come first, all of them if
     * the reading completed.
     */
    static void checkRecords(String how, List<LogEntry> seen, boolean completed, Damaged d) {
        // Scans step over the file-end records (the log's own); the reader returns them too.
        List<LogEntry> expected = records.stream().filter(e -> e.type() != LogRecordCodec.FILE_END_TYPE).toList();
        int before = 0;
        for (LogEntry e : expected) {
            if (e.nextLsn() <= d.firstDamage()) {
                before++;
            }
        }
        // In order and without a gap: a reading that went on past lost records (a zeroed stretch
        // in a file that is not the last) would return a record out of its place.
        int j = 0;
        for (LogEntry e : seen) {
            if (e.type() == LogRecordCodec.FILE_END_TYPE) {
                continue;
            }
            if (j >= before && d.planted().contains(e.lsn())) {
                continue; // the damage wrote a well-formed record there (perhaps where a cut one was)
            }
            int k = j;
            assertTrue(j < expected.size(), () -> how + " returned a record never written: " + e + " (" + d.what() + ")");
            LogEntry t = expected.get(j++);
            String which = how + ": record " + k + " " + e + " where " + t + " was written (" + d.what() + ")";
            assertEquals(t.lsn(), e.lsn(), which);
            assertEquals(t.type(), e.type(), which);
            assertEquals(t.txnId(), e.txnId(), which);
            assertEquals(t.prevLsn(), e.prevLsn(), which);
            assertArrayEquals(t.payload(), e.payload(), which);
        }
        if (completed) {
            int n = j;
            int b = before;
            assertTrue(n >= b, () -> how + " returned " + n + " records, but " + b + " lie before the damage ("
                    + d.what() + ")");
        }
    }

    /** A LibTpException from reading a damaged log: corruption or another version, named; else a failure. */
    static String typed(String how, Throwable t, Damaged d) {
        if (t instanceof CorruptionException || t instanceof VersionMismatchException) {
            String m = t.getMessage();
            assertTrue(m.contains("log.") || m.contains("LSN") || m.contains("log file"),
                    () -> how + ": names no log file or LSN: " + t);
            return t.getClass().getSimpleName();
        }
        if (t instanceof AssertionError a) {
            throw a;
        }
        return fail(how + ": not a CorruptionException or VersionMismatchException (" + d.what() + "): " + t, t);
    }

    /** {@link LogFileReader}: entries up to the damage, then a damaged report or the end. */
    static String reader(Path home, Damaged d) {
        List<LogEntry> seen = new ArrayList<>();
        List<String> reports = new ArrayList<>();
        try {
            boolean whole = LogFuzzEnvironment.readAll(home, seen, reports);
            assertEquals(whole, reports.isEmpty());
            checkRecords("the reader", seen, true, d);
            return whole ? "read" : "damaged report";
        } catch (Throwable t) {
            checkRecords("the reader", seen, false, d);
            return typed("the reader", t, d);
        }
    }

    /** {@link SharedLog}: open, scan forward, read each record found, walk back from the last. */
    static String log(Path home, Damaged d) {
        List<LogEntry> seen = new ArrayList<>();
        boolean completed = false;
        try (RegionEnvironment env = RegionEnvironment.open(home, LogFuzzEnvironment.ENV);
             SharedLog log = SharedLog.open(env, new FileStorage(home), LogFuzzEnvironment.LOG)) {
            try {
                log.scan(Lsn.NULL, e -> seen.add(e) && seen.size() <= 10 * records.size());
                completed = true;
            } finally {
                checkRecords("the scan", seen, completed, d);
            }
            for (LogEntry e : seen) {
                LogEntry again = log.read(e.lsn());
                assertArrayEquals(e.payload(), again.payload());
            }
            if (!seen.isEmpty()) {
                int[] steps = {0};
                log.scanBackward(seen.get(seen.size() - 1).lsn(), e -> ++steps[0] < records.size());
            }
            return "opened";
        } catch (Throwable t) {
            return typed("the log", t, d);
        }
    }

    /**
     * {@link TxnEnvironment}: recovery (which reads from the checkpoint the anchor names: damage
     * before it is not its business), then a scan of the whole log it leaves.
     */
    static String recover(Path home, Damaged d) {
        try (TxnEnvironment tp = LogFuzzEnvironment.open(home)) {
            try {
                List<LogEntry> seen = new ArrayList<>();
                tp.log().scan(Lsn.NULL, e -> seen.add(e) && seen.size() <= 10 * records.size());
                return "recovered";
            } catch (Throwable t) {
                return "recovered, then scan: " + typed("the scan after recovery", t, d);
            }
        } catch (Throwable t) {
            return typed("recovery", t, d);
        }
    }

    @Property(tries = 40)
    void damagedLog(@ForAll long seed, @ForAll @IntRange(min = 1, max = 3) int damages) throws IOException {
        Damaged d = damaged(seed, damages);
        Path a = root.resolve("a" + TRY.incrementAndGet());
        Path b = root.resolve("b" + TRY.get());
        try {
            d.writeTo(a);
            d.writeTo(b);
            String[] outcome = new String[3];
            assertTimeoutPreemptively(Duration.ofSeconds(60), () -> {
                outcome[0] = reader(a, d);
                outcome[1] = log(a, d);
                outcome[2] = recover(b, d);
            }, () -> "hang with " + d.what());
            Statistics.label("reader").collect(outcome[0]);
            Statistics.label("log").collect(outcome[1]);
            Statistics.label("recovery").collect(outcome[2]);
            LogFuzzEnvironment.checkOpenFiles(openFiles, d.what());
        } finally {
            LogFuzzEnvironment.deleteTree(a);
            LogFuzzEnvironment.deleteTree(b);
        }
    }

    // Regression inputs: crashes the property found, kept once fixed.

    /** The template with log file {@code n} cut to {@code at} bytes. */
    static Damaged cut(int n, int at) {
        return new Damaged(Map.of(n, Arrays.copyOf(FILES.get(n), at)), Lsn.of(n, at), "file " + n + " cut at " + at, Set.of());
    }

    static final LogFileReader.Visitor IGNORE = new LogFileReader.Visitor() {
        @Override
        public void file(String name, long logId) {
        }

        @Override
        public void entry(LogEntry entry) {
        }

        @Override
        public void damaged(String message) {
        }
    };

    /**
     * A log the open refuses: SharedLog.open kept the log files it had read open (no handle was
     * returned to close them), two or three file descriptors per refused open.
     */
    @Example
    void aRefusedOpenLeavesNoFileOpen() throws IOException {
        Path home = root.resolve("x" + TRY.incrementAndGet());
        byte[] last = FILES.get(numbers[numbers.length - 1]);
        cut(numbers[numbers.length - 1], last.length / 2).writeTo(home); // the last file cut: refused
        try {
            int before = LogFuzzEnvironment.openFiles();
            for (int i = 0; i < 20; i++) {
                assertThrows(CorruptionException.class, () -> {
                    try (RegionEnvironment env = RegionEnvironment.open(home, LogFuzzEnvironment.ENV)) {
                        SharedLog.open(env, new FileStorage(home), LogFuzzEnvironment.LOG).close();
                    }
                });
            }
            int after = LogFuzzEnvironment.openFiles();
            assertTrue(before < 0 || after <= before + 2, () -> before + " files open before 20 refused opens, " + after
                    + " after");
        } finally {
            LogFuzzEnvironment.deleteTree(home);
        }
    }

    /** The reader met the end of the file in its header: EOFException before. */
    @Example
    void readerOfAFileCutInsideItsHeader() throws IOException {
        Path home = root.resolve("x" + TRY.incrementAndGet());
        cut(numbers[0], 6).writeTo(home);
        try {
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> LogFileReader.read(new FileStorage(home), IGNORE));
            String file = home.resolve(LogFileHeader.fileName(numbers[0])).toString();
            assertTrue(e.getMessage().contains(file) && e.getMessage().contains("cut short"), e.getMessage());
        } finally {
            LogFuzzEnvironment.deleteTree(home);
        }
    }

    /**
     * A log file other than the last cut at a record: the open took it, and the scan failed with
     * EnvironmentAccessException ("I/O error reading the log", an EOFException) at the cut; the
     * reader went on to the next file without a word. Now the open refuses it, naming the file
     * and the LSN of the cut, and the reader reports it.
     */
    @Example
    void earlierLogFileCutShort() throws IOException {
        int n = numbers[0];
        List<LogEntry> in = recordsOf(n);
        long at = Lsn.offset(in.get(in.size() / 2).lsn());
        Damaged d = cut(n, (int) at);
        Path a = root.resolve("x" + TRY.incrementAndGet());
        Path b = root.resolve("x" + TRY.incrementAndGet());
        d.writeTo(a);
        d.writeTo(b);
        try {
            List<LogEntry> seen = new ArrayList<>();
            List<String> reports = new ArrayList<>();
            boolean whole = LogFuzzEnvironment.readAll(a, seen, reports);
            assertTrue(!whole && reports.size() == 1 && reports.get(0).contains(Lsn.toString(Lsn.of(n, at)))
                    && reports.get(0).contains("cut short"), reports.toString());
            assertEquals(in.size() / 2, seen.size());
            checkRecords("the reader", seen, true, d);
            String lsn = Lsn.toString(Lsn.of(n, at));
            String file = a.resolve(LogFileHeader.fileName(n)).toString();
            CorruptionException e = assertThrows(CorruptionException.class, () -> {
                try (RegionEnvironment env = RegionEnvironment.open(a, LogFuzzEnvironment.ENV)) {
                    SharedLog.open(env, new FileStorage(a), LogFuzzEnvironment.LOG).close();
                }
            });
            assertTrue(e.getMessage().contains(file) && e.getMessage().contains(lsn), e.getMessage());
            e = assertThrows(CorruptionException.class, () -> LogFuzzEnvironment.open(b).close());
            assertTrue(e.getMessage().contains(LogFileHeader.fileName(n)) && e.getMessage().contains(lsn), e.getMessage());
        } finally {
            LogFuzzEnvironment.deleteTree(a);
            LogFuzzEnvironment.deleteTree(b);
        }
    }

    /**
     * A stretch of records zeroed inside a log file that is not the last: the scan read the zeros
     * as the file's end and went on with the next file, and recovery and the printer skipped the
     * records of the stretch and the rest of the file without a word. Every file but the last
     * now ends with a file-end record, and a file whose records stop before it is reported.
     */
    @Example
    void zeroedStretchInsideAnEarlierFile() throws IOException {
        int n = numbers[0];
        List<LogEntry> in = recordsOf(n);
        assertEquals(LogRecordCodec.FILE_END_TYPE, in.get(in.size() - 1).type(), "file " + n + " ends with its file-end record");
        long from = Lsn.offset(in.get(in.size() / 2).lsn());
        long to = Lsn.offset(in.get(in.size() / 2 + 2).lsn());
        byte[] b = FILES.get(n).clone();
        Arrays.fill(b, (int) from, (int) to, (byte) 0);
        Damaged d = new Damaged(Map.of(n, b), Lsn.of(n, from), "file " + n + " zeroed " + from + ".." + to, Set.of());
        Path a = root.resolve("x" + TRY.incrementAndGet());
        d.writeTo(a);
        try {
            String lsn = Lsn.toString(Lsn.of(n, from));
            List<String> reports = new ArrayList<>();
            boolean whole = LogFuzzEnvironment.readAll(a, new ArrayList<>(), reports);
            assertTrue(!whole && reports.size() == 1 && reports.get(0).contains(lsn)
                    && reports.get(0).contains("zeroed or damaged"), reports.toString());
            List<LogEntry> seen = new ArrayList<>();
            CorruptionException e = assertThrows(CorruptionException.class, () -> {
                try (RegionEnvironment env = RegionEnvironment.open(a, LogFuzzEnvironment.ENV);
                     SharedLog log = SharedLog.open(env, new FileStorage(a), LogFuzzEnvironment.LOG)) {
                    log.scan(Lsn.NULL, seen::add);
                }
            });
            assertTrue(e.getMessage().contains(a.resolve(LogFileHeader.fileName(n)).toString())
                    && e.getMessage().contains(lsn), e.getMessage());
            checkRecords("the scan", seen, false, d);
            assertEquals(in.size() / 2, seen.size());
        } finally {
            LogFuzzEnvironment.deleteTree(a);
        }
    }
}
