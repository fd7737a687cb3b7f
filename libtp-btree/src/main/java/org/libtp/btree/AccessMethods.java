package org.libtp.btree;

import org.libtp.core.buffer.Page;
import org.libtp.core.buffer.BufferManager;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.ResourceManager;
import org.libtp.core.txn.Txn;

import java.util.Comparator;
import java.util.List;
import java.util.function.BiPredicate;
import java.util.function.Function;

/**
 * The access methods' face to the record API ({@code org.libtp.db}): trees opened on the
 * environment's managers, with each operation locked and logged per the open mode (a null
 * transaction: no page locks and no log, for the unprotected and SHARED modes).
 */
public final class AccessMethods {
    private final TxnEnvironment tp;
    private final Function<String, Comparator<byte[]>> orders;
    private final EndActions endActions = new EndActions();
    private final Btree.Epochs epochs;

    /** {@code orders}: the registered key orders by name (null for an unknown name). */
    public AccessMethods(TxnEnvironment tp, Function<String, Comparator<byte[]>> orders) {
        this.tp = tp;
        this.orders = orders;
        this.epochs = new Btree.Epochs() {
            @Override
            public long nextId() {
                return tp.txn().nextId();
            }

            @Override
            public long oldestActive() {
                return tp.txn().oldestActiveId();
            }
        };
    }

    /**
     * Tells the access methods that {@code txn} (of this process) has committed or aborted:
     * frees the overflow pages its committed deletes and replaces (or its aborted inserts) left
     * unused and unlinks the leaves its committed deletes emptied, in a transaction of their own
     * committed without a force (a crash before that log reaches the disk leaks the pages, no
     * more). Call after every commit and abort.
     */
    public void ended(Txn txn, boolean committed) {
        endActions.ended(tp, txn, committed);
    }

    /**
     * Registers the B-tree's log record codecs with the core's record registry, for a process
     * that reads a log without opening an environment ({@code libtp printlog}); opening one does it.
     */
    public static void registerLogRecords() {
        BtreeLeafRecord.register();
        BtreeReplaceRecord.register();
    }

    /**
     * The record manager to register with the transaction manager (redo/undo of B-tree
     * records); {@code orders} resolves the key order names recorded in B-tree meta pages.
     */
    public static ResourceManager recordManager(BufferManager pool, Function<String, Comparator<byte[]>> orders) {
        return new BtreeRecords(pool, orders);
    }

    /** A tree to be created with key order {@code orderName} (null: unsigned bytes). */
    public Tree newTree(int fileId, String orderName) {
        return new Tree(new Btree(tp.buffers(), fileId, Btree.resolve(orderName, orders, fileId), orderName, epochs));
    }

    /** An existing tree, in the key order its meta page names. */
    public Tree tree(int fileId) {
        String name = Btree.orderName(tp.buffers(), fileId);
        return new Tree(new Btree(tp.buffers(), fileId, Btree.resolve(name, orders, fileId), name, epochs));
    }

    /**
     * What kind of database file {@code fileId} holds, from its meta page: "BTREE", "RECNO", or
     * null if page 0 is neither (never written, or damaged). For salvage.
     */
    public String kindOf(int fileId) {
        if (tp.buffers().pageCount(fileId) == 0) {
            return null;
        }
        Page p = tp.buffers().get(fileId, 0, 0);
        try {
            int t = p.type();
            return t == BtreePage.META ? "BTREE" : t == RecnoPage.META_TYPE ? "RECNO" : null;
        } finally {
            tp.buffers().unpin(p, false);
        }
    }

    /** A recno database on registered file {@code fileId}. */
    public Recno recno(int fileId) {
        return new Recno(tp.buffers(), tp.pages(), tp.locks(), fileId);
    }

    /** Operations on one tree. {@code txn} null: unprotected (no page locks, no logging). */
    public final class Tree {
        private final Btree tree;

        Tree(Btree tree) {
            this.tree = tree;
        }

        /** This thread's last protection on this tree: a transaction's operations reuse it. */
        private final ThreadLocal<TxnProtection> lastProtection = new ThreadLocal<>();

        private Protection prot(Txn txn) {
            if (txn == null) {
                return Protection.NONE;
            }
            TxnProtection p = lastProtection.get();
            if (p == null || p.txn != txn) {
                p = new TxnProtection(tp.locks(), txn, tree.file);
                lastProtection.set(p);
            }
            return p;
        }

        private BtreeLog log(Txn txn) {
            return txn == null ? BtreeLog.NONE : new TxnBtreeLog(txn, tp.pages(), endActions);
        }

        public int fileId() {
            return tree.file;
        }

        /** The name of the tree's key order, null for unsigned bytes. */
        public String keyOrder() {
            return tree.orderName;
        }

        /** The tree's key order. */
        public Comparator<byte[]> comparator() {
            return tree.cmp;
        }

        public int maxKey() {
            return tree.maxKey;
        }

        /** Formats an empty tree in a new file (logged in {@code txn} if not null). */
        public void create(Txn txn) {
            tree.create(log(txn));
        }

        public byte[] get(Txn txn, byte[] key) {
            return tree.get(key, prot(txn));
        }

        /** Read-modify-write of {@code key} in one descent; null if absent. */
        public byte[] update(Txn txn, byte[] key, java.util.function.UnaryOperator<byte[]> change) {
            return tree.update(key, change, prot(txn), log(txn));
        }

        /** {@link #get}, write-locking the leaf for the update that follows. */
        public byte[] getForUpdate(Txn txn, byte[] key) {
            return tree.get(key, prot(txn), true);
        }

        public <T> T read(Txn txn, byte[] key, java.util.function.Function<java.nio.ByteBuffer, T> reader) {
            return tree.read(key, prot(txn), reader);
        }

        public byte[] put(Txn txn, byte[] key, byte[] data, boolean onlyIfAbsent) {
            return tree.put(key, data, onlyIfAbsent, prot(txn), log(txn));
        }

        public byte[] delete(Txn txn, byte[] key) {
            tree.checkKey(key);
            return tree.delete(key, prot(txn), log(txn));
        }

        /** {key, data} of the least key &gt;= (inclusive) or &gt; key (null: the first), or null. */
        public byte[][] ceiling(Txn txn, byte[] key, boolean inclusive) {
            return tree.ceiling(key, inclusive, prot(txn));
        }

        /**
         * Cursor steps: {key, data, page, slot} of the first entry &gt;= (inclusive) or &gt; key
         * (null: the first), or null.
         */
        public Object[] seek(Txn txn, byte[] key, boolean inclusive) {
            return out(tree.seek(key, inclusive, prot(txn)));
        }

        /** The entry after the one a {@link #seek} or {@link #next} returned. */
        public Object[] next(Txn txn, Object[] at) {
            return out(tree.next(new Btree.Position((byte[]) at[0], (byte[]) at[1], (Long) at[2], (Integer) at[3]),
                    prot(txn)));
        }

        private Object[] out(Btree.Position p) {
            return p == null ? null : new Object[] {p.key(), p.data(), p.page(), p.slot()};
        }

        /** {key, data} of the greatest key &lt; key (null: the last), or null. */
        public byte[][] lower(Txn txn, byte[] key) {
            return tree.floorBelow(key, prot(txn));
        }

        public void scan(Txn txn, byte[] from, BiPredicate<byte[], byte[]> visitor) {
            tree.scan(from, prot(txn), visitor);
        }

        /** {levels, pages, entries, leafPages, leafFillPercent, freePages}. */
        public double[] stats() {
            Btree.Stats s = tree.stats();
            return new double[] {s.levels(), s.pages(), s.entries(), s.leafPages(), s.leafFill(), s.freePages()};
        }

        /** Unlinks empty leaves left behind; returns the pages freed. */
        public long compact(Txn txn) {
            return tree.compact(prot(txn), log(txn));
        }

        public List<String> verify() {
            return tree.verify();
        }
    }
}
