package org.libtp.jdbc;

import org.libtp.db.Durability;
import org.libtp.db.EnvironmentConfig;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;

/**
 * A parsed {@code jdbc:libtp:<dir>[;option=value...][?option=value&...]} plus connection
 * properties (which win over the URL). Options (names case-insensitive):
 *
 * <pre>
 *  create              true: create the directory and the environment if missing (default false)
 *  durability          sync | write_no_sync | no_sync (default sync): what a commit waits for
 *  early_lock_release  true | false (default false)
 *  cache_size          bytes of the shared page cache, with k, m or g (default 64m)
 *  lock_timeout        milliseconds a lock request waits (default 10000; 0 = forever)
 *  max_locks           lock requests, and locked pages, the shared lock table holds, all
 *                      processes together (default 20000; about one per page a transaction
 *                      reads or writes); takes effect when the environment is created
 *  read_only           true: this JVM only reads (default false)
 *  reopen_timeout      milliseconds this JVM may take to reopen the environment after it failed
 *                      under it (a process died where its work cannot be repaired in place):
 *                      the transaction in flight gets 40001 (08007 if it failed in its commit),
 *                      the connections stay valid (default 30000; 0: no reopen, 08006)
 *  join                true: where other processes have the environment open, take their
 *                      shared settings (cache size, page size, ...) instead of refusing
 *                      other ones (Berkeley DB's DB_JOINENV; for tools and monitors; default false)
 *  user, password      accepted and ignored (there are no users)
 * </pre>
 *
 * An unknown option is an error naming it, not ignored.
 */
record JdbcUrl(String url, Path dir, boolean create, Durability durability, boolean earlyLockRelease, long cacheBytes,
               long lockTimeoutMillis, boolean readOnly, boolean join, long reopenTimeoutMillis, int maxLocks) {
    static final String PREFIX = "jdbc:libtp:";

    static boolean accepts(String url) {
        return url != null && url.regionMatches(true, 0, PREFIX, 0, PREFIX.length());
    }

    static JdbcUrl parse(String url, Properties info) throws SQLException {
        if (!accepts(url)) {
            throw new SQLException("not a LibTP URL: " + url + " (expected jdbc:libtp:<directory>)", "08001");
        }
        String rest = url.substring(PREFIX.length());
        Map<String, String> opts = new LinkedHashMap<>();
        int q = rest.indexOf('?');
        if (q >= 0) {
            for (String kv : rest.substring(q + 1).split("&")) {
                put(opts, kv, url);
            }
            rest = rest.substring(0, q);
        }
        String[] parts = rest.split(";");
        for (int i = 1; i < parts.length; i++) {
            put(opts, parts[i], url);
        }
        if (info != null) {
            for (String k : info.stringPropertyNames()) {
                opts.put(k.toLowerCase(Locale.ROOT), info.getProperty(k));
            }
        }
        String dir = parts.length == 0 ? "" : parts[0].trim();
        if (dir.isEmpty()) {
            throw new SQLException("no directory in " + url + " (jdbc:libtp:<directory>)", "08001");
        }
        if (dir.startsWith("~/") || dir.equals("~")) {
            dir = System.getProperty("user.home") + dir.substring(1);
        }
        boolean create = false;
        Durability durability = Durability.SYNC;
        boolean elr = false;
        long cache = 64L << 20;
        long lockTimeout = EnvironmentConfig.DEFAULT_LOCK_TIMEOUT_MILLIS;
        boolean readOnly = false;
        boolean join = false;
        long reopenTimeout = EnvironmentConfig.DEFAULT_REOPEN_TIMEOUT_MILLIS;
        long maxLocks = EnvironmentConfig.defaults().maxLocks();
        for (Map.Entry<String, String> e : opts.entrySet()) {
            String v = e.getValue().trim();
            switch (e.getKey()) {
                case "create" -> create = bool(e.getKey(), v);
                case "durability" -> durability = switch (v.toLowerCase(Locale.ROOT)) {
                    case "sync" -> Durability.SYNC;
                    case "write_no_sync" -> Durability.WRITE_NO_SYNC;
                    case "no_sync" -> Durability.NO_SYNC;
                    default -> throw new SQLException("durability=" + v + ": expected sync, write_no_sync or no_sync", "08001");
                };
                case "early_lock_release" -> elr = bool(e.getKey(), v);
                case "cache_size" -> cache = size(e.getKey(), v);
                case "lock_timeout" -> lockTimeout = size(e.getKey(), v);
                case "read_only" -> readOnly = bool(e.getKey(), v);
                case "join" -> join = bool(e.getKey(), v);
                case "reopen_timeout" -> reopenTimeout = size(e.getKey(), v);
                case "max_locks" -> maxLocks = size(e.getKey(), v);
                case "user", "password" -> {
                }
                default -> throw new SQLException("unknown option " + e.getKey() + " in " + url + " (known: create, durability, "
                        + "early_lock_release, cache_size, lock_timeout, read_only, join, reopen_timeout, max_locks)", "08001");
            }
        }
        return new JdbcUrl(url, Path.of(dir).toAbsolutePath().normalize(), create, durability, elr, cache, lockTimeout,
                readOnly, join, reopenTimeout, (int) Math.min(Integer.MAX_VALUE, maxLocks));
    }

    private static void put(Map<String, String> opts, String kv, String url) throws SQLException {
        if (kv.isBlank()) {
            return;
        }
        int eq = kv.indexOf('=');
        if (eq <= 0) {
            throw new SQLException("option '" + kv + "' in " + url + " is not name=value", "08001");
        }
        opts.put(kv.substring(0, eq).trim().toLowerCase(Locale.ROOT), kv.substring(eq + 1));
    }

    private static boolean bool(String k, String v) throws SQLException {
        if (v.equalsIgnoreCase("true")) {
            return true;
        }
        if (v.equalsIgnoreCase("false")) {
            return false;
        }
        throw new SQLException(k + "=" + v + ": expected true or false", "08001");
    }

    private static long size(String k, String v) throws SQLException {
        String s = v.toLowerCase(Locale.ROOT);
        long mul = 1;
        if (s.endsWith("k") || s.endsWith("m") || s.endsWith("g")) {
            mul = s.endsWith("k") ? 1L << 10 : s.endsWith("m") ? 1L << 20 : 1L << 30;
            s = s.substring(0, s.length() - 1);
        }
        try {
            long n = Long.parseLong(s.trim());
            if (n < 0) {
                throw new NumberFormatException();
            }
            return Math.multiplyExact(n, mul);
        } catch (NumberFormatException | ArithmeticException e) {
            throw new SQLException(k + "=" + v + ": expected a non-negative number", "08001");
        }
    }
}
