/**
 * Value encodings of the SQL layer: {@link org.libtp.sql.codec.KeyCodec} (memcomparable keys:
 * unsigned byte order is SQL order, so range predicates are key ranges) and
 * {@link org.libtp.sql.codec.RowCodec} (compact rows: null bitmap and typed values, with the
 * schema version and column count they were written with). Both decode strictly: anything their
 * encoder cannot produce is a {@link org.libtp.core.CorruptionException}. {@link
 * org.libtp.sql.codec.SqlType}'s order is frozen: its ordinals are type ids on disk.
 */
package org.libtp.sql.codec;
