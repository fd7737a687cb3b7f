package org.libtp.btree;

import org.libtp.core.log.Durability;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.Txn;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What to do when a transaction of this process ends: free the overflow chains its committed
 * deletes and replaces stopped using (or its aborted inserts wrote), unlink the leaves its
 * committed deletes emptied. In-process only: a transaction whose process dies leaves those
 * pages allocated (a leak, never a corruption).
 */
final class EndActions {
    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(EndActions.class);

    /** An action on tree file {@code file}. */
    record Action(int file, BtreeLog.EndAction action) {
    }

    private final ConcurrentHashMap<Long, List<Action>[]> pending = new ConcurrentHashMap<>();

    @SuppressWarnings({"unchecked", "rawtypes"}) // an array of two lists: commit actions, abort actions
    void add(long txnId, boolean onCommit, int file, BtreeLog.EndAction action) {
        List<Action>[] lists = pending.computeIfAbsent(txnId, id -> new List[] {new ArrayList<>(), new ArrayList<>()});
        synchronized (lists) {
            lists[onCommit ? 0 : 1].add(new Action(file, action));
        }
    }

    /** Removes and returns the actions for transaction {@code txnId} ending as {@code committed}. */
    List<Action> take(long txnId, boolean committed) {
        if (pending.isEmpty()) { // most transactions: no boxing of the id, no lookup
            return List.of();
        }
        List<Action>[] lists = pending.remove(txnId);
        if (lists == null) {
            return List.of();
        }
        synchronized (lists) {
            return lists[committed ? 0 : 1];
        }
    }

    /** Runs the actions of {@code txn}, which has committed or aborted (see {@link AccessMethods#ended}). */
    void ended(TxnEnvironment tp, Txn txn, boolean committed) {
        List<Action> actions = take(txn.id(), committed);
        if (actions.isEmpty()) {
            return;
        }
        // The transaction has ended as asked whatever happens here: a failure leaks the pages
        // (reported, not thrown); an environment failure shows on the next call.
        Txn sys = null;
        try {
            sys = tp.txn().begin(Durability.WRITE_NO_SYNC);
            BtreeLog log = new TxnBtreeLog(sys, tp.pages(), this);
            log.ensureSpace(4L * tp.buffers().pageSize() * actions.size()); // freeing logs page images
            for (Action a : actions) {
                a.action().run(new TxnProtection(tp.locks(), sys, a.file()), log);
            }
            tp.txn().commit(sys);
        } catch (RuntimeException e) {
            LOG.warn("pages left unused by transaction {} in {} were not all freed (they stay allocated): {}",
                    txn.id(), tp.env().home(), e.toString());
            if (sys != null && !sys.isFinished()) {
                try {
                    tp.txn().abort(sys); // redo-only images: nothing to undo
                } catch (RuntimeException e2) {
                    e.addSuppressed(e2);
                }
            }
        }
    }
}
