package org.libtp.btree;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.libtp.core.LibTpException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.buffer.BufferConfig;
import org.libtp.core.env.RegionEnvironmentConfig;
import org.libtp.core.lock.LockConfig;
import org.libtp.core.log.Durability;
import org.libtp.core.log.LogConfig;
import org.libtp.core.storage.FaultInjectingStorage;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;
import org.libtp.core.testkit.Seeds;
import org.libtp.core.tp.TxnEnvironment;
import org.libtp.core.txn.Txn;
import org.libtp.core.txn.TxnConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * ENOSPC injected into every kind of write (log writes, log file creation, page writes, data
 * file extension) of a B-tree workload, many rounds: every call fails with a typed
 * {@link LibTpException} or succeeds — no {@code java.lang.Error} escapes; the failed transaction
 * aborts (or the environment fails fast with {@link RunRecoveryException}); every acknowledged
 * commit survives a reopen; nothing half-created ({@code *.new}, {@code *.prep}) is left behind.
 * Half the rounds fail every Nth write (a log write among them fails the environment); the
 * others fill the disk for a while (writes needing new blocks fail), which must only refuse
 * operations ({@link org.libtp.core.OutOfSpaceException}): the environment goes on committing
 * once space returns. Before, a failed log file creation failed the environment and left
 * {@code log.N.new} (and {@code .prep}, {@code __libtp.anchor.new}) behind.
 */
class BtreeNoSpaceTest {
    private static final Logger LOG = LoggerFactory.getLogger(BtreeNoSpaceTest.class);

    @TempDir
    Path home;

    /** The B-tree in TP mode over a given storage. */
    static final class Tp implements AutoCloseable {
        final TxnEnvironment tp;
        final Btree tree;
        final EndActions endActions = new EndActions();

        Tp(Path home, Storage storage) {
            tp = TxnEnvironment.open(home, RegionEnvironmentConfig.builder().failCheckMillis(0).build(),
                    LogConfig.builder().fileSize(256 * 1024).bufferSize(32 * 1024).build(),
                    TxnConfig.builder().checkpointBytes(128 * 1024).build(),
                    BufferConfig.builder().poolBytes(4096L * 32).partitions(8).build(), LockConfig.defaults(),
                    storage, parts -> List.of(new BtreeRecords(parts.buffers(), name -> null)));
            Btree t;
            try {
                int file = tp.buffers().open("tree.db");
                t = new Btree(tp.buffers(), file, Btree.defaultComparator(), null, new Btree.Epochs() {
                    @Override
                    public long nextId() {
                        return tp.txn().nextId();
                    }

                    @Override
                    public long oldestActive() {
                        return tp.txn().oldestActiveId();
                    }
                });
                if (tp.buffers().pageCount(file) <= Btree.ROOT) {
                    Txn x = tp.txn().begin();
                    t.create(new TxnBtreeLog(x, tp.pages(), new EndActions()));
                    tp.txn().commit(x);
                }
            } catch (RuntimeException | Error e) {
                tp.close();
                throw e;
            }
            tree = t;
        }

        Protection prot(Txn t) {
            return new TxnProtection(tp.locks(), t, tree.file);
        }

        BtreeLog log(Txn t) {
            return new TxnBtreeLog(t, tp.pages(), endActions);
        }

        @Override
        public void close() {
            tp.close();
        }
    }

    static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** A transaction whose commit call failed: it may or may not have committed. */
    record Uncertain(TreeMap<byte[], byte[]> before, TreeMap<byte[], byte[]> after) {
    }

    @Test
    void enospcAtEveryNthWriteNeverLosesACommitNorLetsAnErrorOut() throws Exception {
        long seed = Seeds.seed("BtreeNoSpaceTest");
        Random rnd = new Random(seed);
        int rounds = Seeds.stress() ? 150 : 15;
        TreeMap<byte[], byte[]> model = new TreeMap<>(Arrays::compareUnsigned);
        int failures = 0;
        int envFailures = 0;
        int fullRoundFailures = 0;
        int commitsAfterSpaceReturned = 0;
        int commits = 0;
        for (int round = 0; round < rounds; round++) {
            String where = "seed " + seed + " round " + round;
            FaultInjectingStorage fis = new FaultInjectingStorage(home);
            Tp f;
            try {
                f = new Tp(home, fis);
            } catch (Error e) {
                throw new AssertionError("an Error escaped the open, " + where, e);
            }
            Uncertain uncertain = null;
            // Half the rounds fail every Nth write; the others fill the disk for a while (writes
            // needing new blocks fail: log file creation, data file extension) and then free it.
            boolean everyNth = rnd.nextBoolean();
            int fullFrom = 10 + rnd.nextInt(30);
            int fullTo = fullFrom + 10 + rnd.nextInt(60);
            try {
                if (everyNth) {
                    fis.noSpaceEvery(3 + rnd.nextInt(60));
                }
                boolean failed = false;
                for (int i = 0; i < 120 && !failed; i++) {
                    if (!everyNth) {
                        fis.diskFull(i >= fullFrom && i < fullTo);
                    }
                    Txn t = null;
                    TreeMap<byte[], byte[]> mine = new TreeMap<>(model);
                    boolean committing = false;
                    try {
                        t = f.tp.txn().begin(rnd.nextBoolean() ? Durability.SYNC : Durability.WRITE_NO_SYNC);
                        for (int k = 0, n = 1 + rnd.nextInt(12); k < n; k++) {
                            byte[] key = bytes("key" + rnd.nextInt(1500));
                            if (rnd.nextInt(4) == 0) {
                                f.tree.delete(key, f.prot(t), f.log(t));
                                mine.remove(key);
                            } else {
                                byte[] data = new byte[rnd.nextInt(rnd.nextInt(8) == 0 ? 3000 : 300)];
                                rnd.nextBytes(data);
                                f.tree.put(key, data, false, f.prot(t), f.log(t));
                                mine.put(key, data);
                            }
                        }
                        committing = true;
                        f.tp.txn().commit(t);
                        model = mine;
                        commits++;
                        if (!everyNth && i >= fullTo) {
                            commitsAfterSpaceReturned++;
                        }
                        f.endActions.ended(f.tp, t, true);
                    } catch (RunRecoveryException e) {
                        LOG.debug("{}: environment failed: {}", where, e.getMessage());
                        envFailures++;
                        if (!everyNth) {
                            fullRoundFailures++;
                            LOG.info("{}: the environment failed with the disk full: {}", where, e.getMessage());
                        }
                        failed = true;
                        if (committing) {
                            uncertain = new Uncertain(model, mine);
                        }
                    } catch (LibTpException e) {
                        LOG.debug("{}: refused: {}", where, e.toString());
                        failures++;
                        if (committing && t != null && t.isFinished()) {
                            // The commit record went to the log and something failed after: it may be durable.
                            uncertain = new Uncertain(model, mine);
                            failed = true;
                            continue;
                        }
                        if (t != null) {
                            try {
                                f.tp.txn().abort(t);
                                f.endActions.ended(f.tp, t, false);
                            } catch (RunRecoveryException ae) {
                                envFailures++;
                                failed = true;
                            }
                        }
                    } catch (Error e) {
                        throw new AssertionError("an Error escaped a transaction, " + where + ": " + e, e);
                    }
                }
            } finally {
                fis.clearFaults();
                try {
                    f.close();
                } catch (LibTpException e) {
                    LOG.info("close after the round: {}", e.toString());
                } catch (Error e) {
                    throw new AssertionError("an Error escaped close, " + where + ": " + e, e);
                }
            }
            assertEquals(List.of(), leftovers(home), "half-created files left behind, " + where);
            try (Tp g = new Tp(home, new FileStorage(home))) {
                if (uncertain != null) {
                    model = byContent(g, uncertain, where);
                }
                check(g, model, where);
            }
        }
        LOG.info("{} rounds: {} commits, {} operations refused, {} environment failures ({} with the disk full)", rounds,
                commits, failures, envFailures, fullRoundFailures);
        assertTrue(failures + envFailures > 0, "no fault was injected at all");
        // A full disk (writes that need new blocks fail: log file creation, data file extension)
        // only refuses operations; the environment keeps working and commits once space returns.
        assertEquals(0, fullRoundFailures, "the environment failed while the disk was full, seed " + seed);
        assertTrue(commitsAfterSpaceReturned > 0, "nothing committed after space returned, seed " + seed);
    }

    /** Which of the two states of an uncertain commit the tree holds (all or nothing). */
    private static TreeMap<byte[], byte[]> byContent(Tp g, Uncertain u, String where) {
        TreeMap<byte[], byte[]> now = read(g);
        if (equal(now, u.after())) {
            return u.after();
        }
        assertTrue(equal(now, u.before()), "a transaction whose commit failed is neither all there nor all gone, "
                + where);
        return u.before();
    }

    private static boolean equal(TreeMap<byte[], byte[]> a, TreeMap<byte[], byte[]> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (Map.Entry<byte[], byte[]> e : a.entrySet()) {
            if (!Arrays.equals(e.getValue(), b.get(e.getKey()))) {
                return false;
            }
        }
        return true;
    }

    private static TreeMap<byte[], byte[]> read(Tp g) {
        TreeMap<byte[], byte[]> out = new TreeMap<>(Arrays::compareUnsigned);
        Txn t = g.tp.txn().begin();
        g.tree.scan(null, g.prot(t), (k, d) -> {
            out.put(k, d);
            return true;
        });
        g.tp.txn().commit(t);
        return out;
    }

    private static void check(Tp g, TreeMap<byte[], byte[]> model, String where) {
        assertEquals(List.of(), g.tree.verify(), where);
        TreeMap<byte[], byte[]> now = read(g);
        assertEquals(model.size(), now.size(), "entries after reopen, " + where);
        for (Map.Entry<byte[], byte[]> e : model.entrySet()) {
            assertArrayEquals(e.getValue(), now.get(e.getKey()), "committed value of "
                    + new String(e.getKey(), StandardCharsets.UTF_8) + ", " + where);
        }
    }

    static List<String> leftovers(Path dir) throws IOException {
        List<String> out = new ArrayList<>();
        try (Stream<Path> s = Files.list(dir)) {
            s.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".new") || n.endsWith(".prep"))
                    .sorted().forEach(out::add);
        }
        return out;
    }
}
