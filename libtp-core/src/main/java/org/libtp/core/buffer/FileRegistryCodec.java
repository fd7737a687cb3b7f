package org.libtp.core.buffer;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.Map;
import java.util.TreeMap;
import java.util.zip.CRC32C;

/**
 * The durable file registry {@code __libtp.files}: which data file has which file id, so that
 * the ids in log records mean the same file after a restart. Rewritten atomically
 * ({@code Storage.replaceFile}) when a file is first registered, before any record names it.
 *
 * <pre>
 *  offset size field
 *  ------ ---- ------------------------------------------
 *       0    8 magic    "LIBTPFIL"
 *       8    4 version  {@link #VERSION}
 *      12    4 count    n
 *      16      n x { u32 fileId | u16 nameLength | name (UTF-8) }
 *     end-4    4 crc32c of every byte before it
 * </pre>
 */
final class FileRegistryCodec {
    static final String FILE = "__libtp.files";
    static final byte[] MAGIC = "LIBTPFIL".getBytes(StandardCharsets.US_ASCII);
    static final int VERSION = 1;
    static final int OFF_MAGIC = 0;
    static final int OFF_VERSION = 8;
    static final int OFF_COUNT = 12;
    static final int OFF_ENTRIES = 16;

    private FileRegistryCodec() {
    }

    static ByteBuffer encode(Map<Integer, String> files) {
        int size = OFF_ENTRIES + 4;
        for (String n : files.values()) {
            size += 6 + n.getBytes(StandardCharsets.UTF_8).length;
        }
        ByteBuffer b = ByteBuffer.allocate(size).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(VERSION).putInt(files.size());
        for (Map.Entry<Integer, String> e : new TreeMap<>(files).entrySet()) {
            byte[] name = e.getValue().getBytes(StandardCharsets.UTF_8);
            b.putInt(e.getKey()).putShort((short) name.length).put(name);
        }
        CRC32C crc = new CRC32C();
        crc.update(b.array(), 0, size - 4);
        b.putInt((int) crc.getValue());
        b.flip();
        return b;
    }

    static Map<Integer, String> decode(byte[] bytes, String where) {
        if (bytes.length < OFF_ENTRIES + 4) {
            throw new CorruptionException(where + " is truncated (" + bytes.length + " bytes); restore it from a backup");
        }
        ByteBuffer b = ByteBuffer.wrap(bytes).order(ByteOrder.LITTLE_ENDIAN);
        byte[] magic = new byte[8];
        b.get(magic);
        if (!java.util.Arrays.equals(magic, MAGIC)) {
            throw new CorruptionException(where + " is not a LibTP file registry (bad magic)");
        }
        int version = b.getInt();
        if (version != VERSION) {
            throw new VersionMismatchException(where + " has registry format version " + version
                    + "; this LibTP reads version " + VERSION);
        }
        CRC32C crc = new CRC32C();
        crc.update(bytes, 0, bytes.length - 4);
        int stored = ByteBuffer.wrap(bytes, bytes.length - 4, 4).order(ByteOrder.LITTLE_ENDIAN).getInt();
        if (stored != (int) crc.getValue()) {
            throw new CorruptionException(where + " fails its checksum; restore it from a backup");
        }
        int n = b.getInt();
        Map<Integer, String> out = new TreeMap<>();
        try {
            for (int i = 0; i < n; i++) {
                int id = b.getInt();
                int len = b.getShort() & 0xFFFF;
                if (len > b.remaining() - 4) {
                    throw new CorruptionException(where + " entry " + i + " overruns the file");
                }
                byte[] name = new byte[len];
                b.get(name);
                out.put(id, new String(name, StandardCharsets.UTF_8));
            }
        } catch (java.nio.BufferUnderflowException e) {
            throw new CorruptionException(where + " is malformed (" + n + " entries announced)");
        }
        return out;
    }
}
