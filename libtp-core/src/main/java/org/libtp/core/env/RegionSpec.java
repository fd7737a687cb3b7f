package org.libtp.core.env;

import org.libtp.core.region.Fingerprint;
import org.libtp.core.region.LatchArray;
import org.libtp.core.region.RegionHeader;

import java.nio.charset.StandardCharsets;
import java.util.List;

/**
 * Describes a named region an application or manager asks the environment for. Every process
 * asking for the same name must give an equal spec; the first creates it (zero-filled after its
 * header), the others attach.
 *
 * @param name          1..48 bytes of {@code [A-Za-z0-9_.-]}; the file is {@code __libtp.rgn.<name>}
 * @param size          total size in bytes including the 256-byte header
 * @param layoutVersion the caller's version of its payload layout; part of the fingerprint
 * @param layoutFingerprint a fingerprint over every offset of the payload layout
 *                      ({@link Fingerprint#ofConstants}), or 0; part of the fingerprint
 * @param latchArrays   where the region keeps latches (at most 3 arrays, inside the payload)
 */
public record RegionSpec(String name, long size, long layoutVersion, long layoutFingerprint, List<LatchArray> latchArrays) {

    public RegionSpec {
        if (name == null || name.isEmpty() || name.getBytes(StandardCharsets.UTF_8).length > EnvLayout.DIR_NAME_CAPACITY
                || !name.matches("[A-Za-z0-9_.-]+")) {
            throw new IllegalArgumentException("region name '" + name + "' must be 1.."
                    + EnvLayout.DIR_NAME_CAPACITY + " characters of [A-Za-z0-9_.-]");
        }
        if (size <= RegionHeader.SIZE) {
            throw new IllegalArgumentException("region " + name + " size " + size + " must exceed the "
                    + RegionHeader.SIZE + "-byte header");
        }
        latchArrays = List.copyOf(latchArrays);
        if (latchArrays.size() > EnvLayout.DIR_MAX_LATCH_ARRAYS) {
            throw new IllegalArgumentException("region " + name + " declares " + latchArrays.size()
                    + " latch arrays, at most " + EnvLayout.DIR_MAX_LATCH_ARRAYS);
        }
        for (LatchArray a : latchArrays) {
            if (a.offset() < RegionHeader.SIZE || a.end() > size) {
                throw new IllegalArgumentException("region " + name + " latch array " + a
                        + " is outside its payload [" + RegionHeader.SIZE + ", " + size + ")");
            }
        }
    }

    public RegionSpec(String name, long size, long layoutVersion, LatchArray... latchArrays) {
        this(name, size, layoutVersion, 0, List.of(latchArrays));
    }

    public RegionSpec(String name, long size, long layoutVersion, long layoutFingerprint, LatchArray... latchArrays) {
        this(name, size, layoutVersion, layoutFingerprint, List.of(latchArrays));
    }

    public RegionSpec(String name, long size, long layoutVersion, List<LatchArray> latchArrays) {
        this(name, size, layoutVersion, 0, latchArrays);
    }

    /** The fingerprint stored in the region header and directory. */
    public long fingerprint() {
        Fingerprint f = new Fingerprint().add("user-region", RegionHeader.SIZE).add(name, size)
                .add("layoutVersion", layoutVersion);
        if (layoutFingerprint != 0) {
            f.add("layout", layoutFingerprint);
        }
        for (LatchArray a : latchArrays) {
            f.add("latches", a.offset()).add("stride", a.stride()).add("count", a.count());
        }
        return f.value();
    }

    String fileName() {
        return SharedEnvironment.REGION_PREFIX + name;
    }
}
