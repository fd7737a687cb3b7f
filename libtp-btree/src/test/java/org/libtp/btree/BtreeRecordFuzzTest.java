package org.libtp.btree;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import net.jqwik.api.lifecycle.BeforeContainer;
import org.libtp.core.LibTpException;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.testkit.FuzzTries;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.Arrays;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the B-tree's log record payload codecs (BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE)
 * through {@link LogRecords#decode} and {@link LogRecords#print}, as recovery and
 * {@code libtp printlog} reach them (jqwik): random payloads, with small lengths planted at the
 * offsets of the length fields, and real records encoded then flipped, cut short or extended.
 * The answer is a record that re-encodes to the same payload, or a {@link LibTpException}
 * naming the LSN; print never throws.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class BtreeRecordFuzzTest {
    static final long LSN = Lsn.of(3, 4096);

    @BeforeContainer
    static void register() {
        AccessMethods.registerLogRecords();
    }

    static void decode(int type, byte[] payload) {
        LogEntry e = new LogEntry(LSN, type, 5, Lsn.NULL, payload);
        String line = LogRecords.print(e);
        assertTrue(line.startsWith(Lsn.toString(LSN)), line);
        try {
            LogRecord r = LogRecords.decode(e);
            assertEquals(type, r.type().id());
            assertArrayEquals(payload, LogRecords.encode(r), () -> "does not round-trip: " + r);
        } catch (LibTpException x) {
            assertTrue(x.getMessage().contains(Lsn.toString(LSN)), () -> "does not name the LSN: " + x);
        } catch (Throwable t) {
            fail("not a LibTpException: " + t, t);
        }
    }

    @Provide
    Arbitrary<Integer> types() {
        return Arbitraries.of(RecordType.BTREE_INSERT.id(), RecordType.BTREE_DELETE.id(), RecordType.BTREE_REPLACE.id());
    }

    @Property(tries = 3000)
    void randomPayloads(@ForAll("types") int type, @ForAll long seed) {
        Random r = new Random(seed);
        byte[] b = new byte[r.nextInt(80)];
        r.nextBytes(b);
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        // key length at 16; data length or replace fields after the key: plant small values there
        for (int at : new int[] {16, 20 + r.nextInt(8), 24 + r.nextInt(12), 28 + r.nextInt(12)}) {
            if (r.nextBoolean() && at + 4 <= b.length) {
                le.putInt(at, r.nextInt(20) - 2);
            }
        }
        decode(type, b);
    }

    @Provide
    Arbitrary<LogRecord> records() {
        Arbitrary<byte[]> small = Arbitraries.bytes().array(byte[].class).ofMaxSize(30);
        Arbitrary<LogRecord> leaf = Combinators.combine(Arbitraries.of(true, false), Arbitraries.integers(),
                Arbitraries.longs(), Arbitraries.integers(), small, small).as(BtreeLeafRecord::new);
        Arbitrary<LogRecord> replace = Combinators.combine(Arbitraries.integers(), Arbitraries.longs(),
                Arbitraries.integers(), small, small, Arbitraries.longs())
                .as((f, p, s, k, before, seed) -> {
                    byte[] after = before.clone();
                    new Random(seed).nextBytes(after);
                    return BtreeReplaceRecord.of(f, p, s, k, before, after);
                });
        return Arbitraries.oneOf(leaf, replace);
    }

    @Property(tries = 3000)
    void mutatedRecords(@ForAll("records") LogRecord rec, @ForAll long seed, @ForAll @IntRange(max = 4) int n) {
        byte[] b = LogRecords.encode(rec);
        Random r = new Random(seed);
        for (int i = 0; i < n; i++) {
            switch (r.nextInt(4)) {
                case 0, 1 -> {
                    if (b.length > 0) {
                        int bit = r.nextInt(b.length * 8);
                        b[bit / 8] ^= (byte) (1 << (bit % 8));
                    }
                }
                case 2 -> b = Arrays.copyOf(b, r.nextInt(b.length + 1));
                default -> b = Arrays.copyOf(b, b.length + 1 + r.nextInt(8));
            }
        }
        if (n == 0) {
            assertEquals(rec, LogRecords.decode(new LogEntry(LSN, rec.type().id(), 5, Lsn.NULL, b)));
        }
        decode(rec.type().id(), b);
    }
}
