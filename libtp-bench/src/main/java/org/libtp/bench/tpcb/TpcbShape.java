package org.libtp.bench.tpcb;

/**
 * The size of a TPC-B database: {@code branches} branches (the scale factor), 10 tellers per
 * branch and {@code accountsPerBranch} accounts per branch (100,000 by the TPC-B scaling rules;
 * the paper's small database has 1,000 accounts in all). Ids run from 0: teller t belongs to
 * branch t / tellersPerBranch, account a to branch a / accountsPerBranch.
 */
public record TpcbShape(int branches, int tellersPerBranch, int accountsPerBranch) {
    public static final int TELLERS_PER_BRANCH = 10;
    public static final int ACCOUNTS_PER_BRANCH = 100_000;

    public TpcbShape {
        if (branches < 1 || tellersPerBranch < 1 || accountsPerBranch < 1) {
            throw new IllegalArgumentException("branches, tellers and accounts per branch must be >= 1");
        }
        if ((long) branches * accountsPerBranch > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("too many accounts: " + (long) branches * accountsPerBranch);
        }
    }

    /** TPC-B scaling: {@code scale} branches, 10 tellers and 100,000 accounts each. */
    public static TpcbShape scale(int scale) {
        return new TpcbShape(scale, TELLERS_PER_BRANCH, ACCOUNTS_PER_BRANCH);
    }

    /** {@code scale} branches with {@code accounts} accounts in all (e.g. the paper's 10 and 1,000). */
    public static TpcbShape of(int scale, int accounts) {
        if (accounts < scale || accounts % scale != 0) {
            throw new IllegalArgumentException("accounts " + accounts + " must be a positive multiple of the scale " + scale);
        }
        return new TpcbShape(scale, TELLERS_PER_BRANCH, accounts / scale);
    }

    public int tellers() {
        return branches * tellersPerBranch;
    }

    public int accounts() {
        return branches * accountsPerBranch;
    }

    public int branchOfTeller(int tid) {
        return tid / tellersPerBranch;
    }
}
