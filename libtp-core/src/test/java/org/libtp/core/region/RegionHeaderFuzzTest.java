package org.libtp.core.region;

import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.Size;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.libtp.core.LibTpException;
import org.libtp.core.testkit.FuzzTries;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;
import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the region file header check ({@link RegionHeader#validate}, jqwik): random
 * {@link RegionHeader#SIZE}-byte headers (the region reads that many, after checking the file is
 * at least that long), with the magic planted or not, and valid headers with bits flipped. The
 * answer is acceptance of a header whose fields are what was asked, or a {@link LibTpException}
 * naming the file.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class RegionHeaderFuzzTest {
    static final Path FILE = Path.of("/env/__libtp.001");
    static final long FINGERPRINT = 0x1234_5678_9abc_def0L;
    static final long SIZE = 1 << 20;

    static byte[] valid(int configLength) {
        ByteBuffer h = ByteBuffer.allocate(RegionHeader.SIZE).order(ByteOrder.nativeOrder());
        h.putLong(RegionHeader.OFF_MAGIC, RegionHeader.magic()).putInt(RegionHeader.OFF_VERSION, RegionHeader.VERSION)
                .putInt(RegionHeader.OFF_HEADER_SIZE, RegionHeader.SIZE).putLong(RegionHeader.OFF_FINGERPRINT, FINGERPRINT)
                .putLong(RegionHeader.OFF_REGION_SIZE, SIZE).putInt(RegionHeader.OFF_KIND, RegionHeader.KIND_ENV)
                .putInt(RegionHeader.OFF_STATE, RegionHeader.STATE_READY).putInt(RegionHeader.OFF_CONFIG_LENGTH, configLength);
        return h.array();
    }

    static void validate(byte[] b) {
        try {
            RegionHeader.validate(FILE, ByteBuffer.wrap(b), SIZE, RegionHeader.KIND_ENV, FINGERPRINT);
            ByteBuffer h = ByteBuffer.wrap(b).order(ByteOrder.nativeOrder());
            assertEquals(RegionHeader.magic(), h.getLong(RegionHeader.OFF_MAGIC));
            assertEquals(FINGERPRINT, h.getLong(RegionHeader.OFF_FINGERPRINT));
            assertEquals(SIZE, h.getLong(RegionHeader.OFF_REGION_SIZE));
            int n = h.getInt(RegionHeader.OFF_CONFIG_LENGTH);
            assertTrue(n >= 0 && n <= RegionHeader.CONFIG_CAPACITY, "config length " + n + " accepted");
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(FILE.toString()), () -> "does not name the file: " + e);
        } catch (Throwable t) {
            fail("not a LibTpException: " + t, t);
        }
    }

    @Property(tries = 2000)
    void randomHeaders(@ForAll @Size(RegionHeader.SIZE) byte[] b, @ForAll boolean magic) {
        if (magic) {
            ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).putLong(RegionHeader.OFF_MAGIC, RegionHeader.magic());
        }
        validate(b);
    }

    @Property(tries = 2000)
    void mutatedHeaders(@ForAll @IntRange(max = RegionHeader.CONFIG_CAPACITY) int configLength, @ForAll long seed,
                        @ForAll @IntRange(max = 3) int flips) {
        byte[] b = valid(configLength);
        Random r = new Random(seed);
        for (int i = 0; i < flips; i++) {
            // the fields checked are the first 48 bytes: flip there more often
            int bit = r.nextInt((r.nextBoolean() ? 48 : b.length) * 8);
            b[bit / 8] ^= (byte) (1 << (bit % 8));
        }
        validate(b);
    }
}
