package org.libtp.bench.engine;

import org.h2.mvstore.MVStore;
import org.h2.mvstore.tx.TransactionStore;

import java.nio.file.Path;

/**
 * H2's MVStore (the storage engine under the H2 database, used directly) with a
 * {@link TransactionStore} on it: one file, a page cache in MiB, and the force that both
 * harnesses' {@code sync} adds after a commit.
 *
 * <p>A TransactionStore commit only marks the transaction committed in memory; the MVStore
 * writes changes to its file as a new chunk in a background thread (every second by default)
 * and never forces the file by itself. {@link #force} is what {@code sync} means in both
 * harnesses: a chunk written now ({@link MVStore#commit()}) and the file forced
 * ({@link MVStore#sync()}). Transactions left open by a crash are rolled back at open.
 * The store locks its file: one process only.
 */
public final class H2Engine implements AutoCloseable {
    private final Path file;
    private final MVStore store;
    private final TransactionStore txStore;

    private H2Engine(Path file, MVStore store, TransactionStore txStore) {
        this.file = file;
        this.store = store;
        this.txStore = txStore;
    }

    /** Opens (or creates) the store in {@code file}, its directory created if missing. */
    public static H2Engine open(Path file, long cacheBytes) {
        EngineDirs.create(file.toAbsolutePath().getParent());
        MVStore store;
        try {
            store = new MVStore.Builder()
                    .fileName(file.toAbsolutePath().toString())
                    .cacheSize((int) Math.max(1, Math.min(Integer.MAX_VALUE, cacheBytes >> 20)))
                    .open();
        } catch (RuntimeException e) {
            throw new IllegalStateException("H2: cannot open the MVStore " + file + ": " + e.getMessage(), e);
        }
        try {
            TransactionStore txStore = new TransactionStore(store);
            txStore.init();
            // transactions open at the last crash: rolled back
            txStore.endLeftoverTransactions();
            return new H2Engine(file, store, txStore);
        } catch (RuntimeException e) {
            store.closeImmediately();
            throw new IllegalStateException("H2: cannot open the transaction store of " + file + ": " + e.getMessage(), e);
        }
    }

    public Path file() {
        return file;
    }

    public MVStore store() {
        return store;
    }

    public TransactionStore txStore() {
        return txStore;
    }

    /** Writes the committed changes as a chunk and forces the file: {@code sync}'s commit. */
    public void force() {
        store.commit();
        store.sync();
    }

    /** For a failed open: closes the file without writing anything. */
    public void closeImmediately() {
        store.closeImmediately();
    }

    /** Closes the transaction store, then the MVStore (also when the first fails). */
    @Override
    public void close() {
        try {
            txStore.close();
        } finally {
            store.close();
        }
    }
}
