package org.libtp.sql.exec;

/** Statement parameters: an array of values, {@link #UNSET} where none was set. */
public final class Params {
    /** The value of a parameter not set. */
    public static final Object UNSET = new Object() {
        @Override
        public String toString() {
            return "(not set)";
        }
    };

    private Params() {
    }

    public static Object[] unset(int n) {
        Object[] p = new Object[n];
        java.util.Arrays.fill(p, UNSET);
        return p;
    }
}
