package org.libtp.core.tp;

import org.libtp.core.CorruptionException;
import org.libtp.core.VersionMismatchException;
import org.libtp.core.log.Lsn;
import org.libtp.core.storage.Storage;
import org.libtp.core.storage.StorageFile;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The manifest of a hot backup, file {@code __libtp.backup} in the backup directory: what the
 * copy is and how it must be recovered. While it exists, the first open of the directory runs
 * catastrophic recovery (the whole log, not from the last checkpoint: the data files may be older
 * than that checkpoint claims), then deletes it; a backup that did not complete is refused.
 * Written atomically (aside, forced, renamed). Text, one {@code key=value} per line, UTF-8:
 *
 * <pre>
 *  line / key        meaning
 *  ----------------  --------------------------------------------------------------
 *  libtp-backup 1    magic and format version ({@link #VERSION}), the first line
 *  state             incomplete (being taken: unusable), complete, or recover (not a
 *                    backup: catastrophic recovery was asked for by hand)
 *  envId, logId      hex ids of the environment and its log (as in __libtp.anchor)
 *  fromLsn           the first LSN copied (recovery reads from its file on)
 *  endLsn            the end of the copied log: every commit before it is in the copy
 *  pageSize          the data files' page size
 *  started, updated  epoch milliseconds of the full backup and of the last copy into it
 *  incrementals      log-only copies applied since the full backup
 *  source            the environment directory copied
 * </pre>
 */
public record BackupManifest(String state, long envId, long logId, long fromLsn, long endLsn, int pageSize,
                             long startedMillis, long updatedMillis, int incrementals, String source) {
    public static final String FILE = "__libtp.backup";
    public static final String MAGIC = "libtp-backup";
    public static final int VERSION = 1;
    public static final String INCOMPLETE = "incomplete";
    public static final String COMPLETE = "complete";
    public static final String RECOVER = "recover";

    public BackupManifest {
        if (!state.equals(INCOMPLETE) && !state.equals(COMPLETE) && !state.equals(RECOVER)) {
            throw new IllegalArgumentException("backup state " + state);
        }
    }

    public BackupManifest withState(String s) {
        return new BackupManifest(s, envId, logId, fromLsn, endLsn, pageSize, startedMillis, updatedMillis,
                incrementals, source);
    }

    public String encode() {
        StringBuilder b = new StringBuilder(MAGIC + " " + VERSION + "\n");
        b.append("state=").append(state).append('\n');
        b.append("envId=").append(Long.toHexString(envId)).append('\n');
        b.append("logId=").append(Long.toHexString(logId)).append('\n');
        b.append("fromLsn=").append(Lsn.toString(fromLsn)).append('\n');
        b.append("endLsn=").append(Lsn.toString(endLsn)).append('\n');
        b.append("pageSize=").append(pageSize).append('\n');
        b.append("started=").append(startedMillis).append('\n');
        b.append("updated=").append(updatedMillis).append('\n');
        b.append("incrementals=").append(incrementals).append('\n');
        b.append("source=").append(source.replace('\n', ' ')).append('\n');
        return b.toString();
    }

    /** Decodes the manifest text read from {@code where} (named in errors). */
    public static BackupManifest decode(String where, String text) {
        String[] lines = text.split("\n");
        if (lines.length == 0 || !lines[0].startsWith(MAGIC + " ")) {
            throw new CorruptionException("backup manifest " + where + " does not start with '" + MAGIC
                    + "': it is not a LibTP backup manifest, or it is damaged; take the backup again");
        }
        int version;
        try {
            version = Integer.parseInt(lines[0].substring(MAGIC.length() + 1).trim());
        } catch (NumberFormatException e) {
            throw new CorruptionException("backup manifest " + where + " has a bad version line '" + lines[0] + "'");
        }
        if (version != VERSION) {
            throw new VersionMismatchException("backup manifest " + where + " has format version " + version
                    + "; this LibTP reads version " + VERSION);
        }
        Map<String, String> kv = new LinkedHashMap<>();
        for (int i = 1; i < lines.length; i++) {
            int eq = lines[i].indexOf('=');
            if (eq > 0) {
                kv.put(lines[i].substring(0, eq), lines[i].substring(eq + 1));
            }
        }
        try {
            return new BackupManifest(need(kv, "state", where), Long.parseUnsignedLong(need(kv, "envId", where), 16),
                    Long.parseUnsignedLong(need(kv, "logId", where), 16), Lsn.parse(need(kv, "fromLsn", where)),
                    Lsn.parse(need(kv, "endLsn", where)), Integer.parseInt(need(kv, "pageSize", where)),
                    Long.parseLong(need(kv, "started", where)), Long.parseLong(need(kv, "updated", where)),
                    Integer.parseInt(need(kv, "incrementals", where)), kv.getOrDefault("source", ""));
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("backup manifest " + where + " is damaged (" + e.getMessage()
                    + "); take the backup again", e);
        }
    }

    private static String need(Map<String, String> kv, String key, String where) {
        String v = kv.get(key);
        if (v == null) {
            throw new CorruptionException("backup manifest " + where + " lacks '" + key + "'; take the backup again");
        }
        return v;
    }

    /** The manifest in {@code storage}'s directory, or null if there is none. */
    public static BackupManifest read(Storage storage) throws IOException {
        if (!storage.exists(FILE)) {
            return null;
        }
        try (StorageFile f = storage.open(FILE, false)) {
            long size = f.size();
            if (size > 1 << 16) {
                throw new CorruptionException("backup manifest " + storage.directory().resolve(FILE)
                        + " is implausibly large (" + size + " bytes)");
            }
            byte[] b = new byte[(int) size];
            f.readFully(ByteBuffer.wrap(b), 0);
            return decode(storage.directory().resolve(FILE).toString(), new String(b, StandardCharsets.UTF_8));
        }
    }

    /** Replaces the manifest in {@code storage}'s directory atomically and durably. */
    public void write(Storage storage) throws IOException {
        storage.replaceFile(FILE, ByteBuffer.wrap(encode().getBytes(StandardCharsets.UTF_8)));
    }
}
