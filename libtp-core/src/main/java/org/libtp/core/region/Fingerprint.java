package org.libtp.core.region;

import java.nio.charset.StandardCharsets;

/**
 * Builds a layout fingerprint: a 64-bit FNV-1a hash over the names, offsets and sizes of a
 * region's structures. Any change of layout changes the fingerprint, so a process built with a
 * different layout refuses to attach instead of misreading shared memory.
 */
public final class Fingerprint {
    private long hash = 0xcbf29ce484222325L;

    public Fingerprint add(String field, long value) {
        for (byte b : field.getBytes(StandardCharsets.UTF_8)) {
            mix(b);
        }
        for (int i = 0; i < 8; i++) {
            mix((byte) (value >>> (8 * i)));
        }
        return this;
    }

    private void mix(byte b) {
        hash ^= b & 0xFF;
        hash *= 0x100000001b3L;
    }

    public long value() {
        return hash;
    }
}
