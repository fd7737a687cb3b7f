/**
 * The SQL schema as stored: {@link org.libtp.sql.schema.TableDef} (columns, primary key,
 * secondary indexes, schema version) with its codec {@link org.libtp.sql.schema.SchemaCodec}
 * (the byte layout is in {@code docs/formats.md}). Immutable values; the engine reads and writes
 * them in the transaction of the statement that uses or changes them.
 */
package org.libtp.sql.schema;
