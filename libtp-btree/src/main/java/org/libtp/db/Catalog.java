package org.libtp.db;

import org.libtp.btree.AccessMethods;
import org.libtp.btree.Recno;
import org.libtp.core.CorruptionException;
import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.lock.LockMode;
import org.libtp.core.lock.LockObject;
import org.libtp.core.txn.Txn;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The catalog: a B-tree (file {@code catalog.libtp}) from database name to
 * {@code "1|TYPE|fileName"}. It is always transactional, whatever the open mode: creating,
 * renaming and removing a database commit or abort with their transaction (or one of their own).
 * A removed database's file stays on disk (not yet reclaimed: it is registered with the buffer
 * pool, which has no way yet to forget a file); creating a database of that name again uses a
 * new file.
 */
final class Catalog {
    static final String FILE = "catalog.libtp";
    private final Environment env;
    private AccessMethods.Tree tree;

    Catalog(Environment env) {
        this.env = env;
    }

    static void checkName(String name) {
        if (name == null || name.isEmpty() || name.length() > 100 || !name.matches("[A-Za-z0-9_.-]+")
                || name.equals(".") || name.equals("..")) {
            throw new IllegalArgumentException("database name '" + name + "' must be 1..100 characters of [A-Za-z0-9_.-]");
        }
    }

    /** Opens the catalog, creating it (serialized by a lock on the whole file) if new. */
    void open() {
        int file = env.tp.buffers().open(FILE);
        tree = env.am.newTree(file, null);
        if (env.tp.buffers().pageCount(file) > 1) {
            return;
        }
        inTxn(null, t -> {
            env.tp.locks().lock(t, new LockObject(file, LockObject.WHOLE_FILE), LockMode.WRITE, 0);
            if (env.tp.buffers().pageCount(file) <= 1) {
                tree.create(t);
            }
            return null;
        });
    }

    /** Runs {@code op} in the caller's transaction, or in one of its own (retried after a deadlock). */
    private <T> T inTxn(Transaction txn, java.util.function.Function<Txn, T> op) {
        return inTxn(txn, true, op);
    }

    private <T> T inTxn(Transaction txn, boolean write, java.util.function.Function<Txn, T> op) {
        if (txn != null) {
            if (write) {
                txn.checkWritable();
            }
            return op.apply(txn.txn);
        }
        return env.autoCommit(op);
    }

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    Database open(Transaction txn, String name, DatabaseConfig config) {
        String[] entry = inTxn(txn, config.allowCreate(), t -> {
            String fileName = freshFileName(name);
            String value = "1|" + config.type() + "|" + fileName
                    + (config.type() == DatabaseType.RECNO ? "|" + config.recordLength() : "");
            byte[] existing = config.allowCreate()
                    ? tree.put(t, bytes(name), bytes(value), true)
                    : tree.get(t, bytes(name));
            if (existing == null && !config.allowCreate()) {
                throw new DatabaseNotFoundException("database " + name + " does not exist in "
                        + env.home() + "; open it with DatabaseConfig.allowCreate(true) to create it");
            }
            if (existing == null) { // created now, in t
                int file = env.tp.buffers().open(fileName);
                boolean tp = env.config.mode() == OpenMode.TP;
                if (config.type() == DatabaseType.RECNO) {
                    env.am.recno(file).create(tp ? t : null, config.recordLength());
                } else {
                    env.am.newTree(file, config.keyOrder()).create(tp ? t : null);
                }
                if (!tp) {
                    env.tp.buffers().flush(file); // unlogged: on disk before the catalog entry commits
                }
                return new String[] {value, "created"};
            }
            return new String[] {new String(existing, StandardCharsets.UTF_8), "existing"};
        });
        String[] parts = entry[0].split("\\|");
        if (parts.length < 3 || parts.length > 4 || !parts[0].equals("1") || !isFileName(parts[2])
                || java.util.Arrays.stream(DatabaseType.values()).noneMatch(x -> x.name().equals(parts[1]))) {
            throw new CorruptionException("catalog entry of database " + name + " in " + env.home()
                    + " is damaged: '" + entry[0] + "'");
        }
        if (!parts[1].equals(config.type().name())) {
            throw new IllegalArgumentException("database " + name + " is a " + parts[1] + " database, not "
                    + config.type());
        }
        int file = env.tp.buffers().open(parts[2]);
        long generation = env.tp.buffers().generation(file);
        if (config.type() == DatabaseType.RECNO) {
            Recno r = env.am.recno(file);
            r.open();
            return new Database(env, name, null, r, config, file, parts[2], generation);
        }
        AccessMethods.Tree t = env.am.tree(file);
        if (config.keyOrder() != null && !config.keyOrder().equals(t.keyOrder())) {
            throw new IllegalArgumentException("database " + name + " orders its keys by "
                    + (t.keyOrder() == null ? "unsigned bytes (the default)" : "'" + t.keyOrder() + "'")
                    + ", not '" + config.keyOrder() + "'");
        }
        return new Database(env, name, t, null, config, file, parts[2], generation);
    }

    /**
     * A file name no database used: {@code name.db}, or {@code name+N.db} when that exists (a
     * removed database's file, or one whose creation rolled back: reusing it would bring its old
     * pages back). '+' is not allowed in names, so no other database's file can have it. A name
     * whose file would look like one of the environment's own ({@code log.*}, {@code __libtp*})
     * gets a leading '+': database "log" lives in {@code +log.db}.
     */
    private String freshFileName(String name) {
        String base = (name + ".db").startsWith("log.") || name.startsWith("__libtp") ? "+" + name : name;
        String fileName = base + ".db";
        for (int n = 1; java.nio.file.Files.exists(env.home().resolve(fileName)); n++) {
            fileName = base + "+" + n + ".db";
        }
        return fileName;
    }

    void remove(Transaction txn, String name) {
        inTxn(txn, t -> {
            byte[] v = tree.delete(t, bytes(name));
            if (v == null) {
                throw new DatabaseNotFoundException("database " + name + " does not exist in " + env.home());
            }
            invalidateHandles(v);
            return null;
        });
    }

    void rename(Transaction txn, String from, String to) {
        inTxn(txn, t -> {
            byte[] v = tree.get(t, bytes(from));
            if (v == null) {
                throw new DatabaseNotFoundException("database " + from + " does not exist in " + env.home());
            }
            if (tree.put(t, bytes(to), v, true) != null) {
                throw new IllegalArgumentException("database " + to + " already exists in " + env.home());
            }
            tree.delete(t, bytes(from));
            invalidateHandles(v);
            return null;
        });
    }

    /**
     * Raises the generation of the file of catalog entry {@code entry}: every handle on it, in
     * every process, looks the database up again before its next call (see
     * {@link Database#checkCurrent}). Raised before the change commits: a handle that looks up
     * meanwhile waits for the catalog lock, and finds the entry again if the change aborts.
     */
    private void invalidateHandles(byte[] entry) {
        String fileName = fileName(new String(entry, StandardCharsets.UTF_8));
        if (fileName != null) {
            env.tp.buffers().raiseGeneration(env.tp.buffers().open(fileName));
        }
    }

    /** The file name of a catalog entry "1|TYPE|fileName[|recordLength]", or null if damaged. */
    static String fileName(String entry) {
        String[] parts = entry.split("\\|");
        return parts.length >= 3 && isFileName(parts[2]) ? parts[2] : null;
    }

    /**
     * True if {@code f} can be a database's data file: the buffer manager's rule for data file
     * names (it throws IllegalArgumentException for others, which a damaged entry must not reach).
     */
    static boolean isFileName(String f) {
        return f.length() <= 224 && f.matches("[A-Za-z0-9_.+-]+") && !f.startsWith("__libtp") && !f.startsWith("log.")
                && !f.equals(".") && !f.equals("..");
    }

    /**
     * The file of database {@code name} as {@code t} sees the catalog, or null if there is no such
     * database. {@code t} null: a transaction of its own.
     */
    String fileOf(Txn t, String name) {
        if (t == null) {
            return env.autoCommit(own -> fileOf(own, name));
        }
        byte[] v = tree.get(t, bytes(name));
        return v == null ? null : fileName(new String(v, StandardCharsets.UTF_8));
    }

    /**
     * Salvage: enters every registered data file that no catalog entry names under a name taken
     * from its file name ({@code NAME.db} or {@code NAME+N.db}; a name already taken gets
     * {@code .salvagedK}), with the type its meta page shows. Returns the names entered.
     */
    List<String> adoptUnnamedFiles() {
        Map<String, String> byFile = new java.util.HashMap<>();
        inTxn(null, false, t -> {
            tree.scan(t, null, (k, d) -> {
                byFile.put(fileName(new String(d, StandardCharsets.UTF_8)), new String(k, StandardCharsets.UTF_8));
                return true;
            });
            return null;
        });
        List<String> adopted = new ArrayList<>();
        List<String> files = new ArrayList<>(env.tp.buffers().registeredNames());
        java.util.Collections.sort(files);
        for (String f : files) {
            if (f.equals(FILE) || byFile.containsKey(f) || !f.endsWith(".db")) {
                continue;
            }
            int id = env.tp.buffers().open(f);
            String kind = env.am.kindOf(id);
            if (kind == null) {
                org.slf4j.LoggerFactory.getLogger(Catalog.class).warn("salvage: data file {} of {} has no readable meta "
                        + "page; it is left out of the catalog", f, env.home());
                continue;
            }
            String base = f.substring(0, f.length() - 3);
            if (base.startsWith("+")) {
                base = base.substring(1); // a name whose file would look like the environment's own
            }
            int plus = base.indexOf('+');
            String name = plus > 0 ? base.substring(0, plus) : base;
            String candidate = name;
            for (int k = 1; names().contains(candidate); k++) {
                candidate = name + ".salvaged" + k;
            }
            String value = "1|" + kind + "|" + f;
            if ("RECNO".equals(kind)) {
                Recno r = env.am.recno(id);
                r.open();
                value += "|" + r.recordLength();
            }
            String chosen = candidate;
            String entry = value;
            inTxn(null, t -> tree.put(t, bytes(chosen), bytes(entry), true));
            adopted.add(chosen);
        }
        return adopted;
    }

    /** The type of database {@code name}, or null if there is none. */
    DatabaseType type(String name) {
        byte[] entry = inTxn(null, false, t -> tree.get(t, bytes(name)));
        if (entry == null) {
            return null;
        }
        String[] parts = new String(entry, StandardCharsets.UTF_8).split("\\|");
        for (DatabaseType type : DatabaseType.values()) {
            if (parts.length >= 3 && parts[0].equals("1") && parts[1].equals(type.name())) {
                return type;
            }
        }
        throw new CorruptionException("catalog entry of database " + name + " in " + env.home()
                + " is damaged: '" + new String(entry, StandardCharsets.UTF_8) + "'");
    }

    List<String> names() {
        return inTxn(null, false, t -> {
            List<String> out = new ArrayList<>();
            tree.scan(t, null, (k, d) -> out.add(new String(k, StandardCharsets.UTF_8)));
            return out;
        });
    }
}
