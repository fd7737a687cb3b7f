package org.libtp.core.txn;

import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.log.Lsn;
import org.libtp.core.log.SharedLog;
import org.libtp.core.log.record.LogRecord;
import org.libtp.core.log.record.LogRecords;
import org.libtp.core.log.record.RecordType;
import org.libtp.core.memory.Memory;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.libtp.core.txn.TxnLayout.*;

/**
 * Restart recovery (paper 3.2.5, the package note's "Recovery"): run once, by the first process
 * that opens the transaction manager after the regions were rebuilt, under the txn latch.
 */
final class Recovery {
    private static final Logger LOG = LoggerFactory.getLogger(Recovery.class);

    private final SharedTxnManager tm;
    private final RegionEnvironment env;
    private final SharedLog log;
    private final Memory mem;
    private final List<ResourceManager> managers;

    Recovery(SharedTxnManager tm, RegionEnvironment env, SharedLog log, Memory mem, List<ResourceManager> managers) {
        this.tm = tm;
        this.env = env;
        this.log = log;
        this.mem = mem;
        this.managers = managers;
    }

    /**
     * Under the txn latch, in the first process: the paper's log_roll, then undo of losers. The
     * analysis reads the log from the last checkpoint's redo LSN, or from the first LSN of a
     * transaction active at it if that is earlier — not the whole log — so recovery time is
     * bounded by the checkpoint interval and the longest transaction. True if it changed
     * anything (redid a record or rolled back a transaction).
     */
    boolean run(boolean catastrophic) {
        long t0 = System.nanoTime();
        for (ResourceManager rm : managers) {
            rm.beforeRecovery();
        }
        Map<Long, Long> last = new HashMap<>();
        Set<Long> ended = new HashSet<>();
        long[] maxId = {0};
        long[] ckp = {lastCheckpointInLog(), Lsn.NULL}; // checkpoint LSN, its redo LSN
        long found = System.nanoTime();
        long from = Lsn.NULL;
        if (ckp[0] != Lsn.NULL) {
            LogRecord.Checkpoint c = (LogRecord.Checkpoint) LogRecords.decode(log.read(ckp[0]));
            ckp[1] = c.redoLsn();
            from = c.redoLsn();
            for (LogRecord.ActiveTxn a : c.active()) {
                from = Math.min(from, a.firstLsn());
                maxId[0] = Math.max(maxId[0], a.txnId());
            }
            maxId[0] = Math.max(maxId[0], c.nextTxnId() - 1);
        }
        if (catastrophic) {
            // Every page may be older than the checkpoint claims: redo all the log there is.
            int[] files = log.fileNumbers();
            from = files.length == 0 ? Lsn.NULL : Lsn.of(files[0], LogFileHeader.SIZE);
            ckp[1] = from;
            LOG.info("catastrophic recovery of {}: reading the whole log from {}", env.home(), Lsn.toString(from));
        }
        log.scan(from, e -> {
            RecordType type = RecordType.of(e.type(), e.lsn()); // unknown types fail here, naming the LSN
            if (e.txnId() != 0) {
                last.put(e.txnId(), e.lsn());
                maxId[0] = Math.max(maxId[0], e.txnId());
            }
            if (type.isResourceRecord()) {
                ResourceManager m = tm.manager(type, e); // fails now, naming the LSN, if no manager handles the type
                if (m.analyzes(type)) {
                    m.analyze(e, LogRecords.decode(e)); // the rest are decoded once, by redo
                }
            } else if (type != RecordType.CHECKPOINT) {
                ended.add(e.txnId()); // commit or abort
            }
            return true;
        });
        long analyzed = System.nanoTime();
        for (ResourceManager rm : managers) {
            rm.beforeRedo(ckp[1]);
        }
        long repaired = System.nanoTime();
        int[] redone = {0};
        log.scan(ckp[1], e -> {
            RecordType type = RecordType.of(e.type(), e.lsn());
            if (type.isResourceRecord()) {
                ResourceManager m = tm.manager(type, e);
                if (m.redoes(type)) {
                    m.redo(e, LogRecords.decode(e));
                    redone[0]++;
                }
            }
            return true;
        });
        long redoEnd = System.nanoTime();
        List<Long> losers = new ArrayList<>();
        for (Map.Entry<Long, Long> t : last.entrySet()) {
            if (!ended.contains(t.getKey())) {
                losers.add(t.getKey());
            }
        }
        // Losers: transactions with neither a commit nor an abort record. (Aborted ones logged
        // compensations, which the redo pass repeated.) With two-phase locking no two losers
        // touched the same data, so undoing them one after another is as good as a global
        // reverse-LSN pass.
        for (long id : losers) {
            long end = tm.undo(id, last.get(id), -1);
            log.append(RecordType.TXN_ABORT.id(), id, end, LogRecords.encode(new LogRecord.TxnAbort()));
        }
        mem.putLong(OFF_NEXT_ID, maxId[0] + 1);
        mem.putLongVolatile(OFF_LAST_CKP, ckp[0]);
        mem.putLongVolatile(OFF_LAST_CKP_REDO, ckp[1] == Lsn.NULL ? log.endLsn() : ckp[1]);
        mem.putLongVolatile(OFF_LAST_CKP_FROM, from == Lsn.NULL ? log.endLsn() : from);
        if (redone[0] > 0 || !losers.isEmpty()) {
            long end = System.nanoTime();
            LOG.info("recovery of {}: analyzed from {}, redid {} records from {}, rolled back {} transactions, in {} ms "
                    + "(finding the checkpoint {} ms, analysis {} ms, torn-page repair {} ms, redo {} ms, undo {} ms)", env.home(),
                    Lsn.toString(from), redone[0], Lsn.toString(ckp[1]),
                    losers.size(), (end - t0) / 1_000_000, (found - t0) / 1_000_000, (analyzed - found) / 1_000_000, (repaired - analyzed) / 1_000_000,
                    (redoEnd - repaired) / 1_000_000, (end - redoEnd) / 1_000_000);
        }
        // The checkpoint that ends recovery is taken by open(), outside the txn latch.
        mem.putLongVolatile(OFF_LAST_CKP, Lsn.NULL);
        return redone[0] > 0 || !losers.isEmpty();
    }

    /**
     * LSN of the last checkpoint record in the log (NULL if none): the files are read from the
     * newest back until one holds a checkpoint (with the default sizes, the last or the one
     * before it).
     */
    private long lastCheckpointInLog() {
        int[] files = log.fileNumbers();
        long hint = log.anchoredCheckpoint();
        if (hint != Lsn.NULL && files.length > 0 && Lsn.file(hint) >= files[0]) {
            // The anchor names the last checkpoint whose record was forced before the anchor was
            // replaced (a newer one may follow it if a crash came in between: starting from the
            // older is as correct, only longer). Used only if it is there and everything it
            // needs is still in the log; otherwise the log is searched, as for an old anchor.
            try {
                LogEntry e = log.read(hint);
                if (e.type() == RecordType.CHECKPOINT.id()) {
                    LogRecord.Checkpoint c = (LogRecord.Checkpoint) LogRecords.decode(e);
                    long from = c.redoLsn();
                    for (LogRecord.ActiveTxn a : c.active()) {
                        from = Math.min(from, a.firstLsn());
                    }
                    if (from == Lsn.NULL || Lsn.file(from) >= files[0]) {
                        return hint;
                    }
                }
                LOG.warn("the log anchor of {} names a checkpoint at {} that is not usable; searching the log",
                        env.home(), Lsn.toString(hint));
            } catch (RuntimeException e) {
                LOG.warn("the log anchor of {} names a checkpoint at {} that cannot be read ({}); searching the log",
                        env.home(), Lsn.toString(hint), e.toString());
            }
        }
        for (int i = files.length - 1; i >= 0; i--) {
            int n = files[i];
            long[] found = {Lsn.NULL};
            log.scan(Lsn.of(n, LogFileHeader.SIZE), e -> {
                if (Lsn.file(e.lsn()) != n) {
                    return false;
                }
                if (e.type() == RecordType.CHECKPOINT.id()) {
                    found[0] = e.lsn();
                }
                return true;
            });
            if (found[0] != Lsn.NULL) {
                return found[0];
            }
        }
        return Lsn.NULL;
    }
}
