package org.libtp.core.tp;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.lifecycle.AddLifecycleHook;
import org.libtp.core.LibTpException;
import org.libtp.core.testkit.FuzzTries;
import org.libtp.core.log.Lsn;

import java.util.Random;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

/**
 * Fuzzing the backup manifest parser ({@link BackupManifest#decode}, jqwik): random text, and
 * valid manifests with characters deleted, inserted, replaced, lines dropped or repeated, the text
 * cut short. The answer is a manifest or a {@link LibTpException} naming the manifest file; a
 * valid manifest decodes to itself.
 *
 * <p>Tries: as below in {@code mvn verify}, 100 times more under {@code -Pstress}
 * ({@link FuzzTries}). jqwik prints the seed of a failing run; replay with
 * {@code @Property(seed = "...")}.
 */
@AddLifecycleHook(FuzzTries.class)
class BackupManifestFuzzTest {
    static final String WHERE = "/backup/__libtp.backup";

    static void decode(String text) {
        try {
            BackupManifest.decode(WHERE, text);
        } catch (LibTpException e) {
            assertTrue(e.getMessage().contains(WHERE), () -> "does not name the manifest: " + e);
        } catch (Throwable t) {
            fail("not a LibTpException for '" + text + "': " + t, t);
        }
    }

    @Provide
    Arbitrary<BackupManifest> manifests() {
        // drawn from one seed: the ten fields would exceed Combinators' eight
        return Arbitraries.longs().map(seed -> {
            Random r = new Random(seed);
            String[] states = {BackupManifest.INCOMPLETE, BackupManifest.COMPLETE, BackupManifest.RECOVER};
            StringBuilder source = new StringBuilder();
            for (int i = r.nextInt(12); i > 0; i--) {
                source.append((char) (r.nextBoolean() ? 32 + r.nextInt(95) : r.nextInt(0x3000)));
            }
            return new BackupManifest(states[r.nextInt(3)], r.nextLong(), r.nextLong(), lsn(r), lsn(r), r.nextInt(),
                    r.nextLong(), r.nextLong(), r.nextInt(), source.toString().replace('\n', ' '));
        });
    }

    static long lsn(Random r) {
        return r.nextInt(8) == 0 ? Lsn.NULL : Lsn.of(1 + r.nextInt(Integer.MAX_VALUE), r.nextLong() & 0xFFFF_FFFFL);
    }

    @Property(tries = 1000)
    void validManifestsRoundTrip(@ForAll("manifests") BackupManifest m) {
        BackupManifest d = BackupManifest.decode(WHERE, m.encode());
        // source is free text: only a newline is replaced when written; a \r survives split("\n")
        assertEquals(m, d);
    }

    @Property(tries = 2000)
    void mutatedManifests(@ForAll("manifests") BackupManifest m, @ForAll long seed, @ForAll @IntRange(max = 5) int n) {
        String s = m.encode();
        Random r = new Random(seed);
        String[] tokens = {"=", "\n", "", "libtp-backup ", "state=", "(", ",", ")", "-1", "99999999999", "zz", "\u0000",
            "\uD800", "(null)", "fromLsn=", "pageSize="};
        for (int i = 0; i < n; i++) {
            int a = r.nextInt(s.length() + 1);
            int b = Math.min(s.length(), a + r.nextInt(12));
            String tok = tokens[r.nextInt(tokens.length)];
            s = switch (r.nextInt(5)) {
                case 0 -> s.substring(0, a) + s.substring(b);
                case 1 -> s.substring(0, a) + tok + s.substring(a);
                case 2 -> s.substring(0, a) + tok + s.substring(b);
                case 3 -> s.substring(0, a);
                default -> s.substring(0, a) + s.substring(a, b) + s.substring(a);
            };
        }
        decode(s);
    }

    @Property(tries = 1000)
    void randomText(@ForAll String text) {
        decode(text);
        decode("libtp-backup " + text);
        decode("libtp-backup 1\n" + text);
    }
}
