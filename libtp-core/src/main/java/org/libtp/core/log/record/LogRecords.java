package org.libtp.core.log.record;

import org.libtp.core.CorruptionException;
import org.libtp.core.log.LogEntry;
import org.libtp.core.log.Lsn;

import java.nio.BufferUnderflowException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Payload codec and printer of the typed records (little-endian). Payload layouts:
 *
 * <pre>
 *  TXN_COMMIT   u64 timeMillis
 *  TXN_ABORT    (empty)
 *  CHECKPOINT   u64 redoLsn | u64 nextTxnId | u32 n | n x {u64 txnId, u64 firstLsn}
 *               | u32 d | d x {u32 fileId, u64 pageNo, u64 recLsn}          (dirty-page table)
 *  LOG_FILE_END u32 nextFile
 *  PAGE_UPDATE  u32 fileId | u64 pageNo | u32 offset | u32 length | before | after
 *  PAGE_IMAGE   u32 fileId | u64 pageNo | u32 length | image
 *  PAGE_WRITE   u32 fileId | u64 pageNo | u32 length | page (whole, as written to the data file)
 * </pre>
 *
 * The types owned outside the core ({@link RecordType#isRegistered()}: the B-tree's, the test
 * record manager's, the commit benchmark's) are encoded, decoded and printed by the
 * {@link RecordCodec} their owner registered; docs/formats.md lists their payloads too.
 */
public final class LogRecords {
    private LogRecords() {
    }

    public static byte[] encode(LogRecord r) {
        // Java 17 has no pattern switch: switch expressions over the type enum (which mirrors the
        // sealed hierarchy one to one) are exhaustive and checked by the compiler instead.
        ByteBuffer b = switch (r.type()) {
            case TXN_COMMIT -> buffer(8).putLong(((LogRecord.TxnCommit) r).timeMillis());
            case TXN_ABORT -> buffer(0);
            case LOG_FILE_END -> buffer(4).putInt(((LogRecord.FileEnd) r).nextFile());
            case CHECKPOINT -> {
                LogRecord.Checkpoint c = (LogRecord.Checkpoint) r;
                ByteBuffer x = buffer(24 + 16 * c.active().size() + 20 * c.dirty().size());
                x.putLong(c.redoLsn()).putLong(c.nextTxnId()).putInt(c.active().size());
                for (LogRecord.ActiveTxn t : c.active()) {
                    x.putLong(t.txnId()).putLong(t.firstLsn());
                }
                x.putInt(c.dirty().size());
                for (LogRecord.DirtyPage d : c.dirty()) {
                    x.putInt(d.fileId()).putLong(d.pageNo()).putLong(d.recLsn());
                }
                yield x;
            }
            case PAGE_UPDATE -> {
                LogRecord.PageUpdate u = (LogRecord.PageUpdate) r;
                yield buffer(20 + 2 * u.after().length).putInt(u.fileId()).putLong(u.pageNo()).putInt(u.offset())
                        .putInt(u.after().length).put(u.before()).put(u.after());
            }
            case PAGE_IMAGE -> {
                LogRecord.PageImage p = (LogRecord.PageImage) r;
                yield buffer(16 + p.image().length).putInt(p.fileId()).putLong(p.pageNo()).putInt(p.image().length)
                        .put(p.image());
            }
            case PAGE_WRITE -> {
                LogRecord.PageWrite p = (LogRecord.PageWrite) r;
                yield buffer(16 + p.page().length).putInt(p.fileId()).putLong(p.pageNo()).putInt(p.page().length)
                        .put(p.page());
            }
            case SLOT_UPDATE, COUNTER_UPDATE, BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> ByteBuffer.wrap(encodeRegistered(r));
        };
        return b.array();
    }

    /** Codecs of the types owned outside the core, by type (registered by their managers). */
    private static final Map<RecordType, RecordCodec<?>> CODECS = new ConcurrentHashMap<>();

    /**
     * Registers the codec of record types a manager outside the core owns, before the manager
     * logs or recovers one. Registering the same codec again does nothing.
     *
     * @throws IllegalArgumentException if a type is the core's own, or another codec has it
     */
    public static void register(RecordCodec<?> codec) {
        for (RecordType t : codec.types()) {
            if (!t.isRegistered()) {
                throw new IllegalArgumentException(t + " (id " + t.id() + ") is the core's own record type");
            }
            RecordCodec<?> had = CODECS.putIfAbsent(t, codec);
            if (had != null && had.getClass() != codec.getClass()) {
                throw new IllegalArgumentException(t + " (id " + t.id() + ") already has codec " + had.getClass().getName()
                        + "; " + codec.getClass().getName() + " cannot take it");
            }
        }
    }

    private static RecordCodec<?> codec(RecordType type, long lsn) {
        RecordCodec<?> c = CODECS.get(type);
        if (c == null) {
            throw new CorruptionException("log record type " + type + " (id " + type.id() + ") at LSN " + Lsn.toString(lsn)
                    + " belongs to " + type.owner() + ", which has not registered its codec in this process: "
                    + "open the environment through it (org.libtp.db.Environment for the B-tree and recno)");
        }
        return c;
    }

    @SuppressWarnings("unchecked")
    private static <R extends LogRecord.Registered> byte[] encodeRegistered(LogRecord r) {
        RecordCodec<R> c = (RecordCodec<R>) codec(r.type(), Lsn.NULL);
        return c.encode((R) r);
    }

    @SuppressWarnings("unchecked")
    private static <R extends LogRecord.Registered> String printRegistered(LogRecord r) {
        RecordCodec<R> c = (RecordCodec<R>) codec(r.type(), Lsn.NULL);
        return c.print((R) r);
    }

    private static ByteBuffer buffer(int n) {
        return ByteBuffer.allocate(n).order(ByteOrder.LITTLE_ENDIAN);
    }

    /**
     * Decodes an entry's payload by its type id.
     *
     * @throws CorruptionException for an unknown type id or a payload that does not parse
     *         (both name the LSN)
     */
    public static LogRecord decode(LogEntry e) {
        RecordType type = RecordType.of(e.type(), e.lsn());
        ByteBuffer b = ByteBuffer.wrap(e.payload()).order(ByteOrder.LITTLE_ENDIAN);
        try {
            LogRecord r = switch (type) {
                case TXN_COMMIT -> new LogRecord.TxnCommit(b.getLong());
                case TXN_ABORT -> new LogRecord.TxnAbort();
                case LOG_FILE_END -> new LogRecord.FileEnd(b.getInt());
                case CHECKPOINT -> {
                    long prev = b.getLong();
                    long nextTxnId = b.getLong();
                    int n = b.getInt();
                    if (n < 0 || n > b.remaining() / 16) {
                        throw new BufferUnderflowException();
                    }
                    List<LogRecord.ActiveTxn> active = new ArrayList<>(n);
                    for (int i = 0; i < n; i++) {
                        active.add(new LogRecord.ActiveTxn(b.getLong(), b.getLong()));
                    }
                    int d = b.getInt();
                    if (d < 0 || d > b.remaining() / 20) {
                        throw new BufferUnderflowException();
                    }
                    List<LogRecord.DirtyPage> dirty = new ArrayList<>(d);
                    for (int i = 0; i < d; i++) {
                        dirty.add(new LogRecord.DirtyPage(b.getInt(), b.getLong(), b.getLong()));
                    }
                    yield new LogRecord.Checkpoint(prev, nextTxnId, active, dirty);
                }
                case PAGE_UPDATE -> {
                    int fileId = b.getInt();
                    long pageNo = b.getLong();
                    int offset = b.getInt();
                    int n = b.getInt();
                    if (n < 0 || n > b.remaining() / 2) {
                        throw new BufferUnderflowException();
                    }
                    byte[] before = new byte[n];
                    byte[] after = new byte[n];
                    b.get(before).get(after);
                    yield new LogRecord.PageUpdate(fileId, pageNo, offset, before, after);
                }
                case PAGE_IMAGE -> new LogRecord.PageImage(b.getInt(), b.getLong(), bytes(b));
                case PAGE_WRITE -> new LogRecord.PageWrite(b.getInt(), b.getLong(), bytes(b));
                case SLOT_UPDATE, COUNTER_UPDATE, BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> {
                    LogRecord x = codec(type, e.lsn()).decode(type, b);
                    if (x.type() != type) {
                        throw new IllegalArgumentException("codec of " + type + " decoded a " + x.type());
                    }
                    yield x;
                }
            };
            if (b.hasRemaining()) {
                throw new CorruptionException(type + " record at LSN " + Lsn.toString(e.lsn()) + " has "
                        + b.remaining() + " trailing bytes");
            }
            return r;
        } catch (BufferUnderflowException | IllegalArgumentException | NegativeArraySizeException x) {
            throw new CorruptionException(type + " record at LSN " + Lsn.toString(e.lsn())
                    + " has a malformed payload of " + e.payload().length + " bytes");
        }
    }

    private static byte[] bytes(ByteBuffer b) {
        int n = b.getInt();
        if (n < 0 || n > b.remaining()) {
            throw new BufferUnderflowException();
        }
        byte[] out = new byte[n];
        b.get(out);
        return out;
    }

    /** The type with id {@code id}, or null if this LibTP does not know it. */
    private static RecordType known(int id) {
        for (RecordType t : RecordType.values()) {
            if (t.id() == id) {
                return t;
            }
        }
        return null;
    }

    /**
     * One line per record, for the log printer and for messages. A record of a type owned outside
     * the core whose codec this process has not registered is printed by type, owner and size.
     */
    public static String print(LogEntry e) {
        String head = Lsn.toString(e.lsn()) + " txn " + e.txnId() + " prev " + Lsn.toString(e.prevLsn()) + " ";
        RecordType known = known(e.type());
        if (known != null && known.isRegistered() && !CODECS.containsKey(known)) {
            // a record manager's record in a process without that manager: its owner and size
            return head + known + " (owned by " + known.owner() + ", whose codec is not loaded) " + e.payload().length
                    + " payload bytes";
        }
        LogRecord r;
        try {
            r = decode(e);
        } catch (CorruptionException x) {
            return head + "type " + e.type() + " UNDECODABLE: " + x.getMessage();
        }
        return head + switch (r.type()) {
            case TXN_COMMIT -> "TXN_COMMIT at " + java.time.Instant.ofEpochMilli(((LogRecord.TxnCommit) r).timeMillis());
            case TXN_ABORT -> "TXN_ABORT";
            case LOG_FILE_END -> "LOG_FILE_END the log goes on in "
                    + org.libtp.core.log.LogFileHeader.fileName(((LogRecord.FileEnd) r).nextFile());
            case CHECKPOINT -> "CHECKPOINT redo from " + Lsn.toString(((LogRecord.Checkpoint) r).redoLsn())
                    + " next txn " + ((LogRecord.Checkpoint) r).nextTxnId()
                    + " active " + ((LogRecord.Checkpoint) r).active() + " dirty pages "
                    + ((LogRecord.Checkpoint) r).dirty().size();
            case PAGE_UPDATE -> {
                LogRecord.PageUpdate u = (LogRecord.PageUpdate) r;
                yield "PAGE_UPDATE file " + u.fileId() + " page " + u.pageNo() + " @" + u.offset() + " before "
                        + HexFormat.of().formatHex(u.before()) + " after " + HexFormat.of().formatHex(u.after());
            }
            case PAGE_IMAGE -> {
                LogRecord.PageImage p = (LogRecord.PageImage) r;
                yield "PAGE_IMAGE file " + p.fileId() + " page " + p.pageNo() + " " + p.image().length + " bytes";
            }
            case PAGE_WRITE -> {
                LogRecord.PageWrite p = (LogRecord.PageWrite) r;
                yield "PAGE_WRITE file " + p.fileId() + " page " + p.pageNo() + " " + p.page().length + " bytes";
            }
            case SLOT_UPDATE, COUNTER_UPDATE, BTREE_INSERT, BTREE_DELETE, BTREE_REPLACE -> r.type() + " " + printRegistered(r);
        };
    }
}
