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

    /**
     * The fingerprint of a layout class: every {@code static final int} or {@code long} field it
     * declares (its offsets, sizes and layout version), by name and value, in name order. A field
     * added, moved or resized changes it, without a list to keep up to date.
     */
    public static long ofConstants(Class<?> layout) {
        java.util.TreeMap<String, Long> fields = new java.util.TreeMap<>();
        for (java.lang.reflect.Field f : layout.getDeclaredFields()) {
            int m = f.getModifiers();
            if (java.lang.reflect.Modifier.isStatic(m) && java.lang.reflect.Modifier.isFinal(m)
                    && (f.getType() == int.class || f.getType() == long.class) && !f.getName().equals("FINGERPRINT")) {
                try {
                    f.setAccessible(true);
                    fields.put(f.getName(), ((Number) f.get(null)).longValue());
                } catch (ReflectiveOperationException | RuntimeException e) {
                    throw new IllegalStateException("layout constant " + layout.getName() + "." + f.getName()
                            + " cannot be read: " + e, e);
                }
            }
        }
        Fingerprint fp = new Fingerprint().add(layout.getSimpleName(), fields.size());
        fields.forEach(fp::add);
        return fp.value();
    }
}
