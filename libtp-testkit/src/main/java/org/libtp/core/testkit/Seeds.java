package org.libtp.core.testkit;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Seeds for randomized tests: {@code -Dlibtp.seed=N} replays a run; otherwise a fresh seed.
 * The seed is always printed so a failure can be replayed.
 */
public final class Seeds {
    private Seeds() {
    }

    public static long seed(String testName) {
        String s = System.getProperty("libtp.seed");
        long seed = s != null ? Long.parseLong(s) : ThreadLocalRandom.current().nextLong();
        System.out.println(testName + ": seed " + seed + " (replay with -Dlibtp.seed=" + seed + ")"
                + (stress() ? ", stress campaign" : ""));
        return seed;
    }

    /**
     * Rounds of a crash campaign: {@code -Dlibtp.rounds=N} if given (a long campaign of one test,
     * {@code -Dtest=Name}), else {@code stress} under {@code -Pstress}, else {@code verify}.
     */
    public static int rounds(int verify, int stress) {
        return Integer.getInteger("libtp.rounds", stress() ? stress : verify);
    }

    /** True when running under {@code -Pstress}. */
    public static boolean stress() {
        return Boolean.getBoolean("libtp.stress");
    }
}
