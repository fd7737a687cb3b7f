package org.libtp.core.region;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Path;

/**
 * The header every region file starts with: {@link #SIZE} bytes, native byte order (regions are
 * shared memory of one machine, never moved between machines).
 *
 * <pre>
 *  offset size field
 *  ------ ---- ----------------------------------------------------------------
 *       0    8 magic          the ASCII bytes "LIBTPRGN" ({@link #MAGIC_TEXT})
 *       8    4 version        region format version ({@link #VERSION})
 *      12    4 headerSize     {@link #SIZE}
 *      16    8 fingerprint    layout fingerprint of the owning manager's structs
 *      24    8 regionSize     size of the whole file in bytes, fixed at creation
 *      32    4 kind           which manager owns it ({@link #KIND_ENV}, {@link #KIND_USER}...)
 *      36    4 state          0 = being initialized, 1 = ready (volatile)
 *      40    4 flags          {@link #FLAG_NEEDS_RECOVERY} | {@link #FLAG_FAILED} (CAS)
 *      44    4 configLength   bytes used of the config area
 *      48    8 createdMillis  creation time, ms since the epoch
 *      56    8 envGeneration  random id of the environment incarnation; equal in all
 *                             regions of one incarnation
 *      64  192 config         the creation configuration, encoded by the owning manager
 *     256      payload        the manager's structures
 * </pre>
 */
public final class RegionHeader {
    public static final String MAGIC_TEXT = "LIBTPRGN";
    public static final int VERSION = 1;

    public static final int OFF_MAGIC = 0;
    public static final int OFF_VERSION = 8;
    public static final int OFF_HEADER_SIZE = 12;
    public static final int OFF_FINGERPRINT = 16;
    public static final int OFF_REGION_SIZE = 24;
    public static final int OFF_KIND = 32;
    public static final int OFF_STATE = 36;
    public static final int OFF_FLAGS = 40;
    public static final int OFF_CONFIG_LENGTH = 44;
    public static final int OFF_CREATED = 48;
    public static final int OFF_ENV_GENERATION = 56;
    public static final int OFF_CONFIG = 64;
    public static final int CONFIG_CAPACITY = 192;
    public static final int SIZE = 256;

    public static final int STATE_INITIALIZING = 0;
    public static final int STATE_READY = 1;

    /** The environment was opened and not yet closed cleanly by its last process. */
    public static final int FLAG_NEEDS_RECOVERY = 1;
    /** The environment failed: every call must throw until it is reopened. */
    public static final int FLAG_FAILED = 2;

    public static final int KIND_ENV = 1;
    public static final int KIND_USER = 2;

    private RegionHeader() {
    }

    /** The magic as a long in native order, as it appears in memory. */
    static long magic() {
        return ByteBuffer.wrap(MAGIC_TEXT.getBytes(java.nio.charset.StandardCharsets.US_ASCII))
                .order(ByteOrder.nativeOrder()).getLong(0);
    }

    static String magicText(long value) {
        byte[] b = new byte[8];
        ByteBuffer.wrap(b).order(ByteOrder.nativeOrder()).putLong(0, value);
        StringBuilder s = new StringBuilder();
        for (byte x : b) {
            s.append(x >= 32 && x < 127 ? (char) x : '?');
        }
        return s + String.format(" (0x%016x)", value);
    }

    /**
     * Validates a header read from {@code file} ({@code fileSize} bytes long): magic, version,
     * header size, kind, fingerprint and size, in that order. Throws
     * {@link VersionMismatchException} or {@link CorruptionException} naming the file.
     */
    static void validate(Path file, ByteBuffer h, long fileSize, int kind, long fingerprint) {
        h.order(ByteOrder.nativeOrder());
        long magic = h.getLong(OFF_MAGIC);
        if (magic != magic()) {
            throw new VersionMismatchException("region file " + file + " has magic " + magicText(magic)
                    + ", expected " + magicText(magic()) + ": not a LibTP region file, or written on "
                    + "a machine of another byte order. Move it out of the region directory.");
        }
        int version = h.getInt(OFF_VERSION);
        if (version != VERSION) {
            throw new VersionMismatchException("region file " + file + " has format version " + version
                    + ", this LibTP expects " + VERSION + ". Close every process of the other LibTP "
                    + "version and remove the __libtp region files (data files are not affected).");
        }
        int headerSize = h.getInt(OFF_HEADER_SIZE);
        if (headerSize != SIZE) {
            throw new CorruptionException("region file " + file + " declares a header of " + headerSize
                    + " bytes, expected " + SIZE);
        }
        int k = h.getInt(OFF_KIND);
        if (k != kind) {
            throw new CorruptionException("region file " + file + " is of kind " + k + ", expected "
                    + kind);
        }
        long fp = h.getLong(OFF_FINGERPRINT);
        if (fp != fingerprint) {
            throw new VersionMismatchException("region file " + file + " has layout fingerprint "
                    + String.format("0x%016x", fp) + ", this LibTP expects "
                    + String.format("0x%016x", fingerprint) + ": it was created by a different LibTP "
                    + "build or configuration layout. Close every process of the other build and "
                    + "remove the __libtp region files.");
        }
        long size = h.getLong(OFF_REGION_SIZE);
        if (size != fileSize) {
            throw new CorruptionException("region file " + file + " is truncated or extended: its header "
                    + "says " + size + " bytes, the file has " + fileSize
                    + ". Close every process and remove the __libtp region files.");
        }
        if (h.getInt(OFF_CONFIG_LENGTH) < 0 || h.getInt(OFF_CONFIG_LENGTH) > CONFIG_CAPACITY) {
            throw new CorruptionException("region file " + file + " has config length "
                    + h.getInt(OFF_CONFIG_LENGTH) + ", at most " + CONFIG_CAPACITY + " allowed");
        }
    }
}
