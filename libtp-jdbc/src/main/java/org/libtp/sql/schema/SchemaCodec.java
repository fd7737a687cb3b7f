package org.libtp.sql.schema;

import org.libtp.core.CorruptionException;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.SqlType;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The stored form of a {@link TableDef} (big-endian, {@code java.io.DataOutput}):
 *
 * <pre>
 *  u16 FORMAT (1)  | utf name | i32 tableId | i32 version
 *  u16 n columns   | n x { utf name | u8 type (SqlType ordinal) | i32 length | i32 scale
 *                  |       u8 flags (1 notNull, 2 identity, 4 has default) | [utf default SQL] }
 *  u16 k pk cols   | k x { u16 position | u8 descending }
 *  u16 m indexes   | m x { utf name | i32 indexId | u8 unique | u16 c | c x { u16 position | u8 desc } }
 * </pre>
 *
 * SqlType ordinals are frozen (the enum's order is the on-disk type id).
 */
public final class SchemaCodec {
    static final int FORMAT = 1;

    private SchemaCodec() {
    }

    public static byte[] encode(TableDef t) {
        try {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            DataOutputStream out = new DataOutputStream(bytes);
            out.writeShort(FORMAT);
            out.writeUTF(t.name());
            out.writeInt(t.tableId());
            out.writeInt(t.version());
            out.writeShort(t.columns().size());
            for (Column c : t.columns()) {
                out.writeUTF(c.name());
                out.writeByte(c.type().type().ordinal());
                out.writeInt(c.type().length());
                out.writeInt(c.type().scale());
                out.writeByte((c.notNull() ? 1 : 0) | (c.identity() ? 2 : 0) | (c.defaultSql() != null ? 4 : 0));
                if (c.defaultSql() != null) {
                    out.writeUTF(c.defaultSql());
                }
            }
            int[] pk = t.primaryKey();
            boolean[] pd = t.pkDescending();
            out.writeShort(pk.length);
            for (int i = 0; i < pk.length; i++) {
                out.writeShort(pk[i]);
                out.writeByte(pd[i] ? 1 : 0);
            }
            out.writeShort(t.indexes().size());
            for (IndexDef x : t.indexes()) {
                out.writeUTF(x.name());
                out.writeInt(x.indexId());
                out.writeByte(x.unique() ? 1 : 0);
                int[] cs = x.columns();
                boolean[] ds = x.descending();
                out.writeShort(cs.length);
                for (int i = 0; i < cs.length; i++) {
                    out.writeShort(cs[i]);
                    out.writeByte(ds[i] ? 1 : 0);
                }
            }
            out.flush();
            return bytes.toByteArray();
        } catch (IOException e) {
            throw new IllegalStateException(e); // a byte array does not fail
        }
    }

    public static TableDef decode(byte[] b, String what) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(b));
            int format = in.readUnsignedShort();
            if (format != FORMAT) {
                throw new CorruptionException("table definition " + what + " has format " + format + "; this LibTP reads "
                        + FORMAT);
            }
            String name = in.readUTF();
            int tableId = in.readInt();
            int version = in.readInt();
            int n = in.readUnsignedShort();
            List<Column> cols = new ArrayList<>(n);
            SqlType[] types = SqlType.values();
            for (int i = 0; i < n; i++) {
                String cn = in.readUTF();
                int type = in.readUnsignedByte();
                if (type >= types.length) {
                    throw new CorruptionException("table definition " + what + ": unknown type id " + type);
                }
                int length = in.readInt();
                int scale = in.readInt();
                int flags = in.readUnsignedByte();
                String def = (flags & 4) != 0 ? in.readUTF() : null;
                cols.add(new Column(cn, new ColumnType(types[type], length, scale), (flags & 1) != 0, def, (flags & 2) != 0));
            }
            int k = in.readUnsignedShort();
            int[] pk = new int[k];
            boolean[] pd = new boolean[k];
            for (int i = 0; i < k; i++) {
                pk[i] = in.readUnsignedShort();
                pd[i] = in.readUnsignedByte() != 0;
            }
            int m = in.readUnsignedShort();
            List<IndexDef> idx = new ArrayList<>(m);
            for (int i = 0; i < m; i++) {
                String xn = in.readUTF();
                int id = in.readInt();
                boolean unique = in.readUnsignedByte() != 0;
                int c = in.readUnsignedShort();
                int[] cs = new int[c];
                boolean[] ds = new boolean[c];
                for (int j = 0; j < c; j++) {
                    cs[j] = in.readUnsignedShort();
                    ds[j] = in.readUnsignedByte() != 0;
                }
                idx.add(new IndexDef(xn, id, unique, cs, ds));
            }
            if (in.available() != 0) {
                throw new CorruptionException("table definition " + what + " has " + in.available() + " trailing bytes");
            }
            return new TableDef(name, tableId, version, cols, pk, pd, idx);
        } catch (IOException | IllegalArgumentException e) {
            throw new CorruptionException("table definition " + what + " is damaged: " + e.getMessage());
        }
    }
}
