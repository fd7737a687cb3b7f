package org.libtp.sql.exec;

import org.libtp.core.DatabaseNotFoundException;
import org.libtp.db.Cursor;
import org.libtp.db.CursorIterable;
import org.libtp.db.Database;
import org.libtp.db.DatabaseConfig;
import org.libtp.db.Durability;
import org.libtp.db.Entry;
import org.libtp.db.Environment;
import org.libtp.db.KeyRange;
import org.libtp.db.Transaction;
import org.libtp.sql.schema.IndexDef;
import org.libtp.sql.schema.SchemaCodec;
import org.libtp.sql.schema.TableDef;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The SQL layer over one open {@link Environment}, shared by every connection of this JVM to it.
 * The schema is a B-tree database {@code sql.schema} ({@code t/NAME} → the table definition,
 * {@code next-id} → the next table and index number, {@code version} → a number every DDL
 * transaction increments), read inside each statement's transaction,
 * so DDL commits and rolls back with it and every process sees the same schema; sequences (row
 * ids, identity columns) are in {@code sql.seq}, handed out in blocks by short transactions of
 * their own, so that inserters do not queue on one counter (values lost with a block are gaps,
 * as in PostgreSQL and H2).
 */
public final class Engine {
    static final String SCHEMA = "sql.schema";
    static final String SEQ = "sql.seq";
    static final int SEQ_BLOCK = 64;

    private final Environment env;
    private final Database schema;
    private final Database seq;
    private final Map<String, Database> open = new ConcurrentHashMap<>();
    /** tableId → {next, limit} of this JVM's current block. */
    private final Map<Integer, long[]> blocks = new ConcurrentHashMap<>();

    public Engine(Environment env) {
        this.env = env;
        boolean ro = env.config().readOnly();
        DatabaseConfig create = DatabaseConfig.builder().allowCreate(!ro).build();
        Database s;
        Database q;
        try {
            // Opened without allowCreate first: creating would write-lock the catalog, and wait for
            // every transaction of other processes that has read it.
            s = openOrCreate(env, SCHEMA, create);
            q = openOrCreate(env, SEQ, create);
        } catch (DatabaseNotFoundException e) {
            s = null; // a read-only environment with no SQL table yet
            q = null;
        }
        this.schema = s;
        this.seq = q;
    }

    private static Database openOrCreate(Environment env, String name, DatabaseConfig create) {
        try {
            return env.openDatabase(null, name, DatabaseConfig.defaults());
        } catch (DatabaseNotFoundException e) {
            if (!create.allowCreate()) {
                throw e;
            }
            return env.openDatabase(null, name, create);
        }
    }

    public Environment environment() {
        return env;
    }

    static byte[] key(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A decoded table definition, the schema entry it was decoded from and the schema version it held at. */
    private record Known(byte[] key, byte[] entry, TableDef def, long version) {
    }

    /** The definitions last read, by table name; each is reused while its schema entry is unchanged. */
    private final Map<String, Known> known = new ConcurrentHashMap<>();

    /** What a transaction has read of the schema (and holds locked): the version and the definitions used. */
    private static final class ReadInTxn {
        long version = -1;
        /** The transaction changed the schema: what it reads is its own, not for the shared cache. */
        boolean changed;
        /** The transaction ran DDL (it may hold the catalog write-locked). */
        boolean ddl;
        final Map<String, TableDef> defs = new java.util.HashMap<>();
    }

    private static ReadInTxn readInTxn(Transaction t) {
        if (t.attachment() instanceof ReadInTxn r) {
            return r;
        }
        ReadInTxn r = new ReadInTxn();
        t.attach(r);
        return r;
    }

    /**
     * The table {@code name}, or null. A transaction reads the schema version ({@code version},
     * bumped by every DDL in the DDL's own transaction) once, and with it holds a read lock that
     * orders it against DDL of any process until it ends; a definition cached at that version is
     * used without reading its entry. An entry read anew is decoded only if it differs from the
     * one last seen, so an unchanged table keeps yielding the very same {@link TableDef} object:
     * that is how a prepared statement knows its compiled plan still holds.
     */
    TableDef table(Transaction t, String name) {
        if (schema == null) {
            return null;
        }
        ReadInTxn r = readInTxn(t);
        TableDef d = r.defs.get(name);
        if (d != null) {
            return d;
        }
        if (r.version < 0) {
            byte[] v = schema.get(t, VERSION);
            r.version = v == null ? 0 : ByteBuffer.wrap(v).getLong();
        }
        Known k = known.get(name);
        if (k != null && k.version() == r.version && !r.changed) {
            d = k.def();
        } else {
            d = readTable(t, name, k, r);
        }
        if (d != null) {
            r.defs.put(name, d);
        }
        return d;
    }

    private static final byte[] VERSION = key("version");

    private TableDef readTable(Transaction t, String name, Known k, ReadInTxn r) {
        byte[] key = k != null ? k.key() : key("t/" + name);
        Object got = schema.get(t, key, v -> k != null && v.equals(ByteBuffer.wrap(k.entry())) ? k : copy(v));
        if (got == null) {
            return null;
        }
        Known now = got == k ? k : new Known(key, (byte[]) got, SchemaCodec.decode((byte[]) got, name), r.version);
        if (!r.changed) {
            known.put(name, now.version() == r.version ? now : new Known(key, now.entry(), now.def(), r.version));
        }
        return now.def();
    }

    /** Marks {@code t} as running DDL: it may write the catalog, so databases are opened in it. */
    void ddl(Transaction t) {
        readInTxn(t).ddl = true;
    }

    private static boolean ranDdl(Transaction t) {
        return t.attachment() instanceof ReadInTxn r && (r.ddl || r.changed);
    }

    /**
     * The transaction changes table {@code name}'s definition: the schema version is bumped (once
     * per transaction, before the entry is written, so every cached definition stops holding when
     * it commits) and later statements of the transaction read the entry anew.
     */
    private void changing(Transaction t, String name) {
        ReadInTxn r = readInTxn(t);
        if (!r.changed) {
            byte[] v = schema.getForUpdate(t, VERSION);
            long next = (v == null ? 0 : ByteBuffer.wrap(v).getLong()) + 1;
            schema.put(t, VERSION, ByteBuffer.allocate(8).putLong(next).array());
            r.changed = true;
        }
        r.defs.remove(name);
    }

    private static byte[] copy(ByteBuffer v) {
        byte[] b = new byte[v.remaining()];
        v.duplicate().get(b);
        return b;
    }

    /** Every table, read in a read-only transaction of its own (for metadata). */
    public List<TableDef> tables() {
        return env.inTransaction(Durability.NO_SYNC, true, this::tables);
    }

    List<TableDef> tables(Transaction t) {
        List<TableDef> out = new ArrayList<>();
        if (schema == null) {
            return out;
        }
        try (CursorIterable all = schema.entries(t, KeyRange.prefix(key("t/")))) {
            for (Entry e : all) {
                String name = new String(e.key(), 2, e.key().length - 2, StandardCharsets.UTF_8);
                out.add(SchemaCodec.decode(e.data(), name));
            }
        }
        return out;
    }

    void putTable(Transaction t, TableDef d) {
        changing(t, d.name());
        schema.put(t, key("t/" + d.name()), SchemaCodec.encode(d));
    }

    void removeTable(Transaction t, String name) {
        changing(t, name);
        schema.delete(t, key("t/" + name));
    }

    /** The next table or index number (in {@code t}: DDL runs in the statement's transaction). */
    int nextId(Transaction t) {
        byte[] k = key("next-id");
        byte[] b = schema.getForUpdate(t, k);
        int id = b == null ? 1 : ByteBuffer.wrap(b).getInt();
        schema.put(t, k, ByteBuffer.allocate(4).putInt(id + 1).array());
        return id;
    }

    /** The data or index database {@code name} (opened once per JVM). */
    Database database(Transaction t, String name, boolean create) {
        Database d = open.get(name);
        if (d != null) {
            return d;
        }
        if (!create && !ranDdl(t)) {
            // In a short transaction of its own: opened in t, the catalog's read lock would be
            // held until t ends and keep DDL and new connections of every process waiting. (A
            // transaction that ran DDL may hold the catalog write-locked: it must open in t.)
            try {
                d = env.openDatabase(null, name, DatabaseConfig.defaults());
            } catch (DatabaseNotFoundException e) {
                d = null;
            }
        }
        if (d == null) {
            d = env.openDatabase(t, name, DatabaseConfig.builder().allowCreate(create).build());
        }
        if (create) {
            return d; // not cached: its creation may still roll back with t
        }
        Database prev = open.putIfAbsent(name, d);
        if (prev != null) {
            d.close();
            return prev;
        }
        return d;
    }

    /**
     * Forgets every cached handle: one went stale (its database was removed, or its creation
     * rolled back, by a transaction of any process), and the next statement opens them anew.
     */
    void forgetAll() {
        for (String n : List.copyOf(open.keySet())) {
            forget(n);
        }
    }

    /** Forgets a handle (the database was removed or its handle went stale). */
    void forget(String name) {
        Database d = open.remove(name);
        if (d != null) {
            try {
                d.close();
            } catch (RuntimeException ignored) {
                // already unusable
            }
        }
    }

    /**
     * The next value of table {@code tableId}'s sequence, at least {@code atLeast}: from this
     * JVM's block, or a new block taken in a transaction of its own.
     */
    long nextValue(int tableId, long atLeast) {
        long[] b = blocks.computeIfAbsent(tableId, k -> new long[2]);
        synchronized (b) {
            if (b[0] < atLeast) {
                b[0] = atLeast;
            }
            if (b[0] >= b[1]) {
                long want = b[0];
                long[] got = env.inTransaction(Durability.NO_SYNC, false, t -> {
                    byte[] k = key("s/" + tableId);
                    byte[] v = seq.getForUpdate(t, k);
                    long next = Math.max(v == null ? 1 : ByteBuffer.wrap(v).getLong(), want);
                    seq.put(t, k, ByteBuffer.allocate(8).putLong(next + SEQ_BLOCK).array());
                    return new long[] {next, next + SEQ_BLOCK};
                });
                b[0] = got[0];
                b[1] = got[1];
            }
            return b[0]++;
        }
    }

    /** Drops this JVM's cached block of a table's sequence (the table was dropped). */
    void forgetSequence(int tableId) {
        blocks.remove(tableId);
    }

    /**
     * Checks every secondary index against its table, in one read-only transaction: each row has
     * its entry in every index, and every entry names a row whose values it carries. Returns the
     * problems found (empty: consistent).
     */
    public List<String> verifyIndexes() {
        return env.inTransaction(Durability.NO_SYNC, true, t -> {
            List<String> problems = new ArrayList<>();
            for (TableDef d : tables(t)) {
                if (d.indexes().isEmpty()) {
                    continue;
                }
                Database data = database(t, d.dataName(), false);
                java.util.Map<java.nio.ByteBuffer, Object[]> rows = new java.util.HashMap<>();
                try (Cursor c = data.openCursor(t)) {
                    for (boolean ok = c.first(); ok; ok = c.next()) {
                        try {
                            rows.put(java.nio.ByteBuffer.wrap(c.key()), Tables.decode(d, c.data()));
                        } catch (java.sql.SQLException e) {
                            problems.add("table " + d.name() + ": a row does not decode: " + e.getMessage());
                        }
                    }
                }
                for (IndexDef x : d.indexes()) {
                    Database idx = database(t, d.indexName(x), false);
                    java.util.Set<java.nio.ByteBuffer> entries = new java.util.HashSet<>();
                    try (Cursor c = idx.openCursor(t)) {
                        for (boolean ok = c.first(); ok; ok = c.next()) {
                            entries.add(java.nio.ByteBuffer.wrap(c.key()));
                        }
                    }
                    int missing = 0;
                    for (java.util.Map.Entry<java.nio.ByteBuffer, Object[]> r : rows.entrySet()) {
                        byte[] e = Indexes.entry(d, x, r.getValue(), r.getKey().array());
                        if (!entries.remove(java.nio.ByteBuffer.wrap(e))) {
                            missing++;
                        }
                    }
                    if (missing > 0) {
                        problems.add("index " + x.name() + " of table " + d.name() + " lacks the entries of " + missing
                                + " rows");
                    }
                    if (!entries.isEmpty()) {
                        problems.add("index " + x.name() + " of table " + d.name() + " has " + entries.size()
                                + " entries no row matches");
                    }
                }
            }
            return problems;
        });
    }

    public void close() {
        for (String n : List.copyOf(open.keySet())) {
            forget(n);
        }
        if (schema != null) {
            schema.close();
        }
        if (seq != null) {
            seq.close();
        }
    }
}
