package org.libtp.sql.exec;

import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.KeyRange;
import org.libtp.db.Transaction;
import org.libtp.sql.codec.ColumnType;
import org.libtp.sql.codec.KeyCodec;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.TableDef;

import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;

/**
 * Secondary index entries: the key is the memcomparable encoding of (index columns, primary key
 * columns — or the row id), the data empty; so an entry names its row, entries of equal index
 * values sort by primary key, and a range of index values is a key range. A UNIQUE index allows
 * one row per non-NULL value tuple (NULLs never collide, as in SQL); the check reads the value's
 * prefix range in the same transaction, so two-phase locking keeps a concurrent duplicate out.
 */
final class Indexes {
    static final byte[] EMPTY = new byte[0];

    private Indexes() {
    }

    static List<ColumnType> types(TableDef t, IndexDef x) {
        List<ColumnType> out = new ArrayList<>();
        for (int c : x.columns()) {
            out.add(t.columns().get(c).type());
        }
        out.addAll(t.keyTypes());
        return out;
    }

    static boolean[] descending(TableDef t, IndexDef x) {
        boolean[] xd = x.descending();
        boolean[] kd = t.keyDescending();
        boolean[] out = new boolean[xd.length + kd.length];
        System.arraycopy(xd, 0, out, 0, xd.length);
        System.arraycopy(kd, 0, out, xd.length, kd.length);
        return out;
    }

    /** The primary key values of a row (the row id, decoded from its key, for a table without one). */
    static Object[] keyValues(TableDef t, Object[] row, byte[] key) {
        if (t.hasRowId()) {
            return KeyCodec.decode(t.keyTypes(), t.keyDescending(), key);
        }
        int[] pk = t.primaryKey();
        Object[] v = new Object[pk.length];
        for (int i = 0; i < pk.length; i++) {
            v[i] = row[pk[i]];
        }
        return v;
    }

    static byte[] entry(TableDef t, IndexDef x, Object[] row, byte[] key) {
        int[] cs = x.columns();
        Object[] pk = keyValues(t, row, key);
        Object[] v = new Object[cs.length + pk.length];
        for (int i = 0; i < cs.length; i++) {
            v[i] = row[cs[i]];
        }
        System.arraycopy(pk, 0, v, cs.length, pk.length);
        return KeyCodec.encode(types(t, x), descending(t, x), v);
    }

    /** The table key of the row an index entry names. */
    static byte[] rowKey(TableDef t, IndexDef x, byte[] entry) {
        Object[] all = KeyCodec.decode(types(t, x), descending(t, x), entry);
        Object[] pk = java.util.Arrays.copyOfRange(all, x.columns().length, all.length);
        return KeyCodec.encode(t.keyTypes(), t.keyDescending(), pk);
    }

    /**
     * Throws 23505 if unique index {@code x} holds an entry with {@code row}'s index values for a
     * row other than {@code key} (none if a value is NULL).
     */
    static void checkUnique(Transaction txn, Database idx, TableDef t, IndexDef x, Object[] row, byte[] key)
            throws SQLException {
        checkUnique(txn, idx, t, x, row, key, java.util.Set.of());
    }

    /** As above, where the entries in {@code leaving} are of rows the statement removes or moves first. */
    static void checkUnique(Transaction txn, Database idx, TableDef t, IndexDef x, Object[] row, byte[] key,
                            java.util.Set<java.nio.ByteBuffer> leaving) throws SQLException {
        if (!x.unique()) {
            return;
        }
        int[] cs = x.columns();
        Object[] v = new Object[cs.length + t.keyTypes().size()];
        for (int i = 0; i < cs.length; i++) {
            v[i] = row[cs[i]];
            if (v[i] == null) {
                return;
            }
        }
        byte[] prefix = KeyCodec.encodePrefix(types(t, x), descending(t, x), v, cs.length);
        byte[] own = entry(t, x, row, key);
        try (Cursor c = idx.openCursor(txn, KeyRange.prefix(prefix))) {
            for (boolean ok = c.first(); ok; ok = c.next()) {
                byte[] k = c.key();
                if (!java.util.Arrays.equals(k, own) && !leaving.contains(java.nio.ByteBuffer.wrap(k))) {
                    StringBuilder b = new StringBuilder();
                    for (int i = 0; i < cs.length; i++) {
                        b.append(i == 0 ? "" : ", ").append(Values.describe(row[cs[i]]));
                    }
                    throw SqlErrors.duplicate("duplicate value (" + b + ") in unique index " + x.name() + " of table "
                            + t.name());
                }
            }
        }
    }

    static void add(Transaction txn, Engine engine, TableDef t, Object[] row, byte[] key) {
        for (IndexDef x : t.indexes()) {
            engine.database(txn, t.indexName(x), false).put(txn, entry(t, x, row, key), EMPTY);
        }
    }

    static void remove(Transaction txn, Engine engine, TableDef t, Object[] row, byte[] key) {
        for (IndexDef x : t.indexes()) {
            engine.database(txn, t.indexName(x), false).delete(txn, entry(t, x, row, key));
        }
    }

    /** Unique checks of every unique index of {@code t} for a row about to be written under {@code key}. */
    static void checkAll(Transaction txn, Engine engine, TableDef t, Object[] row, byte[] key) throws SQLException {
        checkAll(txn, engine, t, row, key, java.util.Set.of());
    }

    /**
     * As above; {@code leaving}: index entries of the rows an UPDATE rewrites, removed before its
     * new entries are added (a row whose primary key changes does not collide with itself).
     */
    static void checkAll(Transaction txn, Engine engine, TableDef t, Object[] row, byte[] key,
                         java.util.Set<java.nio.ByteBuffer> leaving) throws SQLException {
        for (IndexDef x : t.indexes()) {
            Database idx = engine.database(txn, t.indexName(x), false);
            int n = entry(t, x, row, key).length;
            if (n > idx.maxKeyLength()) {
                throw new java.sql.SQLDataException("the entry of index " + x.name() + " of table " + t.name() + " for this "
                        + "row takes " + n + " bytes; index entries may take at most " + idx.maxKeyLength(), "22001");
            }
        }
        for (IndexDef x : t.indexes()) {
            if (x.unique()) {
                checkUnique(txn, engine.database(txn, t.indexName(x), false), t, x, row, key, leaving);
            }
        }
    }
}
