package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.libtp.core.CorruptionException;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;

import java.util.Arrays;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The B-tree's log records through the core's registry: round trip, printer, malformed payloads. */
class BtreeLeafRecordTest {
    static final List<LogRecord> SAMPLES = List.of(
            new BtreeLeafRecord(true, 3, 4, 5, new byte[] {1, 2}, new byte[] {3}),
            new BtreeLeafRecord(false, 3, 1L << 33, 0, new byte[] {1}, new byte[0]),
            new BtreeReplaceRecord(3, 7, 2, new byte[] {4}, 9, 3, new byte[] {5, 6}, new byte[] {7, 8}),
            new BtreeReplaceRecord(3, 1L << 40, 0, new byte[0], 0, 0, new byte[0], new byte[0]));

    @Test
    void aReplaceLogsOnlyTheBytesThatDiffer() {
        byte[] before = {1, 2, 3, 4, 5, 6};
        assertEquals(new BtreeReplaceRecord(1, 2, 3, new byte[] {9}, 6, 1, new byte[] {2, 3, 4}, new byte[] {7, 3, 8}),
                BtreeReplaceRecord.of(1, 2, 3, new byte[] {9}, before, new byte[] {1, 7, 3, 8, 5, 6}));
        assertEquals(new BtreeReplaceRecord(1, 2, 3, new byte[] {9}, 6, 0, new byte[0], new byte[0]),
                BtreeReplaceRecord.of(1, 2, 3, new byte[] {9}, before, before.clone()));
        assertEquals(new BtreeReplaceRecord(1, 2, 3, new byte[] {9}, 6, 5, new byte[] {6}, new byte[] {0}),
                BtreeReplaceRecord.of(1, 2, 3, new byte[] {9}, before, new byte[] {1, 2, 3, 4, 5, 0}));
        assertThrows(IllegalArgumentException.class,
                () -> new BtreeReplaceRecord(1, 2, 3, new byte[0], 4, 3, new byte[] {1, 2}, new byte[] {3, 4}));
    }

    @Test
    void roundTripsAndPrintsThroughTheCoreRegistry() {
        AccessMethods.registerLogRecords();
        for (LogRecord r : SAMPLES) {
            LogEntry e = new LogEntry(Lsn.of(1, 64), r.type().id(), 5, Lsn.NULL, LogRecords.encode(r));
            assertEquals(r, LogRecords.decode(e));
            assertTrue(LogRecords.print(e).contains(r.type().name() + " file 3 page"), LogRecords.print(e));
        }
        assertTrue(LogRecords.print(new LogEntry(Lsn.of(1, 64), SAMPLES.get(0).type().id(), 5, Lsn.NULL,
                LogRecords.encode(SAMPLES.get(0)))).contains("key 0102 data 1 bytes"));
    }

    @Test
    void everyCutOrExtensionIsCorruption() {
        AccessMethods.registerLogRecords();
        for (LogRecord r : SAMPLES) {
            byte[] ok = LogRecords.encode(r);
            for (int cut = 0; cut < ok.length; cut++) {
                byte[] shorter = Arrays.copyOf(ok, cut);
                assertThrows(CorruptionException.class,
                        () -> LogRecords.decode(new LogEntry(Lsn.of(1, 64), r.type().id(), 1, 0, shorter)), r + " cut at " + cut);
            }
            byte[] longer = Arrays.copyOf(ok, ok.length + 1);
            assertThrows(CorruptionException.class,
                    () -> LogRecords.decode(new LogEntry(Lsn.of(1, 64), r.type().id(), 1, 0, longer)), r + " + 1 byte");
        }
    }
}
