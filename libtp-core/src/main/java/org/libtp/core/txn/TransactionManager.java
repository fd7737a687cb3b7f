package org.libtp.core.txn;

import org.libtp.core.log.Durability;

import java.util.List;

/**
 * The transaction manager (paper 3.2.5): begin, commit and abort; a transaction table in shared
 * memory with ids unique across processes; checkpoints; recovery when it opens first.
 */
public interface TransactionManager extends AutoCloseable {

    /** Begins a transaction with the configured durability. */
    Txn begin();

    /** Begins a transaction whose commit waits as {@code durability} says. */
    Txn begin(Durability durability);

    /**
     * Commits: writes the commit record and waits for its durability (a transaction that wrote
     * nothing writes and forces nothing). Returns only when the commit is as durable as asked.
     */
    void commit(Txn txn);

    /** Aborts: undoes the transaction's changes through its prev-LSN chain (log_unroll). */
    void abort(Txn txn);

    /** Takes a checkpoint now; returns the LSN of its record. */
    long checkpoint();

    /** The id the next transaction to begin will get (ids grow across all processes). */
    long nextId();

    /**
     * An id such that every transaction with a smaller id has ended: the least id in the table,
     * or {@link #nextId()} if none is active. Space freed while a transaction was active (a page
     * a concurrent descent may still point to) is reusable once this passes the id that was next
     * when it was freed.
     */
    long oldestActiveId();

    /** Active transactions in the shared table now. */
    int activeCount();

    /**
     * A transaction in the table now.
     *
     * @param processSlot the process registry slot of the process that began it
     * @param state running, committing or aborting
     */
    record ActiveTransaction(long id, int processSlot, long beginMillis, String state) {
    }

    /** The transactions in the table now, read without its latch (a snapshot for tools). */
    List<ActiveTransaction> activeTransactions();

    @Override
    void close();
}
