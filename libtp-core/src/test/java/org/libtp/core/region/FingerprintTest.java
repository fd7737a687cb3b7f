package org.libtp.core.region;

import org.junit.jupiter.api.Test;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;

/** {@link Fingerprint#ofConstants}: every int/long constant of a layout class counts. */
class FingerprintTest {
    static final class A {
        static final long OFF_X = 256;
        static final int OFF_Y = 264;
        static final int LAYOUT_VERSION = 1;
    }

    static final class SameAsA {
        static final int LAYOUT_VERSION = 1;
        static final long OFF_X = 256;
        static final int OFF_Y = 264;
    }

    static final class Moved {
        static final long OFF_X = 256;
        static final int OFF_Y = 272;
        static final int LAYOUT_VERSION = 1;
    }

    static final class Added {
        static final long OFF_X = 256;
        static final int OFF_Y = 264;
        static final int OFF_Z = 272;
        static final int LAYOUT_VERSION = 1;
    }

    static final class Renamed {
        static final long OFF_X = 256;
        static final int OFF_W = 264;
        static final int LAYOUT_VERSION = 1;
    }

    @Test
    void anOffsetMovedAddedOrRenamedChangesIt() {
        long a = Fingerprint.ofConstants(A.class);
        assertNotEquals(a, Fingerprint.ofConstants(Moved.class));
        assertNotEquals(a, Fingerprint.ofConstants(Added.class));
        assertNotEquals(a, Fingerprint.ofConstants(Renamed.class));
    }

    @Test
    void declarationOrderDoesNotMatterButTheClassNameDoes() {
        // sorted by field name; the simple name is folded in too, so two layouts never collide by accident
        assertNotEquals(Fingerprint.ofConstants(A.class), Fingerprint.ofConstants(SameAsA.class));
        assertEquals(Fingerprint.ofConstants(A.class), Fingerprint.ofConstants(A.class));
    }
}
