/**
 * The record API, in the style of Berkeley DB and lmdbjava: {@link org.libtp.db.Environment}
 * (open a directory in one of the paper's {@link org.libtp.db.OpenMode}s), {@link org.libtp.db.Transaction},
 * {@link org.libtp.db.Database} (get, put, putIfAbsent, delete) and {@link org.libtp.db.Cursor}.
 * Databases are named in a transactional catalog. Misuse gets a clear exception: a closed handle
 * or a finished transaction {@link java.lang.IllegalStateException}, a bad key or name
 * {@link java.lang.IllegalArgumentException}; lock conflicts {@link org.libtp.core.DeadlockException}
 * or {@link org.libtp.core.LockTimeoutException} (abort and retry); a damaged page
 * {@link org.libtp.core.CorruptionException}.
 */
package org.libtp.db;
