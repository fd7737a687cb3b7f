package org.libtp.core.buffer;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32C;

/**
 * The header page every data file starts with, owned by the buffer manager: page {@code n} of
 * the access method is at file offset {@code (n + 1) * pageSize}, so the access methods never
 * see it. It says which environment the file belongs to and under which file id and name it is
 * registered, so that a file from another environment is refused and the durable registry
 * ({@code __libtp.files}) can be rebuilt from the files themselves. Little-endian; the rest of
 * the header page is zeros.
 *
 * <pre>
 *  offset size field
 *  ------ ---- -------------------------------------------------------------
 *       0    8 magic       the ASCII bytes "LIBTPDAT"
 *       8    4 version     data file format version ({@link #VERSION})
 *      12    4 pageSize    the page size of the file's pages (and of this header page)
 *      16    8 envId       the environment's id (its log anchor's)
 *      24    4 fileId      the buffer manager's file id
 *      28    2 nameLength  bytes of the name
 *      30    2 reserved    0
 *      32    8 created     creation time, epoch milliseconds
 *      40  224 name        the file's name in the environment directory (UTF-8)
 *     264  244 reserved    0
 *     508    4 crc         CRC32C of bytes [0, 508)
 * </pre>
 */
record DataFileHeader(int pageSize, long envId, int fileId, String name, long createdMillis) {
    public static final String MAGIC = "LIBTPDAT";
    public static final int VERSION = 1;
    public static final int OFF_MAGIC = 0;
    public static final int OFF_VERSION = 8;
    public static final int OFF_PAGE_SIZE = 12;
    public static final int OFF_ENV_ID = 16;
    public static final int OFF_FILE_ID = 24;
    public static final int OFF_NAME_LENGTH = 28;
    public static final int OFF_CREATED = 32;
    public static final int OFF_NAME = 40;
    public static final int MAX_NAME = 224;
    public static final int OFF_CRC = 508;
    /** Bytes of the header that carry data; the header page is {@code pageSize} bytes. */
    public static final int SIZE = 512;

    /** The header page ({@code pageSize} bytes). */
    public ByteBuffer encode() {
        byte[] n = name.getBytes(StandardCharsets.UTF_8);
        if (n.length > MAX_NAME) {
            throw new IllegalArgumentException("data file name " + name + " is longer than " + MAX_NAME + " bytes");
        }
        ByteBuffer b = ByteBuffer.allocate(pageSize).order(ByteOrder.LITTLE_ENDIAN);
        b.put(0, MAGIC.getBytes(StandardCharsets.US_ASCII));
        b.putInt(OFF_VERSION, VERSION);
        b.putInt(OFF_PAGE_SIZE, pageSize);
        b.putLong(OFF_ENV_ID, envId);
        b.putInt(OFF_FILE_ID, fileId);
        b.putShort(OFF_NAME_LENGTH, (short) n.length);
        b.putLong(OFF_CREATED, createdMillis);
        b.put(OFF_NAME, n);
        b.putInt(OFF_CRC, crc(b.array()));
        b.position(0);
        return b;
    }

    /** True if {@code b} (at least {@link #SIZE} bytes) starts with the magic: a LibTP data file. */
    public static boolean hasMagic(byte[] b) {
        return b.length >= 8 && new String(b, 0, 8, StandardCharsets.US_ASCII).equals(MAGIC);
    }

    /** Decodes the header read from data file {@code where} (named in errors). */
    public static DataFileHeader decode(String where, byte[] b) {
        if (b.length < SIZE) {
            throw new CorruptionException("data file " + where + " is shorter than its " + SIZE
                    + "-byte header: it was cut short or is not a LibTP data file; restore it from a backup");
        }
        if (!hasMagic(b)) {
            throw new CorruptionException("data file " + where + " has no LibTP data file header (magic '"
                    + MAGIC + "' missing): it was overwritten, or is a file of another program or of an older "
                    + "LibTP; restore it from a backup");
        }
        ByteBuffer le = ByteBuffer.wrap(b).order(ByteOrder.LITTLE_ENDIAN);
        if (le.getInt(OFF_CRC) != crc(b)) {
            throw new CorruptionException("data file " + where + " has a damaged header (checksum mismatch); "
                    + "restore it from a backup");
        }
        if (le.getInt(OFF_VERSION) != VERSION) {
            throw new VersionMismatchException("data file " + where + " has format version " + le.getInt(OFF_VERSION)
                    + ", this LibTP reads version " + VERSION);
        }
        int pageSize = le.getInt(OFF_PAGE_SIZE);
        // the page size sizes buffers (resetLsns, the page-size guess at open): refuse what BufferConfig would
        if (pageSize < 512 || pageSize > 65536 || Integer.bitCount(pageSize) != 1) {
            throw new CorruptionException("data file " + where + " header has page size " + pageSize
                    + ", not a power of two in [512, 65536]: the header is damaged; restore the file from a backup");
        }
        int len = le.getShort(OFF_NAME_LENGTH) & 0xFFFF;
        if (len > MAX_NAME) {
            throw new CorruptionException("data file " + where + " header has a name of " + len + " bytes");
        }
        return new DataFileHeader(pageSize, le.getLong(OFF_ENV_ID), le.getInt(OFF_FILE_ID),
                new String(b, OFF_NAME, len, StandardCharsets.UTF_8), le.getLong(OFF_CREATED));
    }

    private static int crc(byte[] b) {
        CRC32C c = new CRC32C();
        c.update(b, 0, OFF_CRC);
        return (int) c.getValue();
    }
}
