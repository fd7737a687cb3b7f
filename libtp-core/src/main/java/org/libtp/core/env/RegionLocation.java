package org.libtp.core.env;

import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.zip.CRC32C;

/**
 * Where an environment's shared regions are, recorded in the content of its lock file
 * {@code __libtp.lock} (whose record locks are the process registry's liveness, so every process
 * of the environment opens exactly this file first): the process that creates the regions writes
 * it, under the creation lock, before building them; every later process reads it there and
 * attaches to that directory, whatever its own configuration would have chosen.
 *
 * <pre>
 *  offset size field
 *  ------ ---- -------------------------------------------------------------
 *       0    8 magic        the ASCII bytes "LIBTPLCK"
 *       8    4 version      record format version ({@link #VERSION})
 *      12    4 state        1 = open: regions in use, or left by processes that did
 *                           not close cleanly; 0 = closed: the last process closed
 *                           cleanly and removed the regions
 *      16    4 placement    1 = ENV_DIR (the environment directory), 2 = SHM
 *      20    4 pathLength   bytes of the region directory's path
 *      24    8 incarnation  the regions' random id (RegionHeader.envGeneration)
 *      32    8 written      when this record was written, epoch milliseconds
 *      40   20 reserved     0
 *      60    4 crc          CRC32C of bytes [0, 60) and of the path
 *      64    n path         the region directory, absolute, UTF-8 (n &lt;= 4032)
 * </pre>
 *
 * Little-endian. The record is written in place, without rename (record locks belong to the
 * inode), and forced when the state becomes open, so that after a machine crash the next open
 * still knows the environment was not closed cleanly even though its shared-memory regions are
 * gone. A record that is absent (a new environment, or one created before regions could live
 * elsewhere), torn or damaged describes no directory; it is trusted only while processes that
 * wrote it may be alive, and rewritten by the next process that creates the regions.
 */
record RegionLocation(boolean open, RegionPlacement placement, long incarnation, long writtenMillis, Path directory) {
    static final String MAGIC = "LIBTPLCK";
    static final int VERSION = 1;
    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 8;
    static final int OFF_STATE = 12;
    static final int OFF_PLACEMENT = 16;
    static final int OFF_PATH_LENGTH = 20;
    static final int OFF_INCARNATION = 24;
    static final int OFF_WRITTEN = 32;
    static final int OFF_CRC = 60;
    static final int OFF_PATH = 64;
    static final int PATH_CAPACITY = 4032;
    static final int MAX_SIZE = OFF_PATH + PATH_CAPACITY;

    static final int STATE_CLOSED = 0;
    static final int STATE_OPEN = 1;
    static final int PLACEMENT_ENV_DIR = 1;
    static final int PLACEMENT_SHM = 2;

    RegionLocation {
        if (placement != RegionPlacement.ENV_DIR && placement != RegionPlacement.SHM) {
            throw new IllegalArgumentException("a recorded placement is ENV_DIR or SHM, not " + placement);
        }
    }

    /** The same location in state closed (a clean last close removed the regions). */
    RegionLocation closed() {
        return new RegionLocation(false, placement, incarnation, System.currentTimeMillis(), directory);
    }

    ByteBuffer encode() {
        byte[] path = directory.toString().getBytes(StandardCharsets.UTF_8);
        if (path.length > PATH_CAPACITY) {
            throw new IllegalArgumentException("region directory " + directory + " is longer than " + PATH_CAPACITY
                    + " bytes; choose a shorter EnvironmentConfig.shmDirectory");
        }
        ByteBuffer b = ByteBuffer.allocate(OFF_PATH + path.length).order(ByteOrder.LITTLE_ENDIAN);
        b.put(OFF_MAGIC, MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(OFF_VERSION, VERSION);
        b.putInt(OFF_STATE, open ? STATE_OPEN : STATE_CLOSED);
        b.putInt(OFF_PLACEMENT, placement == RegionPlacement.SHM ? PLACEMENT_SHM : PLACEMENT_ENV_DIR);
        b.putInt(OFF_PATH_LENGTH, path.length);
        b.putLong(OFF_INCARNATION, incarnation);
        b.putLong(OFF_WRITTEN, writtenMillis);
        b.put(OFF_PATH, path);
        b.putInt(OFF_CRC, crc(b.array(), path.length));
        b.position(0);
        return b;
    }

    /**
     * The record in {@code bytes} (the start of lock file {@code where}), or null if there is none
     * or it is torn or damaged.
     *
     * @throws VersionMismatchException a record of another format version
     */
    static RegionLocation decode(String where, byte[] bytes, int length) {
        if (length < OFF_PATH || !new String(bytes, 0, 8, StandardCharsets.US_ASCII).equals(MAGIC)) {
            return null;
        }
        ByteBuffer b = ByteBuffer.wrap(bytes, 0, length).order(ByteOrder.LITTLE_ENDIAN);
        int version = b.getInt(OFF_VERSION);
        int n = b.getInt(OFF_PATH_LENGTH);
        if (n < 1 || n > PATH_CAPACITY || OFF_PATH + n > length || b.getInt(OFF_CRC) != crc(bytes, n)) {
            return null;
        }
        if (version != VERSION) {
            throw new VersionMismatchException("lock file " + where + " records its shared regions in format version "
                    + version + ", this LibTP reads version " + VERSION + ": a process of another LibTP version has "
                    + "(or had) the environment open. Close every process of it; if none is left, delete " + where);
        }
        int placement = b.getInt(OFF_PLACEMENT);
        int state = b.getInt(OFF_STATE);
        if (placement != PLACEMENT_ENV_DIR && placement != PLACEMENT_SHM || state != STATE_OPEN && state != STATE_CLOSED) {
            return null;
        }
        Path dir;
        try {
            dir = Path.of(new String(bytes, OFF_PATH, n, StandardCharsets.UTF_8));
        } catch (RuntimeException e) {
            return null;
        }
        return new RegionLocation(state == STATE_OPEN, placement == PLACEMENT_SHM ? RegionPlacement.SHM
                : RegionPlacement.ENV_DIR, b.getLong(OFF_INCARNATION), b.getLong(OFF_WRITTEN), dir);
    }

    private static int crc(byte[] bytes, int pathLength) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, OFF_CRC);
        c.update(bytes, OFF_PATH, pathLength);
        return (int) c.getValue();
    }
}
