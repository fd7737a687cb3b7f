package org.libtp.sql.exec;

import net.sf.jsqlparser.statement.Statement;

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
}
