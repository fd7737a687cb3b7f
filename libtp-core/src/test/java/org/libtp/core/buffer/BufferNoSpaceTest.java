package org.libtp.core.buffer;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.OutOfSpaceException;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;

import java.nio.file.Path;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * Data pages on a full disk: a dirty page that cannot be written (its file would grow) stays in
 * the pool and eviction takes a clean frame instead; only when no frame can be freed does the
 * operation fail, with {@link OutOfSpaceException} (before: an EnvironmentAccessException at the
 * first unwritable victim); once space returns the pages are written and nothing was lost.
 */
class BufferNoSpaceTest {
    @TempDir
    Path home;

    @Test
    void unwritablePagesStayDirtyAndEvictionUsesCleanFrames() throws Exception {
        FaultInjectingStorage fis = new FaultInjectingStorage(home);
        int frames = 16;
        try (PageFixture f = new PageFixture(home, frames, 0, TxnConfig.builder().checkpointBytes(0).build(), fis)) {
            // Pages 0..7 written to the file and clean in the pool.
            Txn t = f.tm.begin();
            for (int p = 0; p < 8; p++) {
                f.add(t, p, 0, p + 1);
            }
            f.tm.commit(t);
            f.bp.sync();
            fis.diskFull(true);
            // New pages past the file's end: dirty, and their writes would grow the file.
            t = f.tm.begin();
            int made = 0;
            OutOfSpaceException full = null;
            for (int p = 100; p < 100 + 2 * frames && full == null; p++) {
                try {
                    f.add(t, p, 0, 1000 + p);
                    made++;
                } catch (OutOfSpaceException e) {
                    full = e;
                }
            }
            assertTrue(made >= frames - 8 - 1, "clean frames are reused before an unwritable dirty one fails: " + made);
            assertTrue(full != null, "with every frame dirty and unwritable, the operation fails");
            assertTrue(full.getMessage().contains(PageFixture.FILE) && full.getMessage().contains(home.toString()),
                    full.getMessage());
            assertFalse(f.tp.env().isFailed(), "a page that cannot be written does not fail the environment");
            f.tm.abort(t); // undo finds its pages in the pool
            fis.diskFull(false);
            for (int p = 0; p < 8; p++) {
                assertEquals(p + 1, f.get(p, 0));
            }
            t = f.tm.begin();
            f.add(t, 200, 0, 7);
            f.tm.commit(t);
            f.bp.sync(); // everything dirty is written now
            assertEquals(7, f.get(200, 0));
        }
    }
}
