package org.libtp.bench.oo1;

/**
 * One engine's OO1 database (paper 5.2, Cattell's OO1): parts in a B-tree by id, connections
 * (exactly three from every part) with an index on their {@code from} field and one on their
 * {@code to} field. The store offers only record-level primitives inside a transaction
 * ({@link Reader}, {@link Writer}); the tests themselves ({@link Oo1Workload}) are the same code
 * for every engine, as in the paper, where the frontend does an index lookup to find a
 * connected part's id and then another lookup to fetch the part.
 *
 * <p>Records are those of {@link Oo1Records}; an engine may keep them in its own natural form
 * (SQLite keeps columns) as long as it stores the same database.
 */
public interface Oo1Store extends AutoCloseable {

    /** A part: id from 1, a 10-character type, x and y in [0, 99999], a build date (ms). */
    record Part(int id, String type, int x, int y, long build) {
    }

    /** A connection from part {@code from} to part {@code to}, with a 10-character type and a length. */
    record Connection(int from, int to, String type, int length) {
    }

    /**
     * What {@link #counts} found: parts, connections, and the entries of the from- and
     * to-indexes (each equal to {@code connections} in a consistent store).
     */
    record Counts(long parts, long connections, long fromEntries, long toEntries) {
    }

    /** The null procedure of the tests: called with the x and y of every part fetched. */
    @FunctionalInterface
    interface PartVisitor {
        void visit(int x, int y);
    }

    /** The reads of one transaction. Valid only inside the task it was given to. */
    interface Reader {
        /** Fetches part {@code id} and calls {@code v} with its x and y; false if there is no such part. */
        boolean part(int id, PartVisitor v);

        /**
         * Appends to {@code toIds} the {@code to} of every connection from part {@code id}, found
         * through the from-index and read from the connection records.
         */
        void connectionsFrom(int id, IntList toIds);

        /** Appends to {@code fromIds} the {@code from} of every connection into part {@code id} (the to-index). */
        void connectionsTo(int id, IntList fromIds);

        /** The highest part id stored (0 if none). */
        int maxPartId();
    }

    /** The reads and writes of one write transaction. */
    interface Writer extends Reader {
        /** Stores part {@code p} under its id (a new id: parts are never replaced). */
        void putPart(Part p);

        /** Appends connection {@code c} (the next record number) and its two index entries; returns the record number. */
        long addConnection(Connection c);
    }

    @FunctionalInterface
    interface ReadTask<T> {
        T run(Reader r);
    }

    @FunctionalInterface
    interface WriteTask<T> {
        T run(Writer w);
    }

    /** The engine's name as the command line gives it (libtp, notp, sqlite...). */
    String engine();

    /**
     * What the insert test's commit guarantees, for the result line: {@code sync} (forced to
     * disk before commit returns), {@code nosync} (not forced; see the engine's class comment
     * for how far it gets) or {@code none} (no atomicity either: the unprotected baselines).
     */
    String durability();

    /** Runs {@code task} in one read-only transaction (or the engine's equivalent) and returns its result. */
    <T> T read(ReadTask<T> task);

    /** Runs {@code task} in one write transaction committed with the store's durability. */
    <T> T write(WriteTask<T> task);

    /**
     * Loading: runs {@code task} in one write transaction whose commit need not be forced;
     * {@link #flush} makes every bulk transaction durable.
     */
    void bulk(WriteTask<?> task);

    /** Makes everything written so far durable (and, where the engine has one, checkpoints). */
    void flush();

    /** Counts the parts, connections and index entries (scans; for checks, not for timing). */
    Counts counts();

    @Override
    void close();
}
