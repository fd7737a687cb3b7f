package org.libtp.db;

import org.libtp.core.ConfigMismatchException;
import org.libtp.core.CorruptionException;
import org.libtp.core.RunRecoveryException;
import org.libtp.core.buffer.DataFiles;
import org.libtp.core.env.RegionEnvironment;
import org.libtp.core.env.RegionSpec;
import org.libtp.core.log.LogFileHeader;
import org.libtp.core.memory.Memory;
import org.libtp.core.region.Region;
import org.libtp.core.storage.FileStorage;
import org.libtp.core.storage.Storage;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The settings every process of an environment must agree on, in region {@code db}: the first
 * process to open the environment records them, every later one compares its own and is
 * refused, naming the running value, when one differs. Without this a process in another
 * {@link OpenMode} would read other processes' uncommitted changes and write pages the log never
 * hears of.
 *
 * <pre>
 *  offset size  field
 *  ------ ----- --------------------------------------------------------------
 *     256     4 state    0 = new, 1 = being written by its creator, 2 = ready
 *     260     4 length   bytes of the settings text
 *     264  3832 settings UTF-8 "name=value" lines, in {@link #of} order
 * </pre>
 */
final class OpenSettings {
    static final long OFF_STATE = 256;
    static final long OFF_LENGTH = 260;
    static final long OFF_TEXT = 264;
    static final long SIZE = 4096;
    static final int LAYOUT_VERSION = 1;
    static final RegionSpec SPEC = new RegionSpec("db", SIZE, LAYOUT_VERSION);
    private static final int NEW = 0;
    private static final int WRITING = 1;
    private static final int READY = 2;

    private OpenSettings() {
    }

    /** The settings of {@code c} that must be equal in every process, by name. */
    static Map<String, String> of(EnvironmentConfig c) {
        Map<String, String> m = new LinkedHashMap<>();
        m.put("mode", c.mode().name());
        m.put("pageSize", Integer.toString(c.pageSize()));
        m.put("cacheBytes", Long.toString(c.cacheBytes()));
        m.put("maxTransactions", Integer.toString(c.maxTransactions()));
        m.put("maxFiles", Integer.toString(c.maxFiles()));
        m.put("logFileSize", Long.toString(c.logFileSize()));
        m.put("logBufferSize", Integer.toString(c.logBufferSize()));
        m.put("maxLocks", Integer.toString(c.maxLocks()));
        m.put("maxLockObjects", Integer.toString(c.maxLockObjects()));
        m.put("tornWriteProtection", Boolean.toString(c.tornWriteProtection()));
        return m;
    }

    /**
     * Records {@code config}'s settings (first process) or checks them against the recorded ones.
     *
     * @throws ConfigMismatchException if one differs
     */
    static void checkOrRecord(RegionEnvironment env, EnvironmentConfig config) {
        Region region = env.region(SPEC);
        Memory m = region.memory();
        Map<String, String> mine = of(config);
        if (m.compareAndSetInt(OFF_STATE, NEW, WRITING)) {
            byte[] text = encode(mine);
            m.putBytes(OFF_TEXT, text, 0, text.length);
            m.putInt(OFF_LENGTH, text.length);
            m.putIntVolatile(OFF_STATE, READY);
            return;
        }
        long deadline = System.nanoTime() + 10_000_000_000L;
        while (m.getIntVolatile(OFF_STATE) != READY) {
            if (System.nanoTime() > deadline) {
                // Its creator died between two stores: the region is rebuilt when every process
                // has closed the environment.
                throw new RunRecoveryException("the settings region of " + env.home() + " was left "
                        + "half-written by a process that died; close the environment in every process and reopen it");
            }
            java.util.concurrent.locks.LockSupport.parkNanos(100_000); // its creator writes a few hundred bytes
        }
        byte[] text = new byte[m.getInt(OFF_LENGTH)];
        m.getBytes(OFF_TEXT, text, 0, text.length);
        Map<String, String> running = decode(new String(text, StandardCharsets.UTF_8));
        StringBuilder diff = new StringBuilder();
        for (Map.Entry<String, String> e : mine.entrySet()) {
            String r = running.get(e.getKey());
            if (!e.getValue().equals(r)) {
                diff.append(diff.length() == 0 ? "" : ", ").append(e.getKey()).append(" is ").append(r)
                        .append(" there, ").append(e.getValue()).append(" here");
            }
        }
        if (diff.length() > 0) {
            throw new ConfigMismatchException("environment " + env.home() + " is open in other processes with other "
                    + "settings (" + diff + "). Every process must open it with the same "
                    + String.join(", ", mine.keySet()) + ": use the running values, or close it everywhere "
                    + "first" + (running.get("mode") != null && !running.get("mode").equals(mine.get("mode"))
                    ? " (a process in another open mode would read uncommitted changes or write unlogged pages)" : ""));
        }
    }

    /**
     * {@code config} with the settings the running processes recorded in place of its own (Berkeley
     * DB's {@code DB_JOINENV}: tools join with whatever the applications use), or {@code config}
     * itself if no process has recorded any (this one is alone) — except for the page size, which
     * the data files fix (a tool must open an environment of 8 KiB pages with 8 KiB pages), and the
     * log file size, which the newest log file says.
     */
    static EnvironmentConfig adopt(RegionEnvironment env, EnvironmentConfig config) {
        Memory m = env.region(SPEC).memory();
        if (m.getIntVolatile(OFF_STATE) != READY) {
            Storage files = new FileStorage(env.home());
            int pageSize = DataFiles.pageSize(files);
            long logFileSize = LogFileHeader.lastFileSize(files);
            EnvironmentConfig.Builder b = config.toBuilder();
            if (pageSize > 0) {
                b.pageSize(pageSize);
            }
            if (logFileSize > 0 && config.logBufferSize() <= logFileSize / 2) {
                b.logFileSize(logFileSize); // else a tool's open would start a new log file
            }
            try {
                return b.build();
            } catch (IllegalArgumentException e) {
                return config;
            }
        }
        byte[] text = new byte[m.getInt(OFF_LENGTH)];
        m.getBytes(OFF_TEXT, text, 0, text.length);
        Map<String, String> r = decode(new String(text, StandardCharsets.UTF_8));
        EnvironmentConfig.Builder b = config.toBuilder();
        try {
            if (r.containsKey("mode")) {
                b.mode(OpenMode.valueOf(r.get("mode")));
            }
            if (r.containsKey("pageSize")) {
                b.pageSize(Integer.parseInt(r.get("pageSize")));
            }
            if (r.containsKey("cacheBytes")) {
                b.cacheBytes(Long.parseLong(r.get("cacheBytes")));
            }
            if (r.containsKey("maxTransactions")) {
                b.maxTransactions(Integer.parseInt(r.get("maxTransactions")));
            }
            if (r.containsKey("maxFiles")) {
                b.maxFiles(Integer.parseInt(r.get("maxFiles")));
            }
            if (r.containsKey("logFileSize")) {
                b.logFileSize(Long.parseLong(r.get("logFileSize")));
            }
            if (r.containsKey("logBufferSize")) {
                b.logBufferSize(Integer.parseInt(r.get("logBufferSize")));
            }
            if (r.containsKey("maxLocks")) {
                b.maxLocks(Integer.parseInt(r.get("maxLocks")));
            }
            if (r.containsKey("maxLockObjects")) {
                b.maxLockObjects(Integer.parseInt(r.get("maxLockObjects")));
            }
            if (r.containsKey("tornWriteProtection")) {
                b.tornWriteProtection(Boolean.parseBoolean(r.get("tornWriteProtection")));
            }
            return b.build();
        } catch (IllegalArgumentException e) {
            throw new CorruptionException("the settings region of " + env.home() + " holds a value this "
                    + "LibTP does not accept (" + e.getMessage() + "); close the environment in every process and reopen it");
        }
    }

    private static byte[] encode(Map<String, String> settings) {
        StringBuilder b = new StringBuilder();
        settings.forEach((k, v) -> b.append(k).append('=').append(v).append('\n'));
        byte[] out = b.toString().getBytes(StandardCharsets.UTF_8);
        if (out.length > SIZE - OFF_TEXT) {
            throw new IllegalStateException("settings text of " + out.length + " bytes does not fit the db region");
        }
        return out;
    }

    private static Map<String, String> decode(String text) {
        Map<String, String> m = new LinkedHashMap<>();
        for (String line : text.split("\n")) {
            int eq = line.indexOf('=');
            if (eq > 0) {
                m.put(line.substring(0, eq), line.substring(eq + 1));
            }
        }
        return m;
    }
}
