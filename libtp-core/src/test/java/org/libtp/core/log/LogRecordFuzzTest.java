package org.libtp.core.log;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.core.CorruptionException;
import org.libtp.core.LibTpException;
import org.libtp.core.testkit.FuzzTries;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.txn.SlotUpdate;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.List;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the log record decoders (jqwik): {@link LogRecordCodec#decode} (header, checksum) and
 * {@link LogRecords#decode}/{@link LogRecords#print} (the payload of every type id, the test
 * record manager's SLOT_UPDATE included; the B-tree's types are fuzzed in libtp-btree). Inputs:
 * random bytes; real records encoded, then bits flipped, cut short, extended, the length field
 * changed, with the checksum kept stale or recomputed; random payloads under every type id.
 * Whatever the input, the answer is a record or a {@link LibTpException} naming the LSN, never
 * another exception; a payload that decodes re-encodes to the same bytes.
 *
 * <p>Tries: the {@code tries} below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay it with
 * {@code @Property(seed = "...")} on the property (or {@code jqwik.seeds.whenfixed} /
 * {@code -Djqwik.database} as jqwik's user guide says). Crashes found are kept as
 * {@code @Example}s at the end.
 */
@AddLifecycleHook(FuzzTries.class)
class LogRecordFuzzTest {
    static final String FILE = "log.0000000007";

    @BeforeContainer
    static void registerTestCodec() {
        SlotUpdate.register();
    }

    /** Runs {@code r}; only a LibTpException naming the LSN (or nothing) may come out. */
    static void typed(long lsn, Runnable r) {
        try {
            r.run();
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(Lsn.toString(lsn)), () -> "does not name LSN " + Lsn.toString(lsn) + ": " + e);
        } catch (Throwable t) {
            fail("not a LibTpException: " + t, t);
        }
    }

    /** Decodes a whole record image (header and payload), then its payload, then prints it. */
    static void decodeAll(long lsn, byte[] bytes) {
        typed(lsn, () -> {
            LogEntry e = LogRecordCodec.decode(FILE, lsn, bytes);
            assertEquals(ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0),
                    LogRecordCodec.HEADER_SIZE + e.payload().length);
            payload(e);
        });
    }

    /** LogRecords.decode of {@code e}: a record re-encodes to the payload; print never throws. */
    static void payload(LogEntry e) {
        String line = LogRecords.print(e);
        assertTrue(line.startsWith(Lsn.toString(e.lsn())), line);
        typed(e.lsn(), () -> {
            LogRecord r = LogRecords.decode(e);
            assertEquals(e.type(), r.type().id());
            assertArrayEquals(e.payload(), LogRecords.encode(r), () -> "payload does not round-trip: " + r);
        });
    }

    @Provide
    Arbitrary<Long> lsns() {
        return Combinators.combine(Arbitraries.integers().between(1, Integer.MAX_VALUE),
                Arbitraries.longs().between(0, 0xFFFF_FFFFL)).as(Lsn::of);
    }

    @Property(tries = 2000)
    void randomBytes(@ForAll @Size(max = 200) byte[] bytes, @ForAll("lsns") long lsn,
                     @ForAll boolean fixLength, @ForAll boolean fixCrc) {
        if (fixLength && bytes.length >= 4) {
            ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(0, bytes.length);
        }
        if (fixCrc && bytes.length >= LogRecordCodec.HEADER_SIZE) {
            int length = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            if (length >= LogRecordCodec.HEADER_SIZE && length <= bytes.length) {
                ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(LogRecordCodec.OFF_CRC,
                        LogRecordCodec.crc(bytes, 0, length));
            }
        }
        decodeAll(lsn, bytes);
    }

    @Provide
    Arbitrary<LogRecord> records() {
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(64);
        Arbitrary<Long> anyLong = Arbitraries.longs();
        Arbitrary<Integer> anyInt = Arbitraries.integers();
        return Arbitraries.oneOf(
                anyLong.map(LogRecord.TxnCommit::new),
                Arbitraries.just(new LogRecord.TxnAbort()),
                Combinators.combine(anyLong, anyLong,
                        Combinators.combine(anyLong, anyLong).as(LogRecord.ActiveTxn::new).list().ofMaxSize(4),
                        Combinators.combine(anyInt, anyLong, anyLong).as(LogRecord.DirtyPage::new).list().ofMaxSize(4))
                        .as(LogRecord.Checkpoint::new),
                Combinators.combine(anyInt, anyLong, anyInt, small).as((f, p, o, a) -> {
                    byte[] before = a.clone();
                    Arrays.fill(before, (byte) 7);
                    return new LogRecord.PageUpdate(f, p, o, before, a);
                }),
                Combinators.combine(anyInt, anyLong, small).as(LogRecord.PageImage::new),
                Combinators.combine(anyInt, anyLong, small).as(LogRecord.PageWrite::new),
                Combinators.combine(anyInt, anyInt, small, small).as(SlotUpdate::new));
    }

    @Property(tries = 2000)
    void mutatedRecords(@ForAll("records") LogRecord r, @ForAll long txn, @ForAll("lsns") long prev,
                        @ForAll("lsns") long lsn, @ForAll long mutationSeed, @ForAll @IntRange(max = 4) int mutations,
                        @ForAll boolean recomputeCrc) {
        byte[] payload = LogRecords.encode(r);
        byte[] bytes = LogRecordCodec.encode(r.type().id(), txn, prev, payload).array();
        Random m = new Random(mutationSeed);
        for (int i = 0; i < mutations; i++) {
            bytes = mutate(bytes, m);
        }
        if (recomputeCrc && bytes.length >= LogRecordCodec.HEADER_SIZE) {
            int length = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).getInt(0);
            if (length >= LogRecordCodec.HEADER_SIZE && length <= bytes.length) {
                ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN).putInt(LogRecordCodec.OFF_CRC,
                        LogRecordCodec.crc(bytes, 0, length));
            }
        }
        if (mutations == 0) {
            LogEntry e = LogRecordCodec.decode(FILE, lsn, bytes);
            assertEquals(r, LogRecords.decode(e));
        }
        decodeAll(lsn, bytes);
    }

    /** One mutation: a bit flipped, the record cut short or extended, or its length field changed. */
    static byte[] mutate(byte[] b, Random m) {
        switch (m.nextInt(5)) {
            case 0, 1 -> {
                if (b.length > 0) {
                    b = b.clone();
                    int i = m.nextInt(b.length * 8);
                    b[i / 8] ^= (byte) (1 << (i % 8));
                }
            }
            case 2 -> b = Arrays.copyOf(b, m.nextInt(b.length + 1));
            case 3 -> b = Arrays.copyOf(b, b.length + 1 + m.nextInt(40));
            default -> {
                if (b.length >= 4) {
                    b = b.clone();
                    int[] lengths = {0, 1, LogRecordCodec.HEADER_SIZE - 1, LogRecordCodec.HEADER_SIZE, b.length - 1,
                        b.length + 1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE, m.nextInt()};
                    ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(0, lengths[m.nextInt(lengths.length)]);
                }
            }
        }
        return b;
    }

    @Provide
    Arbitrary<Integer> typeIds() {
        Integer[] ids = Arrays.stream(RecordType.values()).map(RecordType::id).toArray(Integer[]::new);
        return Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(8, Arbitraries.of(ids)),
                net.jqwik.api.Tuple.of(1, Arbitraries.integers()));
    }

    @Provide
    Arbitrary<byte[]> payloads() {
        // Counts and lengths of the payload layouts are u32 at offsets 0, 12, 16 or 20: random
        // payloads with small ints planted there reach the inner loops, not only the first check.
        Arbitrary<byte[]> raw = Arbitraries.bytes().array(byte[].class).ofMaxSize(120);
        return Combinators.combine(raw, Arbitraries.of(0, 4, 8, 12, 16, 20, 24), Arbitraries.integers().between(-2, 12),
                Arbitraries.integers().between(0, 3)).as((b, at, v, how) -> {
                    if (how > 0 && at + 4 <= b.length) {
                        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(at, v);
                    }
                    return b;
                });
    }

    @Property(tries = 3000)
    void randomPayloadUnderEveryType(@ForAll("typeIds") int type, @ForAll("payloads") byte[] payload,
                                     @ForAll("lsns") long lsn, @ForAll long txn, @ForAll long prev) {
        payload(new LogEntry(lsn, type, txn, prev, payload));
    }

    // Regression inputs: crashes the properties found, kept once fixed.

    @Example
    void lengthFieldBeyondTheBytesIsCorruption() {
        byte[] b = LogRecordCodec.encode(RecordType.TXN_ABORT.id(), 1, 0, new byte[0]).array();
        byte[] cut = Arrays.copyOf(b, 20); // the length field says 32 bytes: ArrayIndexOutOfBounds before
        CorruptionException e = assertThrows(CorruptionException.class, () -> LogRecordCodec.decode(FILE, Lsn.of(7, 64), cut));
        assertTrue(e.getMessage().contains(FILE) && e.getMessage().contains("(7,64)"), e.getMessage());
    }

    @Example
    void lengthFieldBelowTheHeaderIsCorruption() {
        for (int length : List.of(0, 7, 8, 31, -1, Integer.MIN_VALUE)) {
            byte[] b = LogRecordCodec.encode(RecordType.TXN_ABORT.id(), 1, 0, new byte[0]).array();
            ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(0, length);
            CorruptionException e = assertThrows(CorruptionException.class,
                    () -> LogRecordCodec.decode(FILE, Lsn.of(7, 64), b), "length " + length);
            assertTrue(e.getMessage().contains(FILE), e.getMessage());
        }
    }
}
