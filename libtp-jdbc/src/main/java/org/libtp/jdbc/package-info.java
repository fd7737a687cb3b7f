/**
 * The JDBC driver: {@code jdbc:libtp:<dir>[;option=value...]} ({@link org.libtp.jdbc.LibTpDriver},
 * {@link org.libtp.jdbc.LibTpDataSource}) over the SQL layer ({@code org.libtp.sql.exec}), which
 * runs each statement in a record-API transaction of the connection's session.
 *
 * <h2>Design</h2>
 * <ul>
 *   <li><b>One environment per directory and JVM</b>: connections share it (reference-counted,
 *       closed with the last connection); connections in other JVMs open their own and the
 *       environment's shared memory makes them one database (page locks, group commit).</li>
 *   <li><b>Parsing</b> is JSqlParser's; the SQL layer compiles the tree once per execution into
 *       closures over a row array, plans one access path per table (primary key point lookup,
 *       key range, full scan: {@code EXPLAIN} shows it) and materializes results.</li>
 *   <li><b>Storage</b>: a table is a B-tree keyed by the memcomparable encoding of its primary
 *       key ({@code org.libtp.sql.codec.KeyCodec}), rows in {@code RowCodec}'s format; the schema
 *       is a B-tree ({@code sql.schema}) read in each statement's transaction, so DDL commits and
 *       rolls back with it.</li>
 *   <li><b>Errors</b>: every engine exception is mapped to an SQLException with the SQLState
 *       frameworks use (40001 deadlock or lock timeout: retry; 23505/23502; 42xxx; 08xxx for a
 *       failed or damaged environment); a statement that fails its checks changes nothing.</li>
 * </ul>
 *
 * <h2>Tests</h2>
 * Besides unit tests per feature: a differential test against H2 (seeded random queries, joins,
 * grouping and DML on both engines, results compared; {@code org.libtp.sql.diff}), jqwik
 * properties (generated WHERE and ORDER BY against H2; mutated and random SQL must give only
 * SQLExceptions), HikariCP as a client, two JVMs transferring at once, DDL of another JVM seen by
 * prepared statements, and a SIGKILL crash test of JDBC workers.
 *
 * <h2>Not yet</h2>
 * MERGE (the upsert form is INSERT ... ON CONFLICT), savepoints (no nested transactions), subqueries,
 * UNION, IN lists as key lookups, streaming results (a query's rows are materialized).
 */
package org.libtp.jdbc;
