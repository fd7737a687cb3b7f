package org.libtp.core.log.record;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.CorruptionException;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.log.LogConfig;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.txn.SlotUpdate;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

class LogRecordsTest {
    static final List<LogRecord> SAMPLES = List.of(
            new LogRecord.TxnCommit(1_700_000_000_000L),
            new LogRecord.TxnAbort(),
            new LogRecord.FileEnd(2),
            new LogRecord.Checkpoint(Lsn.of(3, 64), List.of(new LogRecord.ActiveTxn(7, Lsn.of(2, 100)),
                    new LogRecord.ActiveTxn(9, Lsn.of(3, 80)))),
            new LogRecord.Checkpoint(Lsn.NULL, List.of()),
            new LogRecord.Checkpoint(Lsn.of(2, 64), 12, List.of(new LogRecord.ActiveTxn(7, Lsn.of(2, 100))),
                    List.of(new LogRecord.DirtyPage(3, 1L << 35, Lsn.of(2, 64)), new LogRecord.DirtyPage(1, 0, Lsn.of(3, 8)))),
            new LogRecord.PageUpdate(4, 77, 32, new byte[] {1, 2, 3}, new byte[] {4, 5, 6}),
            new LogRecord.PageUpdate(1, 0, 4000, new byte[0], new byte[0]),
            new LogRecord.PageImage(2, 9, new byte[] {3, 1, 4, 1, 5}),
            new LogRecord.PageWrite(3, 7, new byte[] {2, 7, 1, 8}));
    /** Records of a type owned outside the core main code: the test record manager's, its codec registered. */
    static final List<LogRecord> REGISTERED = List.of(
            new SlotUpdate(1, 42, new byte[] {1, 2, 3}, new byte[] {4, 5}),
            new SlotUpdate(2, 0, new byte[0], new byte[100]));

    static List<LogRecord> all() {
        List<LogRecord> l = new java.util.ArrayList<>(SAMPLES);
        l.addAll(REGISTERED);
        return l;
    }

    @Test
    void everyTypeRoundTrips() {
        assertEquals(java.util.Arrays.stream(RecordType.values()).filter(t -> !t.isRegistered()).count(),
                SAMPLES.stream().map(LogRecord::type).distinct().count(), "a sample per core record type");
        for (LogRecord r : all()) {
            LogEntry e = new LogEntry(Lsn.of(1, 64), r.type().id(), 5, Lsn.NULL, LogRecords.encode(r));
            assertEquals(r, LogRecords.decode(e));
            assertTrue(LogRecords.print(e).contains(r.type().name()), LogRecords.print(e));
        }
    }

    @Test
    void typeIdsAreFrozen() {
        assertEquals(1, RecordType.TXN_COMMIT.id());
        assertEquals(2, RecordType.TXN_ABORT.id());
        assertEquals(3, RecordType.CHECKPOINT.id());
        assertEquals(10, RecordType.PAGE_UPDATE.id());
        assertEquals(11, RecordType.PAGE_IMAGE.id());
        assertEquals(12, RecordType.PAGE_WRITE.id());
        assertEquals(200, RecordType.BTREE_INSERT.id());
        assertEquals(201, RecordType.BTREE_DELETE.id());
        assertEquals(202, RecordType.BTREE_REPLACE.id());
        assertEquals(100, RecordType.SLOT_UPDATE.id());
        assertEquals(101, RecordType.COUNTER_UPDATE.id());
    }

    @Test
    void everyTypeIsInTheFormatsDoc() throws Exception {
        String doc = java.nio.file.Files.readString(Path.of("..", "docs", "formats.md"));
        for (RecordType t : RecordType.values()) {
            assertTrue(doc.contains("| " + t.id() + " | " + t.name() + " "), "docs/formats.md lacks the row of " + t);
        }
    }

    @Test
    void unknownTypeAndMalformedPayloadsAreCorruption() {
        CorruptionException u = assertThrows(CorruptionException.class,
                () -> LogRecords.decode(new LogEntry(Lsn.of(4, 128), 9999, 1, 0, new byte[0])));
        assertTrue(u.getMessage().contains("9999") && u.getMessage().contains("(4,128)"), u.getMessage());
        for (LogRecord r : all()) { // every truncation and every extension of every sample
            byte[] ok = LogRecords.encode(r);
            for (int cut = 0; cut < ok.length; cut++) {
                byte[] shorter = java.util.Arrays.copyOf(ok, cut);
                assertThrows(CorruptionException.class,
                        () -> LogRecords.decode(new LogEntry(Lsn.of(1, 64), r.type().id(), 1, 0, shorter)), r + " cut at " + cut);
            }
            byte[] longer = java.util.Arrays.copyOf(ok, ok.length + 1);
            assertThrows(CorruptionException.class,
                    () -> LogRecords.decode(new LogEntry(Lsn.of(1, 64), r.type().id(), 1, 0, longer)), r + " + 1 byte");
        }
        byte[] hugeCount = LogRecords.encode(new LogRecord.Checkpoint(0, List.of()));
        hugeCount[16] = (byte) 0xFF; // n = 255 with no entries
        assertThrows(CorruptionException.class,
                () -> LogRecords.decode(new LogEntry(Lsn.of(1, 64), RecordType.CHECKPOINT.id(), 1, 0, hugeCount)));
    }

    @Test
    void aRegisteredTypeWithoutItsCodecIsCorruptionNamingItsOwner() {
        // libtp-btree is not on the core's class path: its codec is never registered here
        CorruptionException e = assertThrows(CorruptionException.class, () -> LogRecords.decode(
                new LogEntry(Lsn.of(2, 96), RecordType.BTREE_INSERT.id(), 1, 0, new byte[24])));
        assertTrue(e.getMessage().contains("BTREE_INSERT") && e.getMessage().contains("(2,96)")
                && e.getMessage().contains("libtp-btree"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> LogRecords.register(new RecordCodec<LogRecord.Registered>() {
            @Override
            public java.util.Set<RecordType> types() {
                return java.util.Set.of(RecordType.TXN_COMMIT);
            }

            @Override
            public byte[] encode(LogRecord.Registered r) {
                return new byte[0];
            }

            @Override
            public LogRecord.Registered decode(RecordType type, java.nio.ByteBuffer payload) {
                return null;
            }

            @Override
            public String print(LogRecord.Registered r) {
                return "";
            }
        }), "the core's own types cannot be taken over");
    }

    @Test
    void printerPrintsALogWrittenByTheLogManager(@TempDir Path home) throws Exception {
        try (RegionEnvironment env = RegionEnvironment.open(home, RegionEnvironmentConfig.builder().failCheckMillis(0).build());
             SharedLog log = SharedLog.open(env, new FileStorage(home), LogConfig.defaults())) {
            long prev = Lsn.NULL;
            for (LogRecord r : all()) {
                if (r.type() == RecordType.LOG_FILE_END) {
                    // the log manager's own: refused, it writes one at each file switch only
                    assertThrows(IllegalArgumentException.class, () -> log.append(r.type().id(), 0, Lsn.NULL,
                            LogRecords.encode(r)));
                    continue;
                }
                prev = log.append(r.type().id(), 11, prev, LogRecords.encode(r));
            }
            // the commit benchmark's record, whose codec is in libtp-bench, not here
            prev = log.append(RecordType.COUNTER_UPDATE.id(), 11, prev, new byte[40]);
        }
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        assertTrue(LogPrinter.print(new FileStorage(home), new PrintStream(bytes, true, StandardCharsets.UTF_8)));
        String out = bytes.toString(StandardCharsets.UTF_8);
        assertEquals(all().size() - 1 + 2, out.lines().count(), out);
        assertTrue(out.contains("SLOT_UPDATE file 1 slot 42 before 010203 after 0405"), out);
        assertTrue(out.contains("COUNTER_UPDATE (owned by the commit benchmark's record manager (libtp-bench), whose codec"
                + " is not loaded) 40 payload bytes"), out);
        assertTrue(out.contains("CHECKPOINT redo from (3,64)"), out);
    }
}
