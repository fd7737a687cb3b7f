package org.libtp.sql.exec;

import org.libtp.core.CorruptionException;
import org.libtp.db.Cursor;
import org.libtp.db.Database;
import org.libtp.db.KeyRange;
import org.libtp.db.Transaction;
import org.libtp.sql.codec.KeyCodec;
import org.libtp.sql.codec.RowCodec;
import org.libtp.sql.schema.Column;
import org.libtp.sql.schema.TableDef;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;

import java.sql.SQLException;

/** Reading and writing a table's rows: key and row encoding, defaults, scans along an {@link Access}. */
final class Tables {
    private Tables() {
    }

    /** Visits one row: its key and decoded values; false stops the scan. */
    interface RowVisitor {
        boolean visit(byte[] key, Object[] row) throws SQLException;
    }

    static Object[] decode(TableDef t, byte[] data) throws SQLException {
        Object[] stored = RowCodec.decode(t.types(), data);
        if (stored.length == t.columns().size()) {
            return stored;
        }
        Object[] row = java.util.Arrays.copyOf(stored, t.columns().size());
        for (int i = stored.length; i < row.length; i++) { // columns added after the row was written
            Column c = t.columns().get(i);
            row[i] = c.defaultSql() == null ? null : Dml.constant(c.defaultSql(), c);
        }
        return row;
    }

    static byte[] encode(TableDef t, Object[] row) {
        return RowCodec.encode(t.version(), t.types(), row);
    }

    /** The key of {@code row} (its primary key columns; {@code rowId} for a table without one). */
    static byte[] key(TableDef t, Object[] row, long rowId) {
        if (t.hasRowId()) {
            return KeyCodec.encode(t.keyTypes(), t.keyDescending(), new Object[] {rowId});
        }
        Object[] v = new Object[t.primaryKeyLength()];
        for (int i = 0; i < v.length; i++) {
            v[i] = row[t.primaryKeyColumn(i)];
        }
        return KeyCodec.encode(t.keyTypes(), t.keyDescending(), v);
    }

    /** Scans {@code db} along {@code a}; {@code forUpdate}: write-locks what it reads. */
    static void scan(Engine engine, Transaction txn, Database db, TableDef t, Access a, Object[] params, boolean reverse,
                     boolean forUpdate, RowVisitor v) throws SQLException {
        scan(engine, txn, db, t, a, new Object[0], params, reverse, forUpdate, v);
    }

    /** As above, with the access path's values computed from {@code outer} (the row of the tables before, in a join). */
    static void scan(Engine engine, Transaction txn, Database db, TableDef t, Access a, Object[] outer, Object[] params,
                     boolean reverse, boolean forUpdate, RowVisitor v) throws SQLException {
        if (a.kind == Access.Kind.POINT) {
            byte[] k = a.pointKey(outer, params);
            if (k == null || k.length > db.maxKeyLength()) {
                return; // no stored key is that long: nothing matches
            }
            byte[] data = forUpdate ? db.getForUpdate(txn, k) : db.get(txn, k);
            if (data != null) {
                v.visit(k, decode(t, data));
            }
            return;
        }
        KeyRange r = a.range(outer, params);
        if (r == null) {
            return;
        }
        if (a.index != null) { // entries in index order, each leading to its row
            Database idx = engine.database(txn, t.indexName(a.index), false);
            // A cursor holds a position, no page: the row reads between its moves are safe, and a
            // visitor that has seen enough stops the index read too.
            try (Cursor c = idx.openCursor(txn, r)) {
                for (boolean ok = reverse ? c.last() : c.first(); ok; ok = reverse ? c.prev() : c.next()) {
                    byte[] k = Indexes.rowKey(t, a.index, c.key());
                    byte[] data = forUpdate ? db.getForUpdate(txn, k) : db.get(txn, k);
                    if (data == null) {
                        throw new CorruptionException("index " + a.index.name() + " of table " + t.name()
                                + " names a row that does not exist; the index disagrees with its table (run verify)");
                    }
                    if (!v.visit(k, decode(t, data))) {
                        return;
                    }
                }
            }
            return;
        }
        try (Cursor c = db.openCursor(txn, r)) {
            for (boolean ok = reverse ? c.last() : c.first(); ok; ok = reverse ? c.prev() : c.next()) {
                byte[] k = c.key();
                byte[] data = forUpdate ? db.getForUpdate(txn, k) : c.data();
                if (data != null && !v.visit(k, decode(t, data))) {
                    return;
                }
            }
        }
    }

    static Object compileConstant(String sql) throws SQLException {
        try {
            Expr e = new Compiler(new Scope(), null).compile(CCJSqlParserUtil.parseExpression(sql));
            return e.eval(new Object[0], new Object[0]);
        } catch (net.sf.jsqlparser.JSQLParserException e) {
            throw SqlErrors.syntax("DEFAULT " + sql + " is not an expression");
        }
    }
}
