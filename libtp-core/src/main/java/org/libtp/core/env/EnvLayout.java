package org.libtp.core.env;

import org.libtp.core.region.Fingerprint;
import org.libtp.core.region.RegionHeader;

/**
 * Layout of the environment region {@code __libtp.env}: after the {@link RegionHeader}, the
 * failure record, the environment directory's path, the region directory and the process
 * registry. Offsets are from the start of the file.
 *
 * <pre>
 *  offset        size           field
 *  ------------  -------------  ---------------------------------------------------
 *  0             256            RegionHeader (kind ENV; its flags are the
 *                               environment's NEEDS_RECOVERY and FAILED flags)
 *  256           4              maxProcesses
 *  260           4              maxRegions
 *  264           4              failReasonLock   0, or 1 once a failure reason is
 *                               being written (first failure wins)
 *  268           4              failReasonLength
 *  272           512            failReason       UTF-8
 *  784           4              homeLength       bytes of home (0: not recorded)
 *  788           4              listenerKinds    failCheck listener kinds any process has had
 *                               (1 buffer pool): a process lacking one frees no dead
 *                               process's slot
 *  1024          4096           home             the environment directory's real path,
 *                               UTF-8: a region directory in shared memory whose
 *                               environment is gone can be recognized and removed
 *  5120          128 * R        directory: R = maxRegions entries
 *  5120 + 128R   64 * P         registry:  P = maxProcesses slots
 *
 *  directory entry (128 bytes)          registry slot (64 bytes)
 *  off size field                       off size field
 *    0   4  state 0 free / 1 ready        0   4  state 0 FREE / 1 BUSY
 *    4   4  nameLength                    4   4  reserved
 *    8  48  name (UTF-8)                  8   8  pid
 *   56   8  size                         16   8  process start, ms since epoch
 *   64   8  fingerprint                  24   8  generation (+1 per claim)
 *   72   4  latchArrayCount (&lt;= 3)        32   8  attach time, ms since epoch
 *   76   4  repairable (bit k: latch     40   8  dead generation: the generation
 *              array k's holder's death              a failCheck or latch repairer
 *              is repaired by its manager)           found dead (holding the
 *   80  48  3 x {offset u64, stride u32,             process's liveness lock)
 *               count u32}               48  16  reserved
 * </pre>
 */
final class EnvLayout {
    static final int OFF_MAX_PROCESSES = RegionHeader.SIZE;
    static final int OFF_MAX_REGIONS = OFF_MAX_PROCESSES + 4;
    static final int OFF_FAIL_LOCK = OFF_MAX_REGIONS + 4;
    static final int OFF_FAIL_LENGTH = OFF_FAIL_LOCK + 4;
    static final int OFF_FAIL_REASON = OFF_FAIL_LENGTH + 4;
    static final int FAIL_REASON_CAPACITY = 512;
    static final int OFF_HOME_LENGTH = OFF_FAIL_REASON + FAIL_REASON_CAPACITY;
    static final int OFF_LISTENER_KINDS = OFF_HOME_LENGTH + 4;
    static final int OFF_HOME = 1024;
    static final int HOME_CAPACITY = 4096;
    static final int OFF_DIRECTORY = OFF_HOME + HOME_CAPACITY;

    static final int DIR_ENTRY_SIZE = 128;
    static final int DIR_STATE = 0;
    static final int DIR_NAME_LENGTH = 4;
    static final int DIR_NAME = 8;
    static final int DIR_NAME_CAPACITY = 48;
    static final int DIR_SIZE = 56;
    static final int DIR_FINGERPRINT = 64;
    static final int DIR_LATCH_ARRAY_COUNT = 72;
    static final int DIR_REPAIRABLE = 76;
    static final int DIR_LATCH_ARRAYS = 80;
    static final int DIR_LATCH_ARRAY_SIZE = 16;
    static final int DIR_MAX_LATCH_ARRAYS = 3;

    static final int SLOT_SIZE = 64;
    static final int SLOT_STATE = 0;
    static final int SLOT_PID = 8;
    static final int SLOT_START = 16;
    static final int SLOT_GENERATION = 24;
    static final int SLOT_ATTACH = 32;
    /**
     * Written by whoever holds a dead process's liveness lock (failCheck, a latch repairer): the
     * lock alone would make the process look alive to every other process meanwhile, and one of
     * them may be waiting for what the dead process held (the group-commit leader word) while
     * the holder's cleanup waits for that process.
     */
    static final int SLOT_DEAD_GENERATION = 40;

    static final int SLOT_FREE = 0;
    static final int SLOT_BUSY = 1;
    static final int ENTRY_FREE = 0;
    static final int ENTRY_READY = 1;

    static final long FINGERPRINT = new Fingerprint()
            .add("header", RegionHeader.SIZE)
            .add("failReason", OFF_FAIL_REASON).add("failReasonCapacity", FAIL_REASON_CAPACITY)
            .add("homeLength", OFF_HOME_LENGTH).add("listenerKinds", OFF_LISTENER_KINDS).add("home", OFF_HOME).add("homeCapacity", HOME_CAPACITY)
            .add("directory", OFF_DIRECTORY).add("dirEntry", DIR_ENTRY_SIZE)
            .add("dirName", DIR_NAME).add("dirNameCapacity", DIR_NAME_CAPACITY)
            .add("dirSize", DIR_SIZE).add("dirFingerprint", DIR_FINGERPRINT)
            .add("dirRepairable", DIR_REPAIRABLE).add("dirLatchArrays", DIR_LATCH_ARRAYS).add("dirLatchArraySize", DIR_LATCH_ARRAY_SIZE)
            .add("slot", SLOT_SIZE).add("slotPid", SLOT_PID).add("slotStart", SLOT_START)
            .add("slotGeneration", SLOT_GENERATION).add("slotAttach", SLOT_ATTACH)
            .add("slotDeadGeneration", SLOT_DEAD_GENERATION)
            .value();

    private EnvLayout() {
    }

    static long directoryEntry(int i) {
        return OFF_DIRECTORY + (long) DIR_ENTRY_SIZE * i;
    }

    static long slotOffset(int maxRegions, int s) {
        return OFF_DIRECTORY + (long) DIR_ENTRY_SIZE * maxRegions + (long) SLOT_SIZE * s;
    }

    static long regionSize(int maxRegions, int maxProcesses) {
        return slotOffset(maxRegions, maxProcesses);
    }
}
