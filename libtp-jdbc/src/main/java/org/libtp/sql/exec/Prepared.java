package org.libtp.sql.exec;

import net.sf.jsqlparser.statement.Statement;
import org.libtp.db.Transaction;
import org.libtp.sql.schema.TableDef;

import java.sql.SQLException;

/**
 * A parsed statement and its compiled plan, kept by a prepared statement across executions. The
 * plan is reused while the definitions of the tables it reads are the ones it was compiled
 * against (checked in each execution's transaction); else it is compiled anew.
 */
public final class Prepared {
    private final Statement statement;
    private volatile Object plan;

    public Prepared(Statement statement) {
        this.statement = statement;
    }

    public Statement statement() {
        return statement;
    }

    Object plan() {
        return plan;
    }

    void plan(Object p) {
        plan = p;
    }

    /** A compiled statement over one table, valid while that table's definition is the one it was compiled against. */
    interface TablePlan {
        TableDef d();

        String name();

        default boolean holds(Engine engine, Transaction t) {
            return engine.table(t, name()) == d();
        }
    }

    /** Compiles a statement's plan (reading definitions in the statement's transaction). */
    interface Compile<P> {
        P compile() throws SQLException;
    }

    /** The cached plan of {@code type} if it still holds in {@code t}, else a new one, cached. */
    <P extends TablePlan> P plan(Class<P> type, Engine engine, Transaction t, Compile<P> compile) throws SQLException {
        Object p = plan;
        if (type.isInstance(p) && type.cast(p).holds(engine, t)) {
            return type.cast(p);
        }
        P fresh = compile.compile();
        plan = fresh;
        return fresh;
    }
}
