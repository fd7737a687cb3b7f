package org.libtp.db;

/** Access methods. */
public enum DatabaseType {
    /** A B-link tree of byte-array keys (ordered by the database's comparator) and data. */
    BTREE,
    /** Fixed-length records numbered from 1 ({@link DatabaseConfig#recordLength()} bytes each). */
    RECNO
}
