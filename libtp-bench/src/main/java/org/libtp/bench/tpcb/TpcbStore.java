package org.libtp.bench.tpcb;

/**
 * One engine's TPC-B database (paper 5.1): accounts, tellers, branches and history, with the
 * records of {@link TpcbRecords}. The runner drives every engine through this interface only, so
 * all of them run the same workload code. Open one per process; {@link #session} once per worker
 * thread.
 */
public interface TpcbStore extends AutoCloseable {

    /** What {@link #sums} returns: the four totals of the consistency check, and history rows. */
    record Sums(long accounts, long tellers, long branches, long history, long historyRows) {
        /** TPC-B's consistency condition: every total equals the sum of the history deltas. */
        public boolean consistent() {
            return accounts == history && tellers == history && branches == history;
        }
    }

    /** The engine's name as the command line gives it (libtp, notp, sqlite...). */
    String engine();

    /**
     * What a commit guarantees in this configuration, for the result line: {@code sync}
     * (forced to disk before commit returns), {@code nosync} (written to the OS or kept in a
     * shared cache: survives the process, not the OS) or {@code none} (no atomicity either).
     */
    String durability();

    /** True if the tables already hold a database of {@code shape} (loaded by an earlier run). */
    boolean loaded(TpcbShape shape);

    /**
     * Creates the tables and fills them: every balance 0, history empty. Called once, by one
     * process, before any session; durable when it returns.
     */
    void load(TpcbShape shape);

    /** A session for one worker thread. */
    TpcbSession session();

    /** Scans the four tables (with nothing else running). */
    Sums sums();

    /**
     * Log forces made so far by every process of the environment, for the result's
     * {@code logForcesPerSec} and {@code commitsPerForce}; -1 if the engine does not tell.
     */
    default long logForces() {
        return -1;
    }

    /**
     * Lock requests that had to wait so far, in every process of the environment, for the
     * result's {@code lockWaitsPerTxn}; -1 if the engine does not tell.
     */
    default long lockWaits() {
        return -1;
    }

    /** Whether {@code --processes N > 1} works: several JVMs on this store at once. */
    boolean multiProcess();

    @Override
    void close();

    /** One worker thread's handle. Not thread-safe. */
    interface TpcbSession extends AutoCloseable {
        /**
         * The TPC-B transaction: adds {@code delta} to account {@code aid}, teller {@code tid}
         * and branch {@code bid} and appends a history record; commits. Returns false if the
         * engine aborted it (a deadlock victim): then nothing of it remains.
         */
        boolean transfer(int aid, int tid, int bid, long delta);

        /**
         * The paper's read-only transaction (figure 8, READ-ONLY): reads the account, teller and
         * branch; returns the sum of their balances (so that the reads cannot be optimized
         * away) or {@link Long#MIN_VALUE} if it was aborted.
         */
        long readOnly(int aid, int tid, int bid);

        @Override
        void close();
    }
}
