package org.libtp.core.log;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.libtp.core.LibTpException;
import org.libtp.core.testkit.FuzzTries;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Random;
import java.util.zip.CRC32C;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the log file header check ({@link LogFileHeader#validate}, jqwik): random
 * {@link LogFileHeader#SIZE}-byte headers (the readers always read that many, or report the file
 * as cut short), with the magic and checksum planted or not, and valid headers with bits flipped
 * and the checksum left stale or recomputed. The answer is the log id or a
 * {@link LibTpException} naming the file; a header that passes says what it was asked to.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class LogFileHeaderFuzzTest {

    static void fixCrc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 0, LogFileHeader.OFF_CRC);
        ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN).putInt(LogFileHeader.OFF_CRC, (int) c.getValue());
    }

    static void validate(byte[] b, int expected) {
        String name = LogFileHeader.fileName(expected);
        try {
            long id = LogFileHeader.validate(name, ByteBuffer.wrap(b), expected);
            ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
            assertEquals(id, le.getLong(LogFileHeader.OFF_LOG_ID));
            assertEquals(expected, le.getInt(LogFileHeader.OFF_FILE_NUMBER));
            assertEquals(LogFileHeader.VERSION, le.getInt(LogFileHeader.OFF_VERSION));
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(name), () -> "does not name " + name + ": " + e);
        } catch (Throwable t) {
            fail("not a LibTpException: " + t, t);
        }
    }

    @Property(tries = 2000)
    void randomHeaders(@ForAll @Size(LogFileHeader.SIZE) byte[] b, @ForAll boolean magic, @ForAll boolean crc,
                       @ForAll @IntRange(min = 1, max = 5) int expected) {
        if (magic) {
            System.arraycopy(LogFileHeader.MAGIC.getBytes(StandardCharsets.US_ASCII), 0, b, 0, 8);
        }
        if (crc) {
            fixCrc(b);
        }
        validate(b, expected);
    }

    @Property(tries = 2000)
    void mutatedHeaders(@ForAll @IntRange(min = 1, max = 5) int n, @ForAll long fileSize, @ForAll long logId,
                        @ForAll long seed, @ForAll @IntRange(max = 3) int flips, @ForAll boolean crc,
                        @ForAll @IntRange(min = 1, max = 5) int expected) {
        byte[] b = LogFileHeader.encode(n, fileSize, logId).array();
        Random r = new Random(seed);
        for (int i = 0; i < flips; i++) {
            int bit = r.nextInt(b.length * 8);
            b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        if (crc) {
            fixCrc(b);
        }
        validate(b, expected);
    }
}
