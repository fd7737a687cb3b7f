package org.libtp.bench.tpcb;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * The record formats every engine stores, so that each one moves the same bytes.
 *
 * <pre>
 * account, teller, branch: RECORD_BYTES = 100
 *   offset size field
 *        0    4 id        (big-endian int, as the key)
 *        4    8 balance   (big-endian long)
 *       12   88 filler    ('x')
 * history: HISTORY_BYTES = 50 (TPC-B clause 1.2: at least 50 bytes)
 *        0    4 account id
 *        4    4 teller id
 *        8    4 branch id
 *       12    8 delta
 *       20    8 time      (ms since the epoch)
 *       28   22 filler    ('x')
 * keys: the id as a 4-byte big-endian int, so byte order is id order (ids are >= 0)
 * </pre>
 */
public final class TpcbRecords {
    public static final int RECORD_BYTES = 100;
    public static final int HISTORY_BYTES = 50;
    public static final int OFF_ID = 0;
    public static final int OFF_BALANCE = 4;
    public static final int OFF_H_ACCOUNT = 0;
    public static final int OFF_H_TELLER = 4;
    public static final int OFF_H_BRANCH = 8;
    public static final int OFF_H_DELTA = 12;
    public static final int OFF_H_TIME = 20;
    private static final int H_FILLER = 28;

    private TpcbRecords() {
    }

    public static byte[] key(int id) {
        return new byte[] {(byte) (id >>> 24), (byte) (id >>> 16), (byte) (id >>> 8), (byte) id};
    }

    public static int keyId(byte[] key) {
        return ByteBuffer.wrap(key).getInt();
    }

    public static byte[] record(int id, long balance) {
        byte[] r = new byte[RECORD_BYTES];
        java.util.Arrays.fill(r, (byte) 'x');
        ByteBuffer b = ByteBuffer.wrap(r).order(ByteOrder.BIG_ENDIAN);
        b.putInt(OFF_ID, id);
        b.putLong(OFF_BALANCE, balance);
        return r;
    }

    public static long balance(byte[] record) {
        check(record, RECORD_BYTES);
        return ByteBuffer.wrap(record).getLong(OFF_BALANCE);
    }

    public static long balance(ByteBuffer record) {
        return record.getLong(record.position() + OFF_BALANCE);
    }

    /** Adds {@code delta} to the balance of {@code record} in place; returns it. */
    public static byte[] add(byte[] record, long delta) {
        check(record, RECORD_BYTES);
        ByteBuffer b = ByteBuffer.wrap(record);
        b.putLong(OFF_BALANCE, b.getLong(OFF_BALANCE) + delta);
        return record;
    }

    public static byte[] history(int aid, int tid, int bid, long delta, long time) {
        byte[] r = new byte[HISTORY_BYTES];
        java.util.Arrays.fill(r, H_FILLER, HISTORY_BYTES, (byte) 'x');
        ByteBuffer b = ByteBuffer.wrap(r);
        b.putInt(OFF_H_ACCOUNT, aid);
        b.putInt(OFF_H_TELLER, tid);
        b.putInt(OFF_H_BRANCH, bid);
        b.putLong(OFF_H_DELTA, delta);
        b.putLong(OFF_H_TIME, time);
        return r;
    }

    public static long historyDelta(byte[] history) {
        check(history, HISTORY_BYTES);
        return ByteBuffer.wrap(history).getLong(OFF_H_DELTA);
    }

    private static void check(byte[] r, int len) {
        if (r == null || r.length != len) {
            throw new IllegalStateException("TPC-B record of " + (r == null ? "null" : r.length + " bytes")
                    + ", expected " + len);
        }
    }
}
