package org.libtp.core.txn;

import org.libtp.core.env.RegionEnvironment;
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
     * bounded by the checkpoint interval and the longest transaction.
     */
    void run(boolean catastrophic) {
        long t0 = System.nanoTime();
        for (ResourceManager rm : managers) {
            rm.beforeRecovery();
        }
        Map<Long, Long> last = new HashMap<>();
        Set<Long> ended = new HashSet<>();
        long[] maxId = {0};
        long[] ckp = {lastCheckpointInLog(), Lsn.NULL}; // checkpoint LSN, its redo LSN
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
            LogRecord r = LogRecords.decode(e); // unknown types fail here, naming the LSN
            if (e.txnId() != 0) {
                last.put(e.txnId(), e.lsn());
                maxId[0] = Math.max(maxId[0], e.txnId());
            }
            if (r.type().isResourceRecord()) {
                tm.manager(r.type(), e).analyze(e, r); // fails now, naming the LSN, if no manager handles the type
            } else if (r.type() != RecordType.CHECKPOINT) {
                ended.add(e.txnId()); // commit or abort
            }
            return true;
        });
        for (ResourceManager rm : managers) {
            rm.beforeRedo(ckp[1]);
        }
        int[] redone = {0};
        log.scan(ckp[1], e -> {
            LogRecord r = LogRecords.decode(e);
            if (r.type().isResourceRecord()) {
                tm.manager(r.type(), e).redo(e, r);
                redone[0]++;
            }
            return true;
        });
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
            LOG.info("recovery of {}: redid {} records from {}, rolled back {} transactions, in {} ms",
                    env.home(), redone[0], Lsn.toString(ckp[1]), losers.size(), (System.nanoTime() - t0) / 1_000_000);
        }
        // The checkpoint that ends recovery is taken by open(), outside the txn latch.
        mem.putLongVolatile(OFF_LAST_CKP, Lsn.NULL);
    }

    /**
     * LSN of the last checkpoint record in the log (NULL if none): the files are read from the
     * newest back until one holds a checkpoint (with the default sizes, the last or the one
     * before it).
     */
    private long lastCheckpointInLog() {
        int[] files = log.fileNumbers();
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
