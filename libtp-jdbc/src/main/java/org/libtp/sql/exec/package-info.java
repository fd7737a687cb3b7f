/**
 * The SQL layer: statements parsed by JSqlParser, compiled and run over the record API.
 *
 * <h2>Pieces</h2>
 * <ul>
 *   <li>{@link org.libtp.sql.exec.Engine}: one per open environment and JVM; the schema
 *       ({@code sql.schema}, read in each statement's transaction, so DDL is transactional and
 *       every process sees the same tables), sequences ({@code sql.seq}, handed out in blocks by
 *       short transactions of their own) and the cache of open database handles.</li>
 *   <li>{@link org.libtp.sql.exec.Session}: one connection's transaction (auto-commit or
 *       explicit) and statement dispatch.</li>
 *   <li>{@code Compiler} turns an expression tree into closures over a row array
 *       ({@code Scope}: the tables of a statement side by side); {@code Values} holds SQL's value
 *       semantics (three-valued logic, numeric promotion, conversions).</li>
 *   <li>{@code Access} chooses how one table is read: primary key lookup, primary key range,
 *       secondary index range, or full scan; for the inner tables of a join, with values of the
 *       tables before it (index nested loop). {@code Tables} reads along it; {@code Query},
 *       {@code Dml}, {@code Ddl} run the statements; {@code Indexes} keeps secondary indexes.</li>
 *   <li>{@code Prepared}: a prepared statement's parse tree and compiled plan, reused while the
 *       definitions of its tables are the very objects it was compiled against.</li>
 * </ul>
 *
 * <h2>Schema reads and plan reuse</h2>
 * A transaction reads the schema's {@code version} entry once (a read lock held to its end, so
 * no DDL of any process commits meanwhile) and then takes table definitions from a per-JVM cache
 * filled at that version; a DDL transaction increments {@code version} before its first change
 * and keeps what it reads out of the cache (its changes may roll back). A definition read anew
 * whose entry is unchanged is the same object as before, so plans compiled against it hold.
 *
 * <h2>Invariants</h2>
 * <ul>
 *   <li>A row is stored whole under its primary key; each index holds exactly one entry per row,
 *       (index values, primary key), written and removed in the row's transaction
 *       ({@link org.libtp.sql.exec.Engine#verifyIndexes} checks it).</li>
 *   <li>A statement makes every check (types, NOT NULL, primary and unique keys, within the
 *       statement and against the tables) before its first write, so one that fails changes
 *       nothing and its transaction can go on; a failure after a write ends the transaction.</li>
 *   <li>Locking is the record API's: two-phase page locks on the table and index B-trees, so
 *       every transaction is serializable, across threads and processes. UPDATE and DELETE read
 *       with write locks ({@code getForUpdate}), so two of them do not deadlock on an upgrade;
 *       an UPDATE of one row by its whole key, in a table without indexes and leaving the key
 *       alone, reads, changes and writes it in one descent ({@code Database.update}).</li>
 *   <li>An access path only narrows what is read: the whole WHERE clause is applied to every row
 *       it yields, so a conservative bound (an inexact literal, a NULL) is never wrong.</li>
 * </ul>
 */
package org.libtp.sql.exec;
