package org.libtp.sql.exec;

import org.libtp.core.DatabaseNotFoundException;
import org.libtp.core.DeadlockException;
import org.libtp.core.LockTimeoutException;
import org.libtp.core.SelfDeadlockException;
import org.libtp.db.Durability;
import org.libtp.db.Transaction;
import net.sf.jsqlparser.JSQLParserException;
import net.sf.jsqlparser.parser.CCJSqlParserUtil;
import net.sf.jsqlparser.statement.Commit;
import net.sf.jsqlparser.statement.ExplainStatement;
import net.sf.jsqlparser.statement.RollbackStatement;
import net.sf.jsqlparser.statement.Statement;
import net.sf.jsqlparser.statement.create.table.CreateTable;
import net.sf.jsqlparser.statement.delete.Delete;
import net.sf.jsqlparser.statement.drop.Drop;
import net.sf.jsqlparser.statement.insert.Insert;
import net.sf.jsqlparser.statement.select.Select;
import net.sf.jsqlparser.statement.update.Update;

import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;

/**
 * One connection's transaction state. In auto-commit mode every statement is its own
 * transaction, retried (up to three attempts) when it is chosen as a deadlock victim or times
 * out on a lock, as the record API's auto-commit calls are. Otherwise a transaction begins with
 * the first statement and lasts until commit or rollback; a statement that fails its checks
 * (a duplicate key, a NULL in a NOT NULL column, a bad value) changes nothing and the
 * transaction goes on; one that fails in the engine (deadlock victim, lock timeout, I/O) ends
 * it, rolled back — the exception says so (40001 for the first two: retry the transaction) —
 * and every later statement is refused (25P02) and commit() throws (40003) until rollback().
 */
public final class Session {
    private final Engine engine;
    private boolean autoCommit = true;
    private boolean readOnly;
    private Durability durability;
    private Transaction txn;
    /** Why the engine rolled the session's transaction back, until rollback() (null: it did not). */
    private String rolledBack;

    public Session(Engine engine, Durability durability) {
        this.engine = engine;
        this.durability = durability;
    }

    /** Deepest parenthesis nesting parsed. */
    static final int MAX_NESTING = 64;
    static final long PARSE_TIMEOUT_MILLIS = 5_000;

    /**
     * JSqlParser parses in a thread of an executor it is given, to time the parse out; its own
     * default makes a thread per statement, not a daemon, which a timed-out parse keeps running
     * (and the JVM from exiting) until it ends. This one reuses daemon threads.
     */
    private static final java.util.concurrent.ExecutorService PARSER = java.util.concurrent.Executors.newCachedThreadPool(
            r -> {
                Thread t = new Thread(r, "libtp-sql-parser");
                t.setDaemon(true);
                return t;
            });

    /** The deepest parenthesis nesting of {@code sql} outside string literals, quoted names and comments. */
    static int nesting(String sql) {
        int depth = 0;
        int max = 0;
        for (int i = 0; i < sql.length(); i++) {
            char c = sql.charAt(i);
            if (c == '\'' || c == '"' || c == '`') {
                int end = sql.indexOf(c, i + 1);
                i = end < 0 ? sql.length() : end; // a doubled quote closes and reopens: the same
            } else if (c == '-' && i + 1 < sql.length() && sql.charAt(i + 1) == '-') {
                int end = sql.indexOf('\n', i);
                i = end < 0 ? sql.length() : end;
            } else if (c == '/' && i + 1 < sql.length() && sql.charAt(i + 1) == '*') {
                int end = sql.indexOf("*/", i + 2);
                i = end < 0 ? sql.length() : end + 1;
            } else if (c == '(') {
                max = Math.max(max, ++depth);
            } else if (c == ')') {
                depth = Math.max(0, depth - 1);
            }
        }
        return max;
    }

    /**
     * {@code sql} without the parentheses that change nothing: those around a single name,
     * number, string or parameter after an operator or another parenthesis ({@code a * (-3)},
     * {@code ((a) + 1)}), and the outer one of a doubled pair there ({@code - ((x))}). A parenthesis after
     * a name or keyword (a call, {@code IN (1)}, {@code VALUES (1)}) or a comma (rows of VALUES)
     * is kept. String literals, quoted names and comments are left as they are.
     */
    static String withoutRedundantParentheses(String sql) {
        String s = sql;
        for (int round = 0; round < 256; round++) { // each round removes at least one pair
            String next = removeOneRound(s);
            if (next.equals(s)) {
                return s;
            }
            s = next;
        }
        return s;
    }

    /** One left-to-right pass of {@link #withoutRedundantParentheses}. */
    private static String removeOneRound(String s) {
        int n = s.length();
        int[] match = new int[n]; // for each '(' outside literals its ')' (-1: none)
        java.util.Arrays.fill(match, -1);
        boolean[] code = new boolean[n]; // true: the character is outside literals and comments
        int[] stack = new int[n];
        int top = 0;
        for (int i = 0; i < n; i++) {
            char c = s.charAt(i);
            int skipTo = -1;
            if (c == '\'' || c == '"' || c == '`') {
                int end = s.indexOf(c, i + 1);
                skipTo = end < 0 ? n - 1 : end;
            } else if (c == '-' && i + 1 < n && s.charAt(i + 1) == '-') {
                int end = s.indexOf('\n', i);
                skipTo = end < 0 ? n - 1 : end;
            } else if (c == '/' && i + 1 < n && s.charAt(i + 1) == '*') {
                int end = s.indexOf("*/", i + 2);
                skipTo = end < 0 ? n - 1 : end + 1;
            }
            if (skipTo >= 0) {
                i = skipTo;
                continue;
            }
            code[i] = true;
            if (c == '(') {
                stack[top++] = i;
            } else if (c == ')' && top > 0) {
                match[stack[--top]] = i;
            }
        }
        boolean[] drop = new boolean[n];
        boolean any = false;
        for (int i = 0; i < n; i++) {
            if (!code[i] || s.charAt(i) != '(' || match[i] < 0) {
                continue;
            }
            int before = i - 1;
            while (before >= 0 && Character.isWhitespace(s.charAt(before))) {
                before--;
            }
            char prev = before < 0 ? ' ' : s.charAt(before);
            boolean afterOperator = before >= 0 && code[before] && "+-*/%=<>(|!".indexOf(prev) >= 0;
            int close = match[i];
            int first = i + 1;
            while (first < close && Character.isWhitespace(s.charAt(first))) {
                first++;
            }
            int last = close - 1;
            while (last > first && Character.isWhitespace(s.charAt(last))) {
                last--;
            }
            boolean doubled = first < close && s.charAt(first) == '(' && code[first] && match[first] == last;
            if (afterOperator && (singleToken(s, first, last) || doubled)) {
                drop[i] = true;
                drop[close] = true;
                any = true;
                break; // one pair per round: the matches of the rest are still exact
            }
        }
        if (!any) {
            return s;
        }
        StringBuilder b = new StringBuilder(n + 2);
        for (int i = 0; i < n; i++) {
            b.append(drop[i] ? ' ' : s.charAt(i)); // a space, not nothing: "-(-3)" must not become "--3"
        }
        return b.toString();
    }

    /** Whether s[first..last] is one name (possibly dotted), number (possibly signed), string or '?'. */
    private static boolean singleToken(String s, int first, int last) {
        if (first > last) {
            return false;
        }
        char c = s.charAt(first);
        if (c == '\'') {
            return s.charAt(last) == '\'' && last > first && s.indexOf('\'', first + 1) == last;
        }
        if (first == last && c == '?') {
            return true;
        }
        int i = first;
        if ((c == '-' || c == '+') && first < last && Character.isDigit(s.charAt(first + 1))) {
            i++;
        }
        for (; i <= last; i++) {
            char d = s.charAt(i);
            if (!(Character.isLetterOrDigit(d) || d == '_' || d == '.' || d == '$')) {
                return false;
            }
        }
        return true;
    }

    /** Parses one SQL statement. */
    public static Statement parse(String sql) throws SQLException {
        if (sql == null) {
            throw SqlErrors.syntax("SQL must not be null");
        }
        if (sql.isBlank()) {
            throw SqlErrors.syntax("empty SQL statement");
        }
        int depth = nesting(sql);
        if (depth > MAX_NESTING) {
            // JSqlParser's backtracking grows steeply with nesting (1,000 parentheses take seconds).
            throw SqlErrors.tooComplex("parentheses nested " + depth + " deep (at most " + MAX_NESTING + ")");
        }
        try {
            net.sf.jsqlparser.statement.Statements all = CCJSqlParserUtil.parseStatements(sql, PARSER,
                    p -> p.withTimeOut(PARSE_TIMEOUT_MILLIS));
            if (all == null || all.isEmpty() || all.get(0) == null) {
                // JSqlParser's lookahead gives up on some valid expressions under deep redundant
                // parentheses ("((((a) + (2)) IS NULL)) IN (...)"); the same statement with the
                // parentheses that change nothing removed is tried once. Only text the parser
                // refused is rewritten, so a statement it accepts keeps its exact meaning.
                String plain = withoutRedundantParentheses(sql);
                if (!plain.equals(sql)) {
                    all = CCJSqlParserUtil.parseStatements(plain, PARSER, p -> p.withTimeOut(PARSE_TIMEOUT_MILLIS));
                }
            }
            if (all == null || all.isEmpty() || all.get(0) == null) {
                if (depth > 16) { // JSqlParser gives up on deep nesting without saying why
                    throw SqlErrors.tooComplex("parentheses nested " + depth + " deep were not parsed (about 16 levels are)");
                }
                throw SqlErrors.syntax("no SQL statement in: " + sql);
            }
            if (all.size() > 1) {
                throw SqlErrors.unsupported("several statements in one execute (" + all.size() + "); run them one by one");
            }
            return all.get(0);
        } catch (JSQLParserException e) {
            if (e.getCause() instanceof java.util.concurrent.TimeoutException) {
                throw SqlErrors.tooComplex("not parsed within " + PARSE_TIMEOUT_MILLIS + " ms");
            }
            String m = e.getCause() != null && e.getCause().getMessage() != null ? e.getCause().getMessage() : e.getMessage();
            throw SqlErrors.syntax("cannot parse SQL: " + (m == null ? sql : m.lines().findFirst().orElse(m)));
        } catch (RuntimeException | StackOverflowError e) {
            throw SqlErrors.syntax("cannot parse SQL: " + e);
        }
    }

    public boolean autoCommit() {
        return autoCommit;
    }

    public void setAutoCommit(boolean on) throws SQLException {
        if (on && !autoCommit) {
            commit(); // JDBC: switching auto-commit on commits the transaction
        }
        rolledBack = null;
        autoCommit = on;
    }

    public boolean readOnly() {
        return readOnly;
    }

    public void setReadOnly(boolean ro) throws SQLException {
        if (txn != null) {
            throw new SQLException("cannot change read-only in the middle of a transaction; commit or roll back first",
                    "25001");
        }
        readOnly = ro;
    }

    public boolean inTransaction() {
        return txn != null;
    }

    public Result execute(Statement st, Object[] params) throws SQLException {
        return execute(new Prepared(st), params);
    }

    /** Executes a prepared statement, reusing its compiled plan while the tables it uses are unchanged. */
    public Result execute(Prepared prepared, Object[] params) throws SQLException {
        Statement st = prepared.statement();
        if (st instanceof Commit) {
            commit();
            return Result.update(0);
        }
        if (st instanceof RollbackStatement r) {
            if (r.getSavepointName() != null) {
                throw SqlErrors.unsupported("savepoints");
            }
            rollback();
            return Result.update(0);
        }
        boolean query = st instanceof Select s && (!(s instanceof net.sf.jsqlparser.statement.select.PlainSelect p)
                || p.getForMode() == null) || st instanceof ExplainStatement;
        if (!query && readOnly) {
            throw new SQLException("the connection is read-only (Connection.setReadOnly)", "25006");
        }
        if (!query && engine.environment().config().readOnly()) {
            throw new SQLException("the database is open read-only (read_only=true in the URL or properties); "
                    + "connect without it to write", "25006");
        }
        if (!autoCommit) {
            if (rolledBack != null) {
                // As PostgreSQL: no statement runs in a transaction the engine rolled back, so a
                // client that goes on after the error cannot commit half of its work.
                throw new SQLException("the transaction was rolled back by an earlier error (" + rolledBack
                        + "); call rollback() before the next statement", "25P02");
            }
            if (txn == null) {
                txn = begin(readOnly);
            }
            return inTxn(txn, prepared, params, true);
        }
        for (int attempt = 1; ; attempt++) {
            Transaction t = begin(query || readOnly);
            Result r;
            try {
                r = inTxn(t, prepared, params, false);
                t.commit();
                return r;
            } catch (SQLTransactionRollbackException e) {
                abortQuietly(t);
                if (attempt >= 3 || !"40001".equals(e.getSQLState())) {
                    throw e;
                }
            } catch (java.sql.SQLSyntaxErrorException e) {
                abortQuietly(t);
                if (attempt == 1 && e.getCause() instanceof DatabaseNotFoundException) {
                    continue; // a stale cached handle, forgotten by inTxn: the next attempt opens afresh
                }
                throw e;
            } catch (SQLException e) {
                abortQuietly(t);
                throw e;
            } catch (RuntimeException e) {
                abortQuietly(t);
                throw SqlErrors.map(e);
            }
        }
    }

    private Transaction begin(boolean ro) throws SQLException {
        try {
            return engine.environment().beginTransaction(durability, ro);
        } catch (RuntimeException e) {
            throw SqlErrors.map(e);
        }
    }

    /** Runs {@code st} in {@code t}; an engine failure aborts {@code t} (and, if it is the session's, forgets it). */
    private Result inTxn(Transaction t, Prepared st, Object[] params, boolean sessions) throws SQLException {
        try {
            return dispatch(t, st, params);
        } catch (StackOverflowError e) {
            // A statement nested too deeply for one of the tree walks: it may have written already,
            // so its transaction ends as after any failure in the engine.
            abortQuietly(t);
            SQLException m = SqlErrors.tooComplex("nested too deeply to run");
            if (sessions) {
                txn = null;
                rolledBack = m.getMessage();
                m.setNextException(new SQLTransactionRollbackException(m.getMessage() + " (the transaction was rolled "
                        + "back)", "40003"));
            }
            throw m;
        } catch (SQLException e) {
            return rethrow(t, e, sessions);
        } catch (RuntimeException e) {
            if (e instanceof DatabaseNotFoundException) {
                engine.forgetAll();
            }
            SQLException m = SqlErrors.map(e);
            abortQuietly(t);
            if (sessions) {
                txn = null;
                rolledBack = m.getMessage();
                m = new SQLTransactionRollbackException(m.getMessage() + " (the transaction was rolled back)",
                        "40001".equals(m.getSQLState()) ? "40001" : "40003", e);
                if (!(e instanceof DeadlockException || e instanceof LockTimeoutException
                        || e instanceof SelfDeadlockException)) {
                    SQLException plain = SqlErrors.map(e);
                    plain.setNextException(m);
                    throw plain;
                }
            }
            throw m;
        }
    }

    private Result rethrow(Transaction t, SQLException e, boolean sessions) throws SQLException {
        if (e instanceof SQLTransactionRollbackException) {
            abortQuietly(t);
            if (sessions) {
                txn = null;
                rolledBack = e.getMessage();
            }
        }
        throw e;
    }

    private Result dispatch(Transaction t, Prepared prepared, Object[] params) throws SQLException {
        Statement st = prepared.statement();
        if (st instanceof Select s) {
            return Query.run(engine, t, s, params, false, prepared);
        }
        if (st instanceof Insert i) {
            return Dml.insert(engine, t, i, params, prepared);
        }
        if (st instanceof Update u) {
            return Dml.update(engine, t, u, params, prepared);
        }
        if (st instanceof Delete d) {
            return Dml.delete(engine, t, d, params, prepared);
        }
        if (st instanceof CreateTable c) {
            engine.ddl(t);
            return Ddl.createTable(engine, t, c);
        }
        if (st instanceof Drop d) {
            engine.ddl(t);
            return Ddl.drop(engine, t, d);
        }
        if (st instanceof net.sf.jsqlparser.statement.create.index.CreateIndex c) {
            engine.ddl(t);
            return Ddl.createIndex(engine, t, c);
        }
        if (st instanceof net.sf.jsqlparser.statement.alter.Alter a) {
            engine.ddl(t);
            return Ddl.alter(engine, t, a);
        }
        if (st instanceof ExplainStatement x) {
            return Query.run(engine, t, x.getStatement(), params, true);
        }
        throw SqlErrors.unsupported("the statement " + st.getClass().getSimpleName().replaceAll("Statement$", "")
                .replaceAll("([a-z])([A-Z])", "$1 $2").toUpperCase(java.util.Locale.ROOT));
    }

    public void commit() throws SQLException {
        if (rolledBack != null) {
            String why = rolledBack;
            rolledBack = null;
            throw new SQLTransactionRollbackException("nothing to commit: the transaction was rolled back by an "
                    + "earlier error (" + why + "); its statements are undone", "40003");
        }
        Transaction t = txn;
        txn = null;
        if (t != null) {
            try {
                t.commit();
            } catch (RuntimeException e) {
                abortQuietly(t);
                throw SqlErrors.map(e);
            }
        }
    }

    public void rollback() throws SQLException {
        rolledBack = null;
        Transaction t = txn;
        txn = null;
        if (t != null) {
            try {
                t.abort();
            } catch (RuntimeException e) {
                throw SqlErrors.map(e);
            }
        }
    }

    private static void abortQuietly(Transaction t) {
        try {
            if (t.isActive()) {
                t.abort();
            }
        } catch (RuntimeException ignored) {
            // the environment failed: nothing more to undo here
        }
    }

    public void setDurability(Durability d) {
        durability = d;
    }

    /** Rolls back what is open (JDBC: closing a connection does not commit). */
    public void close() {
        rolledBack = null;
        Transaction t = txn;
        txn = null;
        if (t != null) {
            abortQuietly(t);
        }
    }
}
