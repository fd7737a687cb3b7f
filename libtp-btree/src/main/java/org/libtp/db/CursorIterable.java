package org.libtp.db;

import java.util.Iterator;
import java.util.stream.Stream;

/**
 * The entries of a key range, read through a cursor of its own ({@link Database#entries}):
 * iterate it once, with a for-each loop or {@link #stream()}, and close it (try-with-resources),
 * which closes the cursor and, in TP mode without a transaction, ends its read-only
 * transaction. Closing the stream closes it too.
 *
 * <pre>{@code
 * try (CursorIterable it = db.entries(txn, KeyRange.atLeast(from))) {
 *     for (Entry e : it) { ... }
 * }
 * try (Stream<Entry> s = db.entries(null, KeyRange.prefix(p)).stream()) {
 *     long n = s.filter(...).count();
 * }
 * }</pre>
 */
public final class CursorIterable implements Iterable<Entry>, AutoCloseable {
    private final Cursor cursor;
    private boolean iterated;

    CursorIterable(Cursor cursor) {
        this.cursor = cursor;
    }

    /**
     * The entries in the range's direction. Once only: a second call throws
     * {@link IllegalStateException} (open another with {@link Database#entries}).
     */
    @Override
    public Iterator<Entry> iterator() {
        if (iterated) {
            throw new IllegalStateException("a CursorIterable is iterated once; open another with Database.entries");
        }
        iterated = true;
        return cursor.iterator();
    }

    /** The entries as a sequential stream; closing it closes this. Once only, as {@link #iterator()}. */
    public Stream<Entry> stream() {
        if (iterated) {
            throw new IllegalStateException("a CursorIterable is iterated once; open another with Database.entries");
        }
        iterated = true;
        return cursor.stream();
    }

    /** The cursor it reads through (positioned on the last entry returned). */
    public Cursor cursor() {
        return cursor;
    }

    /** Closes the cursor. Idempotent. */
    @Override
    public void close() {
        cursor.close();
    }
}
